"""/rules summarises docs/rules.md: the numbers it states are the engine's own."""

from __future__ import annotations

import re

import pytest

from engine.model import (
    BASE_PLAYERS,
    DELUXE_PAY,
    DELUXE_PAY_LESS,
    DELUXE_PAY_MANY,
    DELUXE_PLAYERS,
    MAX_MINER_GOLD_CARDS,
    SABOTEUR_SHARE,
    Role,
)
from tests.repository import ROOT
from tgbot.guide import rules_texts
from tgbot.i18n import LANGUAGES, Language

EN = Language("en")
RULES_DOC = (ROOT / "docs" / "rules.md").read_text()


@pytest.mark.rule("base.setup.players", "base.payout.miners", "base.payout.saboteurs")
def test_the_base_summary_states_the_engines_numbers() -> None:
    base, _ = rules_texts(EN)
    low, high = re.search(r"\((\d+) to (\d+) players\)", base).groups()  # type: ignore[union-attr]
    assert range(int(low), int(high) + 1) == BASE_PLAYERS
    assert f"({MAX_MINER_GOLD_CARDS} at most)" in base
    shares = sorted(set(SABOTEUR_SHARE.values()), reverse=True)
    assert ", ".join(map(str, shares[:-1])) + f" or {shares[-1]} nuggets" in base


@pytest.mark.rule("deluxe.setup.players", "deluxe.payout.table", "deluxe.payout.boss_profiteer")
def test_the_deluxe_summary_states_the_engines_numbers() -> None:
    _, deluxe = rules_texts(EN)
    low, high = re.search(r"\((\d+) to (\d+) players\)", deluxe).groups()  # type: ignore[union-attr]
    assert range(int(low), int(high) + 1) == DELUXE_PLAYERS
    pays = [DELUXE_PAY[n] for n in sorted(DELUXE_PAY)] + [DELUXE_PAY_MANY]
    assert ", ".join(map(str, pays[:-1])) + f" or {pays[-1]} gold" in deluxe
    assert f"boss gets {DELUXE_PAY_LESS[Role.BOSS]} less" in deluxe
    assert f"profiteer {DELUXE_PAY_LESS[Role.PROFITEER]} less" in deluxe


@pytest.mark.rule("deluxe.payout.theft", "deluxe.place.doors")
def test_the_summary_says_what_the_engine_does_with_thefts_and_doors() -> None:
    """The thief chooses whom to steal from; doors decide winners, they block nobody."""
    _, deluxe = rules_texts(EN)
    assert "another player of their choice who has gold" in deluxe and "richest" not in deluxe
    assert "the thief is not asked" in RULES_DOC
    assert "everyone digs through them" in deluxe
    assert "only miners of that colour" not in deluxe


def test_every_language_states_the_same_numbers() -> None:
    """A translation may reword the summary but not change its numbers."""
    for lang in LANGUAGES:
        base, deluxe = rules_texts(lang)
        base_numbers = {int(n) for n in re.findall(r"\d+", base)}
        deluxe_numbers = {int(n) for n in re.findall(r"\d+", deluxe)}
        english = [{int(n) for n in re.findall(r"\d+", t)} for t in rules_texts(EN)]
        assert {BASE_PLAYERS.start, BASE_PLAYERS.stop - 1, MAX_MINER_GOLD_CARDS} <= base_numbers
        assert {DELUXE_PLAYERS.start, DELUXE_PLAYERS.stop - 1, *DELUXE_PAY.values()} <= (
            deluxe_numbers
        )
        assert (base_numbers, deluxe_numbers) == (english[0], english[1]), lang
