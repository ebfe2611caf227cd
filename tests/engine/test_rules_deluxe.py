"""Saboteur Deluxe scenario tests; each carries the ids of the rules it checks (docs/rules.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from engine import (
    CARDS,
    Card,
    ClearInFront,
    Discard,
    Door,
    Edition,
    GoldRule,
    Kind,
    Options,
    PlaceTunnel,
    PlayerId,
    PlayOnPlayer,
    Reason,
    Rockfall,
    Role,
    Side,
    Transition,
    apply,
    current_player,
    legal_actions,
    new_game,
    player_view,
    public_view,
    spec,
)
from engine.events import (
    CardDrawn,
    CardsDiscarded,
    Event,
    GameEnded,
    GoalRevealed,
    GoldReceived,
    GoldStolen,
    HandDealt,
    InFrontCleared,
    RoleDealt,
    RoleSeen,
    RoundEnded,
)

from .scenario import (
    EMPTY,
    LAST_STEP,
    act,
    cells,
    deluxe_game,
    end_round,
    find_gold,
    of_type,
    placements,
    players,
    refused,
    setup,
    to_act,
)

P1, P2, P3, P4, P5, P6 = players(6)
BLUE, GREEN, BOSS = Role.BLUE_MINER, Role.GREEN_MINER, Role.BOSS
PROF, GEO, SAB = Role.PROFITEER, Role.GEOLOGIST, Role.SABOTEUR


def _mask(edges: str) -> int:
    return sum({"N": 1, "E": 2, "S": 4, "W": 8}[e] for e in edges)


def _shape(card: Card) -> list[str]:
    """A card's tunnels at 0°: joined edges upper case, a lone stub lower case."""
    out = []
    for t in CARDS[card].tunnels:
        text = "".join(e for e in "NESW" if t & _mask(e))
        out.append(text if len(text) > 1 else text.lower())
    return sorted(out)


def _parse(text: str) -> tuple[int, ...]:
    """Tunnels written like "ESW n": joined edges upper case, a lone stub lower case."""
    return tuple(_mask(part.upper()) for part in text.split())


def _design(tunnels: tuple[int, ...]) -> tuple[int, ...]:
    """The same value for a card and its 180° turn."""
    turned = tuple(((t << 2) | (t >> 2)) & 15 for t in tunnels)
    return min(tuple(sorted(tunnels)), tuple(sorted(turned)))


def _paid(events: Iterable[Event]) -> dict[PlayerId, int]:
    return {e.player: e.nuggets for e in of_type(events, GoldReceived)}


# ---------------------------------------------------------------- roles

ROLE_COUNTS = Counter({BLUE: 4, GREEN: 4, BOSS: 1, PROF: 1, GEO: 2, SAB: 3})


@pytest.mark.rule("deluxe.roles.deal", "privacy.roles")
@pytest.mark.parametrize("n", range(2, 13))
def test_deluxe_deals_one_of_15_roles_to_each_player_and_sets_the_rest_aside(n: int) -> None:
    state = deluxe_game(n, seed=n)
    assert len(state.roles) == n
    assert len(state.spare_roles) == 15 - n
    assert Counter(state.roles + state.spare_roles) == ROLE_COUNTS
    assert all(not hasattr(s, "role") for s in public_view(state).seats)


@pytest.mark.rule("deluxe.setup.players")
@pytest.mark.parametrize("n", [1, 13])
def test_deluxe_is_for_2_to_12_players(n: int) -> None:
    with pytest.raises(ValueError):
        new_game(tuple(range(1, n + 1)), edition=Edition.DELUXE, seed=1)


@pytest.mark.rule("deluxe.setup.no_gold_cards")
def test_deluxe_uses_no_gold_cards() -> None:
    state = deluxe_game(5)
    assert state.gold_deck == ()
    assert Role.MINER not in state.roles + state.spare_roles


# ---------------------------------------------------------------- expansion tunnels


@pytest.mark.rule("deluxe.cards.tunnels")
def test_the_expansion_has_30_tunnel_cards_in_the_table_shapes() -> None:
    # Crystals are compared as designs: a card and its 180° turn are one.
    table = {
        Card.BRIDGE: (2, ["EW", "NS"]),
        Card.DOUBLE_CURVE: (2, ["ES", "NW"]),
        Card.LADDER_N: (1, ["n"]),
        Card.LADDER_E: (1, ["e"]),
        Card.LADDER_NE: (1, ["NE"]),
        Card.LADDER_NW: (1, ["NW"]),
        Card.BLUE_DOOR_NS: (1, ["NS"]),
        Card.BLUE_DOOR_EW: (1, ["EW"]),
        Card.BLUE_DOOR_NW: (1, ["NW"]),
        Card.GREEN_DOOR_NS: (1, ["NS"]),
        Card.GREEN_DOOR_NE: (1, ["NE"]),
        Card.GREEN_DOOR_NS_E: (1, ["NS", "e"]),
    }
    for card, (copies, shape) in table.items():
        assert (spec(card).expansion_copies, _shape(card)) == (copies, shape), card
    assert {c for c in table if spec(c).ladder} == {
        Card.LADDER_N,
        Card.LADDER_E,
        Card.LADDER_NE,
        Card.LADDER_NW,
    }
    assert {c: spec(c).door for c in table if spec(c).door} == {
        Card.BLUE_DOOR_NS: Door.BLUE,
        Card.BLUE_DOOR_EW: Door.BLUE,
        Card.BLUE_DOOR_NW: Door.BLUE,
        Card.GREEN_DOOR_NS: Door.GREEN,
        Card.GREEN_DOOR_NE: Door.GREEN,
        Card.GREEN_DOOR_NS_E: Door.GREEN,
    }
    crystals = ["n", "e", "NESW", "NES", "NES", "NES", "ESW", "ESW n", "NES w", "NS e"]
    crystals += ["NE", "NE", "NS", "NS", "EW", "NEW"]  # the six with no official source
    in_engine: Counter[tuple[int, ...]] = Counter()
    for s in CARDS:
        if s.crystal:
            in_engine[_design(s.tunnels)] += s.expansion_copies
    assert in_engine == Counter(_design(_parse(c)) for c in crystals)
    others = {s.card for s in CARDS if s.expansion_copies and s.is_tunnel and not s.crystal}
    assert others == set(table)
    total = sum(s.expansion_copies for s in CARDS if s.is_tunnel)
    assert total == 30


