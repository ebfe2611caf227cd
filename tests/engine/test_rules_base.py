"""Base-game scenario tests; each carries the ids of the rules it checks (docs/rules.md)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable

import pytest

from engine import (
    CARDS,
    Card,
    ClearInFront,
    Coord,
    Discard,
    Edition,
    GameState,
    GoldRule,
    Kind,
    Options,
    Phase,
    PlaceTunnel,
    PlayerId,
    PlayOnPlayer,
    Reason,
    Rockfall,
    Role,
    Side,
    Tool,
    UseMap,
    apply,
    current_player,
    from_json,
    legal_actions,
    new_game,
    player_view,
    public_view,
    spec,
    to_json,
)
from engine.events import (
    ActionPlayed,
    CardDrawn,
    CardsDiscarded,
    Event,
    GameEnded,
    GoalPeeked,
    GoalRevealed,
    GoldReceived,
    HandDealt,
    MapUsed,
    PlayerPassed,
    RockfallPlayed,
    RoleDealt,
    RoundEnded,
    RoundStarted,
    TunnelPlaced,
)
from engine.model import Goal
from engine.notation import board_text

from .scenario import (
    EMPTY,
    LAST_STEP,
    act,
    base_game,
    cells,
    end_round,
    find_gold,
    of_type,
    placements,
    players,
    refused,
    setup,
    to_act,
)

P1, P2, P3, P4, P5 = players(5)
M, S = Role.MINER, Role.SABOTEUR

# The same corridor, a coal goal in the middle and the gold in the south.
COAL_NEXT = """
. . . . . . . . ?%NE
. . . . . . . . .
@ EW EW EW EW EW EW . ?%NW
. . . . . . . . .
. . . . . . . . ?$
"""


def goal_at(state: GameState, at: Coord) -> Goal:
    return next(g for g in state.goals if g.at == at)


# ---------------------------------------------------------------- geometry


@pytest.mark.rule("base.geometry.orientation")
def test_a_card_lies_at_0_or_180_degrees_and_180_swaps_n_s_and_e_w() -> None:
    state = setup(base_game(), board=EMPTY, hands={P1: [Card.T_NES, Card.STRAIGHT_NS]}, turn=P1)
    east = [a for a in placements(state, P1) if a.at == (1, 0)]
    # East of the start the card needs a W edge: only T N-E-S turned (N-S-W) has one; a straight
    # N-S would have to lie sideways.
    assert east == [PlaceTunnel(Card.T_NES, (1, 0), rotated=True)]
    north = {(a.card, a.rotated) for a in placements(state, P1) if a.at == (0, -1)}
    assert north == {(Card.T_NES, False), (Card.T_NES, True), (Card.STRAIGHT_NS, False)}
    after = act(state, P1, east[0])
    assert board_text(public_view(after).board).split("\n")[2].split()[:2] == ["@", "NSW"]


@pytest.mark.rule("base.geometry.symmetric")
def test_a_symmetric_card_is_offered_in_one_orientation_only() -> None:
    state = setup(base_game(), board=EMPTY, hands={P1: [Card.CROSS, Card.CURVE_NE]}, turn=P1)
    crosses = [a for a in placements(state, P1) if a.card is Card.CROSS]
    assert crosses and all(not a.rotated for a in crosses)
    assert len({a.at for a in crosses}) == len(crosses)
    curves = {a.rotated for a in placements(state, P1) if a.card is Card.CURVE_NE}
    assert curves == {False, True}
    assert refused(state, P1, PlaceTunnel(Card.CROSS, (1, 0), rotated=True)) is (
        Reason.ROTATION_NOT_OFFERED
    )


@pytest.mark.rule("base.cards.dead_ends", "base.place.match")
def test_a_dead_end_stub_must_match_its_neighbours_like_any_tunnel() -> None:
    state = setup(base_game(), board=EMPTY, hands={P1: [Card.DEAD_N, Card.DEAD_E]}, turn=P1)
    east = {(a.card, a.rotated) for a in placements(state, P1) if a.at == (1, 0)}
    assert east == {(Card.DEAD_E, True)}  # its stub turned to the W meets the start
    assert refused(state, P1, PlaceTunnel(Card.DEAD_N, (1, 0))) is Reason.DOES_NOT_FIT


@pytest.mark.rule("base.cards.dead_ends")
def test_nothing_passes_through_a_dead_end() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ ew . . . . . . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_EW]}, turn=P1)
    assert (2, 0) not in cells(state, P1)
    assert refused(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (2, 0))) is Reason.NOT_CONNECTED


@pytest.mark.rule("base.setup.layout")
def test_a_round_starts_with_the_start_card_and_three_face_down_goals() -> None:
    view = public_view(base_game())
    assert [(c.at, c.card, c.rotated) for c in view.board.cards] == [((0, 0), Card.START, False)]
    assert [g.at for g in view.board.goals] == [(8, -2), (8, 0), (8, 2)]
    assert all(not g.revealed and g.card is None for g in view.board.goals)


@pytest.mark.rule("base.setup.goals")
def test_the_goals_are_one_gold_and_two_coal_cards_shuffled() -> None:
    spots = set()
    for seed in range(12):
        state = base_game(seed=seed)
        assert sorted(g.card for g in state.goals) == [Card.GOLD, Card.COAL_NE, Card.COAL_NW]
        spots.add(next(g.at for g in state.goals if g.card is Card.GOLD))
    assert spots == {(8, -2), (8, 0), (8, 2)}


# ---------------------------------------------------------------- tunnel cards


@pytest.mark.rule("base.cards.tunnels")
def test_the_base_game_has_40_tunnel_cards_in_the_table_counts() -> None:
    expected = {
        Card.CROSS: ("NESW", 5),
        Card.T_NES: ("NES", 5),
        Card.T_NEW: ("NEW", 5),
        Card.STRAIGHT_NS: ("NS", 4),
        Card.STRAIGHT_EW: ("EW", 3),
        Card.CURVE_NW: ("NW", 4),
        Card.CURVE_NE: ("NE", 5),
    }
    tunnels = {s.card: s for s in CARDS if s.kind is Kind.TUNNEL and s.base_copies}
    assert sum(s.base_copies for s in tunnels.values()) == 40
    for card, (edges, copies) in expected.items():
        s = spec(card)
        assert s.base_copies == copies, card
        assert len(s.tunnels) == 1, card  # all its edges joined
        assert s.open_edges == _mask(edges), card


@pytest.mark.rule("base.cards.dead_ends")
def test_the_nine_dead_ends_have_their_stubs_joined_to_nothing() -> None:
    shapes = {
        Card.DEAD_NESW: "NESW",
        Card.DEAD_NES: "NES",
        Card.DEAD_NEW: "NEW",
        Card.DEAD_NS: "NS",
        Card.DEAD_EW: "EW",
        Card.DEAD_NW: "NW",
        Card.DEAD_NE: "NE",
        Card.DEAD_N: "N",
        Card.DEAD_E: "E",
    }
    for card, edges in shapes.items():
        s = spec(card)
        assert s.base_copies == 1, card
        assert s.open_edges == _mask(edges), card
        assert len(s.tunnels) == len(edges), card  # one stub per edge


@pytest.mark.rule("base.cards.start_goals")
def test_start_gold_and_coal_cards_have_their_shapes() -> None:
    for card, edges in (
        (Card.START, "NESW"),
        (Card.GOLD, "NESW"),
        (Card.COAL_NE, "NE"),
        (Card.COAL_NW, "NW"),
    ):
        assert spec(card).tunnels == (_mask(edges),), card


@pytest.mark.rule("base.setup.deck")
def test_a_round_shuffles_exactly_the_40_tunnel_and_27_action_cards() -> None:
    state = base_game(5)
    dealt = Counter(state.deck) + Counter(c for h in state.hands for c in h)
    assert sum(dealt.values()) == 67
    assert dealt == Counter({s.card: s.base_copies for s in CARDS if s.base_copies})
    assert sum(n for c, n in dealt.items() if spec(c).kind is Kind.TUNNEL) == 40


# ---------------------------------------------------------------- action cards


@pytest.mark.rule("base.cards.actions")
def test_the_base_game_has_27_action_cards_in_the_table_counts() -> None:
    expected = {
        Card.BREAK_PICKAXE: (Kind.BREAK, (Tool.PICKAXE,), 3),
        Card.BREAK_LANTERN: (Kind.BREAK, (Tool.LANTERN,), 3),
        Card.BREAK_CART: (Kind.BREAK, (Tool.CART,), 3),
        Card.REPAIR_PICKAXE: (Kind.REPAIR, (Tool.PICKAXE,), 2),
        Card.REPAIR_LANTERN: (Kind.REPAIR, (Tool.LANTERN,), 2),
        Card.REPAIR_CART: (Kind.REPAIR, (Tool.CART,), 2),
        Card.REPAIR_PICKAXE_LANTERN: (Kind.REPAIR, (Tool.PICKAXE, Tool.LANTERN), 1),
        Card.REPAIR_PICKAXE_CART: (Kind.REPAIR, (Tool.PICKAXE, Tool.CART), 1),
        Card.REPAIR_LANTERN_CART: (Kind.REPAIR, (Tool.LANTERN, Tool.CART), 1),
        Card.MAP: (Kind.MAP, (), 6),
        Card.ROCKFALL: (Kind.ROCKFALL, (), 3),
    }
    actions = {s.card for s in CARDS if s.base_copies and s.kind is not Kind.TUNNEL}
    assert actions == set(expected)
    for card, (kind, tools, copies) in expected.items():
        s = spec(card)
        assert (s.kind, set(s.tools), s.base_copies) == (kind, set(tools), copies), card
    assert sum(copies for _, _, copies in expected.values()) == 27


@pytest.mark.rule("base.action.break")
def test_a_broken_tool_can_be_put_in_front_of_any_player_including_yourself() -> None:
    state = setup(base_game(), hands={P1: [Card.BREAK_PICKAXE]}, turn=P1)
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.BREAK_PICKAXE, p) for p in players(4)]
    after = act(state, P1, PlayOnPlayer(Card.BREAK_PICKAXE, P1))
    assert public_view(after).seats[0].broken == (Tool.PICKAXE,)


@pytest.mark.rule("base.action.break_limit")
def test_a_player_has_at_most_one_broken_card_of_each_tool() -> None:
    state = setup(
        base_game(),
        hands={P1: [Card.BREAK_PICKAXE, Card.BREAK_LANTERN]},
        in_front={P2: [Card.BREAK_PICKAXE]},
        turn=P1,
    )
    offered = {(a.card, a.target) for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)}
    assert (Card.BREAK_PICKAXE, P2) not in offered
    assert (Card.BREAK_LANTERN, P2) in offered
    assert refused(state, P1, PlayOnPlayer(Card.BREAK_PICKAXE, P2)) is Reason.ALREADY_IN_FRONT
    after = act(state, P1, PlayOnPlayer(Card.BREAK_LANTERN, P2))
    assert set(public_view(after).seats[1].broken) == {Tool.PICKAXE, Tool.LANTERN}


@pytest.mark.rule("base.place.broken_tool")
def test_a_broken_tool_forbids_tunnel_cards_but_not_action_cards() -> None:
    for tool_card in (Card.BREAK_PICKAXE, Card.BREAK_LANTERN, Card.BREAK_CART):
        state = setup(
            base_game(),
            board=EMPTY,
            hands={P1: [Card.CROSS, Card.MAP, Card.BREAK_CART]},
            in_front={P1: [tool_card]},
            turn=P1,
        )
        assert placements(state, P1) == []
        assert refused(state, P1, PlaceTunnel(Card.CROSS, (1, 0))) is Reason.TOOL_BROKEN
        offered = legal_actions(state, P1)
        assert UseMap((8, 0)) in offered
        assert PlayOnPlayer(Card.BREAK_CART, P2) in offered
        assert Discard((Card.CROSS,)) in offered


@pytest.mark.rule("base.action.repair")
def test_a_repair_removes_the_matching_broken_card_from_any_player() -> None:
    state = setup(
        base_game(),
        hands={P1: [Card.REPAIR_CART]},
        in_front={P1: [Card.BREAK_CART], P3: [Card.BREAK_CART, Card.BREAK_PICKAXE]},
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [
        PlayOnPlayer(Card.REPAIR_CART, P1, Tool.CART),
        PlayOnPlayer(Card.REPAIR_CART, P3, Tool.CART),
    ]
    after = act(state, P1, PlayOnPlayer(Card.REPAIR_CART, P3, Tool.CART))
    assert public_view(after).seats[2].in_front == (Card.BREAK_PICKAXE,)
    assert public_view(after).seats[0].in_front == (Card.BREAK_CART,)
    mine = act(state, P1, PlayOnPlayer(Card.REPAIR_CART, P1, Tool.CART))
    assert public_view(mine).seats[0].in_front == ()


@pytest.mark.rule("base.action.repair")
def test_a_repair_is_not_offered_when_no_matching_tool_is_broken() -> None:
    state = setup(
        base_game(),
        hands={P1: [Card.REPAIR_PICKAXE, Card.REPAIR_LANTERN_CART]},
        in_front={P2: [Card.BREAK_PICKAXE]},
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.REPAIR_PICKAXE, P2, Tool.PICKAXE)]
    assert refused(state, P1, PlayOnPlayer(Card.REPAIR_PICKAXE, P3, Tool.PICKAXE)) is (
        Reason.NOTHING_TO_REPAIR
    )
    nothing = setup(state, in_front={P2: []})
    assert not [a for a in legal_actions(nothing, P1) if isinstance(a, PlayOnPlayer)]


@pytest.mark.rule("base.action.repair_double")
def test_a_double_repair_fixes_exactly_one_of_its_two_tools() -> None:
    state = setup(
        base_game(),
        hands={P1: [Card.REPAIR_PICKAXE_LANTERN]},
        in_front={P2: [Card.BREAK_PICKAXE, Card.BREAK_LANTERN, Card.BREAK_CART]},
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [
        PlayOnPlayer(Card.REPAIR_PICKAXE_LANTERN, P2, Tool.PICKAXE),
        PlayOnPlayer(Card.REPAIR_PICKAXE_LANTERN, P2, Tool.LANTERN),
    ]
    after = act(state, P1, offered[1])
    assert public_view(after).seats[1].in_front == (Card.BREAK_PICKAXE, Card.BREAK_CART)


@pytest.mark.rule("base.action.repair_double")
def test_a_double_repair_only_fixes_a_tool_that_is_broken() -> None:
    state = setup(
        base_game(),
        hands={P1: [Card.REPAIR_PICKAXE_LANTERN]},
        in_front={P2: [Card.BREAK_LANTERN, Card.BREAK_CART]},
        turn=P1,
    )
    offered = [a for a in legal_actions(state, P1) if isinstance(a, PlayOnPlayer)]
    assert offered == [PlayOnPlayer(Card.REPAIR_PICKAXE_LANTERN, P2, Tool.LANTERN)]
    pickaxe = PlayOnPlayer(Card.REPAIR_PICKAXE_LANTERN, P2, Tool.PICKAXE)
    assert refused(state, P1, pickaxe) is Reason.NOTHING_TO_REPAIR
    cart = PlayOnPlayer(Card.REPAIR_PICKAXE_LANTERN, P2, Tool.CART)
    assert refused(state, P1, cart) is Reason.BAD_TARGET


@pytest.mark.rule("base.action.map", "privacy.map")
def test_map_shows_a_face_down_goal_to_its_player_only() -> None:
    state = setup(base_game(), board=EMPTY, hands={P1: [Card.MAP, Card.CROSS]}, turn=P1)
    tr = apply(state, P1, UseMap((8, 0)))
    (used,) = of_type(tr.events, MapUsed)
    assert (used.player, used.at, used.audience) == (P1, (8, 0), None)
    assert not hasattr(used, "card")
    (peek,) = of_type(tr.events, GoalPeeked)
    assert (peek.at, peek.card, peek.audience) == ((8, 0), Card.GOLD, P1)
    mine = {g.at: g for g in player_view(tr.state, P1).board.goals}
    assert (mine[(8, 0)].card, mine[(8, 0)].peeked, mine[(8, 0)].revealed) == (
        Card.GOLD,
        True,
        False,
    )
    assert mine[(8, -2)].card is None
    for view in (player_view(tr.state, P2).board, public_view(tr.state).board):
        assert all(g.card is None and not g.peeked for g in view.goals)


@pytest.mark.rule("base.action.map")
def test_map_is_offered_for_face_down_goals_only() -> None:
    board = """
    . . . . . . . . ?%NW
    . . . . . . . . .
    @ EW EW EW EW EW EW EW %SW
    . . . . . . . . .
    . . . . . . . . ?$
    """
    state = setup(base_game(), board=board, hands={P1: [Card.MAP]}, turn=P1)
    maps = [a for a in legal_actions(state, P1) if isinstance(a, UseMap)]
    assert maps == [UseMap((8, -2)), UseMap((8, 2))]
    assert refused(state, P1, UseMap((8, 0))) is Reason.NOT_A_HIDDEN_GOAL
    assert refused(state, P1, UseMap((3, 0))) is Reason.NOT_A_HIDDEN_GOAL


CORRIDOR = """
. . . . . . . . ?%NE
. . . . . . . . .
@ EW EW EW . . . . ?$
. . . . . . . . .
. . . . . . . . ?%NW
"""


@pytest.mark.rule("base.action.rockfall")
def test_rockfall_cannot_remove_the_start_card() -> None:
    state = setup(base_game(), board=CORRIDOR, hands={P1: [Card.ROCKFALL]}, turn=P1)
    assert Rockfall((0, 0)) not in legal_actions(state, P1)
    assert refused(state, P1, Rockfall((0, 0))) is Reason.NOTHING_TO_REMOVE


@pytest.mark.rule("base.action.rockfall", "ruling.coal_route")
def test_rockfall_cannot_remove_a_goal_face_down_or_revealed() -> None:
    board = """
    . . . . . . . . ?%NW
    . . . . . . . . .
    @ EW EW EW EW EW EW EW %SW
    . . . . . . . . .
    . . . . . . . . ?$
    """
    state = setup(base_game(), board=board, hands={P1: [Card.ROCKFALL]}, turn=P1)
    falls = {a.at for a in legal_actions(state, P1) if isinstance(a, Rockfall)}
    assert falls == {(x, 0) for x in range(1, 8)}
    for at in ((8, 0), (8, -2), (8, 2)):
        assert refused(state, P1, Rockfall(at)) is Reason.NOTHING_TO_REMOVE


@pytest.mark.rule("base.action.rockfall", "privacy.public")
def test_rockfall_removes_one_tunnel_and_cards_cut_off_by_it_stay() -> None:
    state = setup(base_game(), board=CORRIDOR, hands={P1: [Card.ROCKFALL]}, turn=P1)
    tr = apply(state, P1, Rockfall((1, 0)))
    (fall,) = of_type(tr.events, RockfallPlayed)
    assert (fall.at, fall.removed, fall.audience) == ((1, 0), Card.STRAIGHT_EW, None)
    laid = {c.at for c in public_view(tr.state).board.cards}
    assert laid == {(0, 0), (2, 0), (3, 0)}
    assert Counter(tr.state.discards) - Counter(state.discards) == Counter(
        {Card.ROCKFALL: 1, Card.STRAIGHT_EW: 1}
    )


@pytest.mark.rule("base.action.rockfall", "base.place.connected")
def test_after_a_rockfall_a_placement_must_connect_to_the_start_again() -> None:
    state = setup(
        base_game(),
        board=CORRIDOR,
        hands={P1: [Card.ROCKFALL], P2: [Card.STRAIGHT_EW, Card.CROSS]},
        turn=P1,
    )
    assert (4, 0) in cells(setup(state, turn=P2), P2)
    after = act(state, P1, Rockfall((1, 0)))
    assert current_player(after) == P2
    assert (4, 0) not in cells(after, P2)
    assert (1, 0) in cells(after, P2)
    assert refused(after, P2, PlaceTunnel(Card.STRAIGHT_EW, (4, 0))) is Reason.NOT_CONNECTED


# ---------------------------------------------------------------- gold and roles


@pytest.mark.rule("base.cards.gold")
def test_there_are_28_gold_cards_16_ones_8_twos_4_threes() -> None:
    assert Counter(base_game().gold_deck) == Counter({1: 16, 2: 8, 3: 4})


ROLE_TABLE = {3: (1, 3, 6), 4: (1, 4, 6), 5: (2, 4, 6), 6: (2, 5, 5)}
ROLE_TABLE |= {7: (3, 5, 5), 8: (3, 6, 4), 9: (3, 7, 4), 10: (4, 7, 4)}


@pytest.mark.rule("base.roles.table")
@pytest.mark.parametrize("n", sorted(ROLE_TABLE))
def test_roles_are_dealt_from_players_plus_one_cards_with_one_hidden(n: int) -> None:
    saboteurs, miners, _ = ROLE_TABLE[n]
    state = base_game(n, seed=n)
    assert len(state.roles) == n and len(state.spare_roles) == 1
    assert Counter(state.roles + state.spare_roles) == Counter({S: saboteurs, M: miners})


@pytest.mark.rule("base.setup.hand_size", "base.roles.table")
@pytest.mark.parametrize("n", sorted(ROLE_TABLE))
def test_hand_size_depends_on_the_player_count(n: int) -> None:
    state = base_game(n, seed=n)
    assert [len(h) for h in state.hands] == [ROLE_TABLE[n][2]] * n
    assert len(state.deck) == 67 - n * ROLE_TABLE[n][2]


@pytest.mark.rule("base.roles.hidden_card")
def test_the_real_number_of_saboteurs_can_be_zero_with_3_or_4_players() -> None:
    counts = {base_game(n, seed=seed).roles.count(S) for n in (3, 4) for seed in range(30)}
    assert counts == {0, 1}


@pytest.mark.rule("base.setup.players")
@pytest.mark.parametrize("n", [2, 11])
def test_the_base_game_is_for_3_to_10_players(n: int) -> None:
    with pytest.raises(ValueError):
        new_game(players(n), seed=1)


# ---------------------------------------------------------------- a round


@pytest.mark.rule("base.setup.deal", "privacy.roles", "privacy.hands")
def test_roles_and_hands_are_dealt_secretly() -> None:
    tr = end_round(base_game(), P1)
    dealt = of_type(tr.events, RoleDealt) + of_type(tr.events, HandDealt)
    assert len(dealt) == 8
    assert all(e.audience == e.player for e in dealt)
    seats = public_view(tr.state).seats
    assert [s.hand_size for s in seats] == [6] * 4
    assert player_view(tr.state, P2).role is tr.state.roles[1]
    assert player_view(tr.state, P2).hand == tr.state.hands[1]


@pytest.mark.rule("base.turn.first")
def test_the_first_round_is_started_by_a_random_player() -> None:
    starters = {current_player(base_game(seed=seed)) for seed in range(20)}
    assert starters == set(players(4))


@pytest.mark.rule("base.turn.order")
def test_play_goes_clockwise_in_join_order() -> None:
    state = setup(base_game(), turn=P3)
    seen = []
    for _ in range(5):
        player = to_act(state)
        seen.append(player)
        state = act(state, player, Discard((state.hands[state.seat_of(player)][0],)))
    assert seen == [P3, P4, P1, P2, P3]


@pytest.mark.rule("base.turn.draw", "privacy.hands")
def test_a_turn_is_one_card_then_one_draw() -> None:
    state = setup(
        base_game(),
        board=EMPTY,
        hands={P1: [Card.CROSS, Card.MAP]},
        deck=[Card.ROCKFALL, Card.T_NES],
        turn=P1,
    )
    tr = apply(state, P1, PlaceTunnel(Card.CROSS, (1, 0)))
    assert tr.state.hands[0] == (Card.T_NES, Card.MAP)
    assert tr.state.deck == (Card.ROCKFALL,)
    (drawn,) = of_type(tr.events, CardDrawn)
    assert (drawn.player, drawn.card, drawn.audience) == (P1, Card.T_NES, P1)
    assert current_player(tr.state) == P2


@pytest.mark.rule("base.turn.discard", "privacy.discards")
def test_a_player_discards_exactly_one_card_face_down() -> None:
    state = setup(base_game(), hands={P1: [Card.MAP, Card.CROSS]}, turn=P1)
    offered = [a for a in legal_actions(state, P1) if isinstance(a, Discard)]
    assert offered == [Discard((Card.CROSS,)), Discard((Card.MAP,))]
    assert refused(state, P1, Discard((Card.MAP, Card.CROSS))) is Reason.BAD_DISCARD
    tr = apply(state, P1, Discard((Card.MAP,)))
    (gone,) = of_type(tr.events, CardsDiscarded)
    assert (gone.player, gone.count, gone.audience) == (P1, 1, None)
    assert not hasattr(gone, "cards") and not hasattr(gone, "card")
    assert public_view(tr.state).discard_size == public_view(state).discard_size + 1


@pytest.mark.rule("base.turn.empty_hand", "privacy.public")
def test_a_player_with_an_empty_hand_passes() -> None:
    state = setup(
        base_game(),
        hands={P1: [Card.MAP], P2: [], P3: [], P4: [Card.MAP]},
        deck=[],
        turn=P1,
    )
    assert legal_actions(state, P2) == ()
    tr = apply(state, P1, Discard((Card.MAP,)))
    assert current_player(tr.state) == P4
    assert tr.state.round == 1
    # The group is told who passed.
    assert [e.player for e in of_type(tr.events, PlayerPassed)] == [P2, P3]
    assert all(e.audience is None for e in of_type(tr.events, PlayerPassed))


@pytest.mark.rule("base.turn.deck_empty")
def test_when_the_deck_is_empty_nobody_draws_and_players_still_play() -> None:
    state = setup(base_game(), hands={P1: [Card.MAP, Card.CROSS], P2: [Card.MAP]}, deck=[], turn=P1)
    tr = apply(state, P1, Discard((Card.MAP,)))
    assert of_type(tr.events, CardDrawn) == []
    assert tr.state.hands[0] == (Card.CROSS,)
    assert current_player(tr.state) == P2
    assert legal_actions(tr.state, P2)


# ---------------------------------------------------------------- placing a tunnel


@pytest.mark.rule("base.place.empty_cell")
def test_a_tunnel_goes_in_an_empty_cell() -> None:
    state = setup(base_game(), board=CORRIDOR, hands={P1: [Card.CROSS]}, turn=P1)
    for at in ((0, 0), (2, 0), (8, 0)):
        assert refused(state, P1, PlaceTunnel(Card.CROSS, at)) is Reason.CELL_TAKEN


@pytest.mark.rule("base.place.adjacent")
def test_a_tunnel_goes_next_to_a_card_already_in_the_maze() -> None:
    state = setup(base_game(), board=EMPTY, hands={P1: [Card.CROSS]}, turn=P1)
    assert cells(state, P1) == {(1, 0), (-1, 0), (0, 1), (0, -1)}
    assert refused(state, P1, PlaceTunnel(Card.CROSS, (3, 3))) is Reason.NOT_CONNECTED


@pytest.mark.rule("base.place.match")
def test_every_side_matches_every_placed_neighbour() -> None:
    board = """
    . . . . . . . . ?%NE
    . . EW . . . . . .
    @ EW . . . . . . ?$
    . . NS . . . . . .
    . . . . . . . . ?%NW
    """
    hand = [Card.CROSS, Card.STRAIGHT_EW, Card.T_NEW, Card.CURVE_NE]
    state = setup(base_game(), board=board, hands={P1: hand}, turn=P1)
    here = {(a.card, a.rotated) for a in placements(state, P1) if a.at == (2, 0)}
    # W must be open (the straight), N closed (rock under the E-W card), S open (the N-S card).
    assert here == {(Card.T_NEW, True), (Card.CURVE_NE, True)}
    assert refused(state, P1, PlaceTunnel(Card.CROSS, (2, 0))) is Reason.DOES_NOT_FIT
    assert refused(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (2, 0))) is Reason.DOES_NOT_FIT


@pytest.mark.rule("base.place.connected")
def test_a_placement_must_connect_to_the_start() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ . EW EW . . . . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_EW]}, turn=P1)
    assert cells(state, P1) == {(1, 0), (-1, 0)}
    assert refused(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (4, 0))) is Reason.NOT_CONNECTED


@pytest.mark.rule("base.place.connected", "base.cards.dead_ends")
def test_a_dead_end_stub_connects_the_new_card_but_leads_nowhere() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ EW . . . . . . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(base_game(), board=board, hands={P1: [Card.DEAD_NESW]}, turn=P1)
    assert PlaceTunnel(Card.DEAD_NESW, (2, 0)) in placements(state, P1)
    after = setup(act(state, P1, PlaceTunnel(Card.DEAD_NESW, (2, 0))), hands={P2: [Card.CROSS]})
    assert {(3, 0), (2, 1), (2, -1)} & cells(after, P2) == set()


@pytest.mark.rule("base.place.hidden_goal")
def test_a_face_down_goal_imposes_no_edge_constraint() -> None:
    board = """
    . . . . . . . . ?%NE
    ES EW EW EW EW EW EW EW .
    @ . . . . . . . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_EW, Card.CROSS]}, turn=P1)
    here = {a.card for a in placements(state, P1) if a.at == (8, -1)}
    assert here == {Card.STRAIGHT_EW, Card.CROSS}  # rock and open both face the goals
    after = act(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (8, -1)))
    assert not any(g.revealed for g in after.goals)


