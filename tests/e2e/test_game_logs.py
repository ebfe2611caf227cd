"""Log lines written while a game's tap or delivery is handled carry its id (issue 18)."""

from __future__ import annotations

import pytest

from emulator.faults import ERROR_500
from tgbot import logs

from .driver import Driver
from .games import start_game
from .harness import World


async def test_a_failed_delivery_is_logged_with_the_game_id(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A board post Telegram answers with a 500 during a move: its log line names the game."""
    players = [world.user(n) for n in ("Ann", "Ben", "Cy")]
    chat = world.group("Logged", players[0], players[1:])
    gid = await start_game(world, players, chat)
    caplog.handler.addFilter(logs.GameFilter())
    caplog.set_level("INFO", logger="tgbot")
    assert world.emu is not None
    world.emu.force_fault(ERROR_500, method="sendPhoto", chat_id=chat, times=3)
    play = Driver(world, players, seed=3)
    for _ in range(3):
        assert await play.turn()
    await world.settle()
    failed = [r for r in caplog.records if r.getMessage().startswith(f"sendPhoto in {chat}")]
    assert failed, "the forced 500 was logged"
    assert {getattr(r, "game", None) for r in failed} == {gid}
