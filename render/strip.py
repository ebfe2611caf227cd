"""The strip under a board: round, deck, and one chip per player (turn, hand, tools, traps)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Card, Edition, PublicView, SeatView, Tool

from . import style as st
from .icons import Icon, badge, icon
from .indexed import blank
from .png import to_palette

_TOOL_ICONS = {Tool.PICKAXE: Icon.PICKAXE, Tool.LANTERN: Icon.LANTERN, Tool.CART: Icon.CART}
ROUNDS = 3


def _unit(width: int) -> int:
    """The strip's font size: a fixed share of the picture's width, so it reads the same on a
    phone whatever the size of the maze."""
    return max(16, min(44, round(width / 32)))


def _columns(width: int) -> int:
    return max(1, min(3, width // (_unit(width) * 15)))


def strip_height(width: int, seats: int) -> int:
    """Height of the strip for a picture `width` wide with this many players."""
    f = _unit(width)
    row = round(f * ROW)
    rows = -(-seats // _columns(width))
    return f // 2 + row * (rows + 1) + f // 2


def _text(
    canvas: Image.Image, text: str, size: int, colour: st.RGB, x: int, cy: int, *, bold: bool
) -> int:
    """Paste text with its left edge at x, centred on cy; returns its right edge."""
    image = st.text_image(text, size, colour, bold=bold)
    canvas.paste(image, (x, round(cy - image.height / 2)), image)
    return x + image.width


def _icon(
    canvas: Image.Image,
    name: Icon,
    size: int,
    x: int,
    cy: int,
    *,
    broken: bool = False,
    tile: st.RGB | None = None,
) -> int:
    image = icon(name, size, broken=broken, tile=tile)
    canvas.paste(image, (x, round(cy - size / 2)), image)
    return x + size


def _info_row(canvas: Image.Image, view: PublicView, f: int, top: int, row: int) -> None:
    """Round pips (the current one lit), the deck, and Deluxe crystals."""
    cy = top + row // 2
    x = f // 2
    size = round(f * 1.24)
    for n in range(1, ROUNDS + 1):
        current = n == view.round
        fill, ink = (st.HIGHLIGHT, st.BLACK) if current else (st.CHIP, st.DIM)
        pip = badge(n, size, fill, ink, ring=False)
        canvas.paste(pip, (x, cy - size // 2), pip)
        x += size + f // 3
    x += f
    ic = round(f * 1.5)
    x = _icon(canvas, Icon.DECK, ic, x, cy) + f // 4
    x = _text(canvas, str(view.deck_size), f, st.TEXT, x, cy, bold=True) + f
    if view.edition is Edition.DELUXE:
        x = _icon(canvas, Icon.CRYSTAL, ic, x, cy) + f // 4
        _text(canvas, str(view.crystals), f, st.TEXT, x, cy, bold=True)


def _markers(seat: SeatView, gold: int | None) -> list[tuple[Icon, bool, str]]:
    """What lies in front of a player, as (symbol, broken, number): broken tools on red tiles,
    trapped! and a theft on light tiles, the final gold plain."""
    out: list[tuple[Icon, bool, str]] = [(_TOOL_ICONS[t], True, "") for t in seat.broken]
    if seat.is_trapped:
        out.append((Icon.CAGE, False, ""))
    if Card.THEFT in seat.in_front:
        out.append((Icon.SACK, False, ""))
    if gold is not None:
        out.append((Icon.NUGGETS, False, str(gold)))
    return out


_TILED = frozenset({Icon.CAGE, Icon.SACK})
MARKER = 1.75  # a marker's side, in units of the strip's font size (a hand's icon is 1.4)
ROW = 2.1  # a chip row's height, in the same units


@dataclass(frozen=True, slots=True)
class _Chip:
    """One player's chip as drawn: what it shows and its box."""

    seat: SeatView
    name: str
    box: tuple[int, int, int, int]
    turn: bool
    target: bool
    gold: int | None
    f: int


