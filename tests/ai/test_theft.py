"""Computer thieves choose a victim at a round's end at every level (rule deluxe.payout.theft)."""

from __future__ import annotations

import dataclasses

import pytest

from ai import Bot, Level
from engine import Card, GameState, Phase, Role, Steal, legal_actions, player_view
from engine.model import RoundResult, Side
from tests.engine.scenario import deluxe_game, find_gold, players

P1, P2, P3, P4 = players(4)


def _waiting_thief() -> GameState:
    """Round 3 paid P1: P2's theft waits; P3 was paid in rounds 1 and 2, P4 in round 2."""
    before = (
        RoundResult(1, (Side.GREEN,), P3, (), (P3,)),
        RoundResult(2, (Side.GREEN,), P4, (), (P3, P4)),
    )
    state = find_gold(
        deluxe_game(4),
        P1,
        roles=[Role.BLUE_MINER, Role.SABOTEUR, Role.GREEN_MINER, Role.GREEN_MINER],
        in_front={P2: [Card.THEFT]},
        thefts=[P2],
        gold={P3: 4, P4: 4},
        round_no=3,
    ).state
    return dataclasses.replace(state, results=(*before, *state.results), cache={})


@pytest.mark.rule("deluxe.payout.theft")
@pytest.mark.parametrize("level", list(Level))
def test_a_computer_thief_steals_at_every_level(level: Level) -> None:
    state = _waiting_thief()
    assert state.phase is Phase.THEFT
    legal = legal_actions(state, P2)
    assert legal == (Steal(P1), Steal(P3), Steal(P4))
    for seed in range(5):
        bot = Bot(P2, seed=seed, level=level)
        choice = bot.choose(player_view(state, P2), legal)
        assert choice in legal
        if level is not Level.RANDOM:
            # P3 was paid in two rounds (public), P1 and P4 in one: the likeliest rich rival.
            assert choice == Steal(P3)
