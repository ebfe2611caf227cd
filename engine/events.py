"""What happened, each with its audience: everyone (None) or one player only."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Tool
from .model import Coord, PlayerId, Role, RoundResult
from .views import BoardView

PUBLIC = None


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round began; `starter` plays first."""

    round: int
    starter: PlayerId
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class RoleDealt:
    """A player got a role card (at the deal, or from swap your hats)."""

    player: PlayerId
    role: Role
    audience: PlayerId | None


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A player's new hand (at the deal, or after swap your hand)."""

    player: PlayerId
    cards: tuple[Card, ...]
    audience: PlayerId | None


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A player drew a card."""

    player: PlayerId
    card: Card
    audience: PlayerId | None


@dataclass(frozen=True, slots=True)
class TunnelPlaced:
    """A tunnel card went into the maze."""

    player: PlayerId
    card: Card
    at: Coord
    rotated: bool
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class GoalRevealed:
    """A goal card was reached and turned face up."""

    at: Coord
    card: Card
    rotated: bool
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class ActionPlayed:
    """An action card was played at a player (broken tool, repair, Deluxe actions)."""

    player: PlayerId
    card: Card
    target: PlayerId
    tool: Tool | None = None
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class MapUsed:
    """A player looked at a goal; everyone learns which one, not what it is."""

    player: PlayerId
    at: Coord
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class GoalPeeked:
    """What the map showed, for its player only."""

    player: PlayerId
    at: Coord
    card: Card
    audience: PlayerId | None


@dataclass(frozen=True, slots=True)
class RockfallPlayed:
    """A tunnel card was removed from the maze (`rotated`: it lay turned by 180°)."""

    player: PlayerId
    at: Coord
    removed: Card
    rotated: bool = False
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class CardsDiscarded:
    """A player discarded face down (the group learns how many, not which)."""

    player: PlayerId
    count: int
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class InFrontCleared:
    """Deluxe: a player discarded two cards to remove a card lying in front of them."""

    player: PlayerId
    card: Card
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class RoleSeen:
    """Deluxe inspection: the role the inspector saw, for the inspector only."""

    player: PlayerId
    target: PlayerId
    role: Role
    audience: PlayerId | None


@dataclass(frozen=True, slots=True)
class PlayerPassed:
    """A player with an empty hand was skipped."""

    player: PlayerId
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round ended: roles revealed, who won, who was paid (amounts stay secret), the maze."""

    result: RoundResult
    board: BoardView
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class GoldReceived:
    """Nuggets a player got at a round end (payout or theft), for that player only."""

    player: PlayerId
    nuggets: int
    cards: tuple[int, ...]
    audience: PlayerId | None


@dataclass(frozen=True, slots=True)
class GoldStolen:
    """Deluxe: a thief took one nugget from the player they chose (public: who from whom, no
    total; rule deluxe.payout.theft)."""

    thief: PlayerId
    victim: PlayerId
    audience: PlayerId | None = PUBLIC


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over: every player's gold, and the winners."""

    gold: tuple[tuple[PlayerId, int], ...]
    winners: tuple[PlayerId, ...]
    audience: PlayerId | None = PUBLIC


Event = (
    RoundStarted
    | RoleDealt
    | HandDealt
    | CardDrawn
    | TunnelPlaced
    | GoalRevealed
    | ActionPlayed
    | MapUsed
    | GoalPeeked
    | RockfallPlayed
    | CardsDiscarded
    | InFrontCleared
    | RoleSeen
    | PlayerPassed
    | RoundEnded
    | GoldReceived
    | GoldStolen
    | GameEnded
)
