"""PNG encoding: one fixed 256-colour palette, so pictures are small, fast and byte-stable."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from engine import Card, spec

from . import style as st
from .hand import hand_card
from .icons import Icon, badge, icon
from .tiles import CHOSEN, card_tile, ghost_tile, goal_back

# zlib level 3: on these flat palette pictures a third of level 6's time (3 ms, not 11, for a
# 1193×1122 hand screen) for about 25% more bytes; levels 1 and 2 are no faster and larger.
COMPRESS_LEVEL = 3
_SAMPLE_TEXT = "ABCDEFGHIJKLM0123456789-…김이박민수지영Ggjy"
_TEXT_GROUNDS = (st.MARGIN, st.CHIP, st.CHIP_TURN, st.STRIP, st.CARD_FACE, st.WHITE, st.BACKGROUND)
_TEXT_INKS = (st.LABEL, st.TEXT, st.BLACK, st.DIM, st.WHITE)


def _atlas() -> Image.Image:
    """Samples of everything the pictures paste: the palette is fitted to their blended edges."""
    pieces: list[Image.Image] = []
    cell = 64
    for c in Card:
        if not spec(c).tunnels:
            pieces.append(hand_card(c, cell))
            continue
        for rotated in (False, True):
            pieces.append(card_tile(c, rotated, cell))
            pieces.append(ghost_tile(c, rotated, cell))
            pieces.append(ghost_tile(c, rotated, cell, CHOSEN))
    pieces.extend(goal_back(cell, seen) for seen in (None, Card.GOLD, Card.COAL_NE))
    for ground in (st.CHIP, st.STRIP, st.CARD_FACE, st.ROCK, st.BACKGROUND):
        for name in Icon:
            for broken in (False, True):
                image = Image.new("RGB", (40, 40), ground)
                symbol = icon(name, 40, broken=broken)
                image.paste(symbol, (0, 0), symbol)
                pieces.append(image)
        for name in (Icon.CAGE, Icon.SACK):  # the strip's light tiles
            image = Image.new("RGB", (40, 40), ground)
            symbol = icon(name, 40, tile=st.CARD_FACE)
            image.paste(symbol, (0, 0), symbol)
            pieces.append(image)
        for fill, ink, ring in (
            (st.WHITE, st.BLACK, True),
            (st.HIGHLIGHT, st.BLACK, True),
            (st.HIGHLIGHT, st.BLACK, False),
            (st.CHIP, st.DIM, False),
        ):
            image = Image.new("RGB", (32, 32), ground)
            disc = badge(7, 32, fill, ink, ring)
            image.paste(disc, (0, 0), disc)
            pieces.append(image)
    for ground in _TEXT_GROUNDS:
        for ink in _TEXT_INKS:
            text = st.text_image(_SAMPLE_TEXT, 24, ink, bold=True)
            image = Image.new("RGB", text.size, ground)
            image.paste(text, (0, 0), text)
            pieces.append(image)
    width = 640
    x = y = line = 0
    places: list[tuple[int, int]] = []
    for piece in pieces:
        if x + piece.width > width:
            x, y, line = 0, y + line, 0
        places.append((x, y))
        x += piece.width
        line = max(line, piece.height)
    atlas = Image.new("RGB", (width, y + line), st.BACKGROUND)
    for piece, at in zip(pieces, places, strict=True):
        atlas.paste(piece, at)
    return atlas


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The fixed palette: every flat colour exactly, then the blends seen in the atlas."""
    base = list(dict.fromkeys(st.BASE_COLOURS))
    fitted = _atlas().quantize(256 - len(base), method=Image.Quantize.MEDIANCUT)
    extra = fitted.getpalette() or []
    colours = [c for rgb in base for c in rgb] + extra[: 3 * (256 - len(base))]
    colours += [0] * (768 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette(colours)
    return image


def to_palette(image: Image.Image) -> Image.Image:
    """The picture in the fixed palette (nearest colour, no dithering)."""
    if image.mode == "P":
        return image
    return image.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)


def to_png(image: Image.Image) -> bytes:
    """PNG bytes in the fixed palette, without metadata: the same picture gives the same bytes."""
    out = io.BytesIO()
    to_palette(image).save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
