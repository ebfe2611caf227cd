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
    """Whole random games a second, and turns per game, over about `seconds`."""
    t0 = time.perf_counter()
    games = turns = 0
    while time.perf_counter() - t0 < seconds:
        turns += random_game(players, edition, seed=games)
        games += 1
    elapsed = time.perf_counter() - t0
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
    print(f"{'whole random 3-round games, one core':62} {'games/s':>10} {'turns':>8}")
    for players, edition in ((5, Edition.BASE), (10, Edition.BASE), (12, Edition.DELUXE)):
        rate, turns = games_per_second(players, edition)
        name = f"{players} players, {edition.value}"
        print(f"{name:62} {rate:10.1f} {turns:8.0f}")
        if (players, edition) == (5, Edition.BASE):
            ratio = rate / TARGET_BASE_5P
            print(f"{'  issue 13 target: 250 games/s':62} {ratio:10.2f}x of the target")


if __name__ == "__main__":
    main()
