"""What one seat knows when it picks a move, in the form the scoring rules read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine import board as bd
from engine.cards import Card, Edition, Named
from engine.model import Coord, Net, PlayerId, Role

from .geometry import Reach, reach


class Stance(Named):
    """What a role wants from the round."""

    DIG = "dig"  # the gold reached
    BLOCK = "block"  # the gold not reached
    CRYSTALS = "crystals"  # Deluxe geologist
    ANY = "any"  # Deluxe profiteer: wins either way


STANCE: dict[Role, Stance] = {
    Role.MINER: Stance.DIG,
    Role.BLUE_MINER: Stance.DIG,
    Role.GREEN_MINER: Stance.DIG,
    Role.BOSS: Stance.DIG,
    Role.SABOTEUR: Stance.BLOCK,
    Role.GEOLOGIST: Stance.CRYSTALS,
    Role.PROFITEER: Stance.ANY,
}


@dataclass(slots=True)
class Situation:
    """The deciding seat's knowledge: the board, its hand, its guesses about gold and players."""

    edition: Edition
    players: tuple[PlayerId, ...]
    seat: int
    role: Role
    hand: tuple[Card, ...]
    maze: Mapping[Coord, int]
    net: Net
    hidden: tuple[Coord, ...]
    gold: Mapping[Coord, float]  # where this seat thinks the gold lies, among hidden goals
    in_front: tuple[tuple[Card, ...], ...]
    hostile: tuple[float, ...]  # per seat: how likely that player works against this one
    deck_size: int
    hand_sizes: tuple[int, ...]
    strike: bool | None = None  # a saboteur told to stop hiding (None: it judges for itself)
    _reach: Reach | None = field(default=None, repr=False)
    _striking: bool | None = field(default=None, repr=False)  # `heuristic.striking`, once
    # `heuristic._vectors`, once: gold and coal per hidden goal, the distances they weigh
    _vec: tuple[tuple[float, ...], tuple[float, ...], float, float] | None = field(
        default=None, repr=False
    )
    _keep: dict[Card, float] = field(default_factory=dict, repr=False)  # `heuristic.keep_value`
    # Per placement (cell, orientation code): `geometry.after_place` on this board, shared by
    # every situation on the same board (a search's worlds meet the same boards again and again).
    _after: dict[tuple[Coord, int], tuple[int, ...] | None] | None = field(default=None, repr=False)
    stance: Stance = field(init=False, repr=False)  # what this seat's role wants

    def __post_init__(self) -> None:
        self.stance = STANCE[self.role]

    @property
    def reach(self) -> Reach:
        """Distances from the joined tunnels to each hidden goal (computed once)."""
        if self._reach is None:
            self._reach = reach(self.net, self.hidden)
        return self._reach

    def gold_known(self) -> bool:
        """Whether this seat is sure where the gold lies."""
        return max(self.gold.values(), default=0.0) > 0.99


def build_net(maze: Mapping[Coord, int], hidden: tuple[Coord, ...]) -> Net:
    """The joined tunnels of a maze."""
    return bd.build_net(maze, hidden)
