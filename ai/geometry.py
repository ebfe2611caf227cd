"""Fast board measures: how far the joined tunnels are from each goal, and how a move changes it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine import board as bd
from engine.cards import CARDS, EDGES, OPPOSITE, STEP, Card
from engine.model import Coord, Net

FAR = 99


def manhattan(a: Coord, b: Coord) -> int:
    """Grid distance between two cells."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass(frozen=True, slots=True)
class Reach:
    """Per hidden goal: the nearest frontier cell, its distance, and the second-best distance."""

    goals: tuple[Coord, ...]
    best: tuple[int, ...]
    best_at: tuple[Coord | None, ...]
    second: tuple[int, ...]


def reach(net: Net, hidden: Sequence[Coord]) -> Reach:
    """Cards still needed, at the least, to join each hidden goal to the start."""
    best: list[int] = []
    best_at: list[Coord | None] = []
    second: list[int] = []
    for g in hidden:
        b1, b2 = FAR, FAR
        at1: Coord | None = None
        for f in net.frontier:
            d = abs(f[0] - g[0]) + abs(f[1] - g[1])
            if d < b1:
                b1, b2, at1 = d, b1, f
            elif d < b2:
                b2 = d
        best.append(b1)
        best_at.append(at1)
        second.append(b2)
    return Reach(tuple(hidden), tuple(best), tuple(best_at), tuple(second))


def expected(r: Reach, probs: Mapping[Coord, float]) -> float:
    """Distance to the gold averaged over where it may lie."""
    return sum(probs.get(g, 0.0) * d for g, d in zip(r.goals, r.best, strict=True))


_EDGE_STEPS = tuple((e, STEP[e][0], STEP[e][1], OPPOSITE[e]) for e in EDGES)


def after_place(
    r: Reach, maze: Mapping[Coord, int], net: Net, at: Coord, c: int
) -> tuple[int, ...] | None:
    """Per-goal distances once oriented card `c` lies at `at`; None when it joins nothing."""
    if c in bd.LADDER_CODES:
        mask = bd.OPEN[c]
    else:
        face = net.frontier.get(at, 0)
        mask = 0
        for t in bd.TUNNELS[c]:
            if t & face:
                mask |= t
        if not mask:
            return None
    x, y = at
    fresh: list[Coord] = []
    reached = net.reached
    for e, dx, dy, back in _EDGE_STEPS:
        if mask & e:
            n = (x + dx, y + dy)
            if n not in maze:
                fresh.append(n)
            elif not reached.get(n, 0) & back:
                # The card joins tunnels a rockfall cut off: they count again.
                rest = dict(maze)
                rest[at] = c
                return reach(bd.build_net(rest, r.goals), r.goals).best
    out: list[int] = []
    best_at, second = r.best_at, r.second
    for i, (gx, gy) in enumerate(r.goals):  # (the tuples of a Reach are as long as its goals)
        d = second[i] if best_at[i] == at else r.best[i]
        for nx, ny in fresh:
            dn = abs(nx - gx) + abs(ny - gy)
            if dn < d:
                d = dn
        out.append(d)
    return tuple(out)


def after_remove(maze: Mapping[Coord, int], hidden: Sequence[Coord], at: Coord) -> tuple[int, ...]:
    """Per-goal distances once the card at `at` is removed by a rockfall."""
    rest = {k: v for k, v in maze.items() if k != at}
    return reach(bd.build_net(rest, hidden), hidden).best


DEAD_ENDS = frozenset(
    s.card
    for s in CARDS
    if s.is_tunnel and s.tunnels and not s.ladder and all(t.bit_count() == 1 for t in s.tunnels)
)


def is_dead_end(card: Card) -> bool:
    """A tunnel card whose openings do not join each other."""
    return card in DEAD_ENDS


def weighted(dists: Sequence[int], goals: Sequence[Coord], probs: Mapping[Coord, float]) -> float:
    """Distances averaged by gold probability."""
    return sum(probs.get(g, 0.0) * d for g, d in zip(goals, dists, strict=True))