@pytest.mark.rule("deluxe.place.two_tunnels")
def test_a_bridge_joins_only_the_tunnel_that_connects() -> None:
    state = setup(deluxe_game(), board=EMPTY, hands={P1: [Card.BRIDGE]}, turn=P1)
    assert PlaceTunnel(Card.BRIDGE, (1, 0)) in placements(state, P1)
    after = setup(act(state, P1, PlaceTunnel(Card.BRIDGE, (1, 0))), hands={P2: [Card.CROSS]})
    reach = cells(after, P2)
    assert (2, 0) in reach  # along the E-W tunnel that meets the start
    assert (1, -1) not in reach and (1, 1) not in reach  # the N-S tunnel is not joined
    assert refused(after, P2, PlaceTunnel(Card.CROSS, (1, 1))) is Reason.NOT_CONNECTED


@pytest.mark.rule("deluxe.place.two_tunnels")
def test_a_double_curve_joins_only_the_curve_that_connects() -> None:
    state = setup(deluxe_game(), board=EMPTY, hands={P1: [Card.DOUBLE_CURVE]}, turn=P1)
    after = setup(
        act(state, P1, PlaceTunnel(Card.DOUBLE_CURVE, (1, 0))),
        hands={P2: [Card.CROSS]},
    )
    reach = cells(after, P2)
    assert (1, -1) in reach  # N-W: the W end meets the start
    assert (2, 0) not in reach and (1, 1) not in reach  # E-S is not joined


@pytest.mark.rule("deluxe.place.two_tunnels", "base.place.connected")
def test_a_bridge_needs_at_least_one_tunnel_connected() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ . . EW . . . . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    hand = [Card.BRIDGE, Card.DOUBLE_CURVE]
    state = setup(deluxe_game(), board=board, hands={P1: hand}, turn=P1)
    assert cells(state, P1) == {(1, 0), (-1, 0), (0, -1), (0, 1)}
    for card in hand:
        assert refused(state, P1, PlaceTunnel(card, (4, 0))) is Reason.NOT_CONNECTED
        assert refused(state, P1, PlaceTunnel(card, (2, 0))) is Reason.NOT_CONNECTED


# A corridor along y=-1 that stops next to the cell between the top and middle goals.
BETWEEN_GOALS = """
. . . . . . . . ?%NE
ES EW EW EW EW EW EW EW .
@ . . . . . . . ?$
. . . . . . . . .
. . . . . . . . ?%NW
"""


@pytest.mark.rule("deluxe.place.two_tunnels", "base.goal.reach")
def test_a_bridge_tunnel_that_is_not_connected_reaches_no_goal() -> None:
    # Only the E-W tunnel is joined; the N-S one faces both goals but is joined to nothing.
    state = setup(deluxe_game(), board=BETWEEN_GOALS, hands={P1: [Card.BRIDGE]}, turn=P1)
    tr = apply(state, P1, PlaceTunnel(Card.BRIDGE, (8, -1)))
    assert of_type(tr.events, GoalRevealed) == []
    assert not any(g.revealed for g in tr.state.goals)


@pytest.mark.rule("deluxe.place.two_tunnels", "base.goal.reach")
def test_a_double_curve_reaches_only_the_goal_on_its_connected_curve() -> None:
    # N-W is joined to the corridor and reaches the top goal; E-S is not.
    state = setup(deluxe_game(), board=BETWEEN_GOALS, hands={P1: [Card.DOUBLE_CURVE]}, turn=P1)
    tr = apply(state, P1, PlaceTunnel(Card.DOUBLE_CURVE, (8, -1)))
    assert [(e.at, e.card) for e in of_type(tr.events, GoalRevealed)] == [((8, -2), Card.COAL_NE)]
    assert of_type(tr.events, RoundEnded) == []


# A section cut off from the start (a rockfall took (1,0) and (2,0)).
CUT_OFF = """
. . . . . . . . ?%NE
. . . . . . . . .
@ . . EW EW . . . ?$
. . . . . . . . .
. . . . . . . . ?%NW
"""


