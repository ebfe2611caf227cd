"""Pre-drawn square tiles of the maze: every card in both orientations, and the goal backs.

Each tile is drawn once per size and cached; a board is then mostly pastes.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engine import Card, Door, spec
from engine.cards import E, N, S, W, rotate_mask

from . import icons
from . import style as st
from .pen import Pen, Point, painted

PATH = 0.30  # tunnel width, as a share of the cell
STUB = 0.22  # how far a dead-end stub reaches into the card
GHOST = 0.6  # how much of a card shows where it could go
CHOSEN = 0.8  # how much shows where the player chose to put it

_CORNER_OF: dict[int, tuple[float, float, float, float]] = {
    # an adjacent pair of edges -> the corner the curve turns around, and its arc's angles
    N | W: (0.0, 0.0, 0.0, 90.0),
    N | E: (1.0, 0.0, 90.0, 180.0),
    S | E: (1.0, 1.0, 180.0, 270.0),
    S | W: (0.0, 1.0, 270.0, 360.0),
}


def _arm(pen: Pen, edge: int, colour: st.RGB, width: float = PATH, reach: float = 0.5) -> None:
    """A band from the middle of an edge toward the centre, `reach` deep (0.5 is the centre)."""
    h = width / 2
    if edge == N:
        pen.rect(0.5 - h, 0.0, 0.5 + h, reach + (h if reach == 0.5 else 0), colour)
    elif edge == S:
        pen.rect(0.5 - h, 1.0 - reach - (h if reach == 0.5 else 0), 0.5 + h, 1.0, colour)
    elif edge == W:
        pen.rect(0.0, 0.5 - h, reach + (h if reach == 0.5 else 0), 0.5 + h, colour)
    else:
        pen.rect(1.0 - reach - (h if reach == 0.5 else 0), 0.5 - h, 1.0, 0.5 + h, colour)


def _stub(pen: Pen, edge: int) -> None:
    """A dead end: a short tunnel from the edge, closed by a dark rounded plug."""
    _arm(pen, edge, st.TUNNEL, reach=STUB)
    depth, half, across = STUB + 0.05, 0.075, PATH * 0.68
    if edge in (N, S):
        y = depth if edge == N else 1 - depth
        pen.ellipse(0.5, y, across, half, fill=st.CAP)
    else:
        x = depth if edge == W else 1 - depth
        pen.ellipse(x, 0.5, half, across, fill=st.CAP)


def _edges(mask: int) -> list[int]:
    return [e for e in (N, E, S, W) if mask & e]


def _is_curve(mask: int) -> bool:
    return mask in _CORNER_OF


def _middle(mask: int, curved: bool) -> Point:
    """Where a tunnel's symbol (door, coal) sits: the middle of its path."""
    if curved and _is_curve(mask):
        cx, cy, _, _ = _CORNER_OF[mask]
        k = 0.5 / 2**0.5
        return cx + (0.5 - cx) * 2 * k, cy + (0.5 - cy) * 2 * k
    return 0.5, 0.5


def _tunnel(pen: Pen, mask: int, *, curved: bool, over: bool = False) -> None:
    """One joined tunnel; `over` draws its walls, for the upper tunnel of a bridge."""
    if curved and _is_curve(mask):
        cx, cy, a0, a1 = _CORNER_OF[mask]
        pen.arc(cx, cy, 0.5, a0, a1, st.TUNNEL, PATH)
        return
    if over:
        # Walls where the upper tunnel crosses the lower one: the two are visibly not joined.
        h, w = PATH / 2, PATH / 2 + 0.1
        if mask == N | S:
            pen.rect(0.5 - w, 0.5 - h - 0.02, 0.5 + w, 0.5 + h + 0.02, st.BRIDGE_EDGE)
        else:
            pen.rect(0.5 - h - 0.02, 0.5 - w, 0.5 + h + 0.02, 0.5 + w, st.BRIDGE_EDGE)
    for e in _edges(mask):
        _arm(pen, e, st.TUNNEL)


