"""What lies in front of the players reads at phone size (issue 14): the strip's markers (broken
tools, trapped!, a theft, the gold) are big enough where a phone shows the board, and their
symbols stand out of their tiles, and the tiles out of the strip."""

from __future__ import annotations

import pytest

from render import strip
from render import style as st
from render.board import MAX_WIDTH

PHONE_BOARD = 330  # CSS pixels a phone at 390 wide gives a photo in a chat, at least
MIN_MARKER = 12  # CSS pixels: a marker smaller than this is a few dots on a phone


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("width", [440, 600, 704, 800, 1024, MAX_WIDTH])
def test_a_marker_is_big_enough_where_a_phone_shows_the_board(width: int) -> None:
    f = strip._unit(width)
    row = round(f * strip.ROW)
    marker = min(round(f * strip.MARKER), row - 2)
    assert marker * PHONE_BOARD / width >= MIN_MARKER, (width, marker)


def test_the_markers_stand_out_of_their_tiles_and_the_tiles_out_of_the_strip() -> None:
    assert contrast(st.STEEL_DARK, st.CARD_FACE) >= 4.5, "the cage's bars on their light tile"
    assert contrast(st.CARD_FACE, st.STRIP) >= 7, "the light tile on the dark strip"
    assert contrast(st.WHITE, st.BREAK_BAND) >= 3, "a broken tool's slash on its red tile"
    assert contrast(st.BREAK_BAND, st.STRIP) >= 3, "a broken tool's red tile on the strip"
