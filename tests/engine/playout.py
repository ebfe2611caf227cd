"""Random seeded playouts shared by the property tests and the golden transcripts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from engine import (
    Action,
    Edition,
    GameState,
    PlaceTunnel,
    Transition,
    apply,
    current_player,
    legal_actions,
    new_game,
)


@dataclass(frozen=True)
class Step:
    """One turn of a playout: the state before, who acted, what was offered and chosen."""

    before: GameState
    player: int
    offered: tuple[Action, ...]
    action: Action
    transition: Transition


def playout(players: int, edition: Edition, seed: int, *, dig: float = 0.0) -> Iterator[Step]:
    """Play a whole game choosing uniformly among legal actions with a seeded chooser.

    With `dig`, that share of the turns that offer a placement dig as far east as offered, so
    that goals get reached (dig=0 draws exactly as before: the golden transcripts rely on it).
    """
    rng = random.Random(seed)
    state = new_game([100 + i for i in range(players)], edition=edition, seed=seed)
    while (player := current_player(state)) is not None:
        offered = legal_actions(state, player)
        digs = [a for a in offered if isinstance(a, PlaceTunnel)] if dig else []
        if digs and rng.random() < dig:
            east = max(a.at[0] for a in digs)
            eastmost = [a for a in digs if a.at[0] == east]
            action: Action = eastmost[rng.randrange(len(eastmost))]
        else:
            action = offered[rng.randrange(len(offered))]
        transition = apply(state, player, action)
        yield Step(state, player, offered, action, transition)
        state = transition.state


@lru_cache(maxsize=32)
def played(players: int, edition: Edition, seed: int, dig: float = 0.0) -> tuple[Step, ...]:
    """A whole playout, kept for the other tests of the session that ask for the same game."""
    return tuple(playout(players, edition, seed, dig=dig))
