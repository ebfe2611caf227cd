"""The PNG writer: files any decoder reads (chunk checksums, one zlib stream with its checksum),
the picture's very pixels and palette, and a picture stacked under rows deflated beforehand."""

from __future__ import annotations

import struct
import zlib

import pytest
from PIL import Image

from engine import public_view
from render import render_board
from render.png import palette, png_of, rows_of, stacked_png, to_palette, to_png, with_gap
from render.style import BACKGROUND, HIGHLIGHT, STRIP

from . import boards as b
from .pngs import decoded as _pixels


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of a PNG, each checked against its CRC."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        out.append((kind, data))
        at += 12 + length
    return out


def _picture(width: int, height: int, colour: tuple[int, int, int]) -> Image.Image:
    image = Image.new("RGB", (width, height), BACKGROUND)
    image.paste(colour, (width // 4, height // 4, width // 2, height // 2))
    return image


def test_a_board_is_written_as_a_valid_png_of_its_palette_pixels() -> None:
    board = render_board(public_view(b.dug(b.base(3, seed=5), 30, 5)), names=b.NAMES)
    png = to_png(board)
    chunks = _chunks(png)
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert chunks[0][1] == struct.pack(">IIBBBBB", board.width, board.height, 8, 3, 0, 0, 0)
    rows = zlib.decompress(chunks[2][1])  # the stream's own checksum is checked too
    assert len(rows) == board.height * (board.width + 1)
    assert all(rows[y * (board.width + 1)] == 0 for y in range(board.height))  # unfiltered
    indexed = to_palette(board)
    assert _pixels(png) == ("P", board.size, indexed.tobytes(), indexed.getpalette())
    assert _pixels(to_png(board)) == _pixels(png)  # the same picture, the same pixels


@pytest.mark.parametrize(("top", "bottom"), [((300, 120), (180, 50)), ((200, 80), (200, 40))])
def test_a_picture_stacked_under_deflated_rows_is_the_pasted_picture(
    top: tuple[int, int], bottom: tuple[int, int]
) -> None:
    upper, lower = _picture(*top, HIGHLIGHT), _picture(*bottom, STRIP)
    fill = to_palette(Image.new("RGB", (1, 1), STRIP)).tobytes()[0]
    alone = rows_of(upper, top[0], fill=fill)
    assert _pixels(png_of(alone)) == _pixels(to_png(upper))  # the rows as a picture of their own
    above = with_gap(alone, 6)
    png = stacked_png(above, lower)
    _chunks(png)
    canvas = Image.new("RGB", (top[0], top[1] + 6 + bottom[1]), STRIP)
    canvas.paste(upper, (0, 0))
    canvas.paste(lower, ((top[0] - bottom[0]) // 2, top[1] + 6))
    assert _pixels(png) == _pixels(to_png(canvas))
    assert _pixels(stacked_png(above, lower)) == _pixels(png)
    wide = rows_of(upper, top[0] + 41, fill=fill)  # the top centred too
    canvas = Image.new("RGB", (top[0] + 41, top[1] + bottom[1]), STRIP)
    canvas.paste(upper, (20, 0))
    canvas.paste(lower, ((top[0] + 41 - bottom[0]) // 2, top[1]))
    assert _pixels(stacked_png(wide, lower)) == _pixels(to_png(canvas))


def test_what_cannot_be_stacked_is_refused() -> None:
    above = with_gap(rows_of(_picture(100, 40, HIGHLIGHT), 100, fill=0), 2)
    with pytest.raises(ValueError, match="wide"):
        stacked_png(above, _picture(101, 10, STRIP))
    with pytest.raises(ValueError, match="wide"):
        rows_of(_picture(101, 10, STRIP), 100, fill=0)
    other = Image.new("P", (50, 10))
    other.putpalette([9, 9, 9] * 256)
    with pytest.raises(ValueError, match="palettes"):
        stacked_png(above, other)
    assert palette().getpalette() is not None


def test_a_screen_inflates_with_the_standard_zlib_and_is_no_larger_than_its_level_3() -> None:
    """The deflate streams (ISA-L's) are plain deflate: a board's rows, a gap and a hand stacked
    under them inflate with the standard library's zlib (its checksum checked) to the picture's
    unfiltered rows, no larger than zlib's level 3 (the level used before) makes them."""
    state = b.dug(b.deluxe(seed=4), 10, 4)
    board = to_palette(render_board(public_view(state), names=b.NAMES))
    hand = _picture(400, 150, STRIP)
    fill = to_palette(Image.new("RGB", (1, 1), STRIP)).tobytes()[0]
    png = stacked_png(with_gap(rows_of(board, board.width, fill=fill), 6), hand)
    stream = dict(_chunks(png))[b"IDAT"]
    rows = zlib.decompress(stream)
    canvas = Image.new("P", (board.width, board.height + 6 + hand.height), fill)
    canvas.putpalette(palette().getpalette() or [])
    canvas.paste(board, (0, 0))
    canvas.paste(to_palette(hand), ((board.width - hand.width) // 2, board.height + 6))
    pixels = canvas.tobytes()
    w = canvas.width
    assert rows == b"".join(b"\x00" + pixels[y * w : (y + 1) * w] for y in range(canvas.height))
    assert len(stream) <= len(zlib.compress(rows, 3))
