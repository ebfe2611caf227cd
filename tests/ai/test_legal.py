"""Every level only ever picks one of the legal actions, in both editions, and is seeded."""

from __future__ import annotations

import pytest

from ai import Level
from engine import Edition

from .games import bot_game

FAST = [
    (Level.RANDOM, Edition.BASE, 3, 1),
    (Level.RANDOM, Edition.BASE, 10, 2),
    (Level.RANDOM, Edition.DELUXE, 2, 3),
    (Level.RANDOM, Edition.DELUXE, 12, 4),
    (Level.HEURISTIC, Edition.BASE, 5, 5),
    (Level.HEURISTIC, Edition.BASE, 8, 6),
    (Level.HEURISTIC, Edition.DELUXE, 4, 7),
    (Level.HEURISTIC, Edition.DELUXE, 9, 8),
    (Level.SEARCH, Edition.BASE, 4, 9),
    (Level.SEARCH, Edition.DELUXE, 3, 10),
]


@pytest.mark.parametrize(("level", "edition", "players", "seed"), FAST)
def test_whole_games_are_legal(level: Level, edition: Edition, players: int, seed: int) -> None:
    """A whole game of bots at one level: every action offered by the engine."""
    assert bot_game(players, edition, seed, level)


@pytest.mark.slow
@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("edition", list(Edition))
def test_many_games_are_legal(level: Level, edition: Edition) -> None:
    """Many seeded games at every player count of both editions."""
    counts = range(3, 11) if edition is Edition.BASE else range(2, 13)
    games = {Level.RANDOM: 4, Level.HEURISTIC: 3, Level.SEARCH: 1}[level]
    for players in counts:
        for seed in range(games):
            assert bot_game(players, edition, 1000 * players + seed, level)


def test_same_seed_same_game() -> None:
    """Bots seeded alike play the same game, move for move."""
    a = bot_game(3, Edition.BASE, 11, Level.SEARCH)
    b = bot_game(3, Edition.BASE, 11, Level.SEARCH)
    assert a == b
    c = bot_game(4, Edition.DELUXE, 12, Level.HEURISTIC)
    assert c == bot_game(4, Edition.DELUXE, 12, Level.HEURISTIC)
