"""Every malformed action is refused with IllegalAction, never another exception."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Card,
    Edition,
    GameState,
    IllegalAction,
    Phase,
    Reason,
    Tool,
    apply,
    current_player,
    legal_actions,
    new_game,
)
from engine.actions import (
    ClearInFront,
    Discard,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    Steal,
    UseMap,
)

from ..profiles import examples

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
            Steal(value),  # type: ignore[arg-type]
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


# Any value at all in any field: cards, cells, ids and junk of every shape.
_ANY: st.SearchStrategy[object] = st.deferred(
    lambda: st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**20), 10**20),
        st.floats(allow_nan=True),
        st.text(max_size=4),
        st.sampled_from(list(Card)),
        st.sampled_from(list(Tool)),
        st.tuples(st.integers(-12, 12), st.integers(-12, 12)),
        st.lists(_ANY, max_size=3).map(tuple),
        st.lists(st.sampled_from(list(Card)), max_size=4).map(tuple),
    )
)
_ACTIONS: st.SearchStrategy[object] = st.one_of(
    st.builds(PlaceTunnel, _ANY, _ANY, _ANY),
    st.builds(PlayOnPlayer, _ANY, _ANY, _ANY),
    st.builds(UseMap, _ANY),
    st.builds(Rockfall, _ANY),
    st.builds(Discard, _ANY),
    st.builds(ClearInFront, _ANY, _ANY),
    st.builds(Steal, _ANY),
    _ANY,
)


def _theft_state() -> GameState:
    """A Deluxe state at a round's end waiting for a thief (rule deluxe.payout.theft)."""
    state = new_game(list(range(1, 6)), edition=Edition.DELUXE, seed=3)
    seat = state.turn
    n = len(state.players)
    state = dataclasses.replace(
        state,
        hands=tuple((Card.MAP,) if s == seat else () for s in range(n)),
        deck=(),
        in_front=tuple((Card.THEFT,) if s == seat else () for s in range(n)),
        thefts=(seat,),
        gold=tuple(1 for _ in range(n)),
        cache={},
    )
    state = apply(state, state.players[seat], Discard((Card.MAP,))).state
    assert state.phase is Phase.THEFT
    return state


_STATES = (
    new_game(list(range(1, 6)), edition=Edition.BASE, seed=3),
    new_game(list(range(1, 6)), edition=Edition.DELUXE, seed=3),
    _theft_state(),
)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_STATES), _ACTIONS, st.one_of(st.just(None), _ANY))
def test_any_action_of_any_shape_applies_or_is_an_illegal_action(
    state: GameState, action: object, player: object
) -> None:
    """Whatever the fields hold (and whoever acts), apply plays a legal action or raises
    IllegalAction with a reason, and the state it was tried on does not change."""
    who = current_player(state) if player is None else player
    before = dataclasses.replace(state, cache={})
    # Exactly an offered action: (True, 0) == (1, 0) and 1.0 == 1, but neither is offered.
    offered = {repr(a) for a in legal_actions(state, who)}  # type: ignore[arg-type]
    legal = repr(action) in offered
    try:
        apply(state, who, action)  # type: ignore[arg-type]
    except IllegalAction as refusal:
        assert isinstance(refusal.reason, Reason) and not legal
    else:
        assert legal, action
    assert state == before


def test_an_action_equal_to_a_legal_one_with_other_types_is_refused() -> None:
    """Card.GOLD == 1 and True == 1: an action whose fields only equal an offered one's (a card
    given as its number, a cell or a target given as IntEnums) is refused, and the state is as
    it was; the offered values themselves, and an equal action of the same types, are played."""
    from enum import IntEnum

    state = new_game([101, 102, 103, 104], seed=5)
    player = current_player(state)
    assert player is not None
    legal = legal_actions(state, player)
    place = next(a for a in legal if isinstance(a, PlaceTunnel))
    x, y = place.at

    class Alike(IntEnum):
        X = x
        Y = y + (1 if x == y else 0)  # an IntEnum's values must differ

    forged: list[object] = [
        PlaceTunnel(int(place.card), place.at, place.rotated),  # type: ignore[arg-type]
        PlaceTunnel(place.card, (x, y + 0.0), place.rotated),  # type: ignore[arg-type]
        PlaceTunnel(place.card, place.at, int(place.rotated)),  # type: ignore[arg-type]
    ]
    if x != y:
        forged.append(PlaceTunnel(place.card, (Alike.X, Alike.Y), place.rotated))
    plays = [a for a in legal if isinstance(a, PlayOnPlayer)]
    for a in plays[:1]:

        class Who(IntEnum):
            T = a.target

        forged.append(PlayOnPlayer(a.card, Who.T, a.tool))
    before = dataclasses.replace(state, cache={})
    for action in forged:
        assert action == place or action in plays[:1]  # equal to an offered action...
        with pytest.raises(IllegalAction):  # ...but not it
            apply(state, player, action)
        assert state == before
    copy = PlaceTunnel(Card(int(place.card)), (int(x), int(y)), bool(place.rotated))
    assert copy is not place and apply(state, player, copy).state.version == state.version + 1
