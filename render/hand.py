"""A player's hand: the cards in a row with their numbers."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Card, Kind, Tool, spec

from . import icons
from . import style as st
from .pen import Pen, painted
from .tiles import card_tile

CARD = 104  # a card's side in the hand picture
PAD = 12
GAP = 12
NUMBER_ROW = 44

_TOOL_PAINTERS: dict[Tool, icons.Painter] = {
    Tool.PICKAXE: icons.pickaxe,
    Tool.LANTERN: icons.lantern,
    Tool.CART: icons.cart,
}
_SYMBOL: dict[Kind, icons.Painter] = {
    Kind.MAP: icons.scroll_map,
    Kind.ROCKFALL: icons.rocks,
    Kind.THEFT: icons.sack,
    Kind.HANDS_OFF: icons.sack,
    Kind.INSPECTION: icons.magnifier,
    Kind.TRAPPED: icons.cage,
    Kind.FREE: icons.open_cage,
}
_BAND: dict[Kind, st.RGB] = {
    Kind.BREAK: st.BREAK_BAND,
    Kind.REPAIR: st.REPAIR_BAND,
    Kind.MAP: st.ACTION_BAND,
    Kind.ROCKFALL: st.ACTION_BAND,
}


def _paint_action(pen: Pen, card: Card) -> None:
    s = spec(card)
    band = _BAND.get(s.kind, st.DELUXE_BAND)
    pen.rect(0, 0, 1, 1, st.CARD_FACE, outline=band, width=0.08, radius=0.08)
    if s.kind is Kind.BREAK:
        _TOOL_PAINTERS[s.tools[0]](pen, 0.5, 0.5, 0.7)
        icons.slash(pen, 0.5, 0.5, 0.72)
    elif s.kind is Kind.REPAIR:
        if len(s.tools) == 1:
            _TOOL_PAINTERS[s.tools[0]](pen, 0.46, 0.46, 0.66)
        else:
            # One of two tools: both drawn, split by a diagonal.
            _TOOL_PAINTERS[s.tools[0]](pen, 0.3, 0.32, 0.42)
            _TOOL_PAINTERS[s.tools[1]](pen, 0.66, 0.6, 0.42)
            pen.line([(0.25, 0.8), (0.75, 0.2)], st.CARD_EDGE, 0.03)
        icons.plus(pen, 0.78, 0.78, 0.3)
    elif s.kind is Kind.SWAP_HAND:
        icons.card(pen, 0.3, 0.4, 0.42)
        icons.card(pen, 0.7, 0.4, 0.42)
        _dark_arrows(pen, 0.5, 0.76, 0.5)
    elif s.kind is Kind.SWAP_HATS:
        icons.hat(pen, 0.5, 0.38, 0.62)
        _dark_arrows(pen, 0.5, 0.78, 0.46)
    else:
        _SYMBOL[s.kind](pen, 0.5, 0.5, 0.7)
        if s.kind is Kind.HANDS_OFF:
            icons.slash(pen, 0.5, 0.5, 0.72)


def _dark_arrows(pen: Pen, cx: float, cy: float, s: float) -> None:
    """Swap arrows in a dark disc, readable on the light card face."""
    pen.ellipse(cx, cy, s * 0.42, fill=st.DELUXE_BAND)
    icons.arrows(pen, cx, cy, s * 0.7)


@lru_cache(maxsize=128)
def hand_card(card: Card, size: int = CARD, turned: bool = False) -> Image.Image:
    """One card as held (or turned by 180°): a tunnel card shows its tunnels, an action card its
    symbol (RGB)."""
    if spec(card).tunnels:
        return card_tile(card, turned, size)
    image = Image.new("RGB", (size, size), st.STRIP)
    face = painted((size, size), lambda pen: _paint_action(pen, card))
    image.paste(face, (0, 0), face)
    return image


def _block(image: Image.Image, x: int, y: int) -> None:
    """Mark a held card that cannot be played now: hatched over in the strip's colour, with a
    no-entry sign (flat palette colours only, so the PNG palette holds them exactly). Drawn on
    the card alone: the hatching stops at its edges (it ran over the card to its left)."""
    card = image.crop((x, y, x + CARD, y + CARD))
    draw = ImageDraw.Draw(card)
    for k in range(-CARD, CARD, 10):
        draw.line((k, CARD, k + CARD, 0), fill=st.STRIP, width=4)
    r = CARD // 4
    cx = cy = CARD // 2
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=st.WHITE)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=st.RED)
    draw.rectangle((cx - r + 7, cy - 5, cx + r - 7, cy + 5), fill=st.WHITE)
    image.paste(card, (x, y))


def render_hand(
    cards: Sequence[Card],
    *,
    highlight: int | None = None,
    turned: bool = False,
    blocked: Collection[int] = (),
) -> Image.Image:
    """The cards in a row, numbered 1..N; `highlight` is the index in `cards` of a chosen card,
    drawn turned by 180° when `turned` (the orientation its spots are shown in); the cards at
    the indexes `blocked` cannot be played now and are hatched with a no-entry sign."""
    n = max(1, len(cards))
    width = 2 * PAD + n * CARD + (n - 1) * GAP
    image = Image.new("RGB", (width, PAD + CARD + NUMBER_ROW), st.STRIP)
    draw = ImageDraw.Draw(image)
    for i, card in enumerate(cards, start=1):
        x = PAD + (i - 1) * (CARD + GAP)
        image.paste(hand_card(card, turned=turned and i - 1 == highlight), (x, PAD))
        if i - 1 in blocked:
            _block(image, x, PAD)
        cx, cy = x + CARD / 2, PAD + CARD + NUMBER_ROW / 2
        if i - 1 == highlight:
            w = 5
            frame = (x - w, PAD - w, x + CARD + w - 1, PAD + CARD + w - 1)
            draw.rectangle(frame, outline=st.HIGHLIGHT, width=w)
            disc = icons.badge(i, NUMBER_ROW - 4, st.HIGHLIGHT)
            image.paste(disc, (round(cx - disc.width / 2), round(cy - disc.height / 2)), disc)
        else:
            ink = st.DIM if i - 1 in blocked else st.TEXT
            text = st.text_image(str(i), 28, ink, bold=True)
            image.paste(text, (round(cx - text.width / 2), round(cy - text.height / 2)), text)
    return image