@pytest.mark.rule("deluxe.place.ladder")
def test_a_ladder_goes_where_its_tunnel_meets_an_open_tunnel_even_if_not_connected() -> None:
    state = setup(deluxe_game(), board=CUT_OFF, hands={P1: [Card.LADDER_E]}, turn=P1)
    offered = {(a.at, a.rotated) for a in placements(state, P1)}
    assert ((2, 0), False) in offered  # its E meets the cut-off straight
    assert ((5, 0), True) in offered  # turned, its W meets it from the other side
    assert ((1, 0), True) in offered  # next to the start
    # Rock (the straight's N side) is not a tunnel to meet.
    assert all(at != (3, -1) for at, _ in offered)
    assert refused(state, P1, PlaceTunnel(Card.LADDER_E, (3, -1))) is Reason.NOT_CONNECTED


@pytest.mark.rule("deluxe.place.ladder_root")
def test_a_ladder_is_joined_to_the_start() -> None:
    state = setup(
        deluxe_game(),
        board=CUT_OFF,
        hands={P1: [Card.LADDER_E], P2: [Card.STRAIGHT_EW]},
        turn=P1,
    )
    assert (2, 0) not in cells(setup(state, turn=P2), P2)
    after = act(state, P1, PlaceTunnel(Card.LADDER_E, (5, 0), rotated=True))
    # The ladder joins the cut-off section; the straight may now go on its far side.
    assert (2, 0) in cells(after, P2)


@pytest.mark.rule("deluxe.place.ladder_root", "base.goal.reach")
def test_a_goal_reached_from_a_ladder_is_revealed() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ . . EW EW EW EW EW ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(deluxe_game(), board=board, hands={P2: [Card.LADDER_E]}, turn=P2)
    tr = apply(state, P2, PlaceTunnel(Card.LADDER_E, (2, 0)))
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card) == ((8, 0), Card.GOLD)
    assert of_type(tr.events, RoundEnded)[0].result.finder == P2


