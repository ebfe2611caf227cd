"""The game id on every log line of a game's handling: a context variable and a logging filter.

The use cases say which game they handle (`about`); every log line written meanwhile, by any
module, in that task (and the tasks it starts) shows `[<game id>]`, or `[-]` outside a game.
A game id is public (it is in every button of the game), so it may appear in the logs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

FORMAT = "%(asctime)s %(levelname)s %(name)s [%(game)s]: %(message)s"
NO_GAME = "-"

_GAME: ContextVar[str | None] = ContextVar("game", default=None)


@contextmanager
def about(game_id: str | None) -> Iterator[None]:
    """Log lines written inside carry this game's id (None: keep the one already set)."""
    if game_id is None:
        yield
        return
    token = _GAME.set(game_id)
    try:
        yield
    finally:
        _GAME.reset(token)


def current() -> str | None:
    """The game being handled now, if any."""
    return _GAME.get()


class GameFilter(logging.Filter):
    """Adds `game` (the game being handled, or "-") to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record, with its `game` attribute set."""
        record.game = _GAME.get() or NO_GAME
        return True


def configure(level: int | str) -> None:
    """Log to stderr in `FORMAT`, each line with its game id."""
    logging.basicConfig(level=level, format=FORMAT)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, GameFilter) for f in handler.filters):
            handler.addFilter(GameFilter())
