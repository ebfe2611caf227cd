"""A picture's digest (`tgbot.uploads.digest`): its bytes' identity, kept for the objects sent
last without ever mistaking one picture for another."""

from __future__ import annotations

import hashlib
import os

from tgbot import uploads
from tgbot.uploads import DIGESTS_KEPT, digest


def _blake(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def test_the_digest_is_the_bytes_identity_whatever_was_kept() -> None:
    first = os.urandom(3000)
    twin = bytes(bytearray(first))  # equal bytes, another object
    other = os.urandom(3000)
    assert twin is not first
    assert digest(first) == digest(first) == digest(twin) == _blake(first)
    assert digest(other) == _blake(other) != digest(first)


def test_a_dead_objects_id_given_to_new_bytes_never_returns_the_old_digest() -> None:
    """Kept entries hold their bytes, so an id is never reused while kept; past the kept count
    the oldest go, and a recycled id is told apart by the object itself."""
    pictures = [os.urandom(64) for _ in range(DIGESTS_KEPT + 10)]
    digests = [digest(p) for p in pictures]
    assert len(uploads._DIGESTS) == DIGESTS_KEPT
    assert digests == [_blake(p) for p in pictures]
    del pictures, digests
    for _ in range(200):  # new objects, some at the addresses of dropped ones
        fresh = os.urandom(64)
        assert digest(fresh) == _blake(fresh)
