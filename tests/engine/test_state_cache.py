"""A state built with dataclasses.replace never reuses the legal actions or the views of the state
it copies."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Card, Discard, apply, legal_actions, new_game, player_view, public_view


def test_replace_gives_a_fresh_cache() -> None:
    """Replacing a hand after legal_actions ran offers actions for the new hand, not the old."""
    state = new_game([1, 2, 3], seed=7)
    player = state.players[state.turn]
    before = legal_actions(state, player)
    hands = list(state.hands)
    hands[state.turn] = (Card.MAP,) * len(hands[state.turn])
    changed = dataclasses.replace(state, hands=tuple(hands))
    assert changed.cache is not state.cache
    after = legal_actions(changed, player)
    assert after != before
    assert Discard((Card.MAP,)) in after
    assert all(getattr(a, "card", Card.MAP) is Card.MAP for a in after)


def test_views_are_made_once_per_state_and_never_carried_to_another() -> None:
    """A state's views are kept with it (the bot asks for them many times a move); a replaced
    hand, or a move, gives views of the new state; a stranger is still refused."""
    state = new_game([1, 2, 3], seed=7)
    player = state.players[state.turn]
    view = player_view(state, player)
    assert player_view(state, player) is view and public_view(state) is view.public
    hands = list(state.hands)
    hands[state.turn] = (Card.MAP,) * len(hands[state.turn])
    changed = dataclasses.replace(state, hands=tuple(hands))
    assert player_view(changed, player).hand == hands[state.turn] != view.hand
    moved = apply(state, player, legal_actions(state, player)[0]).state
    assert public_view(moved).version == state.version + 1 == public_view(state).version + 1
    assert player_view(moved, player).hand != view.hand
    with pytest.raises(ValueError, match="does not play"):
        player_view(state, 99)
