"""bench/ai.py extends a results file only with rounds of the same code: each round's trace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ai import Level
from ai.arena import play_round
from bench import ai as bench_ai
from engine import Edition


def test_a_round_s_trace_tells_the_moves_apart() -> None:
    levels = {False: Level.HEURISTIC, True: Level.RANDOM}
    first = play_round(5, Edition.BASE, 3, levels)
    assert play_round(5, Edition.BASE, 3, levels).trace == first.trace
    assert play_round(5, Edition.BASE, 4, levels).trace != first.trace
    assert play_round(5, Edition.BASE, 3, {False: Level.RANDOM, True: Level.RANDOM}).trace != (
        first.trace
    )


def test_a_file_is_extended_only_by_the_code_that_played_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ai.json"
    common = ["--lines", "base5:HvR", "--out", str(out), "--no-times"]
    assert bench_ai.main([*common, "--rounds", "2"]) == 0
    rounds = json.loads(out.read_text())["base5:HvR"]
    assert sorted(rounds) == ["1", "2"]
    assert all(r["trace"] and "ms" not in r for r in rounds.values())

    # The same code extends it.
    assert bench_ai.main([*common, "--rounds", "3"]) == 0
    assert sorted(json.loads(out.read_text())["base5:HvR"]) == ["1", "2", "3"]

    # Rounds another code played (their first round's trace differs) are not extended.
    data = json.loads(out.read_text())
    data["base5:HvR"]["1"]["trace"] = "0" * 16
    out.write_text(json.dumps(data))
    assert bench_ai.main([*common, "--rounds", "4"]) == 2
    assert "base5:HvR" in capsys.readouterr().err
    assert sorted(json.loads(out.read_text())["base5:HvR"]) == ["1", "2", "3"]

    # Dropped, the line is played again from its first seed.
    assert bench_ai.main([*common, "--rounds", "2", "--drop", "base5:HvR"]) == 0
    again = json.loads(out.read_text())["base5:HvR"]
    assert sorted(again) == ["1", "2"] and again["1"]["trace"] == rounds["1"]["trace"]
