"""The images of the bot's messages, drawn from views by render/ and encoded as PNG."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from engine import GameState, PlaceTunnel, PublicView, Rockfall, player_view, public_view
from render.board import (
    render_board,
    render_confirm,
    render_placement_preview,
    render_private_board,
)
from render.hand import render_hand
from render.png import to_png
from render.style import STRIP

from .menus import Picture, Screen

_GAP = 6


def board_png(state: GameState, names: Mapping[int, str]) -> bytes:
    """The group's board post."""
    return to_png(render_board(public_view(state), names=names))


def screen_png(state: GameState, player: int, screen: Screen, names: Mapping[int, str]) -> bytes:
    """The picture of a private screen: board and hand, numbered spots, or the chosen move."""
    view = player_view(state, player)
    if screen.picture is Picture.PREVIEW:
        spots = [s for s in screen.spots if isinstance(s, PlaceTunnel | Rockfall)]
        board = render_placement_preview(view, spots, names=names)  # type: ignore[arg-type]
    elif screen.picture is Picture.CONFIRM and isinstance(screen.chosen, PlaceTunnel | Rockfall):
        board = render_confirm(view, screen.chosen, names=names)
    else:
        board = render_private_board(view, names=names)
    if not view.hand:
        return to_png(board)
    hand = render_hand(
        view.hand, highlight=screen.highlight, turned=screen.turned, blocked=screen.blocked
    )
    return to_png(_stack(board, hand))


class Pictures:
    """The real pictures (the `tgbot.ports.Painter` port), drawn by render/."""

    def board(self, state: GameState, names: Mapping[int, str]) -> bytes:
        """The group's board post."""
        return board_png(state, names)

    def screen(
        self, state: GameState, player: int, screen: Screen, names: Mapping[int, str]
    ) -> bytes:
        """A player's private screen."""
        return screen_png(state, player, screen, names)

    def round_end(self, view: PublicView, names: Mapping[int, str]) -> bytes:
        """A round's final board (every goal turned up)."""
        return to_png(render_board(view, names=names))


def _stack(top: Image.Image, bottom: Image.Image) -> Image.Image:
    """Two images one above the other, centred, on the board's background."""
    width = max(top.width, bottom.width)
    canvas = Image.new("RGB", (width, top.height + _GAP + bottom.height), STRIP)
    canvas.paste(top.convert("RGB"), ((width - top.width) // 2, 0))
    canvas.paste(bottom.convert("RGB"), ((width - bottom.width) // 2, top.height + _GAP))
    return canvas
