"""The search's scoring of candidate moves in one sampled world."""

from __future__ import annotations

from ai.search import _Rollout, world_values
from engine import legal_actions, new_game
from engine.actions import Action, Discard, PlaceTunnel
from engine.cards import CARDS, Card, Kind
from engine.model import Role


def _illegal_tunnel(hand: tuple[Card, ...]) -> Action:
    """A tunnel card the seat does not hold, placed next to the start."""
    card = next(c for c in Card if CARDS[c].kind is Kind.TUNNEL and c not in hand)
    return PlaceTunnel(card, (1, 0), False)


def test_a_candidate_the_world_makes_illegal_gets_the_mean_of_the_others() -> None:
    # A saboteur's first turn, worth about two thirds to it: a fixed 0.5 would have ranked
    # the move nobody can judge below every real one.
    state = next(
        s
        for seed in range(1, 50)
        if (s := new_game([1, 2, 3, 4, 5], seed=seed)).roles[s.turn] is Role.SABOTEUR
    )
    seat = state.turn
    legal = legal_actions(state, state.players[seat])
    cands = [*legal[:3], _illegal_tunnel(state.hands[seat])]
    ctx = _Rollout(seat, {g.at: 1 / 3 for g in state.goals}, (0.4,) * 5)
    values = world_values(state, cands, ctx, depth=4, seed=7, noise=0.0)
    judged = values[:3]
    assert values[3] == sum(judged) / 3
    assert abs(values[3] - 0.5) > 0.05


def test_a_world_where_every_candidate_is_illegal_favours_none() -> None:
    state = new_game([1, 2, 3, 4, 5], seed=3)
    seat = state.turn
    hand = state.hands[seat]
    missing = next(c for c in Card if c not in hand)
    cands = [_illegal_tunnel(hand), Discard((missing,))]
    ctx = _Rollout(seat, {}, (0.4,) * 5)
    values = world_values(state, cands, ctx, depth=4, seed=7, noise=0.0)
    assert values[0] == values[1]