@pytest.mark.rule("base.place.hidden_goal")
def test_a_face_down_goal_does_not_connect_the_cards_beyond_it() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ EW EW EW EW EW EW EW ?%NW EW
    . . . . . . . . .
    . . . . . . . . ?$
    """
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_EW]}, turn=P1)
    assert (10, 0) not in cells(state, P1)
    assert refused(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (10, 0))) is Reason.NOT_CONNECTED


# ---------------------------------------------------------------- reaching a goal


@pytest.mark.rule("base.goal.reach", "base.goal.gold")
def test_reaching_the_gold_reveals_it_and_the_miners_win_at_once() -> None:
    state = setup(base_game(), roles=[M, M, S, M])
    tr = find_gold(state, P2)
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card, rev.audience) == ((8, 0), Card.GOLD, None)
    (ended,) = of_type(tr.events, RoundEnded)
    assert ended.result.winners == (Side.MINERS,)
    assert ended.result.finder == P2
    assert of_type(tr.events, CardDrawn) == []  # no draw: the round is over
    assert tr.state.round == 2


@pytest.mark.rule("base.goal.coal")
def test_reaching_a_coal_goal_reveals_it_and_play_continues() -> None:
    state = setup(base_game(), board=COAL_NEXT, hands={P1: [Card.STRAIGHT_EW]}, turn=P1)
    tr = apply(state, P1, LAST_STEP)
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card) == ((8, 0), Card.COAL_NW)
    assert of_type(tr.events, RoundEnded) == []
    assert current_player(tr.state) == P2
    assert tr.state.round == 1
    goals = {g.at: g for g in public_view(tr.state).board.goals}
    assert goals[(8, 0)].revealed and goals[(8, 0)].card is Card.COAL_NW
    assert not goals[(8, 2)].revealed


@pytest.mark.rule("ruling.coal_orientation")
@pytest.mark.parametrize(
    ("coal", "rotated"),
    [("?%NE", True), ("?%NW", False)],
)
def test_a_revealed_coal_goal_turns_to_match_the_card_just_played(coal: str, rotated: bool) -> None:
    # From the W: the N-E curve turns to S-W; the N-W curve already opens to the W.
    board = f"""
    . . . . . . . . ?$
    . . . . . . . . .
    @ EW EW EW EW EW EW . {coal}
    . . . . . . . . .
    . . . . . . . . {"?%NW" if coal == "?%NE" else "?%NE"}
    """
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_EW]}, turn=P1)
    tr = apply(state, P1, LAST_STEP)
    (rev,) = of_type(tr.events, GoalRevealed)
    assert rev.rotated is rotated
    assert goal_at(tr.state, (8, 0)).rotated is rotated


# Two neighbours of the middle coal (N-E curve) open towards it, from the W and from the N:
# neither of its orientations matches both, so the card just played decides.
FROM_WEST = """
. . . . . . . . ?$
. . . . . . . . SW
@ EW EW EW EW EW EW . ?%NE
. . . . . . . . .
. . . . . . . . ?%NW
"""
FROM_NORTH = """
. . . . . . . . ?$
ES EW EW EW EW EW EW EW .
@ . . . . . . EW ?%NE
. . . . . . . . .
. . . . . . . . ?%NW
"""


@pytest.mark.rule("ruling.coal_orientation", "ruling.coal_mismatch")
@pytest.mark.parametrize(
    ("board", "action", "rotated"),
    [
        (FROM_WEST, PlaceTunnel(Card.STRAIGHT_EW, (7, 0)), True),
        (FROM_NORTH, PlaceTunnel(Card.CURVE_NE, (8, -1), rotated=True), False),
    ],
)
def test_a_coal_goal_matching_no_orientation_stays_turned_to_the_card_just_played(
    board: str, action: PlaceTunnel, rotated: bool
) -> None:
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_EW, Card.CURVE_NE]}, turn=P1)
    tr = apply(state, P1, action)
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card, rev.rotated) == ((8, 0), Card.COAL_NE, rotated)
    assert tr.state.round == 1


@pytest.mark.rule("ruling.coal_orientation")
def test_a_coal_goal_reached_by_a_rejoined_section_lies_to_match_its_neighbours() -> None:
    # The card just placed is not next to the goal: the neighbours decide.
    board = """
    . . . . . . . . ?$
    . . . . . . . . .
    @ . EW EW EW EW EW EW ?%NE
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_EW]}, turn=P1)
    tr = apply(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (1, 0)))
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card, rev.rotated) == ((8, 0), Card.COAL_NE, True)


