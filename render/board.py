"""Board pictures: the group's board, a player's private board, placement previews, confirms."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import BoardView, Card, Coord, PlaceTunnel, PlayerView, PublicView, Rockfall

from . import icons
from . import style as st
from .indexed import Ink, blank, index, rgb
from .labels import column_label, row_label
from .png import to_palette
from .strip import draw_strip, strip_height, strip_indexed
from .tiles import CHOSEN, card_tile, ghost_tile, goal_back

CELL_SIZES = (64, 56, 48, 40, 32, 24)
MAX_WIDTH = 1280


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the cells of a board fall in the picture."""

    x0: int  # the westmost column shown
    y0: int  # the northmost row shown
    cols: int
    rows: int
    cell: int
    left: int  # width of the row-label margin
    top: int  # height of the column-label margin

    @property
    def width(self) -> int:
        """Width of the board part in pixels."""
        return self.left + self.cols * self.cell

    @property
    def height(self) -> int:
        """Height of the board part in pixels."""
        return self.top + self.rows * self.cell

    def corner(self, at: Coord) -> tuple[int, int]:
        """The top-left pixel of a cell."""
        return self.left + (at[0] - self.x0) * self.cell, self.top + (at[1] - self.y0) * self.cell

    def label_size(self) -> int:
        """Font size of the edge labels."""
        return _label_size(self.cell)


def _label_size(cell: int) -> int:
    return max(12, round(cell * 0.4))


def layout(board: BoardView, extra: Iterable[Coord] = (), *, max_width: int = MAX_WIDTH) -> Layout:
    """Frame the dug area and one ring of empty cells, with the largest cell size that fits."""
    x0, y0, x1, y1 = board.bounds()
    x0, y0, x1, y1 = x0 - 1, y0 - 1, x1 + 1, y1 + 1
    # Spots to number and a rockfall's cell lie next to cards, so almost always in the ring.
    for x, y in (*extra, *((board.last_at,) if board.last_at else ())):
        x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    for cell in CELL_SIZES:
        widest = max(
            st.font(_label_size(cell), bold=True).getlength(row_label(y)) for y in (y0, y1)
        )
        left = max(round(cell * 0.5), round(widest + cell * 0.2))
        if left + cols * cell <= max_width or cell == CELL_SIZES[-1]:
            break
    return Layout(x0, y0, cols, rows, cell, left, round(cell * 0.5))


def _paste_text(
    canvas: Image.Image, text: str, size: int, colour: st.RGB, centre: tuple[float, float]
) -> None:
    image = st.text_image(text, size, colour, bold=True)
    x = round(centre[0] - image.width / 2)
    y = round(centre[1] - image.height / 2)
    canvas.paste(image, (x, y), image)


def _draw_lines(canvas: Image.Image, lay: Layout, ink: Callable[[st.RGB], Ink] = rgb) -> None:
    """The margins' ground and the cells' lines (`ink`: a colour as the picture draws it)."""
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, lay.width - 1, lay.top - 1), fill=ink(st.MARGIN))
    draw.rectangle((0, 0, lay.left - 1, lay.height - 1), fill=ink(st.MARGIN))
    for i in range(lay.cols + 1):
        x = lay.left + i * lay.cell
        draw.line((x, lay.top, x, lay.height - 1), fill=ink(st.GRID))
    for j in range(lay.rows + 1):
        y = lay.top + j * lay.cell
        draw.line((lay.left, y, lay.width - 1, y), fill=ink(st.GRID))


def _draw_grid(canvas: Image.Image, lay: Layout) -> None:
    _draw_lines(canvas, lay)
    size = lay.label_size()
    for i in range(lay.cols):
        centre = (lay.left + (i + 0.5) * lay.cell, lay.top / 2)
        _paste_text(canvas, column_label(lay.x0 + i), size, st.LABEL, centre)
    for j in range(lay.rows):
        centre = (lay.left / 2, lay.top + (j + 0.5) * lay.cell)
        _paste_text(canvas, row_label(lay.y0 + j), size, st.LABEL, centre)