@pytest.mark.rule("deluxe.place.ladder_root")
def test_ladders_are_joined_to_the_start_and_to_each_other() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ . . EW EW . . . ?$
    . . . . . . . . .
    . . EW EW . . . . ?%NW
    """
    state = setup(
        deluxe_game(),
        board=board,
        hands={P1: [Card.LADDER_E], P2: [Card.LADDER_NW], P3: [Card.STRAIGHT_EW]},
        turn=P1,
    )
    state = act(state, P1, PlaceTunnel(Card.LADDER_E, (5, 0), rotated=True))
    state = act(state, P2, PlaceTunnel(Card.LADDER_NW, (4, 2)))
    assert {(2, 0), (1, 2)} <= cells(state, P3)


@pytest.mark.rule("deluxe.place.ladder")
def test_a_ladder_is_never_placed_next_to_a_goal() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ . . . . EW EW . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(deluxe_game(), board=board, hands={P1: [Card.LADDER_E]}, turn=P1)
    offered = {a.at for a in placements(state, P1)}
    assert (4, 0) in offered
    assert (7, 0) not in offered
    assert refused(state, P1, PlaceTunnel(Card.LADDER_E, (7, 0), rotated=True)) is (
        Reason.NEXT_TO_GOAL
    )


@pytest.mark.rule("deluxe.place.doors")
def test_a_door_never_stops_digging_or_reaching_the_gold() -> None:
    # A green miner digs on past a blue door and reaches the gold through it; the door only
    # decides the winners.
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ EW EW BEW {rest} ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(
        deluxe_game(),
        board=board.format(rest=". . . ."),
        roles=[GREEN, BLUE, BLUE, SAB],
        hands={P1: [Card.STRAIGHT_EW]},
        turn=P1,
    )
    assert (4, 0) in cells(state, P1)
    tr = apply(setup(state, board=board.format(rest="EW EW EW .")), P1, LAST_STEP)
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card) == ((8, 0), Card.GOLD)
    assert of_type(tr.events, RoundEnded)[0].result.finder == P1
    assert winners(tr) == (Side.BLUE,)


@pytest.mark.rule("ruling.rockfall_ladder", "deluxe.base_rules")
def test_rockfall_may_remove_a_ladder() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ . . EW EW #W . . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(
        deluxe_game(),
        board=board,
        hands={P1: [Card.ROCKFALL], P2: [Card.STRAIGHT_EW]},
        turn=P1,
    )
    assert (2, 0) in cells(setup(state, turn=P2), P2)
    assert Rockfall((5, 0)) in legal_actions(state, P1)
    after = act(state, P1, Rockfall((5, 0)))
    assert (5, 0) not in {c.at for c in public_view(after).board.cards}
    assert (2, 0) not in cells(after, P2)


# ---------------------------------------------------------------- expansion actions


@pytest.mark.rule("deluxe.cards.actions")
def test_the_expansion_has_20_action_cards_in_the_table_counts() -> None:
    table = {
        Card.THEFT: (Kind.THEFT, 4),
        Card.HANDS_OFF: (Kind.HANDS_OFF, 3),
        Card.SWAP_HAND: (Kind.SWAP_HAND, 2),
        Card.INSPECTION: (Kind.INSPECTION, 2),
        Card.SWAP_HATS: (Kind.SWAP_HATS, 2),
        Card.TRAPPED: (Kind.TRAPPED, 3),
        Card.FREE: (Kind.FREE, 4),
    }
    actions = {s.card for s in CARDS if s.expansion_copies and s.kind is not Kind.TUNNEL}
    assert actions == set(table)
    for card, (kind, copies) in table.items():
        assert (spec(card).kind, spec(card).expansion_copies) == (kind, copies), card
    assert sum(copies for _, copies in table.values()) == 20


@pytest.mark.rule("deluxe.action.theft")
def test_theft_is_put_in_front_of_yourself() -> None:
    state = setup(deluxe_game(), hands={P1: [Card.THEFT]}, turn=P1)
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.THEFT, P1)]
    assert refused(state, P1, PlayOnPlayer(Card.THEFT, P2)) is Reason.BAD_TARGET
    after = act(state, P1, offered[0])
    assert public_view(after).seats[0].in_front == (Card.THEFT,)


@pytest.mark.rule("deluxe.action.hands_off")
def test_hands_off_removes_a_theft_card_from_any_player() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.HANDS_OFF]},
        in_front={P3: [Card.THEFT]},
        thefts=[P3],
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.HANDS_OFF, P3)]
    assert refused(state, P1, PlayOnPlayer(Card.HANDS_OFF, P2)) is Reason.NOTHING_TO_REMOVE
    after = act(state, P1, offered[0])
    assert public_view(after).seats[2].in_front == ()
    # The removed theft steals nothing at round end.
    tr = end_round(setup(after, roles=[BLUE, BLUE, SAB, PROF], gold={P1: 3}), P1)
    assert of_type(tr.events, GoldStolen) == []


@pytest.mark.rule("deluxe.action.swap_hand", "privacy.hands")
def test_swap_your_hand_swaps_with_another_player_and_only_they_draw() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.SWAP_HAND, Card.MAP, Card.CROSS], P2: [Card.ROCKFALL, Card.FREE]},
        deck=[Card.T_NES, Card.BRIDGE],
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.SWAP_HAND, p) for p in (P2, P3, P4)]
    tr = apply(state, P1, PlayOnPlayer(Card.SWAP_HAND, P2))
    assert Counter(tr.state.hands[0]) == Counter([Card.ROCKFALL, Card.FREE])
    assert Counter(tr.state.hands[1]) == Counter([Card.MAP, Card.CROSS, Card.BRIDGE])
    assert tr.state.deck == (Card.T_NES,)
    assert [(e.player, e.card) for e in of_type(tr.events, CardDrawn)] == [(P2, Card.BRIDGE)]
    dealt = of_type(tr.events, HandDealt)
    assert {e.player for e in dealt} == {P1, P2}
    assert all(e.audience == e.player for e in dealt)
    assert current_player(tr.state) == P2


@pytest.mark.rule("deluxe.action.inspection", "privacy.inspection")
def test_inspection_shows_another_players_role_to_the_inspector_only() -> None:
    state = setup(deluxe_game(), hands={P1: [Card.INSPECTION]}, roles=[BLUE, SAB, GREEN, GEO])
    state = setup(state, turn=P1)
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.INSPECTION, p) for p in (P2, P3, P4)]
    assert refused(state, P1, PlayOnPlayer(Card.INSPECTION, P1)) is Reason.BAD_TARGET
    tr = apply(state, P1, PlayOnPlayer(Card.INSPECTION, P2))
    (seen,) = of_type(tr.events, RoleSeen)
    assert (seen.player, seen.target, seen.role, seen.audience) == (P1, P2, SAB, P1)
    assert player_view(tr.state, P1).inspected == ((P2, SAB),)
    assert player_view(tr.state, P3).inspected == ()
    assert all(e.audience is not None for e in tr.events if hasattr(e, "role"))


@pytest.mark.rule("deluxe.action.swap_hats", "privacy.roles")
def test_swap_your_hats_gives_a_new_role_from_the_cards_set_aside() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.SWAP_HATS]},
        roles=[BLUE, SAB, GREEN, GEO],
        spare_roles=[PROF],
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.SWAP_HATS, p) for p in (P1, P2, P3, P4)]
    tr = apply(state, P1, PlayOnPlayer(Card.SWAP_HATS, P2))
    assert tr.state.roles == (BLUE, PROF, GREEN, GEO)
    assert tr.state.spare_roles == ()  # the old role is discarded, not put back
    (dealt,) = of_type(tr.events, RoleDealt)
    assert (dealt.player, dealt.role, dealt.audience) == (P2, PROF, P2)
    assert player_view(tr.state, P2).role is PROF
    own = setup(state, hands={P1: [Card.SWAP_HATS]})
    assert act(own, P1, PlayOnPlayer(Card.SWAP_HATS, P1)).roles[0] is PROF
    none_left = setup(state, spare_roles=[])
    assert not [a for a in legal_actions(none_left, P1) if isinstance(a, PlayOnPlayer)]


@pytest.mark.rule("deluxe.action.trapped")
def test_trapped_is_put_in_front_of_another_player_and_stops_their_tunnels() -> None:
    state = setup(
        deluxe_game(),
        board=EMPTY,
        hands={P1: [Card.TRAPPED], P2: [Card.CROSS, Card.MAP]},
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.TRAPPED, p) for p in (P2, P3, P4)]
    assert refused(state, P1, PlayOnPlayer(Card.TRAPPED, P1)) is Reason.BAD_TARGET
    after = act(state, P1, PlayOnPlayer(Card.TRAPPED, P2))
    assert public_view(after).seats[1].is_trapped
    assert placements(after, P2) == []
    assert refused(after, P2, PlaceTunnel(Card.CROSS, (1, 0))) is Reason.TRAPPED
    assert legal_actions(after, P2)  # other cards still play


@pytest.mark.rule("deluxe.action.free")
def test_free_at_last_removes_a_trapped_card_from_any_player() -> None:
    state = setup(
        deluxe_game(),
        board=EMPTY,
        hands={P1: [Card.FREE, Card.CROSS]},
        in_front={P1: [Card.TRAPPED], P3: [Card.TRAPPED]},
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.FREE, P1), PlayOnPlayer(Card.FREE, P3)]
    assert refused(state, P1, PlayOnPlayer(Card.FREE, P2)) is Reason.NOTHING_TO_REMOVE
    after = act(state, P1, PlayOnPlayer(Card.FREE, P1))
    assert not public_view(after).seats[0].is_trapped
    assert public_view(after).seats[2].is_trapped
    assert placements(setup(after, turn=P1), P1)


@pytest.mark.rule("deluxe.action.one_of_a_kind", "deluxe.base_rules")
def test_no_player_has_two_action_cards_of_the_same_kind_in_front() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.THEFT, Card.TRAPPED, Card.BREAK_CART]},
        in_front={P1: [Card.THEFT], P2: [Card.TRAPPED, Card.BREAK_CART]},
        thefts=[P1],
        turn=P1,
    )
    offered = {(a.card, a.target) for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)}
    assert (Card.THEFT, P1) not in offered
    assert (Card.TRAPPED, P2) not in offered and (Card.TRAPPED, P3) in offered
    assert (Card.BREAK_CART, P2) not in offered and (Card.BREAK_CART, P1) in offered
    assert refused(state, P1, PlayOnPlayer(Card.THEFT, P1)) is Reason.ALREADY_IN_FRONT
    assert refused(state, P1, PlayOnPlayer(Card.TRAPPED, P2)) is Reason.ALREADY_IN_FRONT


# ---------------------------------------------------------------- a round


@pytest.mark.rule("deluxe.setup.deck", "privacy.discards")
@pytest.mark.parametrize("n", [2, 5, 12])
def test_a_deluxe_round_shuffles_117_cards_removes_10_unseen_and_deals_6_to_each(n: int) -> None:
    state = deluxe_game(n, seed=n)
    assert [len(h) for h in state.hands] == [6] * n
    assert len(state.removed) == 10
    everything = Counter(state.deck) + Counter(state.removed)
    everything += Counter(c for h in state.hands for c in h)
    assert sum(everything.values()) == 117
    expected = {s.card: s.base_copies + s.expansion_copies for s in CARDS}
    assert everything == Counter({c: k for c, k in expected.items() if k})
    assert public_view(state).deck_size == 117 - 10 - 6 * n
    assert not hasattr(public_view(state), "removed")  # unseen


@pytest.mark.rule("deluxe.turn.play")
def test_placing_a_tunnel_or_playing_an_action_then_draws_one() -> None:
    state = setup(
        deluxe_game(),
        board=EMPTY,
        hands={P1: [Card.CROSS, Card.THEFT, Card.MAP]},
        deck=[Card.FREE, Card.BRIDGE, Card.SWAP_HAND],
        turn=P1,
    )
    placed = apply(state, P1, PlaceTunnel(Card.CROSS, (1, 0)))
    assert len(placed.state.hands[0]) == 3 and len(placed.state.deck) == 2
    played = apply(state, P1, PlayOnPlayer(Card.THEFT, P1))
    assert len(played.state.hands[0]) == 3 and len(played.state.deck) == 2


@pytest.mark.rule("deluxe.turn.clear", "privacy.public")
def test_discarding_two_cards_removes_a_card_in_front_of_yourself_then_draws_one() -> None:
    state = setup(
        deluxe_game(),
        board=EMPTY,
        hands={P1: [Card.MAP, Card.ROCKFALL, Card.CROSS]},
        in_front={P1: [Card.BREAK_PICKAXE, Card.TRAPPED], P2: [Card.BREAK_CART]},
        deck=[Card.FREE, Card.BRIDGE],
        turn=P1,
    )
    clears = [a for a in legal_actions(state, P1) if isinstance(a, ClearInFront)]
    assert {a.removes for a in clears} == {Card.BREAK_PICKAXE, Card.TRAPPED}
    assert len(clears) == 3 * 2  # every pair of cards, for each card in front
    tr = apply(state, P1, ClearInFront((Card.MAP, Card.ROCKFALL), Card.TRAPPED))
    assert tr.state.hands[0] == (Card.CROSS, Card.BRIDGE)
    assert tr.state.deck == (Card.FREE,)
    assert tr.state.in_front[0] == (Card.BREAK_PICKAXE,)
    (gone,) = of_type(tr.events, CardsDiscarded)
    assert (gone.count, gone.audience) == (2, None)
    (cleared,) = of_type(tr.events, InFrontCleared)
    assert (cleared.player, cleared.card) == (P1, Card.TRAPPED)
    bad = ClearInFront((Card.MAP, Card.ROCKFALL), Card.BREAK_CART)  # not in front of P1
    assert refused(state, P1, bad) is Reason.NOTHING_TO_REMOVE


@pytest.mark.rule("deluxe.turn.clear")
def test_clearing_a_theft_from_in_front_of_yourself_cancels_it() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.MAP, Card.ROCKFALL]},
        in_front={P1: [Card.THEFT]},
        thefts=[P1],
        others_empty=True,
        deck=[],
        roles=[SAB, BLUE, BLUE, PROF],
        gold={P2: 4},
        turn=P1,
    )
    tr = apply(state, P1, ClearInFront((Card.MAP, Card.ROCKFALL), Card.THEFT))
    assert of_type(tr.events, RoundEnded)
    assert of_type(tr.events, GoldStolen) == []


@pytest.mark.rule("deluxe.turn.pass", "privacy.discards")
def test_a_pass_discards_1_to_3_cards_then_draws_as_many() -> None:
    hand = [Card.MAP, Card.ROCKFALL, Card.CROSS, Card.THEFT]
    state = setup(
        deluxe_game(),
        hands={P1: hand},
        deck=[Card.FREE, Card.BRIDGE, Card.SWAP_HAND, Card.T_NES],
        turn=P1,
    )
    discards = [a for a in legal_actions(state, P1) if isinstance(a, Discard)]
    assert Counter(len(a.cards) for a in discards) == Counter({1: 4, 2: 6, 3: 4})
    tr = apply(state, P1, Discard((Card.CROSS, Card.MAP, Card.ROCKFALL)))
    assert Counter(tr.state.hands[0]) == Counter(
        [Card.THEFT, Card.T_NES, Card.SWAP_HAND, Card.BRIDGE]
    )
    assert tr.state.deck == (Card.FREE,)
    (gone,) = of_type(tr.events, CardsDiscarded)
    assert (gone.count, gone.audience) == (3, None)
    assert refused(state, P1, Discard(tuple(hand))) is Reason.BAD_DISCARD


@pytest.mark.rule("deluxe.turn.deck_empty")
def test_when_the_deck_is_empty_nobody_draws() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.MAP, Card.ROCKFALL, Card.CROSS], P2: [Card.MAP]},
        deck=[],
        turn=P1,
    )
    tr = apply(state, P1, Discard((Card.MAP, Card.ROCKFALL)))
    assert tr.state.hands[0] == (Card.CROSS,)
    assert of_type(tr.events, CardDrawn) == []


@pytest.mark.rule("deluxe.turn.empty_hand")
def test_a_player_with_an_empty_hand_passes_for_the_rest_of_the_round() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.MAP, Card.CROSS], P2: [], P3: [Card.MAP], P4: []},
        deck=[],
        turn=P1,
    )
    seen = []
    for _ in range(3):
        player = to_act(state)
        seen.append(player)
        state = act(state, player, Discard((state.hands[state.seat_of(player)][0],)))
    assert seen == [P1, P3, P1]


# ---------------------------------------------------------------- end of round


@pytest.mark.rule("deluxe.end.round", "deluxe.win.saboteurs")
def test_a_deluxe_round_ends_when_nobody_can_play_any_more_cards() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.MAP], P3: [Card.CROSS]},
        others_empty=True,
        deck=[],
        turn=P1,
    )
    first = apply(state, P1, Discard((Card.MAP,)))
    assert of_type(first.events, RoundEnded) == []
    last = apply(first.state, P3, Discard((Card.CROSS,)))
    (ended,) = of_type(last.events, RoundEnded)
    assert ended.result.winners == (Side.SABOTEURS,)
    assert last.state.round == 2
    assert [len(h) for h in last.state.hands] == [6] * 4


# ---------------------------------------------------------------- who wins

# Two routes from a junction east of the start to the gold: the upper route through the corners
# {ul} (1,-1) and {ur} (8,-1), the lower one through {ll} (1,1) and {lr} (8,1). The finder lays
# the junction (N-S-W) at (1,0), joining both routes at once.
ROUTES = """
. . . . . . . . ?%NE
. {ul} EW EW EW EW EW EW {ur}
@ . . . . . . . ?$
. {ll} EW EW EW EW EW EW {lr}
. . . . . . . . ?%NW
"""
JUNCTION = PlaceTunnel(Card.T_NES, (1, 0), rotated=True)
PLAIN = {"ul": "ES", "ur": "SW", "ll": "NE", "lr": "NW"}
SIX = (BLUE, GREEN, BOSS, PROF, SAB, GEO)  # P1..P6


def reach_gold(doors: dict[str, str], finder: PlayerId, roles: Sequence[Role] = SIX) -> Transition:
    """The finder joins both routes (with these door corners) to the gold; the transition."""
    n = len(roles)
    board = ROUTES.format(**(PLAIN | doors))
    state = setup(
        deluxe_game(n), board=board, roles=roles, hands={finder: [Card.T_NES]}, turn=finder
    )
    tr = apply(state, finder, JUNCTION)
    assert of_type(tr.events, GoalRevealed)[0].card is Card.GOLD
    return tr


def winners(tr: Transition) -> tuple[Side, ...]:
    return of_type(tr.events, RoundEnded)[0].result.winners


@pytest.mark.rule(
    "deluxe.win.routes",
    "deluxe.win.boss",
    "deluxe.win.profiteer",
    "deluxe.payout.table",
    "deluxe.payout.boss_profiteer",
)
@pytest.mark.parametrize(
    ("doors", "finder", "side", "paid"),
    [
        # Blue wins: the finder is not green and a route (the upper) has no green door.
        ({"ul": "BES", "ll": "GNE"}, P1, Side.BLUE, {P1: 3, P3: 2, P4: 1}),
        # Green wins symmetrically: the lower route has no blue door.
        ({"ul": "BES", "ll": "GNE"}, P2, Side.GREEN, {P2: 3, P3: 2, P4: 1}),
        # Both teams: the finder is neither colour; one route lacks green, another lacks blue.
        ({"ul": "BES", "ll": "GNE"}, P5, Side.BOTH_TEAMS, {P1: 2, P2: 2, P3: 1}),
        # Both teams: no door at all and a finder of neither colour.
        ({}, P4, Side.BOTH_TEAMS, {P1: 2, P2: 2, P3: 1}),
        # A blue finder on an open route: blue only (green needs a route with no blue door and a
        # finder who is not blue).
        ({}, P1, Side.BLUE, {P1: 3, P3: 2, P4: 1}),
        # Every route has doors of both colours: the boss wins alone (with the profiteer).
        ({"ul": "BES", "ur": "GSW", "ll": "GNE", "lr": "BNW"}, P1, Side.BOSS, {P3: 3, P4: 2}),
        # A green finder, every route blue-doored, one without a green door: blue wins.
        ({"ul": "BES", "lr": "BNW"}, P2, Side.BLUE, {P1: 3, P3: 2, P4: 1}),
        # A blue finder, every route green-doored, one without a blue door: green wins.
        ({"ur": "GSW", "ll": "GNE"}, P1, Side.GREEN, {P2: 3, P3: 2, P4: 1}),
    ],
    ids=[
        "blue",
        "green",
        "both-teams-saboteur-finder",
        "both-teams-no-doors",
        "blue-finder-open-route",
        "boss-alone",
        "green-finder-blue-doors",
        "blue-finder-green-doors",
    ],
)
def test_the_winning_side_follows_the_doors_on_every_route(
    doors: dict[str, str], finder: PlayerId, side: Side, paid: dict[PlayerId, int]
) -> None:
    tr = reach_gold(doors, finder)
    assert winners(tr) == (side,)
    assert of_type(tr.events, RoundEnded)[0].result.finder == finder
    assert _paid(tr.events) == paid


@pytest.mark.rule("deluxe.win.routes", "deluxe.place.ladder_root")
def test_a_route_from_a_ladder_counts_for_the_doors() -> None:
    # From the start the only way runs through a blue door; from the ladder there is no door.
    board = """
    . . . . . . . . ?%NE
    . . #E EW EW EW EW SW .
    @ BEW EW EW EW EW EW . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(
        deluxe_game(4),
        board=board,
        roles=[BLUE, GREEN, SAB, PROF],
        hands={P2: [Card.T_NEW]},
        turn=P2,
    )
    tr = apply(state, P2, PlaceTunnel(Card.T_NEW, (7, 0)))
    assert of_type(tr.events, GoalRevealed)[0].card is Card.GOLD
    assert winners(tr) == (Side.GREEN,)  # without the ladder's route it would be blue
    assert _paid(tr.events) == {P2: 4, P4: 2}


