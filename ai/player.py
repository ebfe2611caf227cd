"""The computer player: a seat that sees only its view and its own events."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Protocol

from engine.actions import Action, Steal
from engine.events import Event
from engine.model import PlayerId
from engine.views import PlayerView

from . import heuristic, theft
from .belief import Belief
from .memory import Memory
from .rng import Rng
from .search import Budget, Clock, search, situation_of_view


class Level(Enum):
    """How hard the computer player thinks."""

    RANDOM = "random"  # any legal action (for tests)
    HEURISTIC = "heuristic"  # fast rules
    SEARCH = "search"  # rules plus sampled worlds and rollouts (the default)


class Player(Protocol):
    """A seat's player: told what its seat may see, asked for one of the legal actions."""

    def observe(self, events: Iterable[Event]) -> None:
        """Take in events whose audience includes this seat."""

    def choose(self, view: PlayerView, legal: tuple[Action, ...]) -> Action:
        """One of `legal`."""


def visible(events: Iterable[Event], player: PlayerId) -> tuple[Event, ...]:
    """The events a player may see: the public ones and its own private ones."""
    return tuple(e for e in events if e.audience is None or e.audience == player)


class Bot:
    """A computer player for one seat; all its randomness comes from its seed."""

    def __init__(
        self,
        me: PlayerId,
        *,
        seed: int,
        level: Level = Level.SEARCH,
        budget: Budget = Budget(),
        clock: Clock | None = None,
    ) -> None:
        self.me = me
        self.level = level
        self.budget = budget
        self.clock = clock
        self.rng = Rng(seed)
        self.memory = Memory(me, self.rng.fork(1))

    def observe(self, events: Iterable[Event]) -> None:
        """Take in events whose audience includes this seat (others' private ones are refused)."""
        if self.level is Level.RANDOM:
            for e in events:
                if e.audience is not None and e.audience != self.me:
                    raise ValueError(f"event for player {e.audience} shown to {self.me}")
            return
        self.memory.observe(events)

    def choose(self, view: PlayerView, legal: tuple[Action, ...]) -> Action:
        """One of `legal`, picked at this bot's level."""
        if not legal:
            raise ValueError("no legal action to choose from")
        if view.me != self.me:
            raise ValueError(f"view of player {view.me} given to {self.me}")
        if self.level is Level.RANDOM or len(legal) == 1:
            action = legal[self.rng.below(len(legal))]
        elif isinstance(legal[0], Steal):  # a thief at the round's end: every level alike
            action = theft.victim(view, legal)
        elif self.level is Level.HEURISTIC:
            belief = self.memory.sync(view)
            sit = situation_of_view(view, self.memory, belief)
            action = heuristic.choose(sit, legal, self.rng)
        else:
            action = search(view, self.memory, legal, self.rng, self.budget, self.clock)
        self.memory.chose(action)
        return action

    def recall(self, view: PlayerView, action: Action) -> None:
        """Take in a move this seat made earlier, from its view then: as if it had chosen
        `action` itself (a bot rebuilt from a game's history, between `observe` calls)."""
        if view.me != self.me:
            raise ValueError(f"view of player {view.me} given to {self.me}")
        if self.level is not Level.RANDOM:
            self.memory.sync(view)
        self.memory.chose(action)

    def belief(self) -> Belief | None:
        """The current belief over roles and the gold (None before the first turn of a round)."""
        return self.memory.belief
