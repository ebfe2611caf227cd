"""Each picture drawn once: the cached pictures are the pictures, the group's board is the board
of every player who peeked at nothing, and a peeked goal never shares the group's picture."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from PIL import Image

from engine import (
    Discard,
    GameState,
    PlayerView,
    apply,
    current_player,
    legal_actions,
    player_view,
    public_view,
)
from render.board import render_private_board, render_private_board_indexed
from render.hand import render_hand
from render.png import to_png
from render.style import STRIP
from tests.render import boards as b
from tests.render.pngs import decoded as _decoded
from tgbot import menus
from tgbot import pictures as pictures_module
from tgbot.buttons import PickCard, StartDiscard, ToggleDiscard
from tgbot.i18n import Language
from tgbot.pictures import Pictures, board_png, screen_png

EN = Language("en")
GAME = "g1"


def _peeked_without_hands(state: GameState, peeker: int) -> GameState:
    """Every hand played out; `peeker` has looked at the first goal card with a map."""
    goal = state.goals[0].at
    peeked = tuple((goal,) if p == peeker else () for p in state.players)
    hands = tuple(() for _ in state.players)
    return dataclasses.replace(state, peeked=peeked, hands=hands, cache={})


def _screens(state: GameState, player: int) -> list[menus.Screen]:
    seat = menus.Seat(GAME, state, player, b.NAMES, EN)
    v = state.version
    steps = [menus.home(seat)]
    for command in (
        StartDiscard(GAME, v),
        ToggleDiscard(GAME, v, 0, frozenset()),
        PickCard(GAME, v, 0),
    ):
        out = menus.respond(seat, command)
        if isinstance(out, menus.Screen):
            steps.append(out)
    return steps


def test_the_kept_pictures_are_the_pictures_drawn_afresh() -> None:
    pictures = Pictures()
    for state in (b.base(), b.dug(b.base(seed=3), 12, seed=3), b.dug(b.deluxe(seed=4), 10, 4)):
        assert _decoded(pictures.board(state, b.NAMES)) == _decoded(board_png(state, b.NAMES))
        for player in state.players[:2]:
            for screen in _screens(state, player):
                drawn = _decoded(screen_png(state, player, screen, b.NAMES))
                kept = pictures.screen(state, player, screen, b.NAMES)
                assert _decoded(kept) == drawn
                assert pictures.screen(state, player, screen, b.NAMES) is kept  # kept


def test_a_screen_that_changes_only_its_keyboard_is_drawn_once() -> None:
    pictures = Pictures()
    state = b.base()
    player = state.players[state.turn]
    seat = menus.Seat(GAME, state, player, b.NAMES, EN)
    start = menus.respond(seat, StartDiscard(GAME, state.version))
    toggled = menus.respond(seat, ToggleDiscard(GAME, state.version, 0, frozenset()))
    assert isinstance(start, menus.Screen) and isinstance(toggled, menus.Screen)
    assert start.keyboard != toggled.keyboard
    first = pictures.screen(state, player, start, b.NAMES)
    assert pictures.screen(state, player, toggled, b.NAMES) is first  # the same bytes, kept


def test_a_player_without_a_hand_and_without_a_peek_sees_the_groups_very_picture() -> None:
    state = _peeked_without_hands(b.dug(b.base(seed=3), 12, seed=3), peeker=1)
    pictures = Pictures()
    group = pictures.board(state, b.NAMES)
    home = menus.home(menus.Seat(GAME, state, 2, b.NAMES, EN))
    assert pictures.screen(state, 2, home, b.NAMES) is group


@pytest.mark.rule("privacy.map")
def test_a_board_with_a_peeked_goal_never_is_the_groups_picture() -> None:
    """Whichever is drawn first, the peeker's picture shows the goal they saw and the group's
    does not: they never share bytes (so never a file id)."""
    state = _peeked_without_hands(b.dug(b.base(seed=3), 12, seed=3), peeker=1)
    assert any(g.peeked for g in player_view(state, 1).board.goals)
    home = menus.home(menus.Seat(GAME, state, 1, b.NAMES, EN))
    for peeker_first in (True, False):
        pictures = Pictures()
        if peeker_first:
            mine = pictures.screen(state, 1, home, b.NAMES)
            group = pictures.board(state, b.NAMES)
        else:
            group = pictures.board(state, b.NAMES)
            mine = pictures.screen(state, 1, home, b.NAMES)
        assert mine != group
        assert _decoded(mine) != _decoded(group)
        assert _decoded(group) == _decoded(board_png(state, b.NAMES))
        assert _decoded(mine) == _decoded(screen_png(state, 1, home, b.NAMES))


def _stacked_in_rgb(top: Image.Image, bottom: Image.Image) -> Image.Image:
    """The hand under the board as drawn before: stacked in RGB, mapped to the palette after."""
    width = max(top.width, bottom.width)
    canvas = Image.new("RGB", (width, top.height + 6 + bottom.height), STRIP)
    canvas.paste(top.convert("RGB"), ((width - top.width) // 2, 0))
    canvas.paste(bottom.convert("RGB"), ((width - bottom.width) // 2, top.height + 6))
    return canvas


def test_stacking_in_the_palette_gives_the_picture_of_mapping_the_stacked_picture() -> None:
    """A screen (the board deflated once, the hand's rows after it) decodes to the very pixels
    and palette of the stacked picture mapped to the palette and encoded whole."""
    pictures = Pictures()
    for state in (b.base(), b.dug(b.deluxe(seed=4), 10, 4), b.dug(b.base(3, seed=5), 30, 5)):
        for player in state.players:
            view = player_view(state, player)
            home = menus.home(menus.Seat(GAME, state, player, b.NAMES, EN))
            board = render_private_board(view, names=b.NAMES)
            hand = render_hand(view.hand, blocked=home.blocked)
            expected = to_png(_stacked_in_rgb(board, hand))
            screen = pictures.screen(state, player, home, b.NAMES)
            assert _decoded(screen) == _decoded(expected)
            assert _decoded(screen) == _decoded(screen_png(state, player, home, b.NAMES))  # afresh


def _discarded(state: GameState) -> GameState:
    """The state after the player to move discards their first card (the deck is one less)."""
    mover = current_player(state)
    assert mover is not None
    discard = next(a for a in legal_actions(state, mover) if isinstance(a, Discard))
    return apply(state, mover, discard).state


def test_a_menu_step_over_a_board_deflated_before_does_not_draw_that_board_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player's next screen over the same board (the discard menu after the home screen)
    stacks its hand under the board's rows kept, even once many other boards were drawn since
    (more than the board pictures kept); a board that changed is drawn."""
    drawn: list[int] = []

    def counted(view: PlayerView, **options: Any) -> Image.Image:
        drawn.append(view.public.deck_size)
        return render_private_board_indexed(view, **options)

    monkeypatch.setattr(pictures_module, "render_private_board_indexed", counted)
    pictures = Pictures()
    state = b.base()
    player = current_player(state)
    assert player is not None
    seat = menus.Seat(GAME, state, player, b.NAMES, EN)
    start = menus.respond(seat, StartDiscard(GAME, state.version))
    assert isinstance(start, menus.Screen)
    pictures.screen(state, player, menus.home(seat), b.NAMES)
    assert len(drawn) == 1
    later = state
    for _ in range(pictures_module.BOARD_IMAGES + 1):  # other boards, each drawn once
        later = _discarded(later)
        other = current_player(later)
        assert other is not None
        pictures.screen(
            later, other, menus.home(menus.Seat(GAME, later, other, b.NAMES, EN)), b.NAMES
        )
    drawn.clear()
    screen = pictures.screen(state, player, start, b.NAMES)
    assert drawn == [], "the board under the menu was drawn again"
    moved = _discarded(later)  # a board not drawn before
    mover = current_player(moved)
    assert mover is not None
    home = menus.home(menus.Seat(GAME, moved, mover, b.NAMES, EN))
    changed = pictures.screen(moved, mover, home, b.NAMES)
    assert drawn == [public_view(moved).deck_size]  # the changed board, drawn once
    assert _decoded(screen) == _decoded(screen_png(state, player, start, b.NAMES))
    assert _decoded(changed) == _decoded(screen_png(moved, mover, home, b.NAMES))
