"""Reads made ahead, in the round trip an update (or a delivery) makes first: what it will ask.

The webhook's first trip claims the update (`dedupe.UpdateLedger.begin`); a tap's sender's
language and its game's record ride along, and the handler's store reads take them from here
instead of asking Redis again. A delivery's lease is taken with its game's record the same way,
and with the floors (the sent-message ledger's highest id) of the chats its first sends go to.
Each read is taken once (a later read of the same thing goes to Redis); a record read ahead is
used only if no newer one of that game was saved or loaded by this process since (a save is
still a compare-and-set, so a record read ahead is never trusted for a write).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from .game_ids import GameId
from .i18n import Language
from .records import GameRecord
from .trips import Trip

MISSING: Any = object()  # nothing read ahead for this (typed as the value it stands for)

# Adds reads to a trip; what it gives is called with the trip's answers once it ran.
Reads = Callable[[Trip], Callable[[list[Any]], None]]


@dataclass
class Ahead:
    """What was read ahead for the update or delivery being handled."""

    languages: dict[int, Language | None] = field(default_factory=dict)  # by user id
    records: dict[GameId, GameRecord | None] = field(default_factory=dict)  # None: no such game
    floors: dict[int, int] = field(default_factory=dict)  # by chat: the ledger's highest id


_AHEAD: contextvars.ContextVar[Ahead | None] = contextvars.ContextVar("read_ahead", default=None)


def current() -> Ahead:
    """The reads ahead of the task running now (made on first use)."""
    ahead = _AHEAD.get()
    if ahead is None:
        ahead = Ahead()
        _AHEAD.set(ahead)
    return ahead


def start() -> None:
    """Begin an update's reads afresh (nothing read ahead yet)."""
    _AHEAD.set(Ahead())


def take_language(user_id: int) -> Language | None:
    """The user's language read ahead (once), else MISSING."""
    ahead = _AHEAD.get()
    if ahead is None:
        return cast("Language | None", MISSING)
    return cast("Language | None", ahead.languages.pop(user_id, MISSING))


def take_record(game_id: GameId) -> GameRecord | None:
    """The game's record read ahead (once; None: there was none), else MISSING."""
    ahead = _AHEAD.get()
    if ahead is None:
        return cast("GameRecord | None", MISSING)
    return cast("GameRecord | None", ahead.records.pop(game_id, MISSING))


def take_floors() -> dict[int, int]:
    """The chats' floors read ahead, taken out (all of them)."""
    ahead = _AHEAD.get()
    if ahead is None or not ahead.floors:
        return {}
    floors, ahead.floors = ahead.floors, {}
    return floors


def joined(*parts: Reads) -> Reads:
    """Reads that make each of `parts` in one trip."""

    def add(trip: Trip) -> Callable[[list[Any]], None]:
        got = [part(trip) for part in parts]

        def all_got(answers: list[Any]) -> None:
            for one in got:
                one(answers)

        return all_got

    return add


def forget(game_id: GameId) -> None:
    """The game was saved: what was read of it ahead is old."""
    ahead = _AHEAD.get()
    if ahead is not None:
        ahead.records.pop(game_id, None)
