"""What the bot uploaded (file ids by the pictures' bytes) and what its photo messages show, as
this process last set it: so a picture goes up once and an edit sends only what changed."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import TypeVar

UPLOADS_KEPT = 4096  # file ids of pictures uploaded before, by their bytes
SHOWN_KEPT = 8192  # what the bot's photo messages show, as this process last set it


@dataclass(frozen=True, slots=True)
class Uploaded:
    """A picture Telegram holds: its file id (to send it again) and its unique id."""

    file_id: str
    unique_id: str


@dataclass(frozen=True, slots=True)
class Shown:
    """What a photo message shows, as this process last set it: the picture's digest, the
    caption sent (HTML), and the photo and caption text Telegram answered with."""

    digest: bytes
    caption: str
    unique_id: str
    text: str | None


DIGESTS_KEPT = 64  # the digests of the pictures sent last, by the bytes objects themselves


def digest(png: bytes) -> bytes:
    """A picture's identity: the same bytes, the same digest. The pictures' cache hands out the
    same bytes object for every chat that shows a picture, and an edit asks for its digest twice,
    so the last few are kept by object (with the object, so that its id stays its own)."""
    kept = _DIGESTS.get(id(png))
    if kept is not None and kept[0] is png:
        return kept[1]
    value = hashlib.blake2b(png, digest_size=16).digest()
    keep(_DIGESTS, id(png), (png, value), DIGESTS_KEPT)
    return value


K = TypeVar("K")
V = TypeVar("V")


def keep(kept: OrderedDict[K, V], key: K, value: V, size: int) -> None:
    """Keep `value` as the newest of at most `size` entries."""
    kept[key] = value
    kept.move_to_end(key)
    if len(kept) > size:
        kept.popitem(last=False)


_DIGESTS: OrderedDict[int, tuple[bytes, bytes]] = OrderedDict()


def photo_of(message: object) -> Uploaded | None:
    """The largest size of a message's photo (the Bot API's JSON), if it has one."""
    sizes = message.get("photo") if isinstance(message, dict) else None
    if not sizes or not isinstance(sizes, list) or not isinstance(sizes[-1], dict):
        return None
    largest = sizes[-1]
    return Uploaded(str(largest["file_id"]), str(largest["file_unique_id"]))
