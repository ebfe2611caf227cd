"""Colours, fonts and cached text images shared by every picture."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

# Flat colours: large flat areas keep the PNG small. Doors, dead ends and broken tools are told
# by shape or letter as well as colour (Okabe-Ito hues), for colour-blind players.
BACKGROUND: RGB = (40, 35, 32)
GRID: RGB = (60, 53, 48)
MARGIN: RGB = (28, 25, 23)
LABEL: RGB = (196, 186, 170)
ROCK: RGB = (122, 88, 62)
ROCK_EDGE: RGB = (86, 60, 42)
TUNNEL: RGB = (238, 218, 176)
CAP: RGB = (30, 18, 12)
BRIDGE_EDGE: RGB = (52, 34, 22)
GOAL_BACK: RGB = (54, 74, 108)
GOAL_BACK_EDGE: RGB = (98, 122, 160)
WHITE: RGB = (250, 248, 242)
BLACK: RGB = (16, 14, 12)
GOLD: RGB = (242, 188, 26)
GOLD_DARK: RGB = (168, 118, 10)
COAL: RGB = (52, 52, 56)
COAL_EDGE: RGB = (150, 150, 156)
COAL_ROCK: RGB = (86, 86, 92)
BLUE: RGB = (0, 114, 178)
GREEN: RGB = (0, 150, 110)
CRYSTAL: RGB = (214, 96, 204)
WOOD: RGB = (92, 54, 24)
HIGHLIGHT: RGB = (255, 214, 0)
GHOST_EDGE: RGB = (96, 220, 255)
RED: RGB = (222, 52, 40)
STRIP: RGB = (28, 25, 23)
CHIP: RGB = (58, 52, 48)
CHIP_TURN: RGB = (92, 78, 30)
TEXT: RGB = (240, 234, 222)
DIM: RGB = (150, 142, 130)
STEEL: RGB = (176, 184, 194)
STEEL_DARK: RGB = (92, 100, 112)
CARD_FACE: RGB = (236, 226, 204)
CARD_EDGE: RGB = (120, 104, 84)
BREAK_BAND: RGB = (200, 70, 50)
REPAIR_BAND: RGB = (40, 150, 90)
ACTION_BAND: RGB = (90, 110, 150)
DELUXE_BAND: RGB = (140, 90, 160)

BASE_COLOURS: tuple[RGB, ...] = (
    BACKGROUND,
    GRID,
    MARGIN,
    LABEL,
    ROCK,
    ROCK_EDGE,
    TUNNEL,
    CAP,
    BRIDGE_EDGE,
    GOAL_BACK,
    GOAL_BACK_EDGE,
    WHITE,
    BLACK,
    GOLD,
    GOLD_DARK,
    COAL,
    COAL_EDGE,
    COAL_ROCK,
    BLUE,
    GREEN,
    CRYSTAL,
    WOOD,
    HIGHLIGHT,
    GHOST_EDGE,
    RED,
    CHIP,
    CHIP_TURN,
    TEXT,
    DIM,
    STEEL,
    STEEL_DARK,
    CARD_FACE,
    CARD_EDGE,
    BREAK_BAND,
    REPAIR_BAND,
    ACTION_BAND,
    DELUXE_BAND,
)

FONT_DIR = Path("/usr/share/fonts/truetype/nanum")
FONT_PACKAGE = "fonts-nanum"  # the Debian package that ships NanumGothic
_FONT_FILES = {False: "NanumGothic.ttf", True: "NanumGothicBold.ttf"}
_font_dir = FONT_DIR


class FontMissingError(RuntimeError):
    """The Hangul font cannot be loaded; the message is one line naming the package."""


def use_font_dir(directory: Path) -> None:
    """Draw with the NanumGothic files of this directory from now on (before any picture)."""
    global _font_dir
    _font_dir = Path(directory)
    for cached in (font, text_image, _missing_glyph, _has_glyph):
        cached.cache_clear()


def check_fonts() -> None:
    """Raise FontMissingError unless both NanumGothic files load (checked once at start)."""
    for bold in (False, True):
        path = _font_dir / _FONT_FILES[bold]
        try:
            # From an open file: given a path it cannot open, Pillow searches other font folders.
            with path.open("rb") as file:
                ImageFont.truetype(file, 12, layout_engine=ImageFont.Layout.BASIC)
        except OSError:
            raise FontMissingError(
                f"the Hangul font {path} is missing or unreadable: install Debian's "
                f"{FONT_PACKAGE} (apt-get install {FONT_PACKAGE}) or set FONT_DIR"
            ) from None


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """NanumGothic (Hangul and Latin) at a pixel size, loaded once per size."""
    # The basic layout needs no shaping library, so the same text gives the same pixels
    # wherever the bot runs; Hangul syllables are precomposed and need no shaping.
    return ImageFont.truetype(
        str(_font_dir / _FONT_FILES[bold]), size, layout_engine=ImageFont.Layout.BASIC
    )


@lru_cache(maxsize=4096)
def text_image(text: str, size: int, colour: RGB, *, bold: bool = False) -> Image.Image:
    """A line of text as an RGBA image cropped to the font's line box (ascent to descent)."""
    f = font(size, bold=bold)
    ascent, descent = f.getmetrics()
    width = max(1, round(f.getlength(text)))
    image = Image.new("RGBA", (width, ascent + descent), (*colour, 0))
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=f, fill=255)
    image.putalpha(mask)
    return image


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    """The pixels of the font's box for characters it lacks (a private-use character)."""
    return bytes(font(24, bold=True).getmask("\ue000"))


@lru_cache(maxsize=8192)
def _has_glyph(ch: str) -> bool:
    if ch.isspace():
        return True
    if not ch.isprintable():
        return False
    return bytes(font(24, bold=True).getmask(ch)) != _missing_glyph()


def drawable(text: str) -> str:
    """The text without the characters NanumGothic cannot draw (emoji, joiners), spaces tidied:
    a Telegram name full of emoji must not turn into a row of empty boxes."""
    return " ".join("".join(ch for ch in text if _has_glyph(ch)).split())


def fit_text(text: str, size: int, width: int, *, bold: bool = False) -> str:
    """The text, cut with an ellipsis if needed so that it fits in `width` pixels."""
    f = font(size, bold=bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…" if text else ""
