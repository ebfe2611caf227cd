"""Who did what in a round, as data, from the group's events only (no text, no secrets).

`timeline` reads the events of each move and keeps only those addressed to everyone, so what
a map showed, a role seen by inspection or a hand dealt can never reach it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .cards import CARDS, Card, Kind, Tool
from .events import (
    PUBLIC,
    ActionPlayed,
    CardsDiscarded,
    Event,
    GoalRevealed,
    GoldStolen,
    InFrontCleared,
    MapUsed,
    PlayerPassed,
    RockfallPlayed,
    TunnelPlaced,
)
from .model import Coord, PlayerId


class Deed(Enum):
    """What a player did on a move."""

    TUNNEL = "tunnel"  # placed a tunnel card that leads on
    DEAD_END = "dead_end"  # placed a card whose every tunnel is a dead-end stub
    REACHED = "reached"  # their card turned a goal face up (`card` is that goal)
    BROKE = "broke"  # broke `target`'s `tool`
    REPAIRED = "repaired"  # repaired `target`'s `tool`
    PEEKED = "peeked"  # looked at the goal at `at` with a map (what they saw stays secret)
    ROCKFALL = "rockfall"  # removed the card `card` at `at` (`rotated`: as it lay)
    DISCARDED = "discarded"  # discarded `count` cards face down
    CLEARED = "cleared"  # Deluxe: discarded two cards to remove `card` in front of themselves
    THEFT = "theft"  # Deluxe: laid a theft card before themselves
    HANDS_OFF = "hands_off"  # Deluxe: took `target`'s theft card away
    TRAPPED = "trapped"  # Deluxe: trapped `target`
    FREED = "freed"  # Deluxe: freed `target`
    SWAPPED_HANDS = "swapped_hands"  # Deluxe: swapped hands with `target`
    INSPECTED = "inspected"  # Deluxe: looked at `target`'s role (what they saw stays secret)
    SWAPPED_HATS = "swapped_hats"  # Deluxe: made `target` draw a new role card
    PASSED = "passed"  # had no cards left and was skipped
    STOLE = "stole"  # Deluxe, at the round's end: took a nugget from `target` (no amount)


@dataclass(frozen=True, slots=True)
class Entry:
    """One deed of the round's timeline; fields that do not apply to the deed are None."""

    move: int  # 1-based move number within the sequence given to `timeline`
    player: PlayerId
    deed: Deed
    target: PlayerId | None = None
    tool: Tool | None = None
    card: Card | None = None
    at: Coord | None = None
    count: int | None = None
    rotated: bool = False  # a removed tunnel card lay turned by 180°


_ON_PLAYER: dict[Kind, Deed] = {
    Kind.BREAK: Deed.BROKE,
    Kind.REPAIR: Deed.REPAIRED,
    Kind.THEFT: Deed.THEFT,
    Kind.HANDS_OFF: Deed.HANDS_OFF,
    Kind.TRAPPED: Deed.TRAPPED,
    Kind.FREE: Deed.FREED,
    Kind.SWAP_HAND: Deed.SWAPPED_HANDS,
    Kind.INSPECTION: Deed.INSPECTED,
    Kind.SWAP_HATS: Deed.SWAPPED_HATS,
}


def is_dead_end(card: Card) -> bool:
    """A tunnel card that leads nowhere: every tunnel on it is a stub (ladders excepted)."""
    s = CARDS[card]
    return s.kind is Kind.TUNNEL and not s.ladder and all(t & (t - 1) == 0 for t in s.tunnels)


def _entries(number: int, events: Iterable[Event]) -> Iterable[Entry]:
    actor: PlayerId | None = None
    for e in events:
        if e.audience is not PUBLIC:
            continue
        if isinstance(e, TunnelPlaced):
            actor = e.player
            deed = Deed.DEAD_END if is_dead_end(e.card) else Deed.TUNNEL
            yield Entry(number, e.player, deed, card=e.card, at=e.at)
        elif isinstance(e, GoalRevealed) and actor is not None:
            yield Entry(number, actor, Deed.REACHED, card=e.card, at=e.at)
        elif isinstance(e, ActionPlayed):
            tool = e.tool
            kind = CARDS[e.card].kind
            if kind is Kind.BREAK:
                tool = CARDS[e.card].tools[0]
            yield Entry(number, e.player, _ON_PLAYER[kind], target=e.target, tool=tool)
        elif isinstance(e, MapUsed):
            yield Entry(number, e.player, Deed.PEEKED, at=e.at)
        elif isinstance(e, RockfallPlayed):
            yield Entry(number, e.player, Deed.ROCKFALL, card=e.removed, at=e.at, rotated=e.rotated)
        elif isinstance(e, InFrontCleared):
            yield Entry(number, e.player, Deed.CLEARED, card=e.card)
        elif isinstance(e, PlayerPassed):
            yield Entry(number, e.player, Deed.PASSED)
        elif isinstance(e, CardsDiscarded):
            yield Entry(number, e.player, Deed.DISCARDED, count=e.count)
        elif isinstance(e, GoldStolen):
            yield Entry(number, e.thief, Deed.STOLE, target=e.victim)


def timeline(moves: Iterable[Iterable[Event]]) -> tuple[Entry, ...]:
    """The deeds of a sequence of moves (each move's events, as `Transition.events` gives them)."""
    out: list[Entry] = []
    for number, events in enumerate(moves, start=1):
        entries = list(_entries(number, events))
        # Clearing in front is announced as a discard of two and then the clearing: one deed.
        if any(x.deed is Deed.CLEARED for x in entries):
            entries = [x for x in entries if x.deed is not Deed.DISCARDED]
        out += entries
    return tuple(out)