@pytest.mark.rule("ruling.coal_orientation", "ruling.coal_mismatch")
def test_a_coal_goal_far_from_the_card_just_played_opens_toward_the_tunnel_that_reached_it() -> (
    None
):
    # Not next to the card just placed and fitting neither way: it opens to the corridor that
    # reached it (S-W), never turning its rock toward it, and so mismatches the curve above.
    board = """
    . . . . . . . . ?$
    . . . . . . . . SW
    @ . EW EW EW EW EW EW ?%NE
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_EW]}, turn=P1)
    tr = apply(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (1, 0)))
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card, rev.rotated) == ((8, 0), Card.COAL_NE, True)


# The rejoined section reaches the middle coal (N-E curve) from the W and from the N at once:
# each orientation opens toward one of them.
TWO_SIDES = """
. . . . . . . . ?$
. . . . . . . ES SW
@ . EW EW EW EW EW NEW ?%NE {east}
. . . . . . . . .
. . . . . . . . ?%NW
"""


@pytest.mark.rule("ruling.coal_orientation")
@pytest.mark.parametrize(
    ("east", "rotated"),
    [(".", False), ("NS", True)],
)
def test_a_coal_goal_reached_from_two_sides_matches_more_neighbours_else_lies_at_0_degrees(
    east: str, rotated: bool
) -> None:
    # With nothing east the two orientations tie on every count: 0°. A N-S straight to the east
    # (rock toward the goal) is matched only by the S-W orientation, which then matches more.
    state = setup(
        base_game(),
        board=TWO_SIDES.format(east=east),
        hands={P1: [Card.STRAIGHT_EW]},
        turn=P1,
    )
    tr = apply(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (1, 0)))
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card, rev.rotated) == ((8, 0), Card.COAL_NE, rotated)


@pytest.mark.rule("base.goal.reach")
def test_a_cut_off_section_joined_again_reveals_the_gold_it_reaches() -> None:
    board = """
    . . . . . . . . ?%NE
    . . . . . . . . .
    @ . EW EW EW EW EW EW ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(base_game(), board=board, hands={P3: [Card.STRAIGHT_EW]}, turn=P3)
    tr = apply(state, P3, PlaceTunnel(Card.STRAIGHT_EW, (1, 0)))
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card) == ((8, 0), Card.GOLD)
    (ended,) = of_type(tr.events, RoundEnded)
    assert (ended.result.winners, ended.result.finder) == ((Side.MINERS,), P3)


