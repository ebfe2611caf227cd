"""A round's replay: one animated picture of the maze growing move by move, from public views.

Every frame is the group's board of one view on a layout fixed for the whole round, drawn in
the fixed palette of render/png.py straight from pre-quantised tiles (60 frames take about
15 ms; the GIF encoder takes the rest); moves that leave the board as it was add no frame.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from PIL import Image

from engine import BoardView, Card, Coord, PublicView

from .board import Layout, _draw_grid, _draw_last, layout
from .png import to_palette
from .style import BACKGROUND
from .tiles import card_tile, goal_back

REPLAY_WIDTH = 800
FIRST_MS = 1200
MOVE_MS = 500
LAST_MS = 5000

_Face = tuple[Card, bool] | None  # a face-up card and its turn, or a face-down goal


def replay_layout(frames: Sequence[PublicView], *, max_width: int = REPLAY_WIDTH) -> Layout:
    """One layout for every frame: the cells any of them shows, and a ring of empty cells."""
    if not frames:
        raise ValueError("a replay needs at least one view")
    boxes = [v.board.bounds() for v in frames]
    corners: list[Coord] = [(b[0] - 1, b[1] - 1) for b in boxes] + [
        (b[2] + 1, b[3] + 1) for b in boxes
    ]
    lasts = [v.board.last_at for v in frames if v.board.last_at is not None]
    return layout(frames[-1].board, [*corners, *lasts], max_width=max_width)


def _faces(board: BoardView) -> dict[Coord, _Face]:
    faces: dict[Coord, _Face] = {c.at: (c.card, c.rotated) for c in board.cards}
    for g in board.goals:
        faces[g.at] = (g.card, g.rotated) if g.revealed and g.card is not None else None
    return faces


@lru_cache(maxsize=8)
def _grid(lay: Layout) -> tuple[Image.Image, Image.Image]:
    canvas = Image.new("RGB", (lay.width, lay.height), BACKGROUND)
    _draw_grid(canvas, lay)
    return canvas, to_palette(canvas)


@lru_cache(maxsize=512)
def _tile(face: _Face, cell: int) -> Image.Image:
    if face is None:
        return to_palette(goal_back(cell))
    return to_palette(card_tile(face[0], face[1], cell))


def _last_cell(board: BoardView, faces: dict[Coord, _Face], lay: Layout) -> Image.Image:
    """The last move's cell with the highlight of render/board.py (rubble after a rockfall)."""
    at = board.last_at
    assert at is not None
    c = lay.cell
    if at not in faces:
        x, y = lay.corner(at)
        tile = _grid(lay)[0].crop((x, y, x + c, y + c))
    elif (face := faces[at]) is None:
        tile = goal_back(c).copy()
    else:
        tile = card_tile(face[0], face[1], c).copy()
    _draw_last(tile, board, Layout(at[0], at[1], 1, 1, c, 0, 0))
    return to_palette(tile)


def replay_frames(
    frames: Sequence[PublicView], *, max_width: int = REPLAY_WIDTH
) -> list[Image.Image]:
    """One palette picture per view: its board on the round's layout, the last move framed."""
    lay = replay_layout(frames, max_width=max_width)
    grid = _grid(lay)[1]
    out = []
    for view in frames:
        board = view.board
        image = grid.copy()
        faces = _faces(board)
        for at, face in faces.items():
            image.paste(_tile(face, lay.cell), lay.corner(at))
        if board.last_at is not None:
            image.paste(_last_cell(board, faces, lay), lay.corner(board.last_at))
        out.append(image)
    return out


def render_round_replay(
    frames: Sequence[PublicView],
    *,
    max_width: int = REPLAY_WIDTH,
    first_ms: int = FIRST_MS,
    move_ms: int = MOVE_MS,
    last_ms: int = LAST_MS,
    image_format: Literal["gif", "webp"] = "gif",
) -> bytes:
    """An animated GIF (or WebP) of a round's public views: the maze move by move, then its end.

    `frames` are the group's views in order, the round's end last (engine.archive.public_rounds
    gives them); a view whose board looks as the one before adds no frame.
    """
    images = replay_frames(frames, max_width=max_width)
    kept: list[Image.Image] = []
    durations: list[int] = []
    for i, image in enumerate(images):
        if kept and frames[i].board == frames[i - 1].board:
            continue
        kept.append(image)
        durations.append(first_ms if i == 0 else move_ms)
    durations[-1] = last_ms
    out = io.BytesIO()
    if image_format == "gif":
        kept[0].save(
            out, format="GIF", save_all=True, append_images=kept[1:], duration=durations, loop=0
        )
    else:
        rgb = [k.convert("RGB") for k in kept]
        rgb[0].save(
            out,
            format="WEBP",
            save_all=True,
            append_images=rgb[1:],
            duration=durations,
            loop=0,
            lossless=True,
            method=0,
        )
    return out.getvalue()
