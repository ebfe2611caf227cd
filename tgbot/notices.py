"""Typed outgoing messages a decision owes, kept in the game's record as data (not text).

A decision says *what* to tell (a move's public events, a round's end, the game's end, a
notice); the presenter (`tgbot.notice_texts`) turns it into text at delivery, in the language
of its recipient at that time: the group's for group messages, the player's for their notes.

Only what its recipient may know goes in: `Told` refuses an event that is not public, and
the decisions build round ends and notes from public events (a note may hold what only its
player knows, such as the cards the computer discarded for them).

A notice that needs no engine data is a `Said`: the name of a presenter function registered
with `@notice` (it takes the language, then keyword arguments that JSON can hold, and returns
the text; given a `record` parameter, it also gets the game's record at delivery, e.g. for
names) with its arguments, made by `said(function, **arguments)`.

The JSON form (`to_doc`, `from_doc`): a `Rendered` text is the plain string (so the texts
of records written before typed messages read as already rendered), anything else an object
`{"k": <kind>, <field>: <value>...}` whose fields at their default are left out; enums are
written by name, tuples as lists, nested values the same way.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from engine import Card, RoundResult
from engine.events import (
    ActionPlayed,
    CardsDiscarded,
    Event,
    GoalRevealed,
    InFrontCleared,
    MapUsed,
    PlayerPassed,
    RockfallPlayed,
    TunnelPlaced,
)
from engine.timeline import Entry

Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]
Tellable = (
    TunnelPlaced
    | ActionPlayed
    | MapUsed
    | RockfallPlayed
    | CardsDiscarded
    | InFrontCleared
    | PlayerPassed
    | GoalRevealed
)
TELLABLE = typing.get_args(Tellable)


@dataclass(frozen=True, slots=True)
class Rendered:
    """Text rendered before it was owed (an older record's, or what is left of a long text
    sent in parts)."""

    text: str


@dataclass(frozen=True, slots=True)
class Told:
    """A public event told to the group: one line of a board post's caption."""

    event: Tellable

    def __post_init__(self) -> None:
        if self.event.audience is not None:
            raise ValueError(f"not a public event: {self.event!r}")


@dataclass(frozen=True, slots=True)
class RoundOver:
    """A round's end as the group learns it, after the lines of the move that ended it."""

    result: RoundResult
    moves: tuple[Told, ...] = ()
    thefts: tuple[tuple[int, int], ...] = ()  # (thief, victim), Deluxe
    deeds: tuple[Entry, ...] = ()  # the round's told deeds (public events only)
    next_round: int | None = None
    starter: int | None = None  # who plays first in the next round


@dataclass(frozen=True, slots=True)
class GameOver:
    """The final scoreboard (public once the game ended) and the winners."""

    gold: tuple[tuple[int, int], ...]
    winners: tuple[int, ...]
    practice: bool = False


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The lobby message's last state: its set-up, then that the game started."""

    can_anyone_start: bool
    players: int


@dataclass(frozen=True, slots=True)
class PlayedForYou:
    """A private note: what the computer played for a player whose time ran out (their own
    discarded cards by name, for them only)."""

    discarded: tuple[Card, ...] = ()
    moves: tuple[Told, ...] = ()


