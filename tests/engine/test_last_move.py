"""The last move's mark: the cell it acted on (placed, emptied, peeked at) or the player a card
was played on; nothing after a discard; kept through the codec."""

from __future__ import annotations

import json

from engine import (
    Card,
    Discard,
    GameState,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    UseMap,
    public_view,
)
from engine.codec import from_json, to_json

from .scenario import EMPTY, act, base_game, players, setup

P1, P2, P3, P4 = players(4)
HAND = [Card.STRAIGHT_EW, Card.MAP, Card.BREAK_CART, Card.ROCKFALL, Card.CROSS, Card.CURVE_NE]


def _state() -> GameState:
    return setup(base_game(), board=EMPTY, hands={p: HAND for p in (P1, P2, P3, P4)}, turn=P1)


def test_a_placement_marks_its_cell_and_a_discard_marks_nothing() -> None:
    placed = act(_state(), P1, PlaceTunnel(Card.STRAIGHT_EW, (1, 0)))
    assert placed.last_at == (1, 0) and placed.last_target is None
    discarded = act(placed, P2, Discard((Card.CROSS,)))
    assert discarded.last_at is None and discarded.last_target is None
    assert public_view(discarded).board.last_at is None


def test_a_map_marks_the_goal_looked_at() -> None:
    state = act(_state(), P1, UseMap((8, -2)))
    assert state.last_at == (8, -2) and state.last_target is None


def test_a_card_played_at_a_player_marks_that_player() -> None:
    placed = act(_state(), P1, PlaceTunnel(Card.STRAIGHT_EW, (1, 0)))
    broken = act(placed, P2, PlayOnPlayer(Card.BREAK_CART, P3))
    assert broken.last_target == P3 and broken.last_at is None
    assert public_view(broken).last_target == P3


def test_a_rockfall_marks_the_emptied_cell() -> None:
    placed = act(_state(), P1, PlaceTunnel(Card.STRAIGHT_EW, (1, 0)))
    fallen = act(placed, P2, Rockfall((1, 0)))
    assert fallen.last_at == (1, 0) and (1, 0) not in fallen.maze


def test_the_mark_survives_the_codec_and_old_states_read_without_it() -> None:
    placed = act(_state(), P1, PlaceTunnel(Card.STRAIGHT_EW, (1, 0)))
    broken = act(placed, P2, PlayOnPlayer(Card.BREAK_CART, P3))
    assert from_json(to_json(broken)) == broken
    doc = json.loads(to_json(broken))
    del doc["last_target"]
    assert from_json(json.dumps(doc)).last_target is None