@pytest.mark.rule("base.goal.several")
def test_one_placement_can_reach_two_goals_and_both_are_revealed() -> None:
    board = """
    . . . . . . . . ?%NE
    ES EW EW EW EW EW EW EW .
    @ . . . . . . . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = setup(base_game(), board=board, hands={P1: [Card.T_NES]}, turn=P1)
    tr = apply(state, P1, PlaceTunnel(Card.T_NES, (8, -1), rotated=True))
    revealed = {(e.at, e.card) for e in of_type(tr.events, GoalRevealed)}
    assert revealed == {((8, -2), Card.COAL_NE), ((8, 0), Card.GOLD)}
    (ended,) = of_type(tr.events, RoundEnded)
    assert ended.result.winners == (Side.MINERS,)


@pytest.mark.rule("base.goal.several", "base.goal.reach")
def test_a_coal_goal_turned_up_leads_on_to_the_goal_behind_it_in_the_same_move() -> None:
    # The coal turns to S-W to fit the corridor and the straight below it, which runs on to the
    # gold.
    board = """
    . . . . . . . . ?%NW
    . . . . . . . . .
    @ EW EW EW EW EW EW . ?%NE
    . . . . . . . . NS
    . . . . . . . . ?$
    """
    state = setup(
        base_game(), board=board, roles=[M, M, S, M], hands={P1: [Card.STRAIGHT_EW]}, turn=P1
    )
    tr = apply(state, P1, LAST_STEP)
    revealed = [(e.at, e.card, e.rotated) for e in of_type(tr.events, GoalRevealed)]
    assert revealed == [((8, 0), Card.COAL_NE, True), ((8, 2), Card.GOLD, False)]
    (ended,) = of_type(tr.events, RoundEnded)
    assert (ended.result.winners, ended.result.finder) == ((Side.MINERS,), P1)


@pytest.mark.rule("ruling.coal_route")
def test_a_route_passes_through_a_revealed_coal_goal() -> None:
    board = """
    . . . . . . . . ?%NW
    . . . . . . . . .
    @ EW EW EW EW EW EW EW %SW
    . . . . . . . . .
    . . . . . . . . ?$
    """
    state = setup(base_game(), board=board, hands={P1: [Card.STRAIGHT_NS]}, turn=P1)
    assert PlaceTunnel(Card.STRAIGHT_NS, (8, 1)) in placements(state, P1)
    tr = apply(state, P1, PlaceTunnel(Card.STRAIGHT_NS, (8, 1)))
    (rev,) = of_type(tr.events, GoalRevealed)
    assert (rev.at, rev.card) == ((8, 2), Card.GOLD)
    assert of_type(tr.events, RoundEnded)[0].result.winners == (Side.MINERS,)


@pytest.mark.rule("ruling.coal_route")
def test_a_revealed_coal_goal_constrains_its_neighbours() -> None:
    board = """
    . . . . . . . . ?%NW
    . . . . . . . . .
    @ EW EW EW EW EW EW EW %SW
    . . . . . . . . .
    . . . . . . . . ?$
    """
    state = setup(
        base_game(), board=board, hands={P1: [Card.STRAIGHT_EW, Card.STRAIGHT_NS]}, turn=P1
    )
    # Its open S edge wants an open N: a straight E-W would put rock against it.
    assert {a.card for a in placements(state, P1) if a.at == (8, 1)} == {Card.STRAIGHT_NS}
    assert refused(state, P1, PlaceTunnel(Card.STRAIGHT_EW, (8, 1))) is Reason.DOES_NOT_FIT


# ---------------------------------------------------------------- end of round, payout


@pytest.mark.rule("base.end.round")
def test_the_round_ends_when_the_deck_and_every_hand_are_empty() -> None:
    state = setup(
        base_game(), hands={P1: [Card.MAP], P2: [Card.MAP]}, others_empty=True, deck=[], turn=P1
    )
    first = apply(state, P1, Discard((Card.MAP,)))
    assert of_type(first.events, RoundEnded) == []
    last = apply(first.state, P2, Discard((Card.MAP,)))
    (ended,) = of_type(last.events, RoundEnded)
    assert ended.result.winners == (Side.SABOTEURS,)
    assert ended.result.finder is None
    assert last.state.round == 2


@pytest.mark.rule("base.end.reveal")
def test_roles_are_revealed_to_the_group_at_round_end() -> None:
    state = setup(base_game(), roles=[S, M, M, M])
    tr = end_round(state, P1)
    (ended,) = of_type(tr.events, RoundEnded)
    assert ended.audience is None
    assert ended.result.roles == ((P1, S), (P2, M), (P3, M), (P4, M))
    assert public_view(tr.state).results[-1].roles == ended.result.roles


def _paid(events: Iterable[Event]) -> dict[PlayerId, list[int]]:
    return {e.player: sorted(e.cards, reverse=True) for e in of_type(events, GoldReceived)}


@pytest.mark.rule("base.payout.miners")
def test_miners_share_as_many_gold_cards_as_players_finder_first_then_counter_clockwise() -> None:
    state = setup(
        base_game(5),
        roles=[M, S, M, M, S],
        gold_deck=[1, 1, 1, 1, 3, 2, 3, 1],
        in_front={P4: [Card.BREAK_CART]},  # miners with broken tools are paid
    )
    tr = find_gold(state, P3)
    # P3 (finder), then P2 (saboteur, skipped), P1, P5 (saboteur, skipped), P4, then P3 again.
    assert _paid(tr.events) == {P3: [3, 1], P1: [3, 1], P4: [2]}
    assert tr.state.gold == (4, 0, 4, 2, 0)
    assert tr.state.gold_deck == (1, 1, 1)
    assert of_type(tr.events, RoundEnded)[0].result.paid == (P1, P3, P4)


@pytest.mark.rule("base.payout.miners")
def test_at_most_9_gold_cards_are_drawn_for_the_miners() -> None:
    state = setup(base_game(10), roles=[M] * 7 + [S] * 3)
    tr = find_gold(state, P1)
    drawn = [c for cards in _paid(tr.events).values() for c in cards]
    assert len(drawn) == 9
    assert len(tr.state.gold_deck) == 28 - 9
    assert sum(tr.state.gold) == sum(drawn)


@pytest.mark.rule("base.payout.saboteur_finder")
def test_when_a_saboteur_reaches_the_gold_the_handout_starts_at_the_first_miner_before_him() -> (
    None
):
    state = setup(base_game(5), roles=[M, S, M, M, S], gold_deck=[1, 1, 2, 3, 1, 3])
    tr = find_gold(state, P2)
    assert of_type(tr.events, RoundEnded)[0].result.finder == P2
    assert _paid(tr.events) == {P1: [3, 1], P4: [3, 1], P3: [2]}
    assert tr.state.gold == (4, 0, 2, 4, 0)


@pytest.mark.rule("variant.gold_per_miner")
def test_per_miner_variant_draws_one_gold_card_per_miner() -> None:
    state = setup(
        base_game(5, options=Options(gold=GoldRule.PER_MINER)),
        roles=[M, S, M, M, S],
        gold_deck=[1, 1, 1, 1, 2, 1, 3],
    )
    tr = find_gold(state, P3)
    assert _paid(tr.events) == {P3: [3], P1: [2], P4: [1]}
    assert tr.state.gold_deck == (1, 1, 1, 1)


@pytest.mark.rule("variant.greedy_dwarf")
def test_greedy_dwarf_variant_pays_no_miner_with_a_broken_tool() -> None:
    state = setup(
        base_game(5, options=Options(greedy_dwarf=True)),
        roles=[M, S, M, M, S],
        gold_deck=[1, 1, 3, 2, 1, 3],
        in_front={P1: [Card.BREAK_LANTERN]},
    )
    tr = find_gold(state, P3)
    assert _paid(tr.events) == {P3: [3, 2, 1], P4: [3, 1]}
    assert tr.state.gold[0] == 0


@pytest.mark.rule("variant.gold_per_miner", "variant.greedy_dwarf")
def test_with_both_variants_one_gold_card_is_drawn_per_miner_who_is_paid() -> None:
    both = Options(gold=GoldRule.PER_MINER, greedy_dwarf=True)
    state = setup(
        base_game(5, options=both),
        roles=[M, S, M, M, S],
        gold_deck=[1, 1, 2, 3],
        in_front={P1: [Card.BREAK_LANTERN]},
    )
    tr = find_gold(state, P3)
    assert _paid(tr.events) == {P3: [3], P4: [2]}
    assert tr.state.gold_deck == (1, 1)


@pytest.mark.rule("base.payout.saboteurs")
@pytest.mark.parametrize(("saboteurs", "share"), [(1, 4), (2, 3), (3, 3), (4, 2)])
def test_each_saboteur_takes_the_gold_of_the_table_by_saboteur_count(
    saboteurs: int, share: int
) -> None:
    roles = [S] * saboteurs + [M] * (10 - saboteurs)
    last = players(10)[9]
    tr = end_round(setup(base_game(10), roles=roles), last)
    assert last not in _paid(tr.events)
    assert tr.state.gold == (share,) * saboteurs + (0,) * (10 - saboteurs)
    assert of_type(tr.events, RoundEnded)[0].result.winners == (Side.SABOTEURS,)


@pytest.mark.rule("base.payout.saboteurs")
def test_saboteurs_take_the_fewest_cards_that_make_the_exact_amount() -> None:
    state = setup(base_game(5), roles=[M, S, M, S, M], gold_deck=[1, 1, 1, 2, 3])
    tr = end_round(state, P1)
    assert _paid(tr.events) == {P2: [3], P4: [2, 1]}
    assert tr.state.gold_deck == (1, 1)
    single = setup(base_game(4), roles=[S, M, M, M], gold_deck=[1, 1, 1, 1, 2, 2])
    assert _paid(end_round(single, P1).events) == {P1: [2, 2]}


@pytest.mark.rule("base.payout.saboteurs")
def test_saboteurs_take_the_largest_amount_below_when_the_exact_one_cannot_be_made() -> None:
    state = setup(base_game(4), roles=[S, M, M, M], gold_deck=[3, 3, 3])
    tr = end_round(state, P2)
    assert _paid(tr.events) == {P1: [3]}
    assert tr.state.gold == (3, 0, 0, 0)


@pytest.mark.rule("base.payout.no_saboteur")
def test_nobody_is_paid_when_no_one_is_a_saboteur() -> None:
    state = setup(base_game(4), roles=[M, M, M, M], spare_roles=[S])
    tr = end_round(state, P2)
    (ended,) = of_type(tr.events, RoundEnded)
    assert ended.result.winners == (Side.SABOTEURS,)
    assert ended.result.paid == ()
    assert of_type(tr.events, GoldReceived) == []
    assert tr.state.gold == (0, 0, 0, 0)
    assert tr.state.gold_deck == state.gold_deck


@pytest.mark.rule("privacy.gold")
def test_each_players_gold_is_secret_until_the_game_ends() -> None:
    state = setup(base_game(5), roles=[M, S, M, M, S], gold_deck=[1, 1, 1, 1, 3, 2, 3, 1])
    tr = find_gold(state, P3)
    received = of_type(tr.events, GoldReceived)
    assert received and all(e.audience == e.player for e in received)
    assert [player_view(tr.state, p).gold for p in players(5)] == [4, 0, 4, 2, 0]
    view = public_view(tr.state)
    assert view.final_gold is None
    assert all(not hasattr(s, "gold") for s in view.seats)
    assert "gold" not in {f.name for f in dataclasses.fields(view.results[0])}


# ---------------------------------------------------------------- the game


@pytest.mark.rule("base.game.rounds", "base.game.winner")
def test_a_game_is_three_rounds_and_gold_is_kept() -> None:
    state = setup(base_game(5), roles=[M, S, M, M, S], gold_deck=[1, 1, 1, 1, 3, 2, 3, 1])
    first = find_gold(state, P3).state
    assert (first.round, first.phase, first.gold) == (2, Phase.PLAYING, (4, 0, 4, 2, 0))
    assert [c.at for c in public_view(first).board.cards] == [(0, 0)]
    assert not any(g.revealed for g in first.goals)
    assert all(len(h) == 6 for h in first.hands)
    assert len(first.deck) == 67 - 30
    second = end_round(setup(first, roles=[M] * 5), P1).state
    assert (second.round, second.phase, second.gold) == (3, Phase.PLAYING, (4, 0, 4, 2, 0))
    last = end_round(setup(second, roles=[M] * 5), P1)
    assert last.state.phase is Phase.OVER
    assert current_player(last.state) is None
    assert len(last.state.results) == 3
    (over,) = of_type(last.events, GameEnded)
    assert over.gold == ((P1, 4), (P2, 0), (P3, 4), (P4, 2), (P5, 0))
    assert public_view(last.state).final_gold == over.gold
    assert of_type(last.events, RoundStarted) == []


@pytest.mark.rule("base.cards.gold")
def test_the_gold_cards_are_shuffled_once_per_game() -> None:
    state = setup(base_game(5), roles=[M, S, M, M, S])
    tr = find_gold(state, P3)
    assert tr.state.gold_deck == state.gold_deck[:-5]


@pytest.mark.rule("base.turn.next_round")
@pytest.mark.parametrize(("last", "starter"), [(P3, P4), (P4, P1)])
def test_the_next_round_starts_after_the_player_who_played_the_last_card(
    last: PlayerId, starter: PlayerId
) -> None:
    tr = end_round(base_game(), last)
    (started,) = of_type(tr.events, RoundStarted)
    assert (started.round, started.starter) == (2, starter)
    assert current_player(tr.state) == starter


@pytest.mark.rule("base.turn.next_round")
def test_the_next_round_starts_after_the_player_who_reached_the_gold() -> None:
    tr = find_gold(setup(base_game(), roles=[M, M, M, S]), P2)
    assert current_player(tr.state) == P3


@pytest.mark.rule("base.game.winner")
def test_most_nuggets_wins_and_all_tied_players_win() -> None:
    state = setup(base_game(), round_no=3, roles=[M] * 4, gold={P1: 5, P2: 2, P3: 5, P4: 4})
    tr = end_round(state, P1)
    (over,) = of_type(tr.events, GameEnded)
    assert over.winners == (P1, P3)
    assert over.audience is None
    assert public_view(tr.state).final_gold == ((P1, 5), (P2, 2), (P3, 5), (P4, 4))


# ---------------------------------------------------------------- state, views, refusals


def test_every_apply_bumps_the_version_by_one() -> None:
    # Views and buttons name a version: each accepted action makes exactly one.
    state = base_game()
    for _ in range(6):
        player = to_act(state)
        version = state.version
        state = apply(state, player, legal_actions(state, player)[0]).state
        assert state.version == version + 1
        assert public_view(state).version == version + 1


def _playout(seed: int, moves: int) -> tuple[GameState, list[tuple[Event, ...]]]:
    state = base_game(5, seed=seed)
    trail: list[tuple[Event, ...]] = []
    for i in range(moves):
        player = to_act(state)
        options = legal_actions(state, player)
        tr = apply(state, player, options[(i * 7) % len(options)])
        trail.append(tr.events)
        state = tr.state
    return state, trail


@pytest.mark.rule("base.setup.chance")
def test_the_same_seed_and_moves_give_the_same_game() -> None:
    a, events_a = _playout(11, 25)
    b, events_b = _playout(11, 25)
    assert to_json(a) == to_json(b)
    assert events_a == events_b
    assert to_json(base_game(5, seed=11)) != to_json(base_game(5, seed=12))


def test_the_state_round_trips_through_json() -> None:
    # The codec keeps every fact the rules use: roles, hands, deck, maze, gold.
    state, _ = _playout(3, 20)
    back = from_json(to_json(state))
    assert back == state
    player = to_act(state)
    assert legal_actions(back, player) == legal_actions(state, player)


@pytest.mark.rule("base.turn.order")
def test_an_action_out_of_turn_is_refused() -> None:
    state = setup(base_game(), hands={P2: [Card.MAP]}, turn=P1)
    assert legal_actions(state, P2) == ()
    assert refused(state, P2, Discard((Card.MAP,))) is Reason.NOT_YOUR_TURN


@pytest.mark.rule("base.turn.order")
def test_a_stranger_cannot_act() -> None:
    state = base_game()
    assert legal_actions(state, 999) == ()
    assert refused(state, 999, Discard((Card.MAP,))) is Reason.NOT_A_PLAYER
    with pytest.raises(ValueError):
        player_view(state, 999)


@pytest.mark.rule("base.turn.choice")
def test_a_card_not_in_hand_cannot_be_played() -> None:
    state = setup(base_game(), board=EMPTY, hands={P1: [Card.MAP]}, turn=P1)
    assert refused(state, P1, PlaceTunnel(Card.CROSS, (1, 0))) is Reason.CARD_NOT_IN_HAND
    assert refused(state, P1, Discard((Card.CROSS,))) is Reason.CARD_NOT_IN_HAND
    assert refused(state, P1, Rockfall((1, 0))) is Reason.CARD_NOT_IN_HAND
    assert refused(state, P1, PlayOnPlayer(Card.BREAK_CART, P2)) is Reason.CARD_NOT_IN_HAND


@pytest.mark.rule("base.turn.choice")
def test_deluxe_turn_options_are_refused_in_the_base_game() -> None:
    state = setup(
        base_game(),
        hands={P1: [Card.MAP, Card.CROSS, Card.ROCKFALL]},
        in_front={P1: [Card.BREAK_CART]},
        turn=P1,
    )
    clear = ClearInFront((Card.MAP, Card.CROSS), Card.BREAK_CART)
    assert clear not in legal_actions(state, P1)
    assert refused(state, P1, clear) is Reason.WRONG_EDITION
    assert state.edition is Edition.BASE


@pytest.mark.rule("base.game.rounds")
def test_nothing_can_be_played_once_the_game_is_over() -> None:
    state = setup(base_game(), round_no=3)
    over = end_round(state, P1).state
    assert over.phase is Phase.OVER
    assert all(legal_actions(over, p) == () for p in players(4))
    assert refused(over, P1, Discard((Card.MAP,))) is Reason.GAME_OVER


@pytest.mark.rule("privacy.public", "privacy.hands", "privacy.roles")
def test_who_sees_what_during_play() -> None:
    state = setup(base_game(), board=EMPTY, hands={P1: [Card.CROSS, Card.MAP]}, turn=P1)
    tr = apply(state, P1, PlaceTunnel(Card.CROSS, (1, 0)))
    for event in tr.events:
        if isinstance(event, TunnelPlaced):
            assert event.audience is None and event.at == (1, 0)
        elif isinstance(event, CardDrawn):
            assert event.audience == P1
    view = public_view(tr.state)
    for name in ("roles", "hands", "gold", "deck", "spare_roles"):
        assert not hasattr(view, name)
    assert [s.hand_size for s in view.seats] == [len(h) for h in tr.state.hands]


@pytest.mark.rule("privacy.public")
def test_the_group_sees_each_action_card_and_at_whom_it_is_played() -> None:
    state = setup(
        base_game(),
        hands={P1: [Card.REPAIR_PICKAXE_CART], P2: [Card.BREAK_LANTERN]},
        in_front={P3: [Card.BREAK_CART]},
        turn=P1,
    )
    tr = apply(state, P1, PlayOnPlayer(Card.REPAIR_PICKAXE_CART, P3, Tool.CART))
    (played,) = of_type(tr.events, ActionPlayed)
    assert (played.player, played.card, played.target, played.tool, played.audience) == (
        P1,
        Card.REPAIR_PICKAXE_CART,
        P3,
        Tool.CART,
        None,
    )
    broken = act(tr.state, P2, PlayOnPlayer(Card.BREAK_LANTERN, P4))
    assert [s.in_front for s in public_view(broken).seats] == [(), (), (), (Card.BREAK_LANTERN,)]


def _mask(edges: str) -> int:
    bits = {"N": 1, "E": 2, "S": 4, "W": 8}
    return sum(bits[e] for e in edges)
