"""Drawing straight in the pictures' palette (`png.palette`): pictures made of pieces mapped
once each, instead of drawn in RGB and mapped whole. Mapping is pixel by pixel (the nearest
colour, no dithering), so a piece mapped alone and pasted whole gives the very pixels of mapping
the picture it is pasted in; what is blended over other pixels is drawn in RGB where it lies and
that region is mapped."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from . import style as st
from .png import to_palette

Ink = st.RGB | int  # a colour as a picture's mode draws it: RGB, or a palette index


def rgb(colour: st.RGB) -> Ink:
    """A colour as an RGB picture draws it (the `ink` of RGB drawing)."""
    return colour


@lru_cache(maxsize=64)
def index(colour: st.RGB) -> int:
    """The palette index a colour maps to."""
    pixel = to_palette(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    if not isinstance(pixel, int | float):
        raise TypeError(f"a palette pixel is an index, not {pixel!r}")
    return int(pixel)


@lru_cache(maxsize=1)
def _colours() -> tuple[int, ...]:
    """The colours a picture mapped to the palette carries (as mapping gives them)."""
    return tuple(to_palette(Image.new("RGB", (1, 1))).getpalette() or [])


def blank(size: tuple[int, int], colour: st.RGB) -> Image.Image:
    """A palette picture of one colour, carrying the palette as a mapped picture does."""
    image = Image.new("P", size, index(colour))
    image.putpalette(_colours())
    return image
