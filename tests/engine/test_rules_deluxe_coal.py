"""Deluxe coal goals turned up far from the card just played, through a ladder or a bridge
(docs/rules.md ruling.coal_orientation, RULES §2.3's order)."""

from __future__ import annotations

import pytest

from engine import Card, PlaceTunnel, apply
from engine.events import GoalRevealed

from .scenario import deluxe_game, of_type, players, setup

P1 = players(4)[0]

# A cut-off section leads from (5,1) east and north into the middle coal (a N-E curve) from the
# south. Three other neighbours of the goal match only its 0° orientation: the west one shows
# rock, the east one and the north one open towards it.
BY_LADDER = """
. . . . . . . . ?$
. . . . . . . . SW
@ . . . . . . NS ?%NE EW
. . . . . EW EW EW NW
. . . . . . . . ?%NW
"""

# The start's corridor stops at (2,0); a cut-off section (4,0)..(7,0) reaches the middle coal
# from the west. Its other three neighbours match only 0°.
BY_BRIDGE = """
. . . . . . . . ?$
. . . . . . . . SW
@ EW EW . EW EW EW EW ?%NE EW
. . . . . . . . EW
. . . . . . . . ?%NW
"""


@pytest.mark.rule("ruling.coal_orientation", "ruling.coal_mismatch", "deluxe.place.ladder")
@pytest.mark.parametrize(
    ("board", "card", "at"),
    [(BY_LADDER, Card.LADDER_E, (4, 1)), (BY_BRIDGE, Card.BRIDGE, (3, 0))],
)
def test_a_coal_goal_reached_far_from_the_card_just_played_opens_toward_the_tunnel_that_reached_it(
    board: str, card: Card, at: tuple[int, int]
) -> None:
    # (1) does not apply: the card just played is not next to the goal. (2) decides: the goal
    # opens towards the tunnel that reached it (S-W lies at 180°), though (3) would choose 0°,
    # which matches three neighbours; the mismatches stay (ruling.coal_mismatch).
    state = setup(deluxe_game(4), board=board, hands={P1: [card]}, turn=P1)
    tr = apply(state, P1, PlaceTunnel(card, at))
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card, rev.rotated) == ((8, 0), Card.COAL_NE, True)
    assert tr.state.round == 1
