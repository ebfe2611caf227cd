"""GET /metrics on the webhook port (issue 18): a game's moves, taps and deliveries counted."""

from __future__ import annotations

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from .driver import Driver
from .games import start_game, state_of
from .harness import World


async def scrape(world: World) -> tuple[dict[str, float], str]:
    """Every sample of GET /metrics by name and labels, and the body as served."""
    assert world.hook is not None
    url = f"http://127.0.0.1:{world.hook.port}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        body = await response.text()
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(body):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()) if k != "le")
            if "le" in s.labels:
                continue
            samples[f"{s.name}{{{labels}}}"] = s.value
    return samples, body


async def test_metrics_count_a_games_moves_taps_and_deliveries(world: World) -> None:
    """After six turns the counters have grown by what the game did; the backlog is read from
    Redis; nothing in the body names a chat, a player or the game."""
    players = [world.user(n) for n in ("Ann", "Ben", "Cy")]
    chat = world.group("Metered", players[0], players[1:])
    gid = await start_game(world, players, chat)
    before, _ = await scrape(world)
    play = Driver(world, players, seed=7)
    for _ in range(6):
        assert await play.turn()
    await world.settle()
    after, body = await scrape(world)
    state = await state_of(world, gid)

    def grew(name: str) -> float:
        return after.get(name, 0.0) - before.get(name, 0.0)

    assert grew("saboteur_moves_total{}") >= 6
    assert grew("saboteur_moves_total{}") <= state.version
    assert grew("saboteur_tap_seconds_count{}") >= play.taps
    assert grew("saboteur_tap_seconds_sum{}") > 0
    assert grew("saboteur_deliveries_total{fate=done}") >= 6  # a board post or a hand a move
    assert "saboteur_telegram_429_total{}" in after
    assert after["saboteur_outbox_backlog{}"] >= 0
    for secret in [gid, str(chat), *(str(p.id) for p in players)]:
        assert secret not in body