@pytest.mark.rule("deluxe.win.saboteurs", "deluxe.win.profiteer", "deluxe.payout.table")
def test_the_saboteurs_win_when_the_gold_is_not_reached() -> None:
    state = setup(deluxe_game(6), roles=SIX)
    tr = end_round(state, P6)
    assert winners(tr) == (Side.SABOTEURS,)
    assert _paid(tr.events) == {P5: 4, P4: 2}  # the saboteur and the profiteer: 2 winners


@pytest.mark.rule("deluxe.win.saboteurs")
def test_the_saboteurs_do_not_win_when_the_gold_is_reached() -> None:
    tr = reach_gold({}, P2, roles=(BLUE, SAB, SAB, GREEN))
    assert Side.SABOTEURS not in winners(tr)
    assert set(_paid(tr.events)) == {P1, P4}


# ---------------------------------------------------------------- payout


@pytest.mark.rule("deluxe.payout.table")
@pytest.mark.parametrize(
    ("roles", "each"),
    [
        ([BLUE, GREEN, SAB], 5),
        ([BLUE, BLUE, GREEN, SAB], 4),
        ([BLUE, BLUE, BLUE, GREEN], 3),
        ([BLUE, BLUE, BLUE, BLUE, GREEN], 2),
        ([BLUE, BLUE, BLUE, BLUE, PROF, GREEN], 1),
    ],
)
def test_each_winner_gets_5_4_3_2_or_1_by_number_of_winners(roles: list[Role], each: int) -> None:
    n = len(roles)
    tr = find_gold(deluxe_game(n), P1, roles=roles)
    assert winners(tr) == (Side.BLUE,)
    blues = {p for p, r in zip(players(n), roles, strict=True) if r is BLUE}
    assert {p: g for p, g in _paid(tr.events).items() if p in blues} == dict.fromkeys(blues, each)
    assert all(tr.state.gold[i] == (each if r is BLUE else 0) for i, r in enumerate(roles))