def _draw_cards(
    canvas: Image.Image,
    board: BoardView,
    lay: Layout,
    *,
    private: bool,
    face: Callable[[Card, bool, int], Image.Image] = card_tile,
    back: Callable[[int, Card | None], Image.Image] = goal_back,
) -> None:
    """The cards and the goals (a private board shows the goals its viewer peeked at); `face`
    and `back` draw a face-up card and a goal's back as the picture's mode wants them."""
    for placed in board.cards:
        canvas.paste(face(placed.card, placed.rotated, lay.cell), lay.corner(placed.at))
    for goal in board.goals:
        if goal.revealed and goal.card is not None:
            tile = face(goal.card, goal.rotated, lay.cell)
        else:
            tile = back(lay.cell, goal.card if private and goal.peeked else None)
        canvas.paste(tile, lay.corner(goal.at))


def _frame(canvas: Image.Image, lay: Layout, at: Coord, colour: Ink, width: int) -> None:
    x, y = lay.corner(at)
    _cell_frame(canvas, x, y, lay.cell, colour, width)


def _cell_frame(canvas: Image.Image, x: int, y: int, c: int, colour: Ink, width: int) -> None:
    ImageDraw.Draw(canvas).rectangle((x, y, x + c - 1, y + c - 1), outline=colour, width=width)


