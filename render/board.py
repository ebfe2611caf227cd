"""Board pictures: the group's board, a player's private board, placement previews, confirms."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import BoardView, Card, Coord, PlaceTunnel, PlayerView, PublicView, Rockfall

from . import icons
from . import style as st
from .indexed import Ink, blank, index, mapped, rgb
from .labels import column_label, row_label
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
    c = lay.cell
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
            canvas.paste(mapped(under), box[:2])
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
    names: Mapping[int, str],
    *,
    private: bool,
    max_width: int,
) -> Image.Image:
    """`_board_image`'s picture mapped to the palette, pixel for pixel, drawn in the palette:
    the cells' lines by index, each card mapped once (and kept); the edge labels and the strip,
    blended over their grounds, drawn in RGB and their regions mapped."""
    lay = layout(board, (), max_width=max_width)
    height = lay.height + strip_height(lay.width, len(public.seats))
    canvas = blank((lay.width, height), st.BACKGROUND)
    _draw_lines(canvas, lay, index)
    above, left = _margins(lay)
    canvas.paste(above, (0, 0))
    canvas.paste(left, (0, lay.top))
    canvas.paste(strip_indexed(public, names, lay.width, top=lay.height), (0, lay.height))
    _draw_cards(canvas, board, lay, private=private, face=_tile_indexed, back=_goal_indexed)
    _draw_last(canvas, board, lay, index)
    return canvas


@lru_cache(maxsize=64)
def _margins(lay: Layout) -> tuple[Image.Image, Image.Image]:
    """The labelled margins of a layout, above and left of the cells, mapped to the palette
    (the same from move to move while the maze keeps its frame)."""
    rgb = Image.new("RGB", (lay.width, lay.height), st.BACKGROUND)
    _draw_grid(rgb, lay)
    above = mapped(rgb.crop((0, 0, lay.width, lay.top)))
    return above, mapped(rgb.crop((0, lay.top, lay.left, lay.height)))


@lru_cache(maxsize=1024)
def _tile_indexed(card: Card, rotated: bool, cell: int) -> Image.Image:
    return mapped(card_tile(card, rotated, cell))


@lru_cache(maxsize=64)
def _goal_indexed(cell: int, seen: Card | None) -> Image.Image:
    return mapped(goal_back(cell, seen))


def render_board_indexed(
    view: PublicView, *, names: Mapping[int, str], max_width: int = MAX_WIDTH
) -> Image.Image:
    """`render_board`'s picture in the palette (the very pixels of mapping it), drawn there."""
    return _board_indexed(view, view.board, names, private=False, max_width=max_width)


def render_private_board_indexed(
    view: PlayerView, *, names: Mapping[int, str], max_width: int = MAX_WIDTH
) -> Image.Image:
    """`render_private_board`'s picture in the palette, drawn there."""
    return _board_indexed(view.public, view.board, names, private=True, max_width=max_width)


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


def _draw_placements(
    canvas: Image.Image, lay: Layout, numbered: Sequence[tuple[int, PlaceTunnel]]
) -> None:
    c = lay.cell
    cells: dict[Coord, list[tuple[int, PlaceTunnel]]] = {}
    for number, spot in numbered:
        cells.setdefault(spot.at, []).append((number, spot))
    for at, choices in cells.items():
        x, y = lay.corner(at)
        if len(choices) == 1:
            number, spot = choices[0]
            canvas.paste(ghost_tile(spot.card, spot.rotated, c), (x, y))
            _paste_badge(canvas, number, (x + c / 2, y + c / 2), round(c * 0.5))
        else:
            _draw_choices(canvas, x, y, c, choices)
        _frame(canvas, lay, at, st.GHOST_EDGE, max(2, c // 24))


def _draw_rockfalls(
    canvas: Image.Image, lay: Layout, numbered: Sequence[tuple[int, Rockfall]]
) -> None:
    c = lay.cell
    for number, spot in numbered:
        x, y = lay.corner(spot.at)
        _frame(canvas, lay, spot.at, st.RED, max(2, c // 20))
        _paste_badge(canvas, number, (x + c / 2, y + c / 2), round(c * 0.5))


def _cross_out(canvas: Image.Image, lay: Layout, at: Coord) -> None:
    x, y = lay.corner(at)
    cross = icons.icon(icons.Icon.CROSS, lay.cell)
    canvas.paste(cross, (x, y), cross)


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
