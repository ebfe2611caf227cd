"""Computer player strength and speed: seeded single-round tournaments between levels.

Run: `python bench/ai.py --rounds 2000` (prints a table; `--workers` processes share the rounds).
Each line seats one level on the miners' side (every role but the saboteur) and one on the
saboteurs' side, plays round 1 of many seeded games and prints the diggers' win rate with a 95%
Wilson interval. Targets (the computer-player issue): replacing one side by the stronger level
raises that side's win rate by 15 points (search over heuristic) and 30 points (heuristic over
random), against heuristic opponents; all-search base rounds leave each side at least 25%; the
belief ranks every saboteur above every miner in 70% of rounds where each saboteur played three
cards; search decisions p50 <= 150 ms and p99 <= 1.5 s, heuristic p99 <= 5 ms; no illegal action.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import Level
from ai.arena import RoundRecord, play_round
from engine import Edition

R, H, S = Level.RANDOM, Level.HEURISTIC, Level.SEARCH
CONFIGS = ((Edition.BASE, 5), (Edition.BASE, 7), (Edition.DELUXE, 6))
MATCHES = ((R, R), (H, R), (R, H), (H, H), (S, H), (H, S), (S, S))  # (miners, saboteurs)


def wilson(wins: int, n: int) -> tuple[float, float, float]:
    """A rate and its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def one(task: tuple[Edition, int, Level, Level, int]) -> RoundRecord:
    """Play one seeded round of one line."""
    edition, players, miners, saboteurs, seed = task
    return play_round(
        players, edition, seed, {False: miners, True: saboteurs}, clock=time.perf_counter
    )


def pct(q: float, values: list[float]) -> float:
    """A percentile in milliseconds."""
    if not values:
        return float("nan")
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    """Run the tournaments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per line")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    args = parser.parse_args()
    tasks = [
        (edition, players, m, s, args.seed + i)
        for edition, players in CONFIGS
        for m, s in MATCHES
        for i in range(args.rounds)
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        records = list(pool.map(one, tasks, chunksize=4))
    elapsed = time.perf_counter() - started
    print(f"{args.rounds} rounds per line, {args.workers} workers, {elapsed:.0f} s\n")
    illegal = sum(r.illegal for r in records)
    times: dict[Level, list[float]] = {lv: [] for lv in Level}
    ranked: list[bool] = []
    rounds_ranked: list[bool] = []
    i = 0
    for edition, players in CONFIGS:
        print(f"{edition.value} {players} players: miners' side win rate [95% interval]")
        rate: dict[tuple[Level, Level], float] = {}
        for m, s in MATCHES:
            line = records[i : i + args.rounds]
            i += args.rounds
            wins = sum(r.diggers_won for r in line)
            p, lo, hi = wilson(wins, len(line))
            rate[(m, s)] = p
            for r in line:
                for lv, t in r.times:
                    times[lv].append(t)
                if (m, s) == (S, S) and r.ranking_counts and r.ranked:
                    ranked += r.ranked
                    rounds_ranked.append(all(r.ranked))
            print(f"  miners {m.value:9} v saboteurs {s.value:9}  {p:6.1%}  [{lo:.1%}, {hi:.1%}]")
        gains = (
            ("miners   search over heuristic", rate[(S, H)] - rate[(H, H)], 0.15),
            ("saboteurs search over heuristic", rate[(H, H)] - rate[(H, S)], 0.15),
            ("miners   heuristic over random", rate[(H, H)] - rate[(R, H)], 0.30),
            ("saboteurs heuristic over random", rate[(H, R)] - rate[(H, H)], 0.30),
        )
        for name, gain, target in gains:
            mark = "met" if gain >= target else "NOT met"
            print(f"  {name}: {gain:+.1%} (target +{target:.0%}: {mark})")
        ss = rate[(S, S)]
        if edition is Edition.BASE:
            mark = "met" if min(ss, 1 - ss) >= 0.25 else "NOT met"
            print(f"  all search: miners {ss:.1%}, saboteurs {1 - ss:.1%} (each >= 25%: {mark})")
        print()
    print(
        "belief at round end ranks every saboteur above every other player (search miners, "
        "all-search rounds where each saboteur played >= 3 cards; target 70%):"
    )
    p, lo, hi = wilson(sum(rounds_ranked), len(rounds_ranked))
    count = len(rounds_ranked)
    print(f"  rounds where every miner's belief does: {p:.1%} [{lo:.1%}, {hi:.1%}] of {count}")
    p, lo, hi = wilson(sum(ranked), len(ranked))
    print(f"  miners' beliefs that do: {p:.1%} [{lo:.1%}, {hi:.1%}] of {len(ranked)}")
    for lv in (S, H):
        print(
            f"decision time {lv.value}: p50 {pct(0.5, times[lv]):.1f} ms, "
            f"p99 {pct(0.99, times[lv]):.1f} ms over {len(times[lv])} decisions"
        )
    print(f"illegal actions: {illegal}")


if __name__ == "__main__":
    main()
