"""A small seeded generator for the computer player (SplitMix64, as the engine's)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from engine.rng import next_u64

T = TypeVar("T")


class Rng:
    """A mutable SplitMix64 stream; the only source of randomness in ai/."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & ((1 << 64) - 1)

    def bits(self) -> int:
        """64 random bits."""
        self.state, r = next_u64(self.state)
        return r

    def below(self, n: int) -> int:
        """A number in range(n)."""
        return self.bits() % n

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.bits() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def weighted(self, weights: Sequence[float]) -> int:
        """An index drawn with probability proportional to its weight."""
        total = math.fsum(weights)
        x = self.random() * total
        acc = 0.0
        for i, w in enumerate(weights):
            acc += w
            if x < acc:
                return i
        return len(weights) - 1

    def fork(self, salt: int) -> Rng:
        """An independent stream derived from this one's state and a salt, leaving this as it is."""
        return Rng(next_u64(self.state ^ (salt * 0x9E3779B97F4A7C15))[1])
