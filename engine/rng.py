"""A small seeded generator (SplitMix64) whose whole state is one integer kept in the game state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a game seed."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Advance the generator: (new state, a number in range(n))."""
    state, r = next_u64(state)
    return state, r % n


def shuffled(state: int, items: Sequence[T]) -> tuple[int, list[T]]:
    """Advance the generator: (new state, the items in a random order; Fisher-Yates)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        # below(state, i + 1), inlined: a deal shuffles about a hundred cards
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out
