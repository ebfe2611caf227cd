"""Every level only ever picks one of the legal actions, in both editions, and is seeded."""

from __future__ import annotations

import functools

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


# The games of test_whole_games_are_legal, kept for test_same_seed_same_game to play again.
played = functools.cache(bot_game)


@pytest.mark.parametrize(("level", "edition", "players", "seed"), FAST)
def test_whole_games_are_legal(level: Level, edition: Edition, players: int, seed: int) -> None:
    """A whole game of bots at one level: every action offered by the engine."""
    assert played(players, edition, seed, level)


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
    """Bots seeded alike play the same game, move for move.

    Each game is played afresh and compared with its first play, which test_whole_games_are_legal
    usually made already in this process (`played` plays it when it did not)."""
    assert bot_game(4, Edition.BASE, 9, Level.SEARCH) == played(4, Edition.BASE, 9, Level.SEARCH)
    heuristic = (4, Edition.DELUXE, 7, Level.HEURISTIC)
    assert bot_game(*heuristic) == played(*heuristic)