def _draw_last(
    canvas: Image.Image, board: BoardView, lay: Layout, ink: Callable[[st.RGB], Ink] = rgb
) -> None:
    """The last move framed, and rubble where a rockfall took a card. In a palette picture
    (`ink` gives indexes) the rubble is blended in RGB over the empty cell's flat colours."""
    if board.last_at is None:
        return
    occupied = {c.at for c in board.cards} | {g.at for g in board.goals}
    if board.last_at not in occupied:
        # The last move was a rockfall: rubble where the card was.
        rubble = icons.icon(icons.Icon.ROCKS, round(lay.cell * 0.7))
        x, y = lay.corner(board.last_at)
        off = (lay.cell - rubble.width) // 2
        if canvas.mode == "P":
            box = (x + off, y + off, x + off + rubble.width, y + off + rubble.height)
            under = canvas.crop(box).convert("RGB")
            under.paste(rubble, (0, 0), rubble)
            canvas.paste(to_palette(under), box[:2])
        else:
            canvas.paste(rubble, (x + off, y + off), rubble)
    _frame(canvas, lay, board.last_at, ink(st.HIGHLIGHT), max(2, lay.cell // 14))


def _board_image(
    public: PublicView,
    board: BoardView,
    names: Mapping[int, str] | None,
    *,
    private: bool,
    extra: Iterable[Coord] = (),
    max_width: int,
    last: bool = True,
    lay: Layout | None = None,
) -> tuple[Image.Image, Layout]:
    if lay is None:
        lay = layout(board, extra, max_width=max_width)
    height = lay.height + (strip_height(lay.width, len(public.seats)) if names is not None else 0)
    canvas = Image.new("RGB", (lay.width, height), st.BACKGROUND)
    _draw_grid(canvas, lay)
    _draw_cards(canvas, board, lay, private=private)
    if last:
        _draw_last(canvas, board, lay)
    if names is not None:
        draw_strip(canvas, public, names, top=lay.height)
    return canvas, lay


def _board_indexed(
    public: PublicView,
    board: BoardView,
    names: Mapping[int, str] | None,
    *,
    private: bool,
    max_width: int,
    extra: Iterable[Coord] = (),
    last: bool = True,
) -> tuple[Image.Image, Layout]:
    """`_board_image`'s picture mapped to the palette, pixel for pixel, drawn in the palette:
    the cells' lines by index, each card mapped once (and kept); the edge labels and the strip,
    blended over their grounds, drawn in RGB and mapped (once per layout, once per chip)."""
    lay = layout(board, extra, max_width=max_width)
    height = lay.height + (strip_height(lay.width, len(public.seats)) if names is not None else 0)
    canvas = blank((lay.width, height), st.BACKGROUND)
    _draw_lines(canvas, lay, index)
    above, left = _margins(lay)
    canvas.paste(above, (0, 0))
    canvas.paste(left, (0, lay.top))
    if names is not None:
        canvas.paste(strip_indexed(public, names, lay.width, top=lay.height), (0, lay.height))
    _draw_cards(canvas, board, lay, private=private, face=_tile_indexed, back=_goal_indexed)
    if last:
        _draw_last(canvas, board, lay, index)
    return canvas, lay


def _overlay(
    canvas: Image.Image,
    lay: Layout,
    board: BoardView,
    at: Coord,
    draw: Callable[[Image.Image, int, int], None],
) -> None:
    """Draw over one cell of a palette board as on the RGB board: the cell in RGB (its flat
    ground and lines as they are, the card lying there drawn again in RGB), `draw` given the
    cell's corner, then the cell mapped back. The cell is taken from an even corner (one pixel
    more to the left or above when odd), so that its halves round as on the board."""
    x, y = lay.corner(at)
    c = lay.cell
    ox, oy = x - x % 2, y - y % 2
    region = canvas.crop((ox, oy, x + c, y + c)).convert("RGB")
    under = _tile_at(board, at, c)
    if under is not None:
        region.paste(under, (x - ox, y - oy))
    draw(region, x - ox, y - oy)
    canvas.paste(to_palette(region.crop((x - ox, y - oy, x - ox + c, y - oy + c))), (x, y))


def _tile_at(board: BoardView, at: Coord, c: int) -> Image.Image | None:
    """The RGB tile of the face-up card lying at `at`, if one does (rockfalls take those)."""
    placed = next((p for p in board.cards if p.at == at), None)
    if placed is not None:
        return card_tile(placed.card, placed.rotated, c)
    goal = next((g for g in board.goals if g.at == at and g.revealed and g.card), None)
    if goal is not None and goal.card is not None:
        return card_tile(goal.card, goal.rotated, c)
    return None


@lru_cache(maxsize=64)
def _margins(lay: Layout) -> tuple[Image.Image, Image.Image]:
    """The labelled margins of a layout, above and left of the cells, mapped to the palette
    (the same from move to move while the maze keeps its frame)."""
    rgb = Image.new("RGB", (lay.width, lay.height), st.BACKGROUND)
    _draw_grid(rgb, lay)
    above = to_palette(rgb.crop((0, 0, lay.width, lay.top)))
    return above, to_palette(rgb.crop((0, lay.top, lay.left, lay.height)))


@lru_cache(maxsize=1024)
def _tile_indexed(card: Card, rotated: bool, cell: int) -> Image.Image:
    return to_palette(card_tile(card, rotated, cell))


@lru_cache(maxsize=64)
def _goal_indexed(cell: int, seen: Card | None) -> Image.Image:
    return to_palette(goal_back(cell, seen))


def render_board_indexed(
    view: PublicView, *, names: Mapping[int, str], max_width: int = MAX_WIDTH
) -> Image.Image:
    """`render_board`'s picture in the palette (the very pixels of mapping it), drawn there."""
    image, _ = _board_indexed(view, view.board, names, private=False, max_width=max_width)
    return image


def render_private_board_indexed(
    view: PlayerView, *, names: Mapping[int, str], max_width: int = MAX_WIDTH
) -> Image.Image:
    """`render_private_board`'s picture in the palette, drawn there."""
    image, _ = _board_indexed(view.public, view.board, names, private=True, max_width=max_width)
    return image


def render_board(
    view: PublicView, *, names: Mapping[int, str], max_width: int = MAX_WIDTH
) -> Image.Image:
    """The group's board: the maze with edge labels, the last move, and the players' strip."""
    image, _ = _board_image(view, view.board, names, private=False, max_width=max_width)
    return image


def render_private_board(
    view: PlayerView, *, names: Mapping[int, str], max_width: int = MAX_WIDTH
) -> Image.Image:
    """One player's board: the group's board plus the goals they peeked at, marked as seen."""
    image, _ = _board_image(view.public, view.board, names, private=True, max_width=max_width)
    return image


def _paste_badge(canvas: Image.Image, number: int, centre: tuple[float, float], size: int) -> None:
    image = icons.badge(number, size)
    canvas.paste(image, (round(centre[0] - size / 2), round(centre[1] - size / 2)), image)


def _draw_choices(
    canvas: Image.Image, x: int, y: int, c: int, numbered: Sequence[tuple[int, PlaceTunnel]]
) -> None:
    """Several choices for one cell (both turns of a card): each drawn small in its own column,
    its number under it, and a divider between, so that they cannot read as one joined shape."""
    per_row = 2 if len(numbered) <= 4 else 3
    part = c // per_row
    band = c // -(-len(numbered) // per_row)
    gap = 2
    mini = part - 2 * gap
    size = min(part - 2, band - mini - gap)
    draw = ImageDraw.Draw(canvas)
    for k in range(1, per_row):
        draw.line((x + k * part, y, x + k * part, y + c - 1), fill=st.GHOST_EDGE, width=2)
    for k, (number, spot) in enumerate(numbered):
        mx, my = x + (k % per_row) * part + gap, y + (k // per_row) * band + gap
        canvas.paste(card_tile(spot.card, spot.rotated, mini), (mx, my))
        if size >= part // 2:
            _paste_badge(canvas, number, (mx + mini / 2, my + mini + size / 2), size)
        else:
            _paste_badge(canvas, number, (mx + mini / 2, my + mini / 2), mini * 2 // 3)


def _spots(
    numbered: Sequence[tuple[int, PlaceTunnel]],
) -> dict[Coord, list[tuple[int, PlaceTunnel]]]:
    cells: dict[Coord, list[tuple[int, PlaceTunnel]]] = {}
    for number, spot in numbered:
        cells.setdefault(spot.at, []).append((number, spot))
    return cells


def _draw_spot(
    canvas: Image.Image, x: int, y: int, c: int, choices: Sequence[tuple[int, PlaceTunnel]]
) -> None:
    """A placement's cell at (x, y): the card ghosted with its number, or several choices."""
    if len(choices) == 1:
        number, spot = choices[0]
        canvas.paste(ghost_tile(spot.card, spot.rotated, c), (x, y))
        _paste_badge(canvas, number, (x + c / 2, y + c / 2), round(c * 0.5))
    else:
        _draw_choices(canvas, x, y, c, choices)
    _cell_frame(canvas, x, y, c, st.GHOST_EDGE, max(2, c // 24))


def _draw_rockfall_spot(canvas: Image.Image, x: int, y: int, c: int, number: int) -> None:
    """A rockfall's target at (x, y): framed red, with its number."""
    _cell_frame(canvas, x, y, c, st.RED, max(2, c // 20))
    _paste_badge(canvas, number, (x + c / 2, y + c / 2), round(c * 0.5))


def _draw_cross(canvas: Image.Image, x: int, y: int, c: int) -> None:
    cross = icons.icon(icons.Icon.CROSS, c)
    canvas.paste(cross, (x, y), cross)


def _draw_placements(
    canvas: Image.Image, lay: Layout, numbered: Sequence[tuple[int, PlaceTunnel]]
) -> None:
    for at, choices in _spots(numbered).items():
        _draw_spot(canvas, *lay.corner(at), lay.cell, choices)


def _draw_rockfalls(
    canvas: Image.Image, lay: Layout, numbered: Sequence[tuple[int, Rockfall]]
) -> None:
    for number, spot in numbered:
        _draw_rockfall_spot(canvas, *lay.corner(spot.at), lay.cell, number)


def _cross_out(canvas: Image.Image, lay: Layout, at: Coord) -> None:
    _draw_cross(canvas, *lay.corner(at), lay.cell)


def render_placement_preview(
    view: PlayerView,
    spots: Sequence[PlaceTunnel] | Sequence[Rockfall],
    *,
    names: Mapping[int, str] | None = None,
    max_width: int = MAX_WIDTH,
) -> Image.Image:
    """The player's board with every given spot numbered 1..N in order, drawn where it would go."""
    cells = [s.at for s in spots]
    image, lay = _board_image(
        view.public, view.board, names, private=True, extra=cells, max_width=max_width, last=False
    )
    numbered = list(enumerate(spots, start=1))
    _draw_placements(image, lay, [(n, s) for n, s in numbered if isinstance(s, PlaceTunnel)])
    _draw_rockfalls(image, lay, [(n, s) for n, s in numbered if isinstance(s, Rockfall)])
    return image


def render_confirm(
    view: PlayerView,
    action: PlaceTunnel | Rockfall,
    *,
    names: Mapping[int, str] | None = None,
    max_width: int = MAX_WIDTH,
) -> Image.Image:
    """The player's board with the chosen card ghosted in place, or the rockfall target crossed."""
    image, lay = _board_image(
        view.public,
        view.board,
        names,
        private=True,
        extra=[action.at],
        max_width=max_width,
        last=False,
    )
    if isinstance(action, PlaceTunnel):
        x, y = lay.corner(action.at)
        image.paste(ghost_tile(action.card, action.rotated, lay.cell, CHOSEN), (x, y))
        _frame(image, lay, action.at, st.GHOST_EDGE, max(3, lay.cell // 16))
    else:
        _cross_out(image, lay, action.at)
    return image


def render_placement_preview_indexed(
    view: PlayerView,
    spots: Sequence[PlaceTunnel] | Sequence[Rockfall],
    *,
    names: Mapping[int, str] | None = None,
    max_width: int = MAX_WIDTH,
) -> Image.Image:
    """`render_placement_preview`'s picture in the palette (the very pixels of mapping it): the
    board drawn there, each numbered cell drawn in RGB and mapped."""
    cells = [s.at for s in spots]
    canvas, lay = _board_indexed(
        view.public, view.board, names, private=True, extra=cells, max_width=max_width, last=False
    )
    c = lay.cell
    tunnels = [(n, s) for n, s in enumerate(spots, start=1) if isinstance(s, PlaceTunnel)]
    for at, choices in _spots(tunnels).items():
        _overlay(canvas, lay, view.board, at, functools.partial(_draw_spot, c=c, choices=choices))
    for number, spot in enumerate(spots, start=1):
        if isinstance(spot, Rockfall):
            draw = functools.partial(_draw_rockfall_spot, c=c, number=number)
            _overlay(canvas, lay, view.board, spot.at, draw)
    return canvas


def render_confirm_indexed(
    view: PlayerView,
    action: PlaceTunnel | Rockfall,
    *,
    names: Mapping[int, str] | None = None,
    max_width: int = MAX_WIDTH,
) -> Image.Image:
    """`render_confirm`'s picture in the palette (the very pixels of mapping it)."""
    canvas, lay = _board_indexed(
        view.public,
        view.board,
        names,
        private=True,
        extra=[action.at],
        max_width=max_width,
        last=False,
    )
    if isinstance(action, PlaceTunnel):
        ghost = _ghost_indexed(action.card, action.rotated, lay.cell)
        canvas.paste(ghost, lay.corner(action.at))
        _frame(canvas, lay, action.at, index(st.GHOST_EDGE), max(3, lay.cell // 16))
    else:
        _overlay(canvas, lay, view.board, action.at, lambda r, x, y: _draw_cross(r, x, y, lay.cell))
    return canvas


@lru_cache(maxsize=256)
def _ghost_indexed(card: Card, rotated: bool, cell: int) -> Image.Image:
    return to_palette(ghost_tile(card, rotated, cell, CHOSEN))