@pytest.mark.rule("deluxe.payout.table", "deluxe.payout.boss_profiteer")
def test_the_rulebook_example_one_blue_miner_the_boss_and_the_profiteer_get_3_2_1() -> None:
    tr = find_gold(deluxe_game(5), P1, roles=[BLUE, GREEN, BOSS, PROF, SAB])
    assert winners(tr) == (Side.BLUE,)
    assert _paid(tr.events) == {P1: 3, P3: 2, P4: 1}
    assert tr.state.gold == (3, 0, 2, 1, 0)


@pytest.mark.rule("deluxe.payout.boss_profiteer")
def test_the_boss_and_profiteer_shares_never_go_below_zero() -> None:
    roles = [BLUE, BLUE, BLUE, BLUE, BOSS, PROF, GREEN]
    tr = find_gold(deluxe_game(7), P1, roles=roles)
    assert winners(tr) == (Side.BLUE,)
    assert tr.state.gold == (1, 1, 1, 1, 0, 0, 0)
    assert min(tr.state.gold) == 0


@pytest.mark.rule("deluxe.payout.trapped")
def test_trapped_players_are_not_winners() -> None:
    roles = [BLUE, BLUE, GREEN, SAB]
    tr = find_gold(deluxe_game(4), P1, roles=roles, in_front={P2: [Card.TRAPPED]})
    assert winners(tr) == (Side.BLUE,)
    assert _paid(tr.events) == {P1: 5}  # one winner, not two
    assert tr.state.gold == (5, 0, 0, 0)


