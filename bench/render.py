"""Render speed: board picture + PNG encoding on boards of 0 to 70 tunnels, against a floor.

Run: `python bench/render.py` (prints a table). The floor pastes as many pre-drawn tiles on a
canvas of the same size and encodes it the same way: the least any renderer drawing in RGB
could cost. "RGB ms" draws the board in RGB and maps it to the palette (`render_board`,
`to_png`); "bot ms" draws it in the palette as the bot does (`render_board_indexed`), the same
picture, with none of the players' chips kept from an earlier drawing (in a game about half
of them are: a move changes the mover's and the next player's); the margins are kept, as they
are from move to move while the maze keeps its frame.
Targets: for the 40-tunnel board, at most 20 ms median and 120 KB at no more than 1280 px wide,
and within twice the floor. The round replays (render_round_replay, an animated GIF of every
public view of a round): at most 1 s and 1 MB for a round of 60 moves.
"""

from __future__ import annotations

import io
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from engine import (
    CARDS,
    Edition,
    GameState,
    Kind,
    PlaceTunnel,
    PublicView,
    apply,
    current_player,
    legal_actions,
    new_game,
    player_view,
    public_view,
)
from engine import board as bd
from engine.archive import Played, public_rounds
from engine.cards import EDGES, GOAL_SPOTS
from engine.notation import token, with_board
from render import render_board, render_round_replay, to_png
from render.board import (
    layout,
    render_board_indexed,
    render_confirm,
    render_confirm_indexed,
    render_placement_preview,
    render_placement_preview_indexed,
)
from render.png import palette
from render.strip import _chip_indexed
from render.tiles import card_tile
from tests.engine.playout import playout  # the seeded playouts of the engine tests

NAMES = {1: "Alice", 2: "김철수", 3: "Bob", 4: "이영희", 5: "Charlie", 6: "박지성"}
REPEAT = 200
REPLAY_REPEAT = 10


def played(tunnels: int, edition: Edition, seed: int) -> GameState:
    """A seeded game whose players dig toward the goals until the maze holds `tunnels` cards."""
    rng = random.Random(seed)
    state = new_game(list(NAMES)[:5], edition=edition, seed=seed)
    while len(state.maze) - 1 < tunnels:
        player = current_player(state)
        assert player is not None
        actions = legal_actions(state, player)
        digs = [
            a for a in actions if isinstance(a, PlaceTunnel) and a.at[0] < 8 and -4 <= a.at[1] <= 4
        ]
        pick = rng.choice(digs) if digs else rng.choice(actions)
        after = apply(state, player, pick).state
        if after.round != state.round:
            return played(tunnels, edition, seed + 1000)
        state = after
    return state


def constructed(tunnels: int, seed: int) -> GameState:
    """A Deluxe maze of `tunnels` cards grown from the start, each matching its neighbours
    (more cards than one deck holds, so it is built in the notation, not played)."""
    rng = random.Random(seed)
    codes = [bd.code(s.card, r) for s in CARDS if s.kind is Kind.TUNNEL for r in (False, True)]
    maze = {(0, 0): bd.START_CODE}
    blocked = set(GOAL_SPOTS)
    while len(maze) - 1 < tunnels:
        frontier = sorted(
            {
                bd.neighbour(at, e)
                for at, c in maze.items()
                for e in EDGES
                if bd.OPEN[c] & e and bd.neighbour(at, e) not in maze
            }
            - blocked
        )
        frontier = [(x, y) for x, y in frontier if -2 <= x <= 9 and -4 <= y <= 4]
        if not frontier:
            return constructed(tunnels, seed + 1000)
        at = rng.choice(frontier)
        must_open, must_closed = bd.constraints(maze, at)
        # Mostly open cards, so that the maze keeps growing instead of closing itself off.
        fitting = [c for c in codes if bd.fits(c, must_open, must_closed)]
        if rng.random() < 0.8:
            fitting = [c for c in fitting if bin(bd.OPEN[c]).count("1") >= 3] or fitting
        if not fitting:
            blocked.add(at)
            continue
        maze[at] = rng.choice(fitting)
    xs = [x for x, _ in maze] + [8]
    ys = [y for _, y in maze] + [-2, 2]
    rows = []
    for y in range(min(ys), max(ys) + 1):
        row = [token(maze[(x, y)]) if (x, y) in maze else "." for x in range(min(xs), max(xs) + 1)]
        rows.append(" ".join(row))
    game = new_game(list(NAMES)[:5], edition=Edition.DELUXE, seed=seed)
    return with_board(game, "\n".join(rows))


def timed(fn: Callable[[], bytes]) -> tuple[float, float, int]:
    """Median and p95 milliseconds of fn, and the size of what it returns."""
    for _ in range(5):
        size = len(fn())
    times = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)], size


