"""GET /metrics and /healthz in long polling: `saboteur-bot` without WEBHOOK_URL, METRICS_PORT set.

The bot runs as shipped in a subprocess, fetching updates from the emulator with getUpdates; its
small metrics server counts what a game's start and one move did, and nothing in it names a
chat, a player or the game.
"""

from __future__ import annotations

import random
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from emulator import EmulatorState
from emulator.server import BotApiEmulator

from .harness import free_port
from .procs import Move, Table, bot_environment, fleet, open_game, own_keys, play_turn

pytestmark = pytest.mark.slow  # a real bot process


async def samples(port: int) -> tuple[dict[str, float], str]:
    """Every sample of GET /metrics without labels (histogram buckets left out), and the body."""
    url = f"http://127.0.0.1:{port}/metrics"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        body = await response.text()
    found = {
        s.name: s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
        if not s.labels
    }
    return found, body


async def test_a_polling_bot_serves_metrics_and_health_on_metrics_port(
    redis_url: str, tmp_path: Path
) -> None:
    async with (
        own_keys(redis_url) as (db_url, redis, prefix),
        BotApiEmulator(EmulatorState()) as emu,
    ):
        port = free_port()
        env = bot_environment(emu, db_url, "", 0, prefix)
        for name in ("WEBHOOK_URL", "WEBHOOK_PORT", "WEBHOOK_SECRET"):
            del env[name]
        env["WEBHOOK_LISTEN"] = "127.0.0.1"
        env["METRICS_PORT"] = str(port)
        with fleet(tmp_path) as bots:
            bot = bots.add("poller", env, port)
            bot.start()
            await bot.wait_ready()
            before, _ = await samples(port)
            table = Table(emu, redis, prefix, 30.0)
            players = [emu.state.create_user(n) for n in ("Ann", "Bob", "Cho")]
            chat, gid = await open_game(table, players, "Polled")
            moves: list[Move] = []
            await play_turn(table, players, gid, -1, random.Random(3), moves)
            await table.quiet()
            after, body = await samples(port)
            health_url = f"http://127.0.0.1:{port}/healthz"
            async with aiohttp.ClientSession() as http, http.get(health_url) as got:
                health = (got.status, await got.json())
            assert emu.state.webhook.url == "", "long polling: no webhook set"
            assert "metrics: serving /metrics and /healthz" in bot.log()
            assert "event loop: uvloop" in bot.log(), "polling runs on the default uvloop"
    assert health == (200, {"redis": "ok", "bot_api": "ok"})
    assert after["saboteur_moves_total"] - before.get("saboteur_moves_total", 0.0) == 1
    taps = len(emu.state.callback_queries)
    assert after["saboteur_tap_seconds_count"] - before["saboteur_tap_seconds_count"] >= taps
    assert after["saboteur_outbox_backlog"] == 0
    for secret in [gid, str(chat), *(str(p.id) for p in players)]:
        assert secret not in body
