"""What a PNG decodes to. Two deflations of the same rows by ISA-L give the same pixels but, on
rare occasions, other bytes (seen in a CI run, and once in about 35,000 deflations of a board),
so pictures drawn apart are compared by what they decode to, never by their bytes."""

from __future__ import annotations

import io

from PIL import Image

Decoded = tuple[str, tuple[int, int], bytes, list[int] | None]


def decoded(png: bytes) -> Decoded:
    """The picture's mode, size, pixels and palette."""
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return image.mode, image.size, image.tobytes(), image.getpalette()