def _paint_card(pen: Pen, card: Card, rotated: bool, cell: int) -> None:
    s = spec(card)
    px = 1 / cell
    if card is Card.GOLD:
        pen.rect(0, 0, 1, 1, st.GOLD_DARK, outline=st.GOLD, width=px * 4)
    elif card in (Card.COAL_NE, Card.COAL_NW):
        pen.rect(0, 0, 1, 1, st.COAL_ROCK, outline=st.COAL_EDGE, width=px * 4)
    else:
        pen.rect(0, 0, 1, 1, st.ROCK, outline=st.ROCK_EDGE, width=px)
    tunnels = [rotate_mask(t) if rotated else t for t in s.tunnels]
    joined = [t for t in tunnels if t & (t - 1) or s.ladder]
    # A ladder's single tunnel leads to its ladder; anywhere else a single edge is a dead end.
    stubs = [t for t in tunnels if not (t & (t - 1) or s.ladder)]
    curved = not s.ladder
    crossing = [t for t in joined if not (curved and _is_curve(t))]
    for i, t in enumerate(reversed(joined)):
        _tunnel(pen, t, curved=curved, over=len(crossing) > 1 and i == len(joined) - 1)
    for t in stubs:
        _stub(pen, t)
    if s.ladder or card is Card.START:
        icons.ladder(pen, 0.5, 0.5, 0.5)
    if s.crystal:
        # Large enough to count on a phone: the corner is free rock on every crystal card.
        icons.crystal(pen, 0.79, 0.21, 0.42)
    main = max(joined, key=lambda t: bin(t).count("1"), default=0)
    if s.door is not None:
        mx, my = _middle(main, curved)
        colour, letter = (st.BLUE, "B") if s.door is Door.BLUE else (st.GREEN, "G")
        r = 0.19
        pen.rect(mx - r, my - r, mx + r, my + r, colour, outline=st.WHITE, width=0.04, radius=0.06)
        pen.text(mx, my + 0.01, letter, 0.3, st.WHITE)
    if card is Card.GOLD:
        icons.nuggets(pen, 0.5, 0.5, 0.62)
    elif card in (Card.COAL_NE, Card.COAL_NW):
        icons.coal(pen, 0.5, 0.5, 0.56)


@lru_cache(maxsize=1024)
def card_tile(card: Card, rotated: bool, cell: int) -> Image.Image:
    """A face-up card (start, tunnel or revealed goal) as an RGB square of `cell` pixels."""
    return painted((cell, cell), lambda pen: _paint_card(pen, card, rotated, cell)).convert("RGB")


@lru_cache(maxsize=64)
def goal_back(cell: int, seen: Card | None = None) -> Image.Image:
    """A face-down goal; `seen` is what this viewer saw under it with a map (private boards)."""

    def paint(pen: Pen) -> None:
        px = 1 / cell
        if seen is None:
            pen.rect(0, 0, 1, 1, st.GOAL_BACK, outline=st.GOAL_BACK_EDGE, width=3 * px)
            pen.text(0.5, 0.52, "?", 0.62, st.WHITE)
            return
        # Still face down for the group: the back colour stays, with what was seen on it and a
        # dashed frame, so it cannot be mistaken for a public reveal (which shows the tunnels).
        pen.rect(0, 0, 1, 1, st.GOAL_BACK)
        edge = st.GOLD if seen is Card.GOLD else st.COAL_EDGE
        dash = 0.125
        for i in range(0, 8, 2):
            a, b = i * dash, (i + 1) * dash
            pen.rect(a, 0, b, 0.07, edge)
            pen.rect(a, 0.93, b, 1, edge)
            pen.rect(0, a, 0.07, b, edge)
            pen.rect(0.93, a, 1, b, edge)
        if seen is Card.GOLD:
            icons.nuggets(pen, 0.5, 0.5, 0.7)
        else:
            icons.coal(pen, 0.5, 0.5, 0.66)

    return painted((cell, cell), paint).convert("RGB")


@lru_cache(maxsize=1024)
def ghost_tile(card: Card, rotated: bool, cell: int, opacity: float = GHOST) -> Image.Image:
    """A card faded into the empty-cell colour: a place it could go, or was chosen to go."""
    bg = Image.new("RGB", (cell, cell), st.BACKGROUND)
    return Image.blend(bg, card_tile(card, rotated, cell), opacity)
