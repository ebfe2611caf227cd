"""The real pieces: a local Redis Cluster, haproxy round-robin over three `saboteur-bot` processes.

Whole games are played through them while one bot process is SIGKILLed with a tap in flight and
one Redis master is SIGKILLed (its replica takes over): every tap is answered, the stored state
of each game is the replay of exactly the moves answered "done" (none lost, none doubled), and
nothing is left owed (every announcement delivered).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import aiohttp
import pytest
from redis.asyncio import Redis

from emulator import EmulatorState
from emulator.faults import Faults
from emulator.server import BotApiEmulator
from engine import GameState
from tests.haproxy import haproxy
from tests.redis_cluster import LocalCluster
from tgbot.callback import decode
from tgbot.keys import Keys
from tgbot.redis_client import open_redis

from .harness import free_port
from .procs import (
    ERROR_TOAST,
    Move,
    Table,
    bot_environment,
    fleet,
    loaded,
    open_game,
    play_turn,
    replay,
    until,
)

pytestmark = pytest.mark.slow  # a cluster, haproxy and three bot processes

BOTS = 3


async def test_games_survive_a_killed_bot_and_a_killed_redis_master(tmp_path: Path) -> None:
    """Three workers on a Cluster behind haproxy; a worker and a master die mid-game."""
    cluster = LocalCluster(tmp_path / "cluster")
    cluster.start()
    client = open_redis(cluster.url, 5.0)
    await client.ping()
    prefix = "fleet"
    try:
        async with BotApiEmulator(
            EmulatorState(), webhook_retry_delay=0.05, webhook_timeout=10.0
        ) as emu:
            ports = [free_port() for _ in range(BOTS)]
            with haproxy(tmp_path, ports) as hp, fleet(tmp_path) as bots:
                hook = f"http://127.0.0.1:{hp}/hook"
                for i, port in enumerate(ports):
                    env = bot_environment(emu, cluster.url, hook, port, prefix)
                    bots.add(f"bot{i}", env, port).start()
                for bot in bots.processes:
                    await bot.wait_ready()
                await emu.wait_for(lambda: emu.state.webhook.url == hook, timeout=30)
                async with aiohttp.ClientSession() as http:
                    for port in ports:
                        async with http.get(f"http://127.0.0.1:{port}/healthz") as got:
                            health = (got.status, await got.json())
                        assert health == (200, {"redis": "ok", "bot_api": "ok"}), health
                table = Table(emu, cast("Redis", client), prefix, 60.0, retry_busy=True)
                state = emu.state
                groups = [("Ann", "Bob", "Cho"), ("Dee", "Eve", "Fay")]
                players = [[state.create_user(n) for n in names] for names in groups]
                games = [await open_game(table, p, f"Pit {i}") for i, p in enumerate(players)]
                starts: list[GameState] = []
                for _, gid in games:  # open_game started them
                    record = await loaded(table.store, gid)
                    assert record.state is not None and not record.moves
                    starts.append(record.state)
                rngs = [random.Random(i) for i in range(len(games))]
                moves: list[list[Move]] = [[] for _ in games]
                lasts = [-1 for _ in games]

                async def turns(count: int) -> None:
                    for _ in range(count):
                        for i, (_, gid) in enumerate(games):
                            lasts[i] = await play_turn(
                                table, players[i], gid, lasts[i], rngs[i], moves[i]
                            )

                await turns(2)
                # The worker handling a Confirm tap is SIGKILLed in the middle; Telegram's
                # redelivery goes (through haproxy) to another, once the dead one's hold expires.
                gid = games[0][1]
                user, message, lasts[0] = await table.wait_turn(players[0], gid, lasts[0])
                message, confirm = await table.reach_confirm(user, message, rngs[0])
                await table.quiet()
                version = (await loaded(table.store, gid)).state.version  # type: ignore[union-attr]
                emu.faults = Faults(latency_ms=300)  # every Bot API call slow: time to die
                query_id = state.press_button(user.id, user.id, message.message_id, confirm)
                (uid,) = [
                    u["update_id"]
                    for u in state.pending_updates
                    if u.get("callback_query", {}).get("id") == query_id
                ]
                hold = Keys(prefix).update_hold(uid)

                async def held() -> bool:
                    return bool(await client.get(hold))

                await until(held, timeout=20, step=0.002)
                token = await client.get(hold)
                assert isinstance(token, bytes)
                holder = int(token.split(b":")[0])
                victim = next(b for b in bots.processes if b.pid == holder)
                victim.kill()
                emu.faults = Faults()
                answer = await emu.wait_for_answer(query_id, timeout=60)
                await table.quiet(timeout=60)
                record = await loaded(table.store, gid)
                assert record.state is not None
                assert record.state.version == version + 1, "the tap made one move, not 0 or 2"
                moves[0].append(Move(user.id, decode(confirm)))  # type: ignore[arg-type]
                assert answer.answered
                await turns(2)
                # A Redis master dies; its replica takes over.
                dead = cluster.kill_master()
                cluster.wait_failover(dead)
                await turns(2)
                await table.quiet(timeout=60)

                for i, (_, gid) in enumerate(games):
                    record = await loaded(table.store, gid)
                    assert record.state is not None
                    assert replay(gid, starts[i], moves[i]) == record.state, "none lost or doubled"
                    assert record.owed.is_empty, "every announcement delivered"
                answers = [q.text for q in state.callback_queries.values()]
                assert ERROR_TOAST not in answers
                assert all(q.answered for q in state.callback_queries.values()), "all answered"

                async def nothing_owed() -> bool:
                    return await table.store.owing_games() == ()

                await until(nothing_owed, timeout=30)
    finally:
        await client.aclose()
        cluster.stop()
