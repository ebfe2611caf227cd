"""The faces of held cards: a tunnel card's tunnels, an action card's symbol (the hand picture's
cards, and the pieces the pictures' palette is fitted to)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engine import Card, Kind, Tool, spec

from . import icons
from . import style as st
from .pen import Pen, painted
from .tiles import card_tile

CARD = 104  # a card's side in the hand picture

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
