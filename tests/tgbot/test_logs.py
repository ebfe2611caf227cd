"""The game id on every log line of a game's handling (issue 18): the context and the filter."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tgbot import logs


def games_of(caplog: pytest.LogCaptureFixture, name: str) -> list[tuple[str, str]]:
    """(message, game) of the records the logger `name` wrote."""
    records = [r for r in caplog.records if r.name == name]
    return [(r.getMessage(), str(getattr(r, "game", "?"))) for r in records]


async def test_concurrent_games_each_log_their_own_id(caplog: pytest.LogCaptureFixture) -> None:
    """Two games handled at once, interleaved: each line names its own game, none the other's;
    a line outside any game shows '-'."""
    caplog.handler.addFilter(logs.GameFilter())
    log = logging.getLogger("tgbot.test_logs")

    async def handle(gid: str) -> None:
        with logs.about(gid):
            for step in range(3):
                log.warning("%s step %d", gid, step)
                await asyncio.sleep(0)
                with logs.about(None):  # None keeps the game already set
                    log.warning("%s inner %d", gid, step)

    await asyncio.gather(handle("GameAAAAAA"), handle("GameBBBBBB"))
    log.warning("outside")
    seen = games_of(caplog, "tgbot.test_logs")
    assert len(seen) == 13
    for message, game in seen[:-1]:
        assert message.startswith(game)
    assert seen[-1] == ("outside", logs.NO_GAME)
    assert logs.current() is None


def test_the_format_shows_the_game() -> None:
    """The bot's log format has the game field the filter fills."""
    record = logging.LogRecord("tgbot.x", logging.INFO, __file__, 1, "hello", None, None)
    with logs.about("Game123456"):
        assert logs.GameFilter().filter(record)
    line = logging.Formatter(logs.FORMAT).format(record)
    assert line.endswith("tgbot.x [Game123456]: hello")
