"""Uploaded images turned into the photo sizes Telegram would store."""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass

from PIL import Image

from emulator.errors import IMAGE_PROCESS_FAILED, PHOTO_INVALID_DIMENSIONS, bad_request
from emulator.limits import MAX_PHOTO_RATIO, MAX_PHOTO_SIDES_SUM

THUMBNAIL_SIDES = (90, 320, 800)


@dataclass(frozen=True)
class Rendition:
    """One size of an uploaded photo."""

    width: int
    height: int
    data: bytes


def renditions(data: bytes, *, cheap: bool = False) -> tuple[Rendition, ...]:
    """Smaller JPEG copies of an image plus the image itself, smallest first.

    `cheap`: a PNG is not decoded: its size is read from its header and the smaller sizes keep
    its bytes (for load tests, where the emulator would otherwise spend more time than the bot).
    """
    size = _png_size(data) if cheap else None
    if size is not None:
        width, height = size
        _check(width, height)
        longest = max(width, height)
        smaller = [
            Rendition(max(1, width * side // longest), max(1, height * side // longest), data)
            for side in THUMBNAIL_SIDES
            if longest > side
        ]
        return (*smaller, Rendition(width, height, data))
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            width, height = image.size
            _check(width, height)
            sizes = [_thumbnail(image, side) for side in THUMBNAIL_SIDES if max(image.size) > side]
    except (OSError, ValueError, Image.DecompressionBombError):
        raise bad_request(IMAGE_PROCESS_FAILED) from None
    # The largest size keeps the uploaded bytes so a page can show exactly what the bot drew.
    return (*sizes, Rendition(width, height, data))


def _check(width: int, height: int) -> None:
    """Telegram's limits on a photo's sides."""
    if width + height > MAX_PHOTO_SIDES_SUM or max(width, height) > MAX_PHOTO_RATIO * min(
        width, height
    ):
        raise bad_request(PHOTO_INVALID_DIMENSIONS)


def _png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's header (None: not a PNG, or a broken one)."""
    if len(data) < 24 or not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return (width, height) if width > 0 and height > 0 else None


def _thumbnail(image: Image.Image, side: int) -> Rendition:
    copy = image.copy()
    # Nearest-neighbour, then RGB on the small copy: about 3 ms of CPU per photo instead of 16
    # (bilinear on the whole image first), and a whole game sends over a thousand. Nobody looks
    # closely at these previews: the page shows the largest size, the uploaded bytes.
    copy.thumbnail((side, side), Image.Resampling.NEAREST)
    out = io.BytesIO()
    copy.convert("RGB").save(out, format="JPEG", quality=80)
    return Rendition(copy.width, copy.height, out.getvalue())


def image_type(data: bytes) -> str:
    """The MIME type of a stored image, from its first bytes."""
    if data.startswith(b"GIF8"):
        return "image/gif"
    return "image/png" if data.startswith(b"\x89PNG") else "image/jpeg"


def gif_facts(data: bytes) -> tuple[int, int, int]:
    """Width, height and length in whole seconds (at least 1) of an uploaded GIF."""
    if not data.startswith((b"GIF87a", b"GIF89a")):
        raise bad_request(IMAGE_PROCESS_FAILED)
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            ms = 0
            for frame in range(getattr(image, "n_frames", 1)):
                image.seek(frame)
                ms += int(image.info.get("duration", 0))
    except (OSError, ValueError, EOFError, Image.DecompressionBombError):
        raise bad_request(IMAGE_PROCESS_FAILED) from None
    if width + height > MAX_PHOTO_SIDES_SUM:
        raise bad_request(IMAGE_PROCESS_FAILED)
    return width, height, max(1, round(ms / 1000))
