"""Computer player strength and speed: seeded single-round tournaments between levels.

Run: `python bench/ai.py --rounds 2000 --out ai.json` (prints a table). Each line seats one
level on the miners' side (every role but the saboteur) and one on the saboteurs' side, plays
round 1 of many seeded games and prints the diggers' win rate with a 95% Wilson interval.
`--lines base5:HvR,deluxe6:SvH` runs some lines only; `--out FILE` keeps every round's result
in a JSON file, so a line can be run in pieces (rounds already in the file are not played
again, `--rounds` is the total wanted) and `--report` prints the table of a file without
playing. `--budget worlds=8,depth=9` plays the search seats with another `Budget` (keep each
budget's rounds in their own file). `--workers N` plays in N processes (default 1: the machine
is shared).

Each round keeps a trace (a digest of its moves). Before a line of a file is extended, its
first round is played again and must leave the same trace: rounds played by other code (a
computer player that decides otherwise, another budget) are never mixed with new ones; the run
stops and names the line (`--drop base5:SvH` removes a line's rounds). `--no-times` keeps no
decision times in the file (they belong to the machine that measured them), for the results
kept in the repository, `bench/results/`, which later runs extend.

Targets (the computer-player issue): replacing one side by the stronger level raises that side's
win rate by 15 points (search over heuristic) and 30 points (heuristic over random), against
heuristic opponents; all-search base rounds leave each side at least 25%; the belief ranks every
saboteur above every miner in 70% of rounds where each saboteur played three cards; search
decisions p50 <= 150 ms and p99 <= 1.5 s, heuristic p99 <= 5 ms; no illegal action.

Decision times are the process's CPU time (`time.process_time`), so a machine shared with other
work does not inflate them; the rounds per second too. A gain is measured on the seeds both
lines played (paired: the same deal), with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import Budget, Level
from ai.arena import play_round
from engine import Edition, Role

R, H, S = Level.RANDOM, Level.HEURISTIC, Level.SEARCH
CONFIGS = ((Edition.BASE, 5), (Edition.BASE, 7), (Edition.DELUXE, 6))
MATCHES = ((R, R), (H, R), (R, H), (H, H), (S, H), (H, S), (S, S))  # (miners, saboteurs)
LETTER = {R: "R", H: "H", S: "S"}
Line = tuple[Edition, int, Level, Level]
Result = dict[str, Any]


def wilson(wins: int, n: int) -> tuple[float, float, float]:
    """A rate and its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def paired(a: dict[str, bool], b: dict[str, bool], seeds: list[str]) -> tuple[float, ...]:
    """How much more often line `a`'s miners won than line `b`'s on the same seeds (the same
    deal, other players), with a 95% normal interval of the paired difference."""
    d = [int(a[k]) - int(b[k]) for k in seeds]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def line_key(line: Line) -> str:
    """A line's name in the results file and on the command line: `base5:HvR`."""
    edition, players, miners, saboteurs = line
    return f"{edition.value}{players}:{LETTER[miners]}v{LETTER[saboteurs]}"


ALL_LINES: tuple[Line, ...] = tuple((e, n, m, s) for e, n in CONFIGS for m, s in MATCHES)
BY_KEY = {line_key(line): line for line in ALL_LINES}


def parse_budget(text: str) -> Budget:
    """A search budget from `worlds=32,width=6,depth=8` (unnamed fields keep their default)."""
    fields: dict[str, Any] = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name not in Budget.__dataclass_fields__:
            raise ValueError(f"no budget field {name!r}")
        default = Budget.__dataclass_fields__[name].type
        fields[name] = float(value) if "float" in str(default) else int(value)
    return Budget(**fields)


def one(task: tuple[Line, int, Budget]) -> tuple[str, int, Result]:
    """Play one seeded round of one line; its result as plain data."""
    line, seed, budget = task
    edition, players, miners, saboteurs = line
    started = time.process_time()
    r = play_round(
        players,
        edition,
        seed,
        {False: miners, True: saboteurs},
        budget=budget,
        clock=time.process_time,
    )
    times: dict[str, list[float]] = {}
    for lv, t in r.times:
        times.setdefault(lv.value, []).append(round(1000 * t, 3))
    result: Result = {
        "won": r.diggers_won,
        "saboteurs": sum(1 for x in r.roles if x is Role.SABOTEUR),
        "illegal": r.illegal,
        "turns": r.turns,
        "cpu": round(time.process_time() - started, 4),
        "ms": times,
        "ranked": list(r.ranked),
        "counts": r.ranking_counts,
        "trace": r.trace,
    }
    return line_key(line), seed, result


