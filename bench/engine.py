"""Engine speed: legal_actions on opening, mid-game and late boards; whole random games per second.

Run: `python bench/engine.py` (prints a table). Targets (issue 2): median legal_actions at most
0.3 ms on the late board; at least 50 whole 10-player games a second on one core. Issue 13: at
least 250 whole 5-player base games a second (printed with its ratio to that target).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import (
    Card,
    Edition,
    GameState,
    PlaceTunnel,
    apply,
    current_player,
    legal_actions,
    new_game,
)
from engine import board as bd
from engine.cards import CARDS, EDGES, OPPOSITE, STEP
from engine.legal import _placements

TARGET_BASE_5P = 250.0  # whole random 5-player base games a second on one core (issue 13)

# The hand measured on every board: six different tunnel cards, as a digging player holds.
HAND = (Card.CROSS, Card.T_NES, Card.T_NEW, Card.CURVE_NE, Card.STRAIGHT_EW, Card.DEAD_NS)


def board_with(tunnels: int, seed: int) -> GameState:
    """A Deluxe game dug to `tunnels` tunnel cards west of the goals, current hand set to HAND."""
    rng = random.Random(seed)
    state = new_game([1, 2], edition=Edition.DELUXE, seed=seed)
    while len(state.maze) - 1 < tunnels:
        player = current_player(state)
        assert player is not None
        actions = legal_actions(state, player)
        digs = [a for a in actions if isinstance(a, PlaceTunnel) and a.at[0] < 7]
        pick = rng.choice(digs) if digs else actions[-1]
        state = apply(state, player, pick).state
        if state.round != 1:
            return board_with(tunnels, seed + 1000)
    seat = state.turn
    hands = list(state.hands)
    hands[seat] = HAND
    no_front = ((),) * len(state.players)
    return dataclasses.replace(state, hands=tuple(hands), in_front=no_front, cache={})


def time_legal(state: GameState, repeat: int) -> tuple[float, float, int]:
    """Median and p95 milliseconds of legal_actions (cold: no cache), and the action count."""
    player = current_player(state)
    assert player is not None
    times = []
    count = 0
    for _ in range(repeat):
        fresh = dataclasses.replace(state, cache={})
        t0 = time.perf_counter()
        count = len(legal_actions(fresh, player))
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)], count


# ---------------------------------------------------------------- a plain bitmask frontier

# The reference the engine's placements are measured against (issue 13): the maze as bitboards
# (one bit per cell of a padded square), the frontier as shifts of the cells whose joined
# tunnels open each way, each cell's constraints read from four more bitboards, and the cards
# that fit from a table. Only plain tunnels (the bench's hand has no ladder).
SIDE = 64  # cells per row, with room for any maze of a game
MID = SIDE // 2
SHIFT = {e: dx + SIDE * dy for e, (dx, dy) in STEP.items()}


def _bit(at: tuple[int, int]) -> int:
    return (at[1] + MID) * SIDE + at[0] + MID


def _shift(board: int, edge: int) -> int:
    k = SHIFT[edge]
    return board << k if k > 0 else board >> -k


FIT_TABLE: dict[tuple[int, int, Card], tuple[bool, ...]] = {}


def _fits(must_open: int, must_closed: int, card: Card) -> tuple[bool, ...]:
    key = (must_open, must_closed, card)
    hit = FIT_TABLE.get(key)
    if hit is None:
        hit = FIT_TABLE[key] = tuple(
            bd.is_rotated(c) for c in bd.OFFERED[card] if bd.fits(c, must_open, must_closed)
        )
    return hit


@dataclasses.dataclass(frozen=True)
class Bitboards:
    """A maze as bitboards, kept as a game goes (built once here, outside the timing)."""

    occupied: int
    hidden: int
    opens: dict[int, int]  # cells whose card opens toward each edge
    joined: dict[int, int]  # cells whose joined tunnels open toward each edge

    @staticmethod
    def of(state: GameState) -> Bitboards:
        """The bitboards of a state's maze and network."""
        occupied = hidden = 0
        opens = dict.fromkeys(EDGES, 0)
        joined = dict.fromkeys(EDGES, 0)
        for at, c in state.maze.items():
            b = 1 << _bit(at)
            occupied |= b
            r = state.net.reached.get(at, 0)
            for e in EDGES:
                if bd.OPEN[c] & e:
                    opens[e] |= b
                if r & e:
                    joined[e] |= b
        for g in state.goals:
            if not g.revealed:
                hidden |= 1 << _bit(g.at)
        return Bitboards(occupied, hidden, opens, joined)


