"""A compact text notation for boards, for tests and debugging (documented in docs/notation.md).

A board is a grid of whitespace-separated tokens, one per cell, rows north to south; the start
token `@` fixes the coordinates (it is always (0, 0)). Tokens:

    .        empty cell            @        the start
    NESW     a tunnel: uppercase letters are edges joined to each other; `|` separates tunnels
             that are not joined (bridge `NS|EW`); lowercase letters are dead-end stubs (`nesw`
             is the dead-end crossroads, `NSe` a straight with a stub to the east)
    *NES     prefix `*` a crystal, `B` a blue door, `G` a green door, `#` a ladder
    $        the gold, face up      %NE      a coal goal face up, with its open edges
    ?$ ?%NE  the gold or a coal goal face down (what lies under it)
    ?        a face-down goal of unknown kind (written for public boards only)

Example, a straight corridor of four cards from the start:

    @ EW EW EW EW . . . ?$
"""

from __future__ import annotations

import dataclasses

from . import board as bd
from .cards import CARDS, EDGES, GOAL_SPOTS, START_AT, Card, Door, edge_text
from .model import Coord, GameState, Goal
from .views import BoardView


def token(c: int) -> str:
    """The token of an orientation code."""
    card = bd.card_of(c)
    s = CARDS[card]
    if card is Card.START:
        return "@"
    if card is Card.GOLD:
        return "$"
    joined = sorted((t for t in bd.TUNNELS[c] if t & (t - 1)), key=_order)
    stubs = [t for t in bd.TUNNELS[c] if not t & (t - 1)]
    body = "|".join(edge_text(t) for t in joined)
    body += "".join(edge_text(t).lower() for t in sorted(stubs, key=_order))
    if s.ladder:
        body = "#" + body.upper()
    elif s.crystal:
        body = "*" + body
    elif s.door is Door.BLUE:
        body = "B" + body
    elif s.door is Door.GREEN:
        body = "G" + body
    elif card in (Card.COAL_NE, Card.COAL_NW):
        body = "%" + body
    return body


def _order(mask: int) -> int:
    return min(EDGES.index(e) for e in EDGES if mask & e) * 16 + mask


_GOALS = (Card.GOLD, Card.COAL_NE, Card.COAL_NW)


def _build_index() -> dict[str, int]:
    index: dict[str, int] = {}
    for s in CARDS:
        if not s.tunnels:
            continue
        for rot in (False, True):
            c = bd.code(s.card, rot)
            index.setdefault(token(c), c)
    return index


CODE_OF_TOKEN: dict[str, int] = _build_index()


def parse_board(text: str) -> tuple[dict[Coord, int], tuple[Goal, ...]]:
    """Read a board: the visible cards as orientation codes, and the goals it names."""
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    origin = next(
        ((x, y) for y, row in enumerate(rows) for x, tok in enumerate(row) if tok == "@"), None
    )
    if origin is None:
        raise ValueError("a board needs the start '@'")
    ox, oy = origin
    maze: dict[Coord, int] = {}
    goals: list[Goal] = []
    for y, row in enumerate(rows):
        for x, tok in enumerate(row):
            at = (x - ox, y - oy)
            if tok == ".":
                continue
            if tok.startswith("?"):
                inner = CODE_OF_TOKEN.get(tok[1:])
                if inner is None or bd.card_of(inner) not in _GOALS:
                    raise ValueError(f"{tok!r} at {at}: a face-down goal is ?$, ?%NE or ?%NW")
                goals.append(Goal(at, bd.card_of(inner)))
                continue
            c = CODE_OF_TOKEN.get(tok)
            if c is None:
                raise ValueError(f"unknown token {tok!r} at {at}")
            card = bd.card_of(c)
            if card in _GOALS:
                goals.append(Goal(at, card, revealed=True, rotated=bd.is_rotated(c)))
            maze[at] = c
    if maze.get(START_AT) != bd.START_CODE:
        raise ValueError("the start must be at (0, 0)")
    return maze, tuple(sorted(goals, key=lambda g: (g.at[1], g.at[0])))


def with_board(state: GameState, text: str) -> GameState:
    """A copy of a state with the maze (and goals, if the text names them) from notation."""
    maze, goals = parse_board(text)
    if goals:
        if sorted(g.at for g in goals) != sorted(GOAL_SPOTS):
            raise ValueError(f"goals must lie at {GOAL_SPOTS}")
    else:
        goals = state.goals
        for g in goals:
            if g.revealed:
                maze[g.at] = bd.code(g.card, g.rotated)
    hidden = [g.at for g in goals if not g.revealed]
    return dataclasses.replace(
        state, maze=maze, goals=goals, net=bd.build_net(maze, hidden), cache={}
    )


def board_text(board: BoardView) -> str:
    """Write a viewed board in the notation (face-down goals unknown to the viewer are `?`)."""
    cells: dict[Coord, str] = {c.at: token(bd.code(c.card, c.rotated)) for c in board.cards}
    for g in board.goals:
        if g.card is None:
            cells[g.at] = "?"
        else:
            tok = token(bd.code(g.card, g.rotated))
            cells[g.at] = tok if g.revealed else "?" + tok
    x0, y0, x1, y1 = board.bounds()
    width = max(len(t) for t in cells.values())
    lines = []
    for y in range(y0, y1 + 1):
        row = [cells.get((x, y), ".").ljust(width) for x in range(x0, x1 + 1)]
        lines.append(" ".join(row).rstrip())
    return "\n".join(lines)