class Mismatch(Exception):
    """A line's stored rounds were played by code that decides otherwise."""


def check(lines: Iterable[Line], results: dict[str, dict[str, Result]], budget: Budget) -> None:
    """Play each line's first stored round again: its trace must be the one stored."""
    for line in lines:
        key = line_key(line)
        got = results.get(key, {})
        if not got:
            continue
        traced = sorted(int(k) for k, r in got.items() if r.get("trace"))
        if not traced:
            raise Mismatch(f"{key}: its rounds have no trace to check (--drop {key})")
        seed = traced[0]
        _, _, again = one((line, seed, budget))
        if again["trace"] != got[str(seed)]["trace"]:
            raise Mismatch(
                f"{key}: seed {seed} is played differently now than in the file "
                f"(other code or budget); --drop {key} plays the line again"
            )


def load(path: Path | None) -> dict[str, dict[str, Result]]:
    """The results file's rounds by line and seed (empty without a file)."""
    if path is None or not path.exists():
        return {}
    data: dict[str, dict[str, Result]] = json.loads(path.read_text())
    return data


def save(path: Path | None, results: dict[str, dict[str, Result]]) -> None:
    """Write the results file whole (atomically: a stopped run loses no earlier round)."""
    if path is None:
        return
    tmp = path.with_suffix(path.suffix + ".tmp")
    # One round a line: a file kept in git grows by the lines of its new rounds.
    parts = []
    for key in sorted(results):
        rounds = results[key]
        body = ",\n".join(
            f"{json.dumps(seed)}:{json.dumps(rounds[seed], separators=(',', ':'), sort_keys=True)}"
            for seed in sorted(rounds, key=int)
        )
        parts.append(f"{json.dumps(key)}:{{\n{body}\n}}")
    tmp.write_text("{\n" + ",\n".join(parts) + "\n}\n")
    os.replace(tmp, path)


