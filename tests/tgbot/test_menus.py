"""The private menus: rotations one at a time, spots naming cells, blocked cards, skips."""

from __future__ import annotations

import dataclasses
import random

from engine import Card, GameState, PlaceTunnel, apply, current_player, legal_actions, new_game
from engine.events import TunnelPlaced
from engine.notation import with_board
from render.labels import cell_label
from tgbot import menus, presenter
from tgbot.buttons import (
    Back,
    ConfirmSpot,
    ConfirmTarget,
    PickCard,
    PickSpot,
    ToggleDiscard,
    TurnCard,
)
from tgbot.i18n import Language
from tgbot.keyboards import markup
from tgbot.pictures import screen_png

EN = Language("en")
GAME = "Ab3dE9xYz0"
NAMES = {1: "Ann", 2: "Bob", 3: "Cy"}


def _seat(*hand: Card) -> menus.Seat:
    state = new_game(list(NAMES), seed=7)
    state = dataclasses.replace(state, hands=(hand, *state.hands[1:]), turn=0, cache={})
    return menus.Seat(GAME, state, state.players[0], NAMES, EN)


def _screen(seat: menus.Seat, command: object) -> menus.Screen:
    out = menus.respond(seat, command)  # type: ignore[arg-type]
    assert isinstance(out, menus.Screen), out
    return out


def _labels(screen: menus.Screen) -> list[list[str]]:
    return [[b.label for b in row] for row in screen.keyboard]


def test_a_card_that_fits_both_ways_shows_one_orientation_and_a_turn_button() -> None:
    seat = _seat(Card.T_NES, Card.STRAIGHT_EW)
    upright = _screen(seat, PickCard(GAME, 0, 0))
    assert {s.rotated for s in upright.spots if isinstance(s, PlaceTunnel)} == {False}
    assert _labels(upright) == [["1 · E2", "2 · D3", "3 · E4"], ["↻ Turn the card"], ["↩️ Back"]]
    assert upright.keyboard[1][0].command == TurnCard(GAME, 0, 0)
    turned = _screen(seat, TurnCard(GAME, 0, 0))
    assert turned.turned and not upright.turned
    assert {s.rotated for s in turned.spots if isinstance(s, PlaceTunnel)} == {True}
    assert _labels(turned)[0] == ["1 · E2", "2 · F3", "3 · E4"]
    assert turned.keyboard[1][0].command == PickCard(GAME, 0, 0)
    assert turned.prompt == ("Where does Tunnel ┤ go, turned? Pick a numbered spot on the board.",)
    # each spot appears once per cell: drawn full size, never split
    cells = [s.at for s in turned.spots if isinstance(s, PlaceTunnel)]
    assert len(cells) == len(set(cells))


def test_the_confirm_names_the_turn_and_goes_back_to_that_orientation() -> None:
    seat = _seat(Card.T_NES)
    turned = _screen(seat, TurnCard(GAME, 0, 0))
    pick = turned.keyboard[0][0].command
    assert isinstance(pick, PickSpot)
    confirm = _screen(seat, pick)
    assert confirm.prompt == ("Place Tunnel ┤, turned, at E2?",)
    assert confirm.turned
    assert confirm.keyboard[0][0].command == ConfirmSpot(GAME, 0, 0, pick.spot)
    assert confirm.keyboard[1][0].command == TurnCard(GAME, 0, 0)
    upright = _screen(seat, PickCard(GAME, 0, 0)).keyboard[0][0].command
    assert _screen(seat, upright).prompt == ("Place Tunnel ├ at E2?",)


def test_a_card_that_fits_one_way_only_has_no_turn_button() -> None:
    seat = _seat(Card.STRAIGHT_EW)
    screen = _screen(seat, PickCard(GAME, 0, 0))
    assert _labels(screen) == [["1 · D3", "2 · F3"], ["↩️ Back"]]
    out = menus.respond(seat, TurnCard(GAME, 0, 0))
    assert isinstance(out, menus.Refusal)


def test_the_turned_views_draw_differently() -> None:
    seat = _seat(Card.T_NES)
    state: GameState = seat.state
    pictures = {
        screen_png(state, seat.player, _screen(seat, c), NAMES)
        for c in (PickCard(GAME, 0, 0), TurnCard(GAME, 0, 0))
    }
    assert len(pictures) == 2


def test_the_group_reads_the_glyph_as_placed() -> None:
    turned = TunnelPlaced(1, Card.CURVE_NW, (1, 0), True)
    upright = TunnelPlaced(1, Card.CURVE_NW, (1, 0), False)
    assert presenter.move_lines([turned], NAMES, EN) == ["Ann placed Tunnel ┌ at F3"]
    assert presenter.move_lines([upright], NAMES, EN) == ["Ann placed Tunnel ┘ at F3"]


def _with_front(seat: menus.Seat, *front: Card) -> menus.Seat:
    fronts = (front, *seat.state.in_front[1:])
    state = dataclasses.replace(seat.state, in_front=fronts, cache={})
    return dataclasses.replace(seat, state=state)


