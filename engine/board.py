"""The maze: orientation codes, matching, and which tunnels are joined to the start.

A placed card is stored as an orientation code, `card * 2 + rotated`, so the hot paths of
`legal_actions` are table lookups and bit operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cards import CARDS, EDGES, OPPOSITE, STEP, Card, Kind, rotate_mask
from .model import Coord, Net


def code(card: Card, rotated: bool) -> int:
    """The orientation code of a card lying at 0 or 180 degrees."""
    return int(card) * 2 + int(rotated)


_CARD_OF: tuple[Card, ...] = tuple(Card(c >> 1) for c in range(2 * len(Card)))


def card_of(c: int) -> Card:
    """The card of an orientation code."""
    return _CARD_OF[c]


def is_rotated(c: int) -> bool:
    """Whether an orientation code lies at 180 degrees."""
    return bool(c & 1)


def _build_tables() -> tuple[list[int], list[tuple[int, ...]], list[list[int]]]:
    open_: list[int] = []
    tunnels: list[tuple[int, ...]] = []
    tunnel_at: list[list[int]] = []
    for s in CARDS:
        for rot in (False, True):
            ts = tuple(rotate_mask(t) for t in s.tunnels) if rot else s.tunnels
            mask = 0
            at = [0] * 16
            for t in ts:
                mask |= t
                for e in EDGES:
                    if t & e:
                        at[e] = t
            open_.append(mask)
            tunnels.append(ts)
            tunnel_at.append(at)
    return open_, tunnels, tunnel_at


OPEN, TUNNELS, TUNNEL_AT = _build_tables()
"""OPEN[code]: open edges; TUNNELS[code]: its tunnels; TUNNEL_AT[code][edge]: the tunnel there."""

LADDER_CODES = frozenset(code(s.card, r) for s in CARDS if s.ladder for r in (False, True))
START_CODE = code(Card.START, False)

# Orientations a player may choose: a symmetric card is offered at 0 degrees only.
OFFERED: dict[Card, tuple[int, ...]] = {
    s.card: (code(s.card, False),) if s.is_symmetric else (code(s.card, False), code(s.card, True))
    for s in CARDS
    if s.kind is Kind.TUNNEL
}


def neighbour(at: Coord, edge: int) -> Coord:
    """The cell across an edge."""
    dx, dy = STEP[edge]
    return (at[0] + dx, at[1] + dy)


def constraints(maze: Mapping[Coord, int], at: Coord) -> tuple[int, int]:
    """Edges of a cell that must be open and that must be closed, from its visible neighbours."""
    x, y = at
    must_open = must_closed = 0
    get = maze.get
    c = get((x, y - 1))
    if c is not None:
        if OPEN[c] & 4:  # its S edge faces our N
            must_open |= 1
        else:
            must_closed |= 1
    c = get((x + 1, y))
    if c is not None:
        if OPEN[c] & 8:
            must_open |= 2
        else:
            must_closed |= 2
    c = get((x, y + 1))
    if c is not None:
        if OPEN[c] & 1:
            must_open |= 4
        else:
            must_closed |= 4
    c = get((x - 1, y))
    if c is not None:
        if OPEN[c] & 2:
            must_open |= 8
        else:
            must_closed |= 8
    return must_open, must_closed


def frontier_cells(maze: Mapping[Coord, int], net: Net) -> tuple[tuple[Coord, int, int], ...]:
    """The frontier's cells in order, each with its constraints (kept on the network)."""
    cells = net.cells
    if cells is None:
        cells = net.cells = tuple((at, *constraints(maze, at)) for at in sorted(net.frontier))
    return cells


def fits(c: int, must_open: int, must_closed: int) -> bool:
    """Whether an oriented card matches every neighbour."""
    m = OPEN[c]
    return m & must_open == must_open and not m & must_closed


def spread(
    maze: Mapping[Coord, int],
    hidden_goals: Iterable[Coord],
    net: Net,
    queue: list[tuple[Coord, int]],
) -> set[Coord]:
    """Extend the joined network from the queued tunnels; return face-down goals it touches."""
    reached, frontier = net.reached, net.frontier
    hidden = set(hidden_goals)
    touched: set[Coord] = set()
    while queue:
        (x, y), tunnel = queue.pop()
        for e in EDGES:
            if not tunnel & e:
                continue
            dx, dy = STEP[e]
            n = (x + dx, y + dy)
            c = maze.get(n)
            back = OPPOSITE[e]
            if c is None:
                if n in hidden:
                    touched.add(n)
                else:
                    frontier[n] = frontier.get(n, 0) | back
                continue
            t = TUNNEL_AT[c][back]
            if t and not reached.get(n, 0) & t:
                reached[n] = reached.get(n, 0) | t
                queue.append((n, t))
    return touched


def build_net(maze: Mapping[Coord, int], hidden_goals: Iterable[Coord]) -> Net:
    """Compute the joined network from scratch: the start and every ladder are its roots."""
    net = Net({}, {})
    queue: list[tuple[Coord, int]] = []
    for at, c in maze.items():
        if c == START_CODE or c in LADDER_CODES:
            for t in TUNNELS[c]:
                net.reached[at] = net.reached.get(at, 0) | t
                queue.append((at, t))
    spread(maze, hidden_goals, net, queue)
    return net


def join(
    maze: Mapping[Coord, int], hidden_goals: Iterable[Coord], net: Net, at: Coord
) -> set[Coord]:
    """Add the card just put at `at` (already in `maze`) to the network; return touched goals."""
    net.frontier.pop(at, None)
    c = maze[at]
    queue: list[tuple[Coord, int]] = []
    if c in LADDER_CODES:
        roots = list(TUNNELS[c])
    else:
        roots = []
        for t in TUNNELS[c]:
            for e in EDGES:
                if t & e and net.reached.get(neighbour(at, e), 0) & OPPOSITE[e]:
                    roots.append(t)
                    break
    for t in roots:
        net.reached[at] = net.reached.get(at, 0) | t
        queue.append((at, t))
    return spread(maze, hidden_goals, net, queue)


def goal_orientation(
    maze: Mapping[Coord, int],
    goal: Card,
    at: Coord,
    played_at: Coord | None,
    reached: Mapping[Coord, int],
) -> bool:
    """How a goal lies when turned up (rule ruling.coal_orientation): True for 180°.

    The first of these that tells the two orientations apart decides: (1) it opens toward the card
    just played, if that card is next to it and open toward it; (2) it opens toward more of the
    tunnels joined to the start that reach it (`reached`, the network's joined edges); (3) it
    matches more of its face-up neighbours; (4) 0°.
    """
    if CARDS[goal].is_symmetric:
        return False
    toward_played = toward_joined = 0
    for e in EDGES:
        n = neighbour(at, e)
        c = maze.get(n)
        if c is None or not OPEN[c] & OPPOSITE[e]:
            continue
        if n == played_at:
            toward_played |= e
        if reached.get(n, 0) & OPPOSITE[e]:
            toward_joined |= e
    must_open, must_closed = constraints(maze, at)
    best: tuple[int, int, int] | None = None
    best_rot = False
    for rot in (False, True):
        edges = OPEN[code(goal, rot)]
        score = (
            int(bool(edges & toward_played)),
            (edges & toward_joined).bit_count(),
            (edges & must_open).bit_count() + (~edges & must_closed).bit_count(),
        )
        if best is None or score > best:  # a tie keeps the first: 0°
            best, best_rot = score, rot
    return best_rot
