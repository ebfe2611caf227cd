"""The working copy of a state inside one move, and the new state and events made from it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .cards import (
    Card,
    Tool,
)
from .events import (
    ActionPlayed,
    CardDrawn,
    CardsDiscarded,
    Event,
    TunnelPlaced,
)
from .model import (
    Coord,
    GameState,
    Goal,
    Net,
    PlayerId,
    Role,
)


@dataclass(frozen=True, slots=True)
class Transition:
    """The result of an action: the new state and what happened."""

    state: GameState
    events: tuple[Event, ...]


T = TypeVar("T")


# A state is made every turn. Its frozen dataclass `__init__` sets each field through
# `object.__setattr__`; instead a twin class with the very same slots is filled by plain
# attribute stores and then becomes the state's class (`__class__` assignment, which Python
# allows only between classes of the same layout: checked at import, below).
def _twin(cls: type) -> type:
    """A plain class with the slots of a frozen dataclass, whose instances may become `cls`."""
    twin = type(f"_Fresh{cls.__name__}", (), {"__slots__": cls.__dict__["__slots__"]})
    probe: Any = object.__new__(twin)
    probe.__class__ = cls  # TypeError here if the layouts ever differ
    return twin


_FreshState = _twin(GameState)
_FreshTransition = _twin(Transition)
_new = object.__new__


def _maker(cls: type[T]) -> Callable[..., T]:
    """A function of all of a frozen dataclass's fields, in order, that makes the same value as
    its constructor: a twin filled by plain stores (generated, as dataclasses make __init__)."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    stores = "".join(f"    o.{n} = {n}\n" for n in names)
    head = f"def make({', '.join(names)}):\n    o = new(twin)\n"
    source = f"{head}{stores}    o.__class__ = cls\n    return o\n"
    space: dict[str, Any] = {"new": object.__new__, "twin": _twin(cls), "cls": cls}
    exec(source, space)
    return space["make"]  # type: ignore[no-any-return]


# The events of nearly every turn, made that way: (player, card, audience), and so on.
_card_drawn: Callable[[PlayerId, Card, PlayerId | None], CardDrawn] = _maker(CardDrawn)
_tunnel_placed: Callable[[PlayerId, Card, Coord, bool, None], TunnelPlaced] = _maker(TunnelPlaced)
_cards_discarded: Callable[[PlayerId, int, None], CardsDiscarded] = _maker(CardsDiscarded)
_action_played: Callable[[PlayerId, Card, PlayerId, Tool | None, None], ActionPlayed] = _maker(
    ActionPlayed
)


def _listed(t: _Table, name: str) -> list[Any]:
    """A field of the working copy as a list of its own (copied from the state's tuple once)."""
    value = getattr(t, name)
    if type(value) is not list:
        value = list(value)
        setattr(t, name, value)
    return value


def _rows(rows: Sequence[Sequence[T]]) -> tuple[tuple[T, ...], ...]:
    """A per-seat field as tuples: the state's own tuple when no move changed it."""
    if type(rows) is tuple:
        return rows
    return tuple(map(tuple, rows))


def _seat_row(t: _Table, name: str, i: int) -> list[Any]:
    """Row `i` of a per-seat field of the working copy as a list of its own."""
    return _own(_listed(t, name), i)


def _own(rows: list[Sequence[T]], i: int) -> list[T]:
    """Row `i` of a per-seat field as a list of its own, copied from the state's tuple once."""
    row = rows[i]
    if type(row) is not list:
        row = rows[i] = list(row)
    return row