CRYSTALS = """
. . . . . . . . ?%NE
. *NES *NES . . . . . .
@ . . . . . . . ?$
. *NESW *EW *n . . . .
. . . . . . . . ?%NW
"""


@pytest.mark.rule("deluxe.payout.geologists")
def test_geologists_share_the_crystals_in_the_maze_rounded_down() -> None:
    state = setup(deluxe_game(5), board=CRYSTALS, roles=[GEO, BLUE, GEO, GREEN, SAB])
    assert public_view(state).crystals == 5
    tr = end_round(state, P2)
    assert winners(tr) == (Side.SABOTEURS,)
    assert _paid(tr.events) == {P1: 2, P3: 2, P5: 5}
    assert tr.state.gold == (2, 0, 2, 0, 5)


@pytest.mark.rule("deluxe.win.geologists", "deluxe.payout.geologists")
def test_geologists_are_never_counted_as_winners() -> None:
    state = setup(deluxe_game(4), board=CRYSTALS, roles=[GEO, BLUE, GEO, GREEN])
    tr = end_round(state, P2)
    assert _paid(tr.events) == {P1: 2, P3: 2}
    reached = find_gold(deluxe_game(4), P2, roles=[GEO, BLUE, GEO, GREEN])
    assert winners(reached) == (Side.BLUE,)
    assert _paid(reached.events) == {P2: 5}


