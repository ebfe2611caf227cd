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
import functools
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
    GoldStolen,
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
    | GoldStolen
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
    # (thief, victim), Deluxe: only in a round end owed by a version before the thief chose
    # (the engine took the gold at the round's end); read, never written now.
    thefts: tuple[tuple[int, int], ...] = ()
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
Decode = Callable[[object], object]


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
        return typing.cast(Message, _decoder(Message)(doc))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a message: {doc!r}") from exc


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, object], ...]:
    """A dataclass's fields with their defaults (MISSING when none)."""
    return tuple((f.name, f.default) for f in dataclasses.fields(cls))


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
        for name, default in _fields(type(value)):
            item = getattr(value, name)
            if default is dataclasses.MISSING or item != default:
                doc[name] = _encode(item)
        return doc
    raise ValueError(f"cannot write {value!r} in a message")


@functools.cache
def _decoder(tp: Any) -> Decode:
    """How to read a value of type `tp` from JSON (made once per type)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(typing.get_args(tp))
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda doc: tuple(item(d) for d in _array(doc))
        items = tuple(_decoder(a) for a in args)

        def fixed(doc: object) -> object:
            values = _array(doc)
            if len(values) != len(items):
                raise ValueError(f"expected {len(items)} items, got {doc!r}")
            return tuple(read(d) for read, d in zip(items, values, strict=True))

        return fixed
    if isinstance(tp, type) and issubclass(tp, Enum):
        enum: type[Enum] = tp
        return lambda doc: enum[_exact(str, doc)]
    if tp is Said:
        return _said
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if tp in (int, bool, str):
        return lambda doc: _exact(tp, doc)
    raise ValueError(f"cannot read a {tp!r}")


def _union_decoder(options: tuple[Any, ...]) -> Decode:
    optional = type(None) in options
    rest = [o for o in options if o is not type(None)]
    kinds = {o.__name__: o for o in rest if isinstance(o, type) and dataclasses.is_dataclass(o)}
    single = _decoder(rest[0]) if len(rest) == 1 else None

    def read(doc: object) -> object:
        if doc is None and optional:
            return None
        if isinstance(doc, dict) and kinds:
            cls = kinds.get(str(doc.get("k")))
            if cls is None:
                raise ValueError(f"not a kind expected here: {doc.get('k')!r}")
            return _decoder(cls)(doc)
        if single is None:
            raise ValueError(f"ambiguous value {doc!r}")
        return single(doc)

    return read


def _dataclass_decoder(cls: type) -> Decode:
    hints = typing.get_type_hints(cls)
    fields = {name: _decoder(hints[name]) for name, _ in _fields(cls)}

    def read(doc: object) -> object:
        return cls(**{k: fields[k](v) for k, v in _object(doc).items() if k != "k"})

    return read


def _said(doc: object) -> Said:
    said_doc = _object(doc)
    arguments = _object(said_doc.get("args", {}))
    kind = _exact(str, said_doc["kind"])
    return Said(kind, json.dumps(arguments, sort_keys=True, ensure_ascii=False))


T = TypeVar("T")


def _exact(tp: type[T], value: object) -> T:
    if type(value) is not tp:
        raise ValueError(f"expected {tp.__name__}, got {value!r}")
    return value


def _array(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list, got {value!r}")
    return value


def _object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, got {value!r}")
    return value