class _Table:
    """A mutable copy of a state used inside one `apply` or `new_game`, frozen at the end."""

    __slots__ = (
        "deck",
        "discards",
        "edition",
        "events",
        "finder",
        "goals",
        "gold",
        "gold_deck",
        "hands",
        "in_front",
        "inspected",
        "last_at",
        "last_seat",
        "last_target",
        "maze",
        "net",
        "options",
        "peeked",
        "phase",
        "players",
        "removed",
        "results",
        "rng",
        "roles",
        "round",
        "round_over",
        "seed",
        "spare_roles",
        "stealing",
        "thefts",
        "turn",
        "version",
    )

    def __init__(self, s: GameState) -> None:
        self.edition = s.edition
        self.options = s.options
        self.players = s.players
        self.seed = s.seed
        self.rng = s.rng
        self.version = s.version
        self.round = s.round
        self.phase = s.phase
        self.turn = s.turn
        # Fields a turn seldom changes stay the state's tuples: a change makes a list first.
        self.roles: Sequence[Role] = s.roles
        self.spare_roles: Sequence[Role] = s.spare_roles
        # Per-seat rows stay the state's tuples until `_own` copies the one that changes.
        self.hands: list[Sequence[Card]] = list(s.hands)
        # The deck and the discards stay tuples: a move makes a new one (one copy, not two).
        self.deck: tuple[Card, ...] = s.deck
        self.removed = s.removed
        self.discards: tuple[Card, ...] = s.discards
        self.maze = s.maze
        self.goals: Sequence[Goal] = s.goals
        # Per-seat fields stay the state's tuples until a move changes one (`_row_of`).
        self.in_front: Sequence[Sequence[Card]] = s.in_front
        self.peeked: Sequence[Sequence[Coord]] = s.peeked
        self.inspected: Sequence[Sequence[tuple[int, Role]]] = s.inspected
        self.gold: Sequence[int] = s.gold
        self.gold_deck: Sequence[int] = s.gold_deck
        self.last_seat = s.last_seat
        self.last_at = s.last_at
        self.last_target = s.last_target
        self.results = s.results
        self.thefts: Sequence[int] = s.thefts
        self.stealing: Sequence[int] = s.stealing
        self.net = s.net
        self.events: list[Event] = []
        self.finder: int | None = None
        self.round_over = False

    def freeze(self) -> GameState:
        """The state this working copy now describes (its lists made tuples)."""
        o: Any = _new(_FreshState)
        o.edition = self.edition
        o.options = self.options
        o.players = self.players
        o.seed = self.seed
        o.rng = self.rng
        o.version = self.version
        o.round = self.round
        o.phase = self.phase
        o.turn = self.turn
        o.roles = tuple(self.roles)  # (a tuple gives itself back: no copy when unchanged)
        o.spare_roles = tuple(self.spare_roles)
        # A row still the state's tuple is unchanged (and sorted already).
        o.hands = tuple([h if type(h) is tuple else tuple(sorted(h)) for h in self.hands])
        o.deck = self.deck
        o.removed = self.removed
        o.discards = self.discards
        o.maze = self.maze
        o.goals = tuple(self.goals)
        o.in_front = _rows(self.in_front)
        o.peeked = _rows(self.peeked)
        o.inspected = _rows(self.inspected)
        o.gold = tuple(self.gold)
        o.gold_deck = tuple(self.gold_deck)
        o.last_seat = self.last_seat
        o.last_at = self.last_at
        o.results = self.results
        o.thefts = tuple(self.thefts)
        o.last_target = self.last_target
        o.stealing = tuple(self.stealing)
        o.net = self.net
        o.cache = {}
        o.__class__ = GameState
        return o  # type: ignore[no-any-return]

    def transition(self) -> Transition:
        """The frozen state and the events of this move."""
        o: Any = _new(_FreshTransition)
        o.state = self.freeze()
        o.events = tuple(self.events)
        o.__class__ = Transition
        return o  # type: ignore[no-any-return]

    def own_maze(self) -> None:
        """Copy the maze and its network before changing them (the old state keeps its own)."""
        self.maze = dict(self.maze)
        self.net = Net(dict(self.net.reached), dict(self.net.frontier))

    def hidden_goals(self) -> list[Coord]:
        return [g.at for g in self.goals if not g.revealed]

    def take_from_hand(self, seat: int, card: Card) -> None:
        _own(self.hands, seat).remove(card)

    def draw(self, seat: int, count: int) -> None:
        for _ in range(count):
            deck = self.deck
            if not deck:
                return
            card = deck[-1]
            self.deck = deck[:-1]
            _own(self.hands, seat).append(card)
            self.events.append(_card_drawn(self.players[seat], card, self.players[seat]))