@dataclass(frozen=True, slots=True)
class Said:
    """A notice from a presenter function registered with `@notice`, and its JSON arguments."""

    kind: str
    args: str = "{}"  # a JSON object, keys sorted (so equal notices compare equal)

    @property
    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of the presenter function."""
        loaded: dict[str, Any] = json.loads(self.args)
        return loaded


Message = Rendered | Told | RoundOver | GameOver | GameStarted | PlayedForYou | Said

NOTICES: dict[str, Callable[..., str]] = {}  # kind -> presenter function (see `notice`)
WITH_RECORD: set[str] = set()  # kinds whose function takes the delivered record (`record=`)
F = TypeVar("F", bound=Callable[..., str])


def notice(function: F) -> F:
    """Register a presenter function `f(lang, **json_arguments) -> str` as a notice kind (one
    with a `record` parameter is also given the game's record at delivery, for its names)."""
    known = NOTICES.setdefault(function.__name__, function)
    if known is not function:
        raise ValueError(f"two notices named {function.__name__}")
    if "record" in inspect.signature(function).parameters:
        WITH_RECORD.add(function.__name__)
    return function


def said(function: Callable[..., str], /, **arguments: Json) -> Said:
    """The notice `function(lang, **arguments)` owed, rendered at delivery."""
    if NOTICES.get(function.__name__) is not function:
        raise ValueError(f"{function.__name__} is not registered with @notice")
    if "record" in arguments:
        raise ValueError("the record is given at delivery, not owed")
    return Said(function.__name__, json.dumps(arguments, sort_keys=True, ensure_ascii=False))


def told(events: typing.Iterable[Event]) -> tuple[Told, ...]:
    """The public events of a move the group is told of, in order."""
    return tuple(Told(e) for e in events if isinstance(e, TELLABLE) and e.audience is None)


def as_message(item: str | Message) -> Message:
    """A message as owed: a plain string is text already rendered."""
    return Rendered(item) if isinstance(item, str) else item


# ---------------------------------------------------------------- JSON

_KINDS: dict[str, type] = {
    c.__name__: c
    for c in (
        Told,
        RoundOver,
        GameOver,
        GameStarted,
        PlayedForYou,
        Said,
        RoundResult,
        Entry,
        *TELLABLE,
    )
}
_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def to_doc(message: Message) -> Json:
    """A message's JSON form (a rendered text is its string)."""
    if isinstance(message, Rendered):
        return message.text
    return _encode(message)


def from_doc(doc: object) -> Message:
    """Read a message's JSON form; raises ValueError on anything else."""
    if isinstance(doc, str):
        return Rendered(doc)
    try:
        return typing.cast(Message, _decode(Message, doc))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a message: {doc!r}") from exc


def _encode(value: object) -> Json:
    if isinstance(value, Enum):
        return value.name
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, Said):
        return {"k": "Said", "kind": value.kind, "args": value.arguments}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        doc: dict[str, Json] = {"k": type(value).__name__}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.default is dataclasses.MISSING or item != f.default:
                doc[f.name] = _encode(item)
        return doc
    raise ValueError(f"cannot write {value!r} in a message")


def _decode(tp: Any, doc: object) -> object:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(tp)
        if doc is None and type(None) in options:
            return None
        if isinstance(doc, dict):
            cls = _KINDS.get(str(doc.get("k")))
            if cls is None or cls not in options:
                raise ValueError(f"not a kind expected here: {doc.get('k')!r}")
            return _decode(cls, doc)
        rest = [o for o in options if o is not type(None)]
        if len(rest) != 1:
            raise ValueError(f"ambiguous value {doc!r}")
        return _decode(rest[0], doc)
    if origin is tuple:
        if not isinstance(doc, list):
            raise ValueError(f"expected a list, got {doc!r}")
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], d) for d in doc)
        if len(args) != len(doc):
            raise ValueError(f"expected {len(args)} items, got {doc!r}")
        return tuple(_decode(a, d) for a, d in zip(args, doc, strict=True))
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp[_exact(str, doc)]
    if tp is Said:
        said_doc = _object(doc)
        arguments = _object(said_doc.get("args", {}))
        kind = _exact(str, said_doc["kind"])
        return Said(kind, json.dumps(arguments, sort_keys=True, ensure_ascii=False))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        fields = _object(doc).items()
        return tp(**{k: _decode(hints[k], v) for k, v in fields if k != "k"})
    if tp in (int, bool, str):
        return _exact(tp, doc)
    raise ValueError(f"cannot read a {tp!r}")


T = TypeVar("T")


def _exact(tp: type[T], value: object) -> T:
    if type(value) is not tp:
        raise ValueError(f"expected {tp.__name__}, got {value!r}")
    return value


def _object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, got {value!r}")
    return value
