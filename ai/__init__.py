"""The computer player: a pure package that sees only what its seat may know."""

from .belief import Belief
from .player import Bot, Level, Player, visible
from .rng import Rng
from .search import Budget
from .world import World, determinize, sample_world

__all__ = [
    "Belief",
    "Bot",
    "Budget",
    "Level",
    "Player",
    "Rng",
    "World",
    "determinize",
    "sample_world",
    "visible",
]
