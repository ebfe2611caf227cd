"""A player's hand: the cards in a row with their numbers."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Card

from . import icons
from . import style as st
from .faces import CARD, hand_card
from .indexed import Ink, blank, index, rgb
from .png import to_palette

PAD = 12
GAP = 12
NUMBER_ROW = 44


def _block(image: Image.Image, x: int, y: int, ink: Callable[[st.RGB], Ink] = rgb) -> None:
    """Mark a held card that cannot be played now: hatched over in the strip's colour, with a
    no-entry sign (flat palette colours only, so the PNG palette holds them exactly). Drawn on
    the card alone: the hatching stops at its edges (it ran over the card to its left). `ink`:
    what the picture's mode draws a colour with (a palette picture: the colour's index)."""
    card = image.crop((x, y, x + CARD, y + CARD))
    draw = ImageDraw.Draw(card)
    for k in range(-CARD, CARD, 10):
        draw.line((k, CARD, k + CARD, 0), fill=ink(st.STRIP), width=4)
    r = CARD // 4
    cx = cy = CARD // 2
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=ink(st.WHITE))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink(st.RED))
    draw.rectangle((cx - r + 7, cy - 5, cx + r - 7, cy + 5), fill=ink(st.WHITE))
    image.paste(card, (x, y))


def _size(count: int) -> tuple[int, int]:
    """How big a hand of `count` cards is drawn (an empty one as wide as one card)."""
    n = max(1, count)
    return 2 * PAD + n * CARD + (n - 1) * GAP, PAD + CARD + NUMBER_ROW


def _number(image: Image.Image, i: int, x: int, top: int, *, chosen: bool, dim: bool) -> None:
    """Card `i`'s number under it, in the numbers' row from `top` (RGB): the chosen card's in a
    highlighted disc, an unplayable card's dimmed."""
    cx, cy = x + CARD / 2, top + NUMBER_ROW / 2
    if chosen:
        disc = icons.badge(i, NUMBER_ROW - 4, st.HIGHLIGHT)
        image.paste(disc, (round(cx - disc.width / 2), round(cy - disc.height / 2)), disc)
    else:
        text = st.text_image(str(i), 28, st.DIM if dim else st.TEXT, bold=True)
        image.paste(text, (round(cx - text.width / 2), round(cy - text.height / 2)), text)


def _frame(x: int, y: int) -> tuple[tuple[int, int, int, int], int]:
    """The highlight's frame around the card at (x, y) (in the picture's coordinates), and its
    width."""
    w = 5
    return (x - w, y - w, x + CARD + w - 1, y + CARD + w - 1), w


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
    image = Image.new("RGB", _size(len(cards)), st.STRIP)
    draw = ImageDraw.Draw(image)
    for i, card in enumerate(cards, start=1):
        x = PAD + (i - 1) * (CARD + GAP)
        image.paste(hand_card(card, turned=turned and i - 1 == highlight), (x, PAD))
        if i - 1 in blocked:
            _block(image, x, PAD)
        if i - 1 == highlight:
            frame, w = _frame(x, PAD)
            draw.rectangle(frame, outline=st.HIGHLIGHT, width=w)
        _number(image, i, x, PAD + CARD, chosen=i - 1 == highlight, dim=i - 1 in blocked)
    return image


def render_hand_indexed(
    cards: Sequence[Card],
    *,
    highlight: int | None = None,
    turned: bool = False,
    blocked: Collection[int] = (),
) -> Image.Image:
    """`render_hand`'s picture mapped to the pictures' palette (`png.palette`), pixel for pixel,
    drawn in the palette: each card (hatched or not) is mapped once and kept, the frame is
    drawn with its colour's index, and only the numbers' row, whose numbers are blended over
    the strip (and the frame's foot), is drawn in RGB and mapped, once for each count, choice
    and set of unplayable cards."""
    image = _blank(_size(len(cards))).copy()
    draw = ImageDraw.Draw(image)
    for i, card in enumerate(cards, start=1):
        x = PAD + (i - 1) * (CARD + GAP)
        image.paste(_card_indexed(card, turned and i - 1 == highlight, i - 1 in blocked), (x, PAD))
        if i - 1 == highlight:
            frame, w = _frame(x, PAD)
            draw.rectangle(frame, outline=index(st.HIGHLIGHT), width=w)
    marked = tuple(i for i in range(len(cards)) if i in blocked)
    image.paste(_numbers_indexed(len(cards), highlight, marked), (0, PAD + CARD))
    return image


@lru_cache(maxsize=16)
def _blank(size: tuple[int, int]) -> Image.Image:
    """An empty hand's ground, in the palette (copied, never drawn on)."""
    return blank(size, st.STRIP)


@lru_cache(maxsize=256)
def _numbers_indexed(n: int, highlight: int | None, blocked: tuple[int, ...]) -> Image.Image:
    """The numbers' row of a hand of `n` cards, mapped to the palette: numbers blended over the
    strip, and the foot of the chosen card's frame (kept: a hand has few such rows)."""
    top = PAD + CARD
    numbers = Image.new("RGB", (_size(n)[0], NUMBER_ROW), st.STRIP)
    below = ImageDraw.Draw(numbers)
    for i in range(1, n + 1):
        x = PAD + (i - 1) * (CARD + GAP)
        if i - 1 == highlight:
            (x0, y0, x1, y1), w = _frame(x, PAD)
            below.rectangle((x0, y0 - top, x1, y1 - top), outline=st.HIGHLIGHT, width=w)
        _number(numbers, i, x, 0, chosen=i - 1 == highlight, dim=i - 1 in blocked)
    return to_palette(numbers)


@lru_cache(maxsize=512)
def _card_indexed(card: Card, turned: bool, blocked: bool) -> Image.Image:
    """A held card mapped to the palette, hatched with the no-entry sign when `blocked` (kept:
    pasted, never drawn on)."""
    image = to_palette(hand_card(card, turned=turned))
    if blocked:
        image = image.copy()
        _block(image, 0, 0, index)
    return image
