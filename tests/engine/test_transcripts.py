"""Golden playthrough transcripts of seeded games (issue 2 and 3); rewrite with --regen-golden."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Edition
from engine.transcript import transcript

from .playout import playout

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(
    ("name", "players", "edition", "seed"),
    [
        ("base_3p_seed7", 3, Edition.BASE, 7),
        ("base_5p_seed2024", 5, Edition.BASE, 2024),
        ("deluxe_4p_seed99", 4, Edition.DELUXE, 99),
    ],
)
def test_playthrough_matches_golden(
    name: str, players: int, edition: Edition, seed: int, regen_golden: bool
) -> None:
    """The whole seeded game reads exactly as its golden transcript."""
    text = transcript(
        (s.before, s.player, s.action, s.transition) for s in playout(players, edition, seed)
    )
    path = GOLDEN / f"{name}.txt"
    if regen_golden:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}: run pytest --regen-golden to write it"
    assert text == path.read_text(encoding="utf-8"), (
        f"{name} differs; see git diff after --regen-golden"
    )
