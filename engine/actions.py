"""What a player can do on their turn: a union of small frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Tool
from .model import Coord, PlayerId


@dataclass(frozen=True, slots=True)
class PlaceTunnel:
    """Put a tunnel card from the hand into the maze, at 0 or 180 degrees."""

    card: Card
    at: Coord
    rotated: bool = False


@dataclass(frozen=True, slots=True)
class PlayOnPlayer:
    """Play an action card at a player: broken tool, repair (naming the tool), and Deluxe cards."""

    card: Card
    target: PlayerId
    tool: Tool | None = None


@dataclass(frozen=True, slots=True)
class UseMap:
    """Look secretly at a face-down goal."""

    at: Coord


@dataclass(frozen=True, slots=True)
class Rockfall:
    """Remove a tunnel card from the maze."""

    at: Coord


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard face down and draw as many (base: one card; Deluxe: one to three, a pass)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ClearInFront:
    """Deluxe: discard two cards to remove one card lying in front of yourself, then draw one."""

    discards: tuple[Card, Card]
    removes: Card


@dataclass(frozen=True, slots=True)
class Steal:
    """Deluxe, at a round's end: the thief takes one nugget from this other player who has gold."""

    victim: PlayerId


Action = PlaceTunnel | PlayOnPlayer | UseMap | Rockfall | Discard | ClearInFront | Steal