def pct(q: float, values: list[float]) -> float:
    """A percentile of values in milliseconds."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def play(
    lines: Iterable[Line],
    rounds: int,
    first: int,
    workers: int,
    results: dict[str, dict[str, Result]],
    out: Path | None,
    budget: Budget = Budget(),
    keep_times: bool = True,
) -> None:
    """Play the rounds each line still lacks, saving the file every few seconds."""
    tasks = [
        (line, seed, budget)
        for line in lines
        for seed in range(first, first + rounds)
        if str(seed) not in results.get(line_key(line), {})
    ]
    if not tasks:
        return
    started = last = time.perf_counter()
    done = 0

    check({line for line, _, _ in tasks}, results, budget)

    def take(key: str, seed: int, result: Result) -> None:
        nonlocal last, done
        if not keep_times:
            result = {k: v for k, v in result.items() if k != "ms"}
        results.setdefault(key, {})[str(seed)] = result
        done += 1
        now = time.perf_counter()
        if now - last > 20:
            save(out, results)
            last = now
            rate = done / (now - started)
            print(f"  {done}/{len(tasks)} rounds, {rate:.2f}/s", file=sys.stderr, flush=True)

    if workers <= 1:
        for task in tasks:
            take(*one(task))
    else:
        with ProcessPoolExecutor(workers) as pool:
            for key, seed, result in pool.map(one, tasks, chunksize=2):
                take(key, seed, result)
    save(out, results)


def report(results: dict[str, dict[str, Result]], lines: Iterable[Line], rounds: int) -> None:
    """Print each line's win rate, the gains of the stronger levels, belief and time figures."""
    wanted = set(lines)
    illegal = 0
    times: dict[str, list[float]] = {lv.value: [] for lv in Level}
    ranked_rounds: list[bool] = []
    for edition, players in CONFIGS:
        rate: dict[tuple[Level, Level], dict[str, bool]] = {}  # seed: the miners won
        header = False
        for m, s in MATCHES:
            line = (edition, players, m, s)
            got = results.get(line_key(line), {})
            picked = [got[k] for k in sorted(got, key=int)[:rounds]]
            if line not in wanted or not picked:
                continue
            if not header:
                print(f"{edition.value} {players} players: miners' side win rate [95% interval]")
                header = True
            wins = sum(r["won"] for r in picked)
            p, lo, hi = wilson(wins, len(picked))
            rate[(m, s)] = {k: got[k]["won"] for k in sorted(got, key=int)[:rounds]}
            cpu = sum(r["cpu"] for r in picked)
            dealt: dict[int, list[bool]] = {}
            for r in picked:
                dealt.setdefault(r["saboteurs"], []).append(r["won"])
            extra = "  by saboteurs dealt: " + ", ".join(
                f"{k}: {sum(v) / len(v):.0%} of {len(v)}" for k, v in sorted(dealt.items())
            )
            judged = [all(r["ranked"]) for r in picked if r["counts"] and r["ranked"]]
            belief = ""
            if judged:
                b, _, _ = wilson(sum(judged), len(judged))
                belief = f"  belief ranks {b:.0%} of {len(judged)}"
                ranked_rounds += judged
            print(
                f"  {m.value:9} v {s.value:9} {p:6.1%} [{lo:.1%}, {hi:.1%}] {len(picked):5} rounds"
                f"  {len(picked) / max(cpu, 1e-9):6.2f} rounds/s{belief}"
            )
            print(f"  {extra}")
            for r in picked:
                illegal += r["illegal"]
                for lv, ts in r.get("ms", {}).items():
                    times[lv] += ts
        gains: tuple[tuple[str, tuple[Level, Level], tuple[Level, Level], float], ...] = (
            ("miners    search over heuristic", (S, H), (H, H), 0.15),
            ("saboteurs search over heuristic", (H, H), (H, S), 0.15),
            ("miners    heuristic over random", (H, H), (R, H), 0.30),
            ("saboteurs heuristic over random", (H, R), (H, H), 0.30),
        )
        for name, better, worse, target in gains:
            common = sorted(set(rate.get(better, {})) & set(rate.get(worse, {})), key=int)
            if common:
                gain, glo, ghi = paired(rate[better], rate[worse], common)
                mark = "met" if gain >= target else "NOT met"
                print(
                    f"  {name}: {gain:+.1%} [{glo:+.1%}, {ghi:+.1%}] on {len(common)} seeds "
                    f"both lines played (target +{target:.0%}: {mark})"
                )
        if (S, S) in rate and edition is Edition.BASE:
            ss = sum(rate[(S, S)].values()) / len(rate[(S, S)])
            mark = "met" if min(ss, 1 - ss) >= 0.25 else "NOT met"
            print(f"  all search: miners {ss:.1%}, saboteurs {1 - ss:.1%} (each >= 25%: {mark})")
        if header:
            print()
    if ranked_rounds:
        p, lo, hi = wilson(sum(ranked_rounds), len(ranked_rounds))
        print(
            "belief at round end ranks every saboteur above every other player, for every "
            "non-random miner, in rounds where each saboteur played >= 3 cards (target 70%): "
            f"{p:.1%} [{lo:.1%}, {hi:.1%}] of {len(ranked_rounds)}"
        )
    for lv in (S, H):
        ts = times[lv.value]
        if ts:
            print(
                f"decision time {lv.value}: p50 {pct(0.5, ts):.1f} ms, "
                f"p99 {pct(0.99, ts):.1f} ms over {len(ts)} decisions"
            )
    print(f"illegal actions: {illegal}")


def main(argv: list[str] | None = None) -> int:
    """Run the tournaments (or some lines of them) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per line (in total)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--lines", default="", help="comma-separated, e.g. base5:HvR (all)")
    parser.add_argument("--out", type=Path, default=None, help="JSON file of results to extend")
    parser.add_argument("--report", action="store_true", help="print the file's table only")
    parser.add_argument(
        "--budget", default="", help="the search budget, e.g. worlds=32,depth=8 (the default)"
    )
    parser.add_argument("--drop", default="", help="lines whose rounds to remove from the file")
    parser.add_argument(
        "--no-times", action="store_true", help="keep no decision times in the file"
    )
    args = parser.parse_args(argv)
    try:
        lines = [BY_KEY[k] for k in args.lines.split(",") if k] or list(ALL_LINES)
        dropped = [line_key(BY_KEY[k]) for k in args.drop.split(",") if k]
    except KeyError as e:
        parser.error(f"unknown line {e}; lines are {', '.join(BY_KEY)}")
    results = load(args.out)
    for key in dropped:
        results.pop(key, None)
    if dropped:
        save(args.out, results)
    if not args.report:
        started = time.perf_counter()
        try:
            budget = parse_budget(args.budget)
        except ValueError as e:
            parser.error(str(e))
        try:
            play(
                lines,
                args.rounds,
                args.seed,
                args.workers,
                results,
                args.out,
                budget,
                keep_times=not args.no_times,
            )
        except Mismatch as e:
            print(f"not played: {e}", file=sys.stderr)
            return 2
        print(f"{time.perf_counter() - started:.0f} s, {args.workers} workers\n")
    report(results, lines, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