def _chip(canvas: Image.Image, chip: _Chip) -> None:
    """One player: turn marker, cards in hand, name, then what lies in front of them; the
    player the last move's card was played on is framed like the board's last move."""
    seat, name, box, turn, target, gold, f = (
        chip.seat,
        chip.name,
        chip.box,
        chip.turn,
        chip.target,
        chip.gold,
        chip.f,
    )
    x0, y0, x1, y1 = box
    draw = ImageDraw.Draw(canvas)
    draw.rectangle(box, fill=st.CHIP_TURN if turn else st.CHIP)
    if turn:
        draw.rectangle(box, outline=st.HIGHLIGHT, width=max(2, f // 8))
    if target:
        # The board's last-move colour, thicker than the turn's outline, lined in black.
        w = max(3, f // 5)
        draw.rectangle(box, outline=st.HIGHLIGHT, width=w)
        draw.rectangle((x0 + w, y0 + w, x1 - w, y1 - w), outline=st.BLACK, width=max(1, w // 3))
    cy = (y0 + y1 + 1) // 2
    ic = round(f * 1.4)
    mk = min(round(f * MARKER), y1 - y0 - 2)
    gap = f // 4
    bold = st.font(f, bold=True)
    # The markers are laid out from the right first: the name gets what is left.
    parts = _markers(seat, gold)
    widths = [mk + (gap + round(bold.getlength(n)) if n else 0) for _, _, n in parts]
    right = x1 - f // 3 - sum(widths) - gap * max(0, len(parts) - 1)
    x = x0 + f // 4
    if turn:
        _icon(canvas, Icon.TURN, f, x, cy)
    x += f + f // 4
    # Hand sizes in one column, whatever the markers, so they compare at a glance.
    end = _icon(canvas, Icon.CARD, ic, x, cy)
    _text(canvas, str(seat.hand_size), f, st.TEXT, end + gap // 2, cy, bold=True)
    x = end + gap // 2 + round(bold.getlength("10")) + f // 2
    shown = st.fit_text(name, f, right - x - f // 3, bold=turn)
    if shown:
        _text(canvas, shown, f, st.TEXT, x, cy, bold=turn)
    x = right
    for (symbol, broken, number), w in zip(parts, widths, strict=True):
        tile = st.CARD_FACE if symbol in _TILED else None
        end = _icon(canvas, symbol, mk, x, cy, broken=broken, tile=tile)
        if number:
            _text(canvas, number, f, st.TEXT, end + gap, cy, bold=True)
        x += w + gap


def _chips(view: PublicView, names: Mapping[int, str], width: int, y: int) -> list[_Chip]:
    """The players' chips of a strip `width` wide whose chip rows start at pixel row `y`."""
    f = _unit(width)
    row = round(f * ROW)
    cols = _columns(width)
    pad = f // 2
    chip_w = (width - pad * (cols + 1)) // cols
    gold = dict(view.final_gold) if view.final_gold is not None else {}
    chips = []
    for i, seat in enumerate(view.seats):
        col, line = i % cols, i // cols
        x0 = pad + col * (chip_w + pad)
        y0 = y + line * row
        box = (x0, y0, x0 + chip_w - 1, y0 + row - f // 4 - 1)
        # A name that is only emoji (or missing) falls back to the seat number.
        name = st.drawable(names.get(seat.player, "")) or f"#{i + 1}"
        turn, target = seat.player == view.current, seat.player == view.last_target
        chips.append(_Chip(seat, name, box, turn, target, gold.get(seat.player), f))
    return chips


def draw_strip(
    canvas: Image.Image, view: PublicView, names: Mapping[int, str], *, top: int
) -> None:
    """Draw the strip onto the bottom of a board picture, from pixel row `top`."""
    width = canvas.width
    f = _unit(width)
    row = round(f * ROW)
    ImageDraw.Draw(canvas).rectangle((0, top, width - 1, canvas.height - 1), fill=st.STRIP)
    y = top + f // 2
    _info_row(canvas, view, f, y, row)
    for chip in _chips(view, names, width, y + row):
        _chip(canvas, chip)


def strip_indexed(
    view: PublicView, names: Mapping[int, str], width: int, *, top: int
) -> Image.Image:
    """The strip `draw_strip` draws from row `top` of a picture `width` wide, alone and in the
    palette: the very pixels of mapping it. The round and deck row is drawn in RGB and mapped;
    each chip is drawn and mapped once and kept (a chip stays the same from move to move until
    its player's count, turn or tools change). The strip's coordinates are whole or halves, so
    a part drawn on a picture of its own, moved by an even number of rows, rounds alike (half to
    even); a chip's drawing stays within its box."""
    f = _unit(width)
    row = round(f * ROW)
    canvas = blank((width, strip_height(width, len(view.seats))), st.STRIP)
    odd = top % 2
    info = Image.new("RGB", (width, odd + f // 2 + row), st.STRIP)
    _info_row(info, view, f, odd + f // 2, row)
    canvas.paste(to_palette(info.crop((0, odd, width, info.height))), (0, 0))
    for chip in _chips(view, names, width, top + f // 2 + row):
        x0, y0, _, _ = chip.box
        canvas.paste(_chip_indexed(chip), (x0, y0 - top))
    return canvas


@lru_cache(maxsize=256)  # 10 to 40 KB each: the chips of tens of games
def _chip_indexed(chip: _Chip) -> Image.Image:
    """A chip alone, in the palette: drawn on a picture of its box (one row more above when
    the box starts on an odd row, so that its coordinates round as in the strip)."""
    x0, y0, x1, y1 = chip.box
    odd = y0 % 2
    image = Image.new("RGB", (x1 - x0 + 1, y1 - y0 + 1 + odd), st.STRIP)
    _chip(image, dataclasses.replace(chip, box=(0, odd, x1 - x0, y1 - y0 + odd)))
    return to_palette(image.crop((0, odd, image.width, image.height)))
