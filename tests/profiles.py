"""Hypothesis profiles: "saboteur" for every run, "fast" for the fast lane (`-m "not slow"`).

The fast lane runs a quarter of each property's examples; the full suite keeps every one. A test
that sets its own count writes it as `examples(n)`, which is n in the full suite and a quarter
of n (at least one) under the fast profile. `--hypothesis-profile saboteur` gives the fast lane
the full counts.
"""

from __future__ import annotations

import math

import pytest
from _pytest.mark.expression import Expression
from hypothesis import settings

FULL = "saboteur"
FAST = "fast"
_DEFAULT_EXAMPLES = 100  # Hypothesis's own default, the full suite's

# Hypothesis's per-example deadline is a wall-clock check: on a loaded CI machine an example can
# outlast 200 ms without anything being wrong. Tests check behaviour, not time.
settings.register_profile(FULL, deadline=None)
settings.register_profile(FAST, settings.get_profile(FULL), max_examples=_DEFAULT_EXAMPLES // 4)


def excludes_slow(markexpr: str) -> bool:
    """True when `-m markexpr` keeps the unmarked tests and leaves out those marked slow."""
    if not markexpr.strip():
        return False
    expression = Expression.compile(markexpr)
    return expression.evaluate(lambda name, /, **_: False) and not expression.evaluate(
        lambda name, /, **_: name == "slow"
    )


def examples(n: int) -> int:
    """n examples under the full profile, the same share as the loaded profile's default."""
    return max(1, math.ceil(n * settings().max_examples / _DEFAULT_EXAMPLES))


# A test parameter for the Cluster's variants of a store test, in the slow lane: each xdist worker
# starts its own six-node Cluster (about 6 s of CPU on a slow host, most of the fast lane's time).
CLUSTER = pytest.param("cluster", marks=pytest.mark.slow)
