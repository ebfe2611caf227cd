"""The private menus: rotations shown one orientation at a time, spot buttons naming cells."""

from __future__ import annotations

import dataclasses

from engine import Card, GameState, PlaceTunnel, new_game
from engine.events import TunnelPlaced
from tgbot import menus, presenter
from tgbot.callback import ConfirmSpot, PickCard, PickSpot, TurnCard
from tgbot.i18n import Language
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