def bitmask_placements(boards: Bitboards, cards: list[Card]) -> list[tuple[Card, int, bool]]:
    """Every placement of these plain tunnel cards, as (card, cell bit, rotated)."""
    frontier = 0
    for e in EDGES:
        frontier |= _shift(boards.joined[e], e)
    frontier &= ~(boards.occupied | boards.hidden)
    # For each edge of a cell: a neighbour across it, and whether it opens toward the cell.
    toward = {e: _shift(boards.opens[OPPOSITE[e]], OPPOSITE[e]) for e in EDGES}
    present = {e: _shift(boards.occupied, OPPOSITE[e]) for e in EDGES}
    out: list[tuple[Card, int, bool]] = []
    rest = frontier
    while rest:
        low = rest & -rest
        rest ^= low
        must_open = must_closed = 0
        for e in EDGES:
            if present[e] & low:
                if toward[e] & low:
                    must_open |= e
                else:
                    must_closed |= e
        cell = low.bit_length() - 1
        for card in cards:
            for rotated in _fits(must_open, must_closed, card):
                out.append((card, cell, rotated))
    return out


def time_placements(state: GameState, repeat: int) -> tuple[float, float, int]:
    """Median microseconds of the engine's placements and of the bitmask reference (the same
    placements: checked), and how many there are."""
    cards = sorted({c for c in HAND if not CARDS[c].ladder})
    engine_out: list[object] = []
    _placements(state, cards, [], engine_out)  # type: ignore[arg-type]
    mine = {(a.card, _bit(a.at), a.rotated) for a in engine_out if isinstance(a, PlaceTunnel)}
    boards = Bitboards.of(state)
    assert mine == set(bitmask_placements(boards, cards)), "the reference disagrees"
    engine_times, ref_times = [], []
    for _ in range(repeat):
        fresh = dataclasses.replace(state, cache={})  # a new state: its network's cells unknown
        fresh.net.cells = fresh.net.offers = None
        out: list[object] = []
        t0 = time.perf_counter()
        _placements(fresh, cards, [], out)  # type: ignore[arg-type]
        t1 = time.perf_counter()
        bitmask_placements(boards, cards)
        t2 = time.perf_counter()
        engine_times.append((t1 - t0) * 1e6)
        ref_times.append((t2 - t1) * 1e6)
    return statistics.median(engine_times), statistics.median(ref_times), len(mine)


def random_game(players: int, edition: Edition, seed: int) -> int:
    """Play one whole 3-round game of uniformly random legal actions; return the turn count."""
    rng = random.Random(seed)
    state = new_game(list(range(1, players + 1)), edition=edition, seed=seed)
    turns = 0
    while (player := current_player(state)) is not None:
        actions = legal_actions(state, player)
        state = apply(state, player, actions[rng.randrange(len(actions))]).state
        turns += 1
    return turns


def games_per_second(players: int, edition: Edition, seconds: float = 3.0) -> tuple[float, float]:
    """Whole random games a second of this process's CPU time (a shared machine's other work
    does not count), and turns per game, over about `seconds`."""
    t0 = time.process_time()
    games = turns = 0
    while time.process_time() - t0 < seconds:
        turns += random_game(players, edition, seed=games)
        games += 1
    elapsed = time.process_time() - t0
    return games / elapsed, turns / games


def main() -> None:
    """Print the table."""
    print(f"{'case':62} {'median ms':>10} {'p95 ms':>8} {'actions':>8}")
    for label, tunnels in (("opening board", 0), ("mid-game board", 20), ("late board", 40)):
        state = board_with(tunnels, seed=11)
        med, p95, count = time_legal(state, 2000)
        name = f"legal_actions, 6-card hand, {label} ({len(state.maze) - 1} tunnels)"
        print(f"{name:62} {med:10.3f} {p95:8.3f} {count:8d}")
    print()
    print(f"{'placements of the 6-card hand (issue 13: within 1.5x)':62} {'engine µs':>10}", end="")
    print(f" {'bitmask':>8} {'ratio':>8}")
    for label, tunnels in (("opening board", 0), ("mid-game board", 20), ("late board", 40)):
        state = board_with(tunnels, seed=11)
        mine, ref, count = time_placements(state, 2000)
        name = f"{label}: {count} placements"
        print(f"{name:62} {mine:10.1f} {ref:8.1f} {mine / ref:7.2f}x")
    print()
    print(f"{'whole random 3-round games, one core (CPU time)':62} {'games/s':>10} {'turns':>8}")
    for players, edition in ((5, Edition.BASE), (10, Edition.BASE), (12, Edition.DELUXE)):
        rate, turns = games_per_second(players, edition)
        name = f"{players} players, {edition.value}"
        print(f"{name:62} {rate:10.1f} {turns:8.0f}")
        if (players, edition) == (5, Edition.BASE):
            ratio = rate / TARGET_BASE_5P
            print(f"{'  issue 13 target: 250 games/s':62} {ratio:10.2f}x of the target")


if __name__ == "__main__":
    main()
