"""Golden pictures of representative views (rewrite: `pytest tests/render --regen-golden`)."""

from __future__ import annotations

import dataclasses

from engine import (
    Card,
    Phase,
    PlaceTunnel,
    Rockfall,
    legal_actions,
    player_view,
    public_view,
)
from render import (
    render_board,
    render_confirm,
    render_hand,
    render_placement_preview,
    render_private_board,
)

from . import boards as b
from .conftest import Golden


def test_opening_board(golden: Golden) -> None:
    """The start, three face-down goals, five players, one of them to play."""
    golden("opening", render_board(public_view(b.base()), names=b.NAMES))


def test_mid_game_board(golden: Golden) -> None:
    """A dozen tunnels from a seeded game, the last one highlighted."""
    state = b.dug(b.base(seed=3), 12, seed=3)
    golden("mid_game", render_board(public_view(state), names=b.NAMES))


def test_late_game_board_with_broken_tools(golden: Golden) -> None:
    """A sprawling maze; players with one, two and three broken tools."""
    state = b.dug(b.base(seed=5), 28, seed=5)
    state = b.in_front(
        state,
        {
            2: (Card.BREAK_PICKAXE,),
            3: (Card.BREAK_LANTERN, Card.BREAK_CART),
            5: (Card.BREAK_PICKAXE, Card.BREAK_LANTERN, Card.BREAK_CART),
        },
    )
    golden("late_game", render_board(public_view(state), names=b.NAMES))


def test_deluxe_markers_and_the_last_target(golden: Golden) -> None:
    """Trapped players, thefts, broken tools and crystals at phone size; the player the last
    card was played on framed, nothing framed on the board."""
    state = b.dug(b.deluxe(seed=3), 12, seed=3)
    state = b.in_front(
        state,
        {
            1: (Card.BREAK_PICKAXE,),
            2: (Card.TRAPPED, Card.THEFT),
            3: (Card.BREAK_LANTERN, Card.BREAK_CART, Card.TRAPPED),
            5: (Card.THEFT,),
        },
    )
    state = dataclasses.replace(state, last_at=None, last_target=3, cache={})
    golden("deluxe_markers", render_board(public_view(state), names=b.NAMES))


def test_revealed_coal(golden: Golden) -> None:
    """A coal goal turned face up, lying the way the tunnel reached it."""
    state = b.board(b.base(), b.COAL_REVEALED)
    golden("coal_revealed", render_board(public_view(state), names=b.NAMES))


def test_gold_reached(golden: Golden) -> None:
    """The gold face up at the end of the corridor; the coal goals still face down."""
    state = b.board(b.base(), b.GOLD_REACHED)
    golden("gold_reached", render_board(public_view(state), names=b.NAMES))


def test_dead_ends(golden: Golden) -> None:
    """Every dead-end shape, plugged, next to joined tunnels."""
    state = b.board(b.base(), b.DEAD_ENDS)
    golden("dead_ends", render_board(public_view(state), names=b.NAMES))


def test_deluxe_doors(golden: Golden) -> None:
    """Blue and green doors, told apart by their letters as well as their colours."""
    state = b.board(b.deluxe(), b.DOORS)
    golden("deluxe_doors", render_board(public_view(state), names=b.NAMES))


def test_deluxe_crystals_ladders_and_bridges(golden: Golden) -> None:
    """Crystals, ladders, bridges and double curves (two tunnels that do not meet)."""
    state = b.board(b.deluxe(), b.CRYSTALS_LADDERS_BRIDGES)
    golden("deluxe_crystals_ladders_bridges", render_board(public_view(state), names=b.NAMES))


