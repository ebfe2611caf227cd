"""The images of the bot's messages, drawn from views by render/ and encoded as PNG.

`Pictures` draws each image once: the PNG of a screen, and the board under it, are kept by
what they are drawn from (the view's parts, the names, the screen's picture fields), so the
group's board, the boards of players who peeked at no goal and the screens redrawn with only
their keyboard changed are drawn and encoded once per game version. A new screen over a board
already deflated (a menu step: the hand highlighted, the board as it was) stacks its hand under
those rows without drawing the board again: the board's width is kept apart, so the board's
picture, of which the rows keep more, is not needed once they are deflated.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Generic, TypeVar

from PIL import Image

from engine import (
    BoardView,
    GameState,
    PlaceTunnel,
    PlayerView,
    PublicView,
    Rockfall,
    player_view,
    public_view,
)
from render.board import (
    render_board,
    render_board_indexed,
    render_confirm,
    render_confirm_indexed,
    render_placement_preview,
    render_placement_preview_indexed,
    render_private_board,
    render_private_board_indexed,
)
from render.hand import render_hand_indexed
from render.png import Rows, png_of, rows_of, stacked_png, to_palette, to_png, with_gap
from render.style import STRIP

from .menus import Picture, Screen

_GAP = 6
BOARD_IMAGES = 16  # drawn boards kept (about 2.5 MB each): a delivery round's boards
PNGS = 256  # encoded pictures kept (20 to 40 KB each)
# Boards deflated, alone and as the top of a screen (20 to 40 KB each, two a game version): the
# versions of the last seconds of play of tens of games, whose menu steps stack hands on them.
ROWS = 256
WIDTHS = 2 * ROWS  # the widths of boards drawn (how wide a screen over their rows is)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Recent(Generic[K, V]):
    """The `size` most recently used values, by key."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for `key`, made (and kept) if there is none."""
        value = self.values.get(key)
        if value is not None:
            self.values.move_to_end(key)
            return value
        value = make()
        self.values[key] = value
        if len(self.values) > self.size:
            self.values.popitem(last=False)
        return value


def board_png(state: GameState, names: Mapping[int, str]) -> bytes:
    """The group's board post."""
    return to_png(render_board(public_view(state), names=names))


def screen_png(state: GameState, player: int, screen: Screen, names: Mapping[int, str]) -> bytes:
    """The picture of a private screen: board and hand, numbered spots, or the chosen move."""
    view = player_view(state, player)
    return _screen_png(view, screen, names, lambda: render_private_board(view, names=names))


def _rows(board: Image.Image, width: int) -> Rows:
    """A board's rows, deflated, centred in `width` on the strip's colour."""
    return rows_of(board, width, fill=_strip_index())


def _above(board: Image.Image, width: int) -> Rows:
    """A board as the top of a screen `width` wide: its rows, then the gap to the hand."""
    return with_gap(_rows(board, width), _GAP)


def _screen_png(
    view: PlayerView,
    screen: Screen,
    names: Mapping[int, str],
    private_board: Callable[[], Image.Image],
    *,
    indexed: bool = False,
) -> bytes:
    """A screen's PNG; `private_board` draws (or recalls) the player's board; `indexed`: the
    numbered spots and the chosen move drawn in the palette (the same pixels)."""
    preview = render_placement_preview_indexed if indexed else render_placement_preview
    confirm = render_confirm_indexed if indexed else render_confirm
    if screen.picture is Picture.PREVIEW:
        spots = [s for s in screen.spots if isinstance(s, PlaceTunnel | Rockfall)]
        board = preview(view, spots, names=names)  # type: ignore[arg-type]
    elif _confirms_a_spot(screen):
        board = confirm(view, screen.chosen, names=names)  # type: ignore[arg-type]
    else:
        board = private_board()
    if not view.hand:
        return to_png(board)
    # Stacked in the palette: each part is mapped to it on its own (the board once per
    # version), which gives the very pixels of mapping the stacked picture.
    board, hand = to_palette(board), _hand(view, screen)
    return stacked_png(_above(board, max(board.width, hand.width)), hand)


def _confirms_a_spot(screen: Screen) -> bool:
    """Whether a screen shows a chosen spot drawn on the board (not the player's board)."""
    return screen.picture is Picture.CONFIRM and isinstance(screen.chosen, PlaceTunnel | Rockfall)


