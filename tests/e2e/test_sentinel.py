"""The bot on Redis Sentinel: a real master, replica and three sentinels; the master is killed.

`saboteur-bot` (webhook mode, a subprocess) reaches Redis through `redis+sentinel://` naming the
three sentinels. A game is played, the master is SIGKILLed (once the replica has every write:
Redis replicates asynchronously, so a write the master took in its last instant could be lost
with it, which no client can prevent), a turn is played while the sentinels fail over, and more
after: every tap is answered, the stored game is the replay of exactly the moves answered "done"
(none lost, none doubled), and nothing is left owed.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import pytest
from redis.asyncio import Redis

from emulator import EmulatorState
from emulator.server import BotApiEmulator
from tests.redis_sentinel import LocalSentinel
from tgbot.redis_client import open_redis
from tgbot.sentinel import SentinelMaster

from . import procs
from .harness import free_port

pytestmark = pytest.mark.slow  # five redis-servers and a bot process


async def test_a_game_goes_on_across_a_sentinel_failover(tmp_path: Path) -> None:
    """Moves before, during and after the master's death: one stored move per answered tap."""
    redis = LocalSentinel(tmp_path / "sentinel")
    redis.start()
    client = open_redis(redis.url, 5.0)
    assert isinstance(client, SentinelMaster)
    prefix = "sentinel"
    try:
        async with BotApiEmulator(
            EmulatorState(), webhook_retry_delay=0.05, webhook_timeout=10.0
        ) as emu:
            port = free_port()
            hook = f"http://127.0.0.1:{port}/hook"
            with procs.fleet(tmp_path) as bots:
                bot = bots.add(
                    "bot", procs.bot_environment(emu, redis.url, hook, port, prefix), port
                )
                bot.start()
                await bot.wait_ready()
                await emu.wait_for(lambda: emu.state.webhook.url == hook, timeout=30)
                table = procs.Table(emu, cast("Redis", client), prefix, 60.0, retry_busy=True)
                players = [emu.state.create_user(n) for n in ("Ann", "Bob", "Cho")]
                _, gid = await procs.open_game(table, players, "Sentinel pit")
                start = (await procs.loaded(table.store, gid)).state
                assert start is not None
                rng = random.Random(7)
                moves: list[procs.Move] = []
                last = -1
                for _ in range(2):
                    last = await procs.play_turn(table, players, gid, last, rng, moves)
                await table.quiet()
                assert redis.replicated() == 1, "the replica has every write"
                dead = redis.kill_master()
                last = await procs.play_turn(
                    table, players, gid, last, rng, moves
                )  # during failover
                promoted = redis.wait_failover(dead)
                assert promoted != dead
                for _ in range(2):
                    last = await procs.play_turn(table, players, gid, last, rng, moves)
                await table.quiet(timeout=60)

                record = await procs.loaded(table.store, gid)
                assert record.state is not None
                assert procs.replay(gid, start, moves) == record.state, "none lost or doubled"
                assert record.owed.is_empty, "every announcement delivered"
                queries = emu.state.callback_queries.values()
                assert procs.ERROR_TOAST not in [q.text for q in queries]
                assert all(q.answered for q in queries), "every tap answered"
                assert bot.is_running()
                log = bot.log()
                assert "Traceback" not in log, log[-3000:]
    finally:
        await client.aclose()
        redis.stop()