def test_korean_names_and_deluxe_markers(golden: Golden) -> None:
    """Ten players with Hangul names (one cut, one with emoji), broken tools, trapped, theft."""
    state = b.dug(b.deluxe(10, seed=2), 6, seed=2)
    state = b.in_front(
        state,
        {
            2: (Card.BREAK_CART,),
            4: (Card.TRAPPED,),
            5: (Card.THEFT,),
            7: (Card.BREAK_LANTERN, Card.TRAPPED, Card.THEFT),
            10: (Card.BREAK_PICKAXE,),
        },
    )
    golden("korean_names", render_board(public_view(state), names=b.KOREAN))


def test_game_over_shows_final_gold(golden: Golden) -> None:
    """At the end of the game each player's gold is public and nobody is to play."""
    view = public_view(b.dug(b.base(seed=3), 12, seed=3))
    view = dataclasses.replace(
        view, phase=Phase.OVER, current=None, final_gold=((1, 7), (2, 3), (3, 11), (4, 0), (5, 5))
    )
    golden("game_over", render_board(view, names=b.NAMES))


def test_private_board_marks_peeked_goals(golden: Golden) -> None:
    """A player who used maps sees what lies under two goals; the others stay unknown."""
    state = b.board(b.base(), b.GOLD_REACHED.replace("$", "?$"))
    seat = state.players.index(1)
    peeked = list(state.peeked)
    peeked[seat] = ((8, 0), (8, 2))
    state = dataclasses.replace(state, peeked=tuple(peeked), cache={})
    golden("private_peeked", render_private_board(player_view(state, 1), names=b.NAMES))


def test_numbered_placement_preview(golden: Golden) -> None:
    """Every legal spot of a T card numbered; both turns of the card at one cell side by side."""
    state = b.holding(b.dug(b.base(seed=11), 12, seed=11), 1, (Card.T_NES,))
    spots = [a for a in legal_actions(state, 1) if isinstance(a, PlaceTunnel)]
    assert len({s.at for s in spots}) < len(spots), "want a cell offering both turns"
    image = render_placement_preview(player_view(state, 1), spots, names=b.NAMES)
    golden("preview_tunnel", image)


def test_numbered_rockfall_preview(golden: Golden) -> None:
    """Every card a rockfall may remove, numbered."""
    state = b.holding(b.dug(b.base(seed=11), 12, seed=11), 1, (Card.ROCKFALL,))
    spots = [a for a in legal_actions(state, 1) if isinstance(a, Rockfall)]
    image = render_placement_preview(player_view(state, 1), spots, names=b.NAMES)
    golden("preview_rockfall", image)


def test_confirm_placement_and_rockfall(golden: Golden) -> None:
    """The chosen card ghosted where it goes; the rockfall target crossed out."""
    state = b.holding(b.dug(b.base(seed=11), 12, seed=11), 1, (Card.T_NES, Card.ROCKFALL))
    actions = legal_actions(state, 1)
    place = next(a for a in actions if isinstance(a, PlaceTunnel) and a.rotated)
    fall = next(a for a in actions if isinstance(a, Rockfall))
    view = player_view(state, 1)
    golden("confirm_tunnel", render_confirm(view, place))
    golden("confirm_rockfall", render_confirm(view, fall))


def test_hands(golden: Golden) -> None:
    """Tunnel cards show their tunnels, action cards their symbols; a chosen card stands out."""
    base_cards = (
        Card.CROSS,
        Card.DEAD_NE,
        Card.BREAK_PICKAXE,
        Card.REPAIR_LANTERN,
        Card.REPAIR_PICKAXE_CART,
        Card.MAP,
        Card.ROCKFALL,
    )
    golden("hand_base", render_hand(base_cards, highlight=1))  # the second card
    deluxe_cards = (
        Card.BRIDGE,
        Card.BLUE_DOOR_NW,
        Card.CRYSTAL_NES,
        Card.LADDER_NE,
        Card.THEFT,
        Card.HANDS_OFF,
        Card.SWAP_HAND,
        Card.INSPECTION,
        Card.SWAP_HATS,
        Card.TRAPPED,
        Card.FREE,
    )
    golden("hand_deluxe", render_hand(deluxe_cards))