def test_cards_that_cannot_be_played_are_marked_with_the_reason() -> None:
    seat = _with_front(
        _seat(Card.STRAIGHT_EW, Card.REPAIR_CART, Card.BREAK_CART), Card.BREAK_LANTERN
    )
    screen = menus.home(seat)
    labels = _labels(screen)
    assert labels[0] == ["🚫 1. Tunnel ─", "🚫 2. Repair cart"]
    assert labels[1] == ["3. Broken cart"]
    assert screen.blocked == frozenset({0, 1})
    assert screen.prompt == (
        "Pick a card to play.",
        "🚫 1. Tunnel ─: a broken tool (lantern) stops you placing tunnel cards",
        "🚫 2. Repair cart: no one has a broken tool it repairs",
    )
    # tapping one anyway says why, and never speaks of board space for an action card
    tapped = _screen(seat, PickCard(GAME, 0, 1))
    assert tapped.prompt == ("🚫 Repair cart: no one has a broken tool it repairs",)
    assert "board" not in " ".join(tapped.prompt)


def test_the_hand_picture_marks_the_blocked_cards() -> None:
    seat = _with_front(_seat(Card.STRAIGHT_EW, Card.BREAK_CART), Card.BREAK_LANTERN)
    home = menus.home(seat)
    plain = dataclasses.replace(home, blocked=frozenset())
    assert screen_png(seat.state, seat.player, home, NAMES) != screen_png(
        seat.state, seat.player, plain, NAMES
    )


def test_a_self_repair_of_the_one_broken_tool_goes_straight_to_confirm() -> None:
    seat = _with_front(_seat(Card.REPAIR_LANTERN), Card.BREAK_LANTERN)
    screen = _screen(seat, PickCard(GAME, 0, 0))
    assert screen.prompt == ("Repair your lantern with Repair lantern?",)
    assert isinstance(screen.keyboard[0][0].command, ConfirmTarget)
    assert screen.keyboard[1][0].command == Back(GAME, 0)
    assert isinstance(menus.respond(seat, screen.keyboard[0][0].command), menus.Play)


def test_one_player_with_two_broken_tools_goes_straight_to_the_tool() -> None:
    seat = _with_front(_seat(Card.REPAIR_PICKAXE_LANTERN), Card.BREAK_LANTERN, Card.BREAK_PICKAXE)
    screen = _screen(seat, PickCard(GAME, 0, 0))
    assert screen.prompt == ("Which of your tools does Repair pickaxe or lantern repair?",)
    assert screen.keyboard[-1][0].command == Back(GAME, 0)
    pick = screen.keyboard[0][0].command
    confirm = _screen(seat, pick)
    assert confirm.keyboard[1][0].command == PickCard(GAME, 0, 0)  # back to the tools


def test_a_single_spot_goes_straight_to_confirm_and_back_to_the_hand() -> None:
    seat = _seat(Card.ROCKFALL)
    assert not menus.card_options(seat.state, seat.player, Card.ROCKFALL)
    dug = with_board(seat.state, "@ EW")
    one = dataclasses.replace(seat, state=dug)
    screen = _screen(one, PickCard(GAME, 0, 0))
    assert screen.picture is menus.Picture.CONFIRM
    assert screen.prompt == ("Remove the tunnel card at F3?",)
    assert screen.keyboard[1][0].command == Back(GAME, 0)


def test_confirm_is_the_success_style_and_a_discard_the_danger_style() -> None:
    seat = _seat(Card.T_NES, Card.STRAIGHT_EW)
    confirm = _screen(seat, PickSpot(GAME, 0, 0, 1))
    assert confirm.keyboard[0][0].style is menus.Style.SUCCESS
    assert confirm.keyboard[1][0].style is None  # Back
    chosen = _screen(seat, ToggleDiscard(GAME, 0, 0, frozenset()))
    styles = {b.label: b.style for row in chosen.keyboard for b in row}
    assert styles["🗑 Discard this card"] is menus.Style.DANGER
    assert styles["↩️ Back"] is None


def test_the_telegram_keyboard_carries_the_styles() -> None:
    seat = _seat(Card.T_NES)
    confirm = _screen(seat, PickSpot(GAME, 0, 0, 1))
    keyboard = markup(confirm.keyboard)
    assert keyboard is not None
    rows = keyboard["inline_keyboard"]
    assert [[b.get("style") for b in row] for row in rows] == [["success"], [None]]


def test_spot_buttons_name_their_cells_in_reading_order_as_the_maze_grows() -> None:
    """Over a seeded game's first twenty placements, every tunnel card's spot buttons are
    numbered 1, 2, 3... in reading order (row by row from the north, then west to east), each
    naming its cell as the board's labels do."""
    rng = random.Random(3)
    state = new_game(list(NAMES), seed=11)
    checked = 0
    for _ in range(60):
        player = current_player(state)
        assert player is not None
        seat = menus.Seat(GAME, state, player, NAMES, EN)
        hand = state.hands[state.seat_of(player)]
        for index in range(len(hand)):
            out = menus.respond(seat, PickCard(GAME, state.version, index))
            if not isinstance(out, menus.Screen):
                continue
            spots = [s for s in out.spots if isinstance(s, PlaceTunnel)]
            if len(spots) < 2:
                continue
            labels = [b.label for row in out.keyboard for b in row][: len(spots)]
            assert labels == [f"{n} · {cell_label(s.at)}" for n, s in enumerate(spots, 1)]
            assert [s.at for s in spots] == sorted(
                (s.at for s in spots), key=lambda a: (a[1], a[0])
            )
            checked += 1
        legal = legal_actions(state, player)
        placements = [a for a in legal if isinstance(a, PlaceTunnel)]
        state = apply(state, player, rng.choice(placements or legal)).state
        if state.round > 1:
            break
    assert checked > 20