@pytest.mark.rule("deluxe.payout.trapped", "deluxe.payout.geologists")
def test_a_trapped_geologist_gets_no_crystals() -> None:
    state = setup(
        deluxe_game(4),
        board=CRYSTALS,
        roles=[GEO, BLUE, GEO, GREEN],
        in_front={P3: [Card.TRAPPED]},
    )
    tr = end_round(state, P2)
    assert _paid(tr.events) == {P1: 2}
    assert tr.state.gold == (2, 0, 0, 0)


@pytest.mark.rule("deluxe.game.rounds")
def test_deluxe_gold_is_kept_over_three_rounds_and_ties_all_win() -> None:
    state = find_gold(deluxe_game(4), P1, roles=[BLUE, GREEN, GREEN, SAB]).state
    assert (state.round, state.gold) == (2, (5, 0, 0, 0))
    state = find_gold(state, P2, roles=[GREEN, BLUE, GREEN, SAB]).state
    assert (state.round, state.gold) == (3, (5, 5, 0, 0))
    tr = end_round(setup(state, roles=[BLUE, BLUE, GREEN, GREEN]), P1)
    assert public_view(tr.state).final_gold == ((P1, 5), (P2, 5), (P3, 0), (P4, 0))
    (over,) = of_type(tr.events, GameEnded)
    assert over.winners == (P1, P2)


@pytest.mark.rule("variant.base_only")
def test_the_variants_change_nothing_in_deluxe() -> None:
    both = Options(gold=GoldRule.PER_MINER, greedy_dwarf=True)
    roles = [BLUE, BLUE, GREEN, SAB]
    broken = {P2: [Card.BREAK_CART]}
    plain = find_gold(deluxe_game(4), P1, roles=roles, in_front=broken)
    varied = find_gold(deluxe_game(4, options=both), P1, roles=roles, in_front=broken)
    assert varied.state.options == both
    assert _paid(varied.events) == _paid(plain.events) == {P1: 4, P2: 4}


@pytest.mark.rule("deluxe.action.swap_hand", "deluxe.turn.empty_hand")
def test_swap_your_hand_is_not_offered_with_a_player_whose_hand_is_empty() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.SWAP_HAND, Card.MAP], P2: [], P3: [Card.CROSS], P4: [Card.MAP]},
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.SWAP_HAND, p) for p in (P3, P4)]
    assert refused(state, P1, PlayOnPlayer(Card.SWAP_HAND, P2)) is Reason.BAD_TARGET


@pytest.mark.rule("deluxe.turn.pass")
def test_discarded_cards_are_a_set_in_any_order() -> None:
    state = setup(
        deluxe_game(),
        hands={P1: [Card.MAP, Card.CROSS, Card.ROCKFALL]},
        deck=[Card.T_NES, Card.BRIDGE],
        turn=P1,
    )
    tr = apply(state, P1, Discard((Card.ROCKFALL, Card.MAP)))
    assert Counter(tr.state.hands[0]) == Counter([Card.CROSS, Card.T_NES, Card.BRIDGE])
    assert sorted(tr.state.discards[-2:]) == [Card.MAP, Card.ROCKFALL]
