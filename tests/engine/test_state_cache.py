"""A state built with dataclasses.replace never reuses the legal actions of the state it copies."""

from __future__ import annotations

import dataclasses

from engine import Card, Discard, legal_actions, new_game


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
