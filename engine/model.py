"""The game's value types: roles, options, the state, and the derived tunnel network."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from .cards import Card, Edition, Named

if TYPE_CHECKING:
    from .actions import PlaceTunnel

PlayerId = int
Coord = tuple[int, int]


class Role(Named):
    """Role cards of both editions."""

    MINER = "miner"
    SABOTEUR = "saboteur"
    BLUE_MINER = "blue_miner"
    GREEN_MINER = "green_miner"
    BOSS = "boss"
    PROFITEER = "profiteer"
    GEOLOGIST = "geologist"


class Side(Named):
    """Who won a round."""

    MINERS = "miners"
    SABOTEURS = "saboteurs"
    BLUE = "blue"
    GREEN = "green"
    BOTH_TEAMS = "both_teams"
    BOSS = "boss"


class Phase(Named):
    """Whether the game still runs, or waits at a round's end for a thief's choice."""

    PLAYING = "playing"
    THEFT = "theft"  # Deluxe: the round is paid; the player to act is a thief choosing a victim
    OVER = "over"


class GoldRule(Named):
    """Cards drawn for winning miners (rules base.payout.miners and variant.gold_per_miner)."""

    OFFICIAL = "official"  # one per player, at most 9
    PER_MINER = "per_miner"  # one per miner, each gets one (Korean 2017 rulebook)


@dataclass(frozen=True, slots=True)
class Options:
    """Rule variants of a game; the defaults are the rules of docs/rules.md."""

    gold: GoldRule = GoldRule.OFFICIAL
    greedy_dwarf: bool = False


class PlayerCounts(NamedTuple):
    """Base-game numbers for one player count (rules base.roles.table and base.setup.hand_size)."""

    saboteurs: int
    miners: int
    hand_size: int


BASE_COUNTS: dict[int, PlayerCounts] = {
    3: PlayerCounts(1, 3, 6),
    4: PlayerCounts(1, 4, 6),
    5: PlayerCounts(2, 4, 6),
    6: PlayerCounts(2, 5, 5),
    7: PlayerCounts(3, 5, 5),
    8: PlayerCounts(3, 6, 4),
    9: PlayerCounts(3, 7, 4),
    10: PlayerCounts(4, 7, 4),
}

# Saboteur 2 roles (rule deluxe.roles.deal), dealt from for 2 to 12 players.
DELUXE_ROLES: tuple[Role, ...] = (
    (Role.BLUE_MINER,) * 4
    + (Role.GREEN_MINER,) * 4
    + (Role.BOSS, Role.PROFITEER)
    + (Role.GEOLOGIST,) * 2
    + (Role.SABOTEUR,) * 3
)
DELUXE_HAND_SIZE = 6
DELUXE_REMOVED = 10
DELUXE_PLAYERS = range(2, 13)
BASE_PLAYERS = range(3, 11)

# Saboteur 2 payout by number of winners (rule deluxe.payout.table); 5 or more get 1.
DELUXE_PAY: dict[int, int] = {1: 5, 2: 4, 3: 3, 4: 2}
DELUXE_PAY_MANY = 1  # what each winner gets when there are more winners than DELUXE_PAY lists
# What the boss and the profiteer get less than other winners (rule deluxe.payout.boss_profiteer).
DELUXE_PAY_LESS: dict[Role, int] = {Role.BOSS: 1, Role.PROFITEER: 2}
MAX_MINER_GOLD_CARDS = 9  # the official handout draws one gold card per player, 9 at most

# A saboteur's share when saboteurs win, by number of saboteurs (rule base.payout.saboteurs).
SABOTEUR_SHARE: dict[int, int] = {1: 4, 2: 3, 3: 3, 4: 2}


def player_range(edition: Edition) -> range:
    """Legal player counts of an edition."""
    return DELUXE_PLAYERS if edition is Edition.DELUXE else BASE_PLAYERS


@dataclass(frozen=True, slots=True)
class Goal:
    """A goal card at its spot: which card it is (hidden until revealed) and how it lies."""

    at: Coord
    card: Card
    revealed: bool = False
    rotated: bool = False


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What the group learns when a round ends."""

    round: int
    winners: tuple[Side, ...]
    finder: PlayerId | None
    roles: tuple[tuple[PlayerId, Role], ...]
    paid: tuple[PlayerId, ...]


@dataclass(slots=True)
class Net:
    """Derived data: which tunnels are joined to the start, and where a card may connect.

    Never serialised; rebuilt from the maze. `reached` maps a cell to the edges of its card that
    belong to tunnels joined to the start; `frontier` maps an empty cell to its edges that face
    such a tunnel.
    """

    reached: dict[Coord, int]
    frontier: dict[Coord, int]
    # The frontier's cells in order with the edges each must have open and closed, computed once
    # for the maze this network belongs to (states that share the network share the maze).
    cells: tuple[tuple[Coord, int, int], ...] | None = None
    # The maze's tunnel cards a rockfall may remove, in order (computed once, like `cells`).
    tunnels: tuple[Coord, ...] | None = None
    # For each of `cells`, the placements of each plain tunnel card there, indexed by card
    # (computed once, like `cells`).
    offers: tuple[tuple[tuple[PlaceTunnel, ...], ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game. Immutable by contract: `apply` returns a new one, never edits this."""

    edition: Edition
    options: Options
    players: tuple[PlayerId, ...]
    seed: int
    rng: int
    version: int
    round: int
    phase: Phase
    turn: int  # seat index of the player to act; -1 once the game is over
    roles: tuple[Role, ...]
    spare_roles: tuple[Role, ...]  # role cards nobody holds (face down)
    hands: tuple[tuple[Card, ...], ...]
    deck: tuple[Card, ...]
    removed: tuple[Card, ...]  # Deluxe: removed unseen at the start of the round
    discards: tuple[Card, ...]
    maze: dict[Coord, int]  # visible cards: start, tunnels, revealed goals (orientation codes)
    goals: tuple[Goal, ...]
    in_front: tuple[tuple[Card, ...], ...]  # per seat: broken tools, theft, trapped!
    peeked: tuple[tuple[Coord, ...], ...]  # per seat: goals seen with a map this round
    inspected: tuple[tuple[tuple[int, Role], ...], ...]  # per seat: (seat, role seen) this round
    gold: tuple[int, ...]  # per seat: nuggets, secret until the end
    gold_deck: tuple[int, ...]
    last_seat: int  # seat of the last player who acted (the next round starts after them)
    last_at: Coord | None  # the cell the last move acted on: placed, emptied or peeked at
    results: tuple[RoundResult, ...]
    thefts: tuple[int, ...]  # Deluxe: seats in the order their theft cards were played
    last_target: PlayerId | None = None  # the player the last move's card was played on
    stealing: tuple[int, ...] = ()  # Deluxe round end: thieves' seats still to choose, in order
    net: Net = field(compare=False, repr=False, default_factory=lambda: Net({}, {}))
    cache: dict[object, object] = field(compare=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        # dataclasses.replace would hand the old state's cache to a state with other hands.
        object.__setattr__(self, "cache", {})

    def seat_of(self, player: PlayerId) -> int:
        """The seat index of a player id, or -1 for a stranger."""
        try:
            return self.players.index(player)
        except ValueError:
            return -1
