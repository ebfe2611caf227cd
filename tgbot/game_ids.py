"""Game ids: ten characters of [0-9A-Za-z], drawn at random, in records, keys and buttons."""

from __future__ import annotations

import random
import re

GameId = str
GAME_ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
GAME_ID_LENGTH = 10
GAME_ID_PATTERN = re.compile(f"[0-9A-Za-z]{{{GAME_ID_LENGTH}}}")


def new_game_id(rng: random.Random) -> GameId:
    """A fresh game id from this random source (pass `random.SystemRandom()` in production)."""
    return "".join(rng.choice(GAME_ID_ALPHABET) for _ in range(GAME_ID_LENGTH))


def is_game_id(text: object) -> bool:
    """True for a string shaped like a game id."""
    return isinstance(text, str) and GAME_ID_PATTERN.fullmatch(text) is not None
