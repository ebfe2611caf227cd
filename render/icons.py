"""Small symbols drawn with shapes (no sentences in images): tools, goal contents, markers."""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import Enum
from functools import lru_cache

from PIL import Image

from . import style as st
from .pen import Pen, Point, painted

Painter = Callable[[Pen, float, float, float], None]


def _at(cx: float, cy: float, s: float) -> Callable[[float, float], Point]:
    """Map box coordinates (-0.5..0.5) of a square icon of side `s` centred on (cx, cy)."""
    return lambda x, y: (cx + x * s, cy + y * s)


def pickaxe(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A pickaxe: a wooden handle and a curved steel head across its top."""
    p = _at(cx, cy, s)
    pen.line([p(-0.38, 0.4), p(0.18, -0.16)], st.WOOD, 0.13 * s)
    # The head is a quadratic curve across the handle's end, bulging away from the handle.
    a, c, b = (-0.14, -0.46), (0.42, -0.42), (0.46, 0.14)
    head = [
        p(
            (1 - t) ** 2 * a[0] + 2 * t * (1 - t) * c[0] + t**2 * b[0],
            (1 - t) ** 2 * a[1] + 2 * t * (1 - t) * c[1] + t**2 * b[1],
        )
        for t in (0.0, 0.25, 0.5, 0.75, 1.0)
    ]
    pen.line(head, st.BLACK, 0.19 * s)
    pen.line(head, st.STEEL, 0.11 * s)


def lantern(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A lantern: a handle ring, a lit glass body, a cap and a base."""
    p = _at(cx, cy, s)
    pen.ellipse(*p(0, -0.33), 0.13 * s, fill=None, outline=st.STEEL_DARK, width=0.06 * s)
    pen.rect(*p(-0.2, -0.2), *p(0.2, 0.3), st.GOLD, outline=st.BLACK, width=0.05 * s)
    pen.rect(*p(-0.05, -0.2), *p(0.05, 0.3), st.STEEL_DARK)
    pen.polygon([p(-0.28, -0.16), p(0.28, -0.16), p(0.16, -0.28), p(-0.16, -0.28)], st.STEEL_DARK)
    pen.rect(*p(-0.28, 0.27), *p(0.28, 0.4), st.STEEL_DARK, outline=st.BLACK, width=0.03 * s)


def cart(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A mine cart: a tapered tub on two wheels."""
    p = _at(cx, cy, s)
    body = [p(-0.44, -0.22), p(0.44, -0.22), p(0.32, 0.2), p(-0.32, 0.2)]
    pen.polygon(body, st.STEEL, outline=st.BLACK, width=0.05 * s)
    pen.line([p(-0.38, -0.08), p(0.38, -0.08)], st.STEEL_DARK, 0.05 * s)
    for x in (-0.2, 0.2):
        pen.ellipse(*p(x, 0.3), 0.12 * s, fill=st.BLACK)
        pen.ellipse(*p(x, 0.3), 0.04 * s, fill=st.STEEL)


def nuggets(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A pile of gold nuggets."""
    p = _at(cx, cy, s)
    for dx, dy, r in ((-0.2, 0.12, 0.22), (0.2, 0.14, 0.2), (0.0, -0.14, 0.22)):
        pts = [
            p(dx + r * math.cos(a) * 1.1, dy + r * math.sin(a) * 0.85)
            for a in (0.3, 1.2, 2.1, 2.9, 3.8, 4.7, 5.5)
        ]
        pen.polygon(pts, st.GOLD, outline=st.GOLD_DARK, width=0.05 * s)
        pen.ellipse(*p(dx - r * 0.3, dy - r * 0.3), 0.05 * s, fill=st.WHITE)


def coal(pen: Pen, cx: float, cy: float, s: float) -> None:
    """Lumps of coal."""
    p = _at(cx, cy, s)
    for dx, dy, r in ((-0.18, 0.1, 0.2), (0.2, 0.12, 0.18), (0.02, -0.14, 0.2)):
        pts = [
            p(dx + r * math.cos(a), dy + r * math.sin(a) * 0.9)
            for a in (0.2, 1.3, 2.2, 3.1, 4.0, 4.9, 5.7)
        ]
        pen.polygon(pts, st.COAL, outline=st.COAL_EDGE, width=0.05 * s)


def ladder(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A wooden ladder standing up."""
    p = _at(cx, cy, s)
    for x in (-0.2, 0.2):
        pen.line([p(x, -0.45), p(x, 0.45)], st.WOOD, 0.1 * s)
    for y in (-0.3, -0.1, 0.1, 0.3):
        pen.line([p(-0.2, y), p(0.2, y)], st.WOOD, 0.08 * s)


def crystal(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A cut gem."""
    p = _at(cx, cy, s)
    pen.polygon(
        [p(0, -0.45), p(0.35, -0.05), p(0, 0.45), p(-0.35, -0.05)],
        st.CRYSTAL,
        outline=st.BLACK,
        width=0.07 * s,
    )
    pen.line([p(-0.12, -0.12), p(0.0, -0.3)], st.WHITE, 0.08 * s)


def card(pen: Pen, cx: float, cy: float, s: float) -> None:
    """Cards held in a hand: two fanned cards."""
    p = _at(cx, cy, s)
    pen.polygon(
        [p(-0.38, -0.3), p(-0.02, -0.4), p(0.12, 0.36), p(-0.24, 0.46)],
        st.CARD_EDGE,
        outline=st.BLACK,
        width=0.04 * s,
    )
    pen.rect(*p(-0.12, -0.42), *p(0.32, 0.42), st.CARD_FACE, outline=st.BLACK, width=0.05 * s)


def deck(pen: Pen, cx: float, cy: float, s: float) -> None:
    """The draw pile: a stack of face-down cards."""
    p = _at(cx, cy, s)
    for i in (2, 1, 0):
        d = i * 0.07
        pen.rect(
            *p(-0.28 + d, -0.42 + d),
            *p(0.2 + d, 0.34 + d),
            st.GOAL_BACK,
            outline=st.WHITE,
            width=0.04 * s,
        )


def cage(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A cage: a trapped! card in front of a player."""
    p = _at(cx, cy, s)
    # Dark bars: they read on the light card face and on the light tile of the players' strip.
    pen.rect(*p(-0.38, -0.4), *p(0.38, 0.4), None, outline=st.STEEL_DARK, width=0.1 * s)
    for x in (-0.13, 0.13):
        pen.line([p(x, -0.4), p(x, 0.4)], st.STEEL_DARK, 0.09 * s)
    pen.ellipse(*p(0, 0.08), 0.12 * s, fill=st.RED)


def open_cage(pen: Pen, cx: float, cy: float, s: float) -> None:
    """An open cage: free at last!"""
    p = _at(cx, cy, s)
    pen.line([p(-0.1, -0.4), p(-0.38, -0.4), p(-0.38, 0.4), p(0.38, 0.4)], st.STEEL_DARK, 0.08 * s)
    pen.line([p(0.38, 0.4), p(0.38, 0.0)], st.STEEL_DARK, 0.08 * s)
    pen.line([p(-0.14, -0.4), p(-0.14, 0.4)], st.STEEL_DARK, 0.07 * s)
    pen.line([p(0.16, 0.1), p(0.16, -0.4)], st.REPAIR_BAND, 0.1 * s)
    pen.polygon([p(0.0, -0.2), p(0.32, -0.2), p(0.16, -0.45)], st.REPAIR_BAND)


def sack(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A sack of gold: a theft card."""
    p = _at(cx, cy, s)
    pen.ellipse(*p(0, 0.14), 0.34 * s, 0.3 * s, fill=st.WOOD, outline=st.BLACK, width=0.05 * s)
    pen.polygon([p(-0.14, -0.3), p(0.14, -0.3), p(0.08, -0.14), p(-0.08, -0.14)], st.WOOD)
    pen.line([p(-0.12, -0.16), p(0.12, -0.16)], st.GOLD, 0.06 * s)
    pen.ellipse(*p(0, 0.16), 0.13 * s, fill=st.GOLD, outline=st.GOLD_DARK, width=0.04 * s)


def slash(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A red slash over a symbol: broken, or not allowed."""
    p = _at(cx, cy, s)
    pen.line([p(-0.42, 0.42), p(0.42, -0.42)], st.WHITE, 0.2 * s)
    pen.line([p(-0.4, 0.4), p(0.4, -0.4)], st.RED, 0.12 * s)


def plus(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A plus in a green disc: repaired."""
    p = _at(cx, cy, s)
    pen.ellipse(cx, cy, 0.46 * s, fill=st.REPAIR_BAND, outline=st.WHITE, width=0.08 * s)
    pen.line([p(-0.24, 0), p(0.24, 0)], st.WHITE, 0.13 * s)
    pen.line([p(0, -0.24), p(0, 0.24)], st.WHITE, 0.13 * s)


def magnifier(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A magnifying glass: inspection."""
    p = _at(cx, cy, s)
    pen.line([p(0.1, 0.1), p(0.4, 0.4)], st.WOOD, 0.14 * s)
    pen.ellipse(*p(-0.1, -0.1), 0.28 * s, fill=st.GOAL_BACK_EDGE, outline=st.STEEL, width=0.08 * s)
    pen.text(*p(-0.1, -0.1), "?", 0.36 * s, st.WHITE)


def hat(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A miner's helmet with its lamp."""
    p = _at(cx, cy, s)
    pen.ellipse(*p(0, 0.12), 0.32 * s, 0.3 * s, fill=st.GOLD, outline=st.BLACK, width=0.04 * s)
    pen.rect(*p(-0.42, 0.1), *p(0.42, 0.22), st.GOLD_DARK, outline=st.BLACK, width=0.03 * s)
    pen.ellipse(*p(0, -0.02), 0.08 * s, fill=st.WHITE, outline=st.BLACK, width=0.03 * s)


def arrows(pen: Pen, cx: float, cy: float, s: float) -> None:
    """Two opposite arrows: a swap."""
    p = _at(cx, cy, s)
    pen.line([p(-0.38, -0.14), p(0.3, -0.14)], st.WHITE, 0.1 * s)
    pen.polygon([p(0.42, -0.14), p(0.2, -0.32), p(0.2, 0.04)], st.WHITE)
    pen.line([p(0.38, 0.16), p(-0.3, 0.16)], st.WHITE, 0.1 * s)
    pen.polygon([p(-0.42, 0.16), p(-0.2, -0.02), p(-0.2, 0.34)], st.WHITE)


def scroll_map(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A treasure map: a folded sheet with a dotted path to a cross."""
    p = _at(cx, cy, s)
    sheet = [p(-0.44, -0.32), p(-0.15, -0.4), p(0.15, -0.32), p(0.44, -0.4)]
    sheet += [p(0.44, 0.32), p(0.15, 0.4), p(-0.15, 0.32), p(-0.44, 0.4)]
    pen.polygon(sheet, st.CARD_FACE, outline=st.WOOD, width=0.04 * s)
    for x0, x1 in ((-0.15, -0.15), (0.15, 0.15)):
        pen.line([p(x0, -0.38), p(x1, 0.36)], st.CARD_EDGE, 0.025 * s)
    for i in range(5):
        pen.ellipse(*p(-0.32 + i * 0.12, 0.2 - i * 0.07), 0.03 * s, fill=st.WOOD)
    pen.line([p(0.18, -0.24), p(0.34, -0.08)], st.RED, 0.07 * s)
    pen.line([p(0.34, -0.24), p(0.18, -0.08)], st.RED, 0.07 * s)


def rocks(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A rockfall: boulders tumbling down."""
    p = _at(cx, cy, s)
    boulders = ((-0.22, 0.22, 0.2), (0.2, 0.24, 0.18), (0.0, -0.02, 0.17), (0.12, -0.34, 0.1))
    for dx, dy, r in boulders:
        pts = [
            p(dx + r * math.cos(a), dy + r * math.sin(a) * 0.85)
            for a in (0.1, 1.0, 2.0, 2.9, 3.7, 4.6, 5.4)
        ]
        pen.polygon(pts, st.STEEL_DARK, outline=st.BLACK, width=0.04 * s)
    pen.line([p(-0.32, -0.42), p(-0.22, -0.2)], st.DIM, 0.04 * s)
    pen.line([p(0.34, -0.12), p(0.4, 0.02)], st.DIM, 0.04 * s)


def cross(pen: Pen, cx: float, cy: float, s: float) -> None:
    """A red cross with a white rim: this card is the one to remove."""
    p = _at(cx, cy, s)
    for colour, width in ((st.WHITE, 0.2), (st.RED, 0.12)):
        pen.line([p(-0.34, -0.34), p(0.34, 0.34)], colour, width * s)
        pen.line([p(-0.34, 0.34), p(0.34, -0.34)], colour, width * s)


def turn(pen: Pen, cx: float, cy: float, s: float) -> None:
    """The marker of the player whose turn it is."""
    p = _at(cx, cy, s)
    pen.polygon([p(-0.3, -0.38), p(0.38, 0), p(-0.3, 0.38)], st.HIGHLIGHT)


class Icon(Enum):
    """Every standalone symbol."""

    PICKAXE = "pickaxe"
    LANTERN = "lantern"
    CART = "cart"
    NUGGETS = "nuggets"
    COAL = "coal"
    LADDER = "ladder"
    CRYSTAL = "crystal"
    CARD = "card"
    DECK = "deck"
    CAGE = "cage"
    OPEN_CAGE = "open_cage"
    SACK = "sack"
    SLASH = "slash"
    PLUS = "plus"
    MAGNIFIER = "magnifier"
    HAT = "hat"
    ARROWS = "arrows"
    MAP = "map"
    ROCKS = "rocks"
    TURN = "turn"
    CROSS = "cross"


PAINTERS: dict[Icon, Painter] = {
    Icon.PICKAXE: pickaxe,
    Icon.LANTERN: lantern,
    Icon.CART: cart,
    Icon.NUGGETS: nuggets,
    Icon.COAL: coal,
    Icon.LADDER: ladder,
    Icon.CRYSTAL: crystal,
    Icon.CARD: card,
    Icon.DECK: deck,
    Icon.CAGE: cage,
    Icon.OPEN_CAGE: open_cage,
    Icon.SACK: sack,
    Icon.SLASH: slash,
    Icon.PLUS: plus,
    Icon.MAGNIFIER: magnifier,
    Icon.HAT: hat,
    Icon.ARROWS: arrows,
    Icon.MAP: scroll_map,
    Icon.ROCKS: rocks,
    Icon.TURN: turn,
    Icon.CROSS: cross,
}


@lru_cache(maxsize=512)
def icon(name: Icon, size: int, *, broken: bool = False, tile: st.RGB | None = None) -> Image.Image:
    """A square RGBA symbol of `size` pixels; `broken` sets it on a red tile with a slash,
    `tile` on a rounded tile of that colour (so it stands out of a dark strip)."""

    def paint(pen: Pen) -> None:
        if tile is not None and not broken:
            pen.rect(0, 0, 1, 1, tile, radius=0.18)
            PAINTERS[name](pen, 0.5, 0.5, 0.84)
        elif broken:
            # At strip size a slash across the tool hides its shape: the tool stays whole on
            # a red tile, the slash shortened into the corner.
            pen.rect(0, 0, 1, 1, st.BREAK_BAND, radius=0.18)
            PAINTERS[name](pen, 0.47, 0.47, 0.86)
            pen.line([(0.66, 0.94), (0.94, 0.66)], st.WHITE, 0.1)
        else:
            PAINTERS[name](pen, 0.5, 0.5, 0.92)

    return painted((size, size), paint)


@lru_cache(maxsize=256)
def badge(
    number: int, size: int, fill: st.RGB = st.WHITE, ink: st.RGB = st.BLACK, ring: bool = True
) -> Image.Image:
    """A numbered disc, black on white with a dark ring by default: readable on any tile."""

    def paint(pen: Pen) -> None:
        if ring:
            pen.ellipse(0.5, 0.5, 0.47, fill=fill, outline=st.BLACK, width=0.09)
        else:
            pen.ellipse(0.5, 0.5, 0.47, fill=fill)
        text = str(number)
        pen.text(0.5, 0.53, text, 0.64 if len(text) < 2 else 0.5, ink)

    return painted((size, size), paint)