def _hand(view: PlayerView, screen: Screen) -> Image.Image:
    """A screen's hand, in the palette."""
    return render_hand_indexed(
        view.hand, highlight=screen.highlight, turned=screen.turned, blocked=screen.blocked
    )


def _board_key(public: PublicView, board: BoardView, names: Mapping[int, str]) -> Hashable:
    """What a board picture is drawn from. A board with no goal peeked by its viewer is drawn
    exactly as the group's, so both have the group's key; one with a peeked goal has its own."""
    if not any(g.peeked for g in board.goals):
        board = public.board
    return (public, board, tuple(sorted(names.items())))


class Pictures:
    """The real pictures (the `tgbot.ports.Painter` port), drawn by render/, each once."""

    def __init__(self) -> None:
        self._boards: _Recent[Hashable, Image.Image] = _Recent(BOARD_IMAGES)
        self._pngs: _Recent[Hashable, bytes] = _Recent(PNGS)
        self._rows: _Recent[Hashable, Rows] = _Recent(ROWS)
        self._widths: _Recent[Hashable, int] = _Recent(WIDTHS)

    def _board(self, key: Hashable, draw: Callable[[], Image.Image]) -> Image.Image:
        """The board drawn from `key`, in the palette (drawn and mapped once)."""

        def drawn() -> Image.Image:
            board = to_palette(draw())
            self._widths.get(key, lambda: board.width)
            return board

        return self._boards.get(key, drawn)

    def _width(self, key: Hashable, draw: Callable[[], Image.Image]) -> int:
        """How wide the board of `key` is (drawn only if it never was, or long ago)."""
        return self._widths.get(key, lambda: self._board(key, draw).width)

    def _board_rows(self, key: Hashable, draw: Callable[[], Image.Image], width: int) -> Rows:
        """The board of `key`, deflated in `width` (once: the board's post and the screens
        under which hands are stacked share it)."""
        return self._rows.get(("rows", key, width), lambda: _rows(self._board(key, draw), width))

    def _top(self, key: Hashable, draw: Callable[[], Image.Image], width: int) -> Rows:
        """The board of `key` as the top of a screen `width` wide: its rows, then the gap."""
        return self._rows.get(
            ("top", key, width), lambda: with_gap(self._board_rows(key, draw, width), _GAP)
        )

    def _board_png(self, key: Hashable, draw: Callable[[], Image.Image]) -> bytes:
        """The board of `key` as a picture of its own."""

        def encode() -> bytes:
            return png_of(self._board_rows(key, draw, self._width(key, draw)))

        return self._pngs.get(("board", key), encode)

    def board(self, state: GameState, names: Mapping[int, str]) -> bytes:
        """The group's board post."""
        view = public_view(state)
        key = _board_key(view, view.board, names)
        # A player without a hand and without a peeked goal sees these very bytes.
        return self._board_png(key, lambda: render_board_indexed(view, names=names))

    def screen(
        self, state: GameState, player: int, screen: Screen, names: Mapping[int, str]
    ) -> bytes:
        """A player's private screen."""
        view = player_view(state, player)
        key = _board_key(view.public, view.board, names)

        def draw_board() -> Image.Image:
            return render_private_board_indexed(view, names=names)

        if not view.hand and screen.picture is Picture.HOME:
            return self._board_png(key, draw_board)
        drawn = (
            key,
            view.hand,
            screen.picture,
            screen.spots if screen.picture is Picture.PREVIEW else (),
            screen.chosen if screen.picture is Picture.CONFIRM else None,
            screen.highlight,
            screen.turned,
            screen.blocked,
        )

        def draw() -> bytes:
            if not view.hand or screen.picture is Picture.PREVIEW or _confirms_a_spot(screen):
                return _screen_png(
                    view, screen, names, lambda: self._board(key, draw_board), indexed=True
                )
            hand = _hand(view, screen)  # under the player's board, deflated once
            width = max(self._width(key, draw_board), hand.width)
            return stacked_png(self._top(key, draw_board, width), hand)

        return self._pngs.get(("screen", drawn), draw)

    def round_end(self, view: PublicView, names: Mapping[int, str]) -> bytes:
        """A round's final board (every goal turned up)."""
        return to_png(render_board_indexed(view, names=names))


@functools.cache
def _strip_index() -> int:
    """The background's colour in the palette."""
    index = to_palette(Image.new("RGB", (1, 1), STRIP)).getpixel((0, 0))
    if not isinstance(index, int | float):
        raise TypeError(f"a palette pixel is an index, not {index!r}")
    return int(index)
