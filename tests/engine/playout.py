"""Random seeded playouts shared by the property tests and the golden transcripts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine import (
    Action,
    Edition,
    GameState,
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


def playout(players: int, edition: Edition, seed: int) -> Iterator[Step]:
    """Play a whole game choosing uniformly among legal actions with a seeded chooser."""
    rng = random.Random(seed)
    state = new_game([100 + i for i in range(players)], edition=edition, seed=seed)
    while (player := current_player(state)) is not None:
        offered = legal_actions(state, player)
        action = offered[rng.randrange(len(offered))]
        transition = apply(state, player, action)
        yield Step(state, player, offered, action, transition)
        state = transition.state
