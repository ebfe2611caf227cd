"""PNG encoding: one fixed 256-colour palette, so pictures are small, fast and pixel-stable.

The PNG is written here (IHDR, PLTE, one IDAT, IEND; rows unfiltered, as the PNG specification
recommends for palette pictures) rather than by Pillow, whose encoder takes about twice the
time for the same rows at the same zlib level, and deflated by ISA-L's fast deflate. A picture
stacked under another (a hand under a board) reuses the rows above it already deflated
(`Rows`): the deflate stream of the board is ended with a sync flush, the hand's rows follow as
the stream's last blocks, and the stream's checksum runs on over them, so a player's screen
costs the encoding of its hand alone.

The same picture decodes to the same pixels and palette, always; its bytes are the same nearly
always. ISA-L may, on rare occasions, pick other matches for the same rows (seen in a CI run, and
once in about 35,000 deflations of one board in loops here), so a picture drawn again may go up
to Telegram once more instead of reusing its file id: harmless, and nothing compares pictures
drawn apart by their bytes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache

from isal import isal_zlib
from PIL import Image

from engine import Card, spec

from . import style as st
from .faces import hand_card
from .icons import Icon, badge, icon
from .tiles import CHOSEN, card_tile, ghost_tile, goal_back

# Deflated by ISA-L (`isal`), level 1: on these flat palette pictures (boards and hands) about
# a seventh of zlib level 3's time for 5% fewer bytes (zlib level 6: 2.5 times level 3's time,
# 22% fewer bytes than it). Any inflater reads the stream: a 32 KB window, standard blocks.
# The checksums are ISA-L's too (the same values as zlib's): adler32 of a board's rows 227 -> 46
# us, the CRC of its chunk 192 -> 15 us for 800 KB.
COMPRESS_LEVEL = 1
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x5e"  # deflate, 32 KB window, a fast level (informative only)
_END = b"\x03\x00"  # an empty last deflate block: ends a stream that a sync flush left open
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
    rgb = image if image.mode == "RGB" else image.convert("RGB")  # convert would copy it
    return rgb.quantize(palette=palette(), dither=Image.Dither.NONE)


def to_png(image: Image.Image) -> bytes:
    """PNG bytes in the fixed palette, without metadata: the same picture gives the same pixels
    (and nearly always the same bytes: see the module's note)."""
    indexed = to_palette(image)
    return png_of(rows_of(indexed, indexed.width, fill=0))


@dataclass(frozen=True, slots=True)
class Rows:
    """The top of a picture, deflated, ready to have more rows stacked under it (`stacked_png`)
    or to be a picture itself (`png_of`)."""

    width: int
    height: int
    fill: int  # the palette index around narrower pictures stacked under it
    deflated: bytes  # a deflate stream's first blocks, ended by a sync flush
    adler: int  # the zlib checksum of the rows so far
    palette: bytes


def rows_of(image: Image.Image, width: int, *, fill: int) -> Rows:
    """`image` (mapped to the palette) centred in `width` on `fill`."""
    indexed = to_palette(image)
    if indexed.width > width:
        raise ValueError(f"a picture {indexed.width} wide in rows {width} wide")
    raw = _raw(indexed, width, fill)
    deflated = _deflate(raw, last=False)
    return Rows(width, indexed.height, fill, deflated, isal_zlib.adler32(raw), _palette_of(indexed))


def with_gap(rows: Rows, gap: int) -> Rows:
    """`rows` and `gap` rows of their fill under them."""
    raw = (b"\x00" + bytes([rows.fill]) * rows.width) * gap
    deflated = rows.deflated + _deflate(raw, last=False)
    adler = isal_zlib.adler32(raw, rows.adler)
    return Rows(rows.width, rows.height + gap, rows.fill, deflated, adler, rows.palette)


def png_of(rows: Rows) -> bytes:
    """The picture of `rows` alone (the deflate stream ended by an empty last block)."""
    return _png(rows.palette, rows.width, rows.height, rows.deflated + _END, rows.adler)


def stacked_png(above: Rows, image: Image.Image) -> bytes:
    """The PNG of `above` with `image` (in the same palette) centred under it: the picture of
    pasting both on a canvas of `above.fill` and encoding it, pixel for pixel."""
    indexed = to_palette(image)
    if indexed.width > above.width:
        raise ValueError(f"a picture {indexed.width} wide under rows {above.width} wide")
    if _palette_of(indexed) != above.palette:
        raise ValueError("the stacked pictures' palettes differ")
    raw = _raw(indexed, above.width, above.fill)
    stream = above.deflated + _deflate(raw, last=True)
    height = above.height + indexed.height
    return _png(above.palette, above.width, height, stream, isal_zlib.adler32(raw, above.adler))


def _palette_of(image: Image.Image) -> bytes:
    colours = image.getpalette() or []
    return bytes(colours + [0] * (768 - len(colours)))


def _raw(image: Image.Image, width: int, fill: int) -> bytes:
    """The image's rows of palette indices, centred in `width` on `fill`, each after its filter
    byte (0: none): the rows of a canvas one wider whose first column is the filter bytes."""
    w, h = image.size
    canvas = Image.new("P", (width + 1, h), fill)
    canvas.paste(image, (1 + (width - w) // 2, 0))  # indices copied as they are (both "P")
    canvas.paste(0, (0, 0, 1, h))
    return canvas.tobytes()


def _deflate(raw: bytes, *, last: bool) -> bytes:
    """Raw deflate blocks of `raw`: the stream's end, or (not `last`) blocks more may follow."""
    packer = isal_zlib.compressobj(COMPRESS_LEVEL, isal_zlib.DEFLATED, -isal_zlib.MAX_WBITS)
    end = isal_zlib.Z_FINISH if last else isal_zlib.Z_SYNC_FLUSH
    return packer.compress(raw) + packer.flush(end)


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = isal_zlib.crc32(data, isal_zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _png(palette: bytes, width: int, height: int, stream: bytes, adler: int) -> bytes:
    """An 8-bit palette PNG of `width` × `height` from its deflated rows and their checksum."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    data = _ZLIB_HEADER + stream + struct.pack(">I", adler)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )
