"""Every malformed action is refused with IllegalAction, never another exception."""

from __future__ import annotations

import itertools

import pytest

from engine import (
    Card,
    Edition,
    IllegalAction,
    Reason,
    Tool,
    apply,
    current_player,
    legal_actions,
    new_game,
)
from engine.actions import ClearInFront, Discard, PlaceTunnel, PlayOnPlayer, Rockfall, UseMap

BAD_CELLS: tuple[object, ...] = (("x", 1), (1,), None, (1.5, 2), (True, False), (1, 2, 3), "E3")
BAD_VALUES: tuple[object, ...] = (None, "x", -1, 10**30, (), ("a",), 1.5, True)
# (None is a well-formed tool: the one a broken-tool card names itself.)


def _malformed(card: Card) -> list[object]:
    """Actions of every kind with this card and broken fields."""
    actions: list[object] = []
    for at, rotated in itertools.product(BAD_CELLS, (False, True, "yes", None)):
        actions.append(PlaceTunnel(card, at, rotated))  # type: ignore[arg-type]
    for value in BAD_VALUES:
        actions += [
            PlayOnPlayer(card, value, Tool.LANTERN),  # type: ignore[arg-type]
            *([] if value is None else [PlayOnPlayer(card, 1, value)]),  # type: ignore[arg-type]
            Rockfall(value),  # type: ignore[arg-type]
            UseMap(value),  # type: ignore[arg-type]
            Discard(value),  # type: ignore[arg-type]
            Discard((card, value)),  # type: ignore[arg-type]
            ClearInFront(value, card),  # type: ignore[arg-type]
            ClearInFront((card, card), value),  # type: ignore[arg-type]
        ]
    return actions


@pytest.mark.parametrize("edition", list(Edition))
def test_every_malformed_action_of_every_card_is_an_illegal_action(edition: Edition) -> None:
    state = new_game(list(range(1, 6)), edition=edition, seed=3)
    player = current_player(state)
    hand = state.hands[state.players.index(player)]
    refused = 0
    for card in (*hand, *Card):
        for action in _malformed(card):
            with pytest.raises(IllegalAction) as caught:
                apply(state, player, action)  # type: ignore[arg-type]
            assert isinstance(caught.value.reason, Reason)
            refused += 1
    assert refused > 1000


def test_a_ladder_at_a_malformed_cell_says_it_is_not_a_cell() -> None:
    """The case that raised TypeError from inside the refusal's explanation."""
    for seed in range(200):
        state = new_game(list(range(1, 6)), edition=Edition.DELUXE, seed=seed)
        player = current_player(state)
        hand = state.hands[state.players.index(player)]
        ladders = [c for c in hand if c.name.startswith("LADDER")]
        if ladders:
            break
    else:
        raise AssertionError("no seed deals a ladder to the first player")
    with pytest.raises(IllegalAction) as caught:
        apply(state, player, PlaceTunnel(ladders[0], ("x", 1)))  # type: ignore[arg-type]
    assert caught.value.reason is Reason.NOT_AN_ACTION and "not a cell" in caught.value.detail


@pytest.mark.parametrize("edition", list(Edition))
def test_every_refusal_says_what_where_and_why(edition: Edition) -> None:
    """Refusals carry a detail beyond their reason (the bot logs it), for every kind of action."""
    reasons: set[Reason] = set()
    for seed in range(40):
        state = new_game(list(range(1, 6)), edition=edition, seed=seed)
        player = current_player(state)
        assert player is not None
        others = [p for p in state.players if p != player]
        hand = state.hands[state.players.index(player)]
        tries: list[object] = [
            PlaceTunnel(hand[0], (0, 0)),
            PlaceTunnel(hand[0], (5, 5)),
            PlaceTunnel(Card.CROSS, (1, 0), True),
            UseMap((0, 0)),
            Rockfall((0, 0)),
            Discard(()),
            Discard((Card.GOLD,)),
            ClearInFront((hand[0], hand[1]), Card.BREAK_CART),
            PlayOnPlayer(Card.REPAIR_CART, others[0], Tool.CART),
            PlayOnPlayer(Card.BREAK_CART, 999, None),
            *(PlayOnPlayer(c, others[0], Tool.LANTERN) for c in hand),
            *(PlaceTunnel(c, (1, 0), r) for c in hand for r in (False, True)),
            "pass",
        ]
        for action in tries:
            try:
                apply(state, player, action)  # type: ignore[arg-type]
            except IllegalAction as refusal:
                assert refusal.detail, (refusal.reason, action)
                assert str(refusal).startswith(refusal.reason.value + ": ")
                reasons.add(refusal.reason)
        for intruder in (others[0], 999):
            with pytest.raises(IllegalAction) as caught:
                apply(state, intruder, legal_actions(state, player)[0])
            assert caught.value.detail
    assert len(reasons) >= 8, reasons
