"""Fit the search's leaf (`ai.search._LEAF`) on heuristic self-play rounds, and check it.

Run: `python bench/fit_leaf.py --rounds 300` plays round 1 of seeded games with heuristic seats
only (base 4, 5, 7 and 9 players and Deluxe 6 by default, `--configs base5,deluxe6` for others),
takes every position before a move (`ai.search.leaf_features`) with whether the round ended with
the gold reached, and fits the logistic weights by Newton's method on seeds `--seed` onward.
It then scores the fitted weights and the ones in `ai/search.py` on the next `--held` seeds
(rounds not fitted on): the mean log loss and how often the guess is on the right side of a
half, per configuration. Prints the fitted weights as a `_LEAF` line. Pure Python (no numpy).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import Bot, Level, visible
from ai.search import _LEAF, leaf_features, reach_probability
from engine import Edition, apply, current_player, legal_actions, new_game, player_view
from engine.events import RoundEnded
from engine.model import Side

Sample = tuple[tuple[float, ...], bool]  # a position's features, the gold reached


def positions(edition: Edition, players: int, seed: int) -> list[Sample]:
    """Every position before a move of round 1 of a seeded heuristic game, with its outcome."""
    ids = [100 + i for i in range(players)]
    state = new_game(ids, edition=edition, seed=seed)
    bots = {p: Bot(p, seed=seed * 1009 + i, level=Level.HEURISTIC) for i, p in enumerate(ids)}
    seen: list[tuple[float, ...]] = []
    while True:
        player = current_player(state)
        assert player is not None
        seen.append(leaf_features(state))
        legal = legal_actions(state, player)
        t = apply(state, player, bots[player].choose(player_view(state, player), legal))
        end = next((e for e in t.events if isinstance(e, RoundEnded)), None)
        for p, b in bots.items():
            b.observe(visible(t.events, p))
        if end is not None:
            reached = end.result.winners[0] is not Side.SABOTEURS
            return [(f, reached) for f in seen]
        state = t.state


def fit(samples: Sequence[Sample], start: Sequence[float], steps: int = 30) -> list[float]:
    """Logistic weights by Newton's method (a tiny ridge keeps the step solvable)."""
    w = list(start)
    k = len(w)
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[1e-6 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in samples:
            p = reach_probability(x, w)
            r = p - (1.0 if y else 0.0)
            s = p * (1.0 - p)
            for i in range(k):
                grad[i] += r * x[i]
                for j in range(k):
                    hess[i][j] += s * x[i] * x[j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(b) for b in step) < 1e-9:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def score(samples: Sequence[Sample], w: Sequence[float]) -> tuple[float, float]:
    """Mean log loss and the share of positions on the right side of a half."""
    loss = 0.0
    right = 0
    for x, y in samples:
        p = min(1 - 1e-12, max(1e-12, reach_probability(x, w)))
        loss -= math.log(p if y else 1.0 - p)
        right += (p > 0.5) == y
    n = max(len(samples), 1)
    return loss / n, right / n


def parse_config(text: str) -> tuple[Edition, int]:
    """`base5` -> (Edition.BASE, 5)."""
    for e in Edition:
        if text.startswith(e.value) and text[len(e.value) :].isdigit():
            return e, int(text[len(e.value) :])
    raise ValueError(f"no configuration {text!r} (e.g. base5, deluxe6)")


def main() -> None:
    """Play the rounds, fit, and print the weights and the held-out check."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds fitted per config")
    parser.add_argument("--held", type=int, default=100, help="held-out rounds per config")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--configs", default="base4,base5,base7,base9,deluxe6")
    args = parser.parse_args()
    try:
        configs = [parse_config(c) for c in args.configs.split(",") if c]
    except ValueError as e:
        parser.error(str(e))
    train: list[Sample] = []
    held: dict[str, list[Sample]] = {}
    for edition, players in configs:
        name = f"{edition.value}{players}"
        for seed in range(args.seed, args.seed + args.rounds):
            train += positions(edition, players, seed)
        first = args.seed + args.rounds
        held[name] = [
            s for seed in range(first, first + args.held) for s in positions(edition, players, seed)
        ]
        print(f"{name}: {args.rounds} rounds fitted, {args.held} held out", file=sys.stderr)
    w = fit(train, _LEAF)
    print(f"fitted on {len(train)} positions: _LEAF = ({', '.join(f'{x:.4f}' for x in w)})")
    print(f"{'':10} {'log loss: now':>15} {'fitted':>8}   {'right side: now':>16} {'fitted':>7}")
    everything = [s for v in held.values() for s in v]
    for name, samples in [*held.items(), ("all held", everything)]:
        now, fitted = score(samples, _LEAF), score(samples, w)
        print(
            f"{name:10} {now[0]:15.4f} {fitted[0]:8.4f}   {now[1]:16.1%} {fitted[1]:7.1%}"
            f"   ({len(samples)} positions)"
        )


if __name__ == "__main__":
    main()