def fresh(draw: Callable[[], Image.Image]) -> bytes:
    """The PNG of a picture drawn with no player's chip kept from before."""
    _chip_indexed.cache_clear()
    return to_png(draw())


def floor(view: PublicView, size: tuple[int, int]) -> Callable[[], bytes]:
    """Paste one pre-drawn tile per card on a canvas of the picture's size, then encode."""
    lay = layout(view.board)
    cells = [c.at for c in view.board.cards] + [g.at for g in view.board.goals]
    tile = card_tile(view.board.cards[0].card, False, lay.cell)

    def run() -> bytes:
        canvas = Image.new("RGB", size, (40, 35, 32))
        for at in cells:
            canvas.paste(tile, lay.corner(at))
        return to_png(canvas)

    return run


def replay_round(seed: int, number: int) -> tuple[PublicView, ...]:
    """The public views of one round of a seeded Deluxe game whose players mostly dig east."""
    steps = playout(5, Edition.DELUXE, seed, dig=0.9)
    rounds = public_rounds(Played(s.before, s.player, s.action, s.transition) for s in steps)
    return rounds[number - 1].views


def main() -> None:
    """Print the table."""
    t0 = time.perf_counter()
    palette()
    warm = (time.perf_counter() - t0) * 1000
    boards = [
        ("opening", public_view(new_game(list(NAMES)[:5], seed=1))),
        ("20 tunnels", public_view(played(20, Edition.BASE, 2))),
        ("40 tunnels", public_view(played(40, Edition.DELUXE, 3))),
        ("70 tunnels", public_view(constructed(70, 4))),
    ]
    head = (
        f"{'board':<11} {'cards':>5} {'size':>10} {'RGB ms':>7} {'bot ms':>6} {'p95 ms':>6}"
        f" {'PNG KB':>6} {'floor ms':>8} {'floor KB':>8} {'x floor':>7}"
    )
    print(head)
    print("-" * len(head))
    for label, view in boards:
        image = render_board(view, names=NAMES)
        rgb, _, _ = timed(lambda v=view: to_png(render_board(v, names=NAMES)))  # type: ignore[misc]
        med, p95, size = timed(lambda v=view: fresh(lambda: render_board_indexed(v, names=NAMES)))  # type: ignore[misc]
        fmed, _, fsize = timed(floor(view, image.size))
        cards = len(view.board.cards) - 1
        print(
            f"{label:<11} {cards:>5} {image.width:>4}x{image.height:<5} {rgb:>7.2f} {med:>6.2f}"
            f" {p95:>6.2f} {size / 1024:>6.1f} {fmed:>8.2f} {fsize / 1024:>8.1f} {med / fmed:>7.2f}"
        )
    print(f"\nfirst call (palette and tiles drawn once per process): {warm:.0f} ms")
    state = played(20, Edition.BASE, 2)
    mover = current_player(state)
    assert mover is not None
    view = player_view(state, mover)
    tunnels = [a for a in legal_actions(state, mover) if isinstance(a, PlaceTunnel)]
    spots = [a for a in tunnels if a.card == tunnels[0].card]
    print(f"\n{'a screen of 20 tunnels':<38} {'RGB ms':>7} {'bot ms':>6}")
    for label, rgb_draw, bot_draw in (
        (
            f"the numbered spots of a card ({len(spots)})",
            lambda: to_png(render_placement_preview(view, spots, names=NAMES)),
            lambda: fresh(lambda: render_placement_preview_indexed(view, spots, names=NAMES)),
        ),
        (
            "the chosen spot",
            lambda: to_png(render_confirm(view, spots[0], names=NAMES)),
            lambda: fresh(lambda: render_confirm_indexed(view, spots[0], names=NAMES)),
        ),
    ):
        print(f"{label:<38} {timed(rgb_draw)[0]:>7.2f} {timed(bot_draw)[0]:>6.2f}")
    head = (
        f"\n{'round replay':<24} {'moves':>5} {'frames':>6} {'size':>9} {'median ms':>9} {'KB':>5}"
    )
    print(head)
    print("-" * (len(head) - 1))
    for label, seed, number in (("ends on the gold", 6, 2), ("runs to the last card", 7, 2)):
        views = replay_round(seed, number)
        data = render_round_replay(views)
        times = []
        for _ in range(REPLAY_REPEAT):
            t0 = time.perf_counter()
            render_round_replay(views)
            times.append((time.perf_counter() - t0) * 1000)
        frames = 1 + sum(1 for a, b in itertools.pairwise(views) if a.board != b.board)
        width, height = Image.open(io.BytesIO(data)).size
        print(
            f"{label:<24} {len(views) - 1:>5} {frames:>6} {width:>4}x{height:<4}"
            f" {statistics.median(times):>9.0f} {len(data) / 1024:>5.0f}"
        )


if __name__ == "__main__":
    main()
