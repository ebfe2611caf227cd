"""What each button asks for: the commands that callback data carries, as typed values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ai import Level
from engine import Edition, Tool

from .game_ids import GameId
from .i18n import Language


class Variant(Enum):
    """A variant the lobby toggles (rules variant.gold_per_miner and variant.greedy_dwarf)."""

    GOLD_PER_MINER = "per_miner"
    GREEDY_DWARF = "greedy_dwarf"


# ------------------------------------------------------------------ lobby buttons (group)


@dataclass(frozen=True, slots=True)
class JoinGame:
    """Join the lobby (the fallback for the deep-link Join button)."""

    game: GameId
    version: int


@dataclass(frozen=True, slots=True)
class LeaveGame:
    """Leave the lobby."""

    game: GameId
    version: int


@dataclass(frozen=True, slots=True)
class StartGame:
    """Start the lobby's game."""

    game: GameId
    version: int


@dataclass(frozen=True, slots=True)
class CancelGame:
    """Cancel the game."""

    game: GameId
    version: int


@dataclass(frozen=True, slots=True)
class KeepGame:
    """No, do not cancel: the answer to /cancel's question."""

    game: GameId


@dataclass(frozen=True, slots=True)
class SetEdition:
    """Choose Saboteur or Saboteur Deluxe."""

    game: GameId
    version: int
    edition: Edition


@dataclass(frozen=True, slots=True)
class ToggleVariant:
    """Switch a rule variant on or off."""

    game: GameId
    version: int
    variant: Variant


@dataclass(frozen=True, slots=True)
class SetTurnLimit:
    """Set the time per turn in hours; None for no limit."""

    game: GameId
    version: int
    hours: int | None


@dataclass(frozen=True, slots=True)
class AddComputer:
    """Add a computer player to the lobby, thinking at this level (easy or strong)."""

    game: GameId
    version: int
    level: Level


@dataclass(frozen=True, slots=True)
class RemoveComputer:
    """Remove the computer player added last."""

    game: GameId
    version: int


@dataclass(frozen=True, slots=True)
class SetComputers:
    """A practice game: play against this many computer players, at this level."""

    game: GameId
    version: int
    count: int
    level: Level


# ------------------------------------------------------------------ hand buttons (private)


@dataclass(frozen=True, slots=True)
class ShowHand:
    """Show (refresh) the player's current hand."""

    game: GameId
    version: int


@dataclass(frozen=True, slots=True)
class PickCard:
    """Pick the card at this hand index to play."""

    game: GameId
    version: int
    card: int


@dataclass(frozen=True, slots=True)
class TurnCard:
    """Show the spots of the picked tunnel card turned (PickCard shows it as held)."""

    game: GameId
    version: int
    card: int


@dataclass(frozen=True, slots=True)
class PickSpot:
    """Pick a numbered spot of the preview board for the picked card (tunnel or rockfall)."""

    game: GameId
    version: int
    card: int
    spot: int


@dataclass(frozen=True, slots=True)
class PickTarget:
    """Pick the player (by seat) the picked action card is played on."""

    game: GameId
    version: int
    card: int
    seat: int


@dataclass(frozen=True, slots=True)
class PickGoal:
    """Pick the goal card (0 top, 1 middle, 2 bottom) to look at with a map."""

    game: GameId
    version: int
    card: int
    goal: int


@dataclass(frozen=True, slots=True)
class PickTool:
    """Pick which tool a two-tool repair card repairs for the picked player."""

    game: GameId
    version: int
    card: int
    seat: int
    tool: Tool


@dataclass(frozen=True, slots=True)
class ConfirmSpot:
    """Play the picked card on the picked spot."""

    game: GameId
    version: int
    card: int
    spot: int


@dataclass(frozen=True, slots=True)
class ConfirmTarget:
    """Play the picked card on the picked player (with the picked tool for a repair)."""

    game: GameId
    version: int
    card: int
    seat: int
    tool: Tool | None


@dataclass(frozen=True, slots=True)
class ConfirmGoal:
    """Look at the picked goal card with the picked map."""

    game: GameId
    version: int
    card: int
    goal: int


@dataclass(frozen=True, slots=True)
class Back:
    """Go back to the hand (a one-step back is drawn as the previous Pick command)."""

    game: GameId
    version: int


@dataclass(frozen=True, slots=True)
class StartDiscard:
    """Enter discard mode."""

    game: GameId
    version: int


@dataclass(frozen=True, slots=True)
class ToggleDiscard:
    """Add the card at this hand index to the discard selection, or take it out."""

    game: GameId
    version: int
    card: int
    selected: frozenset[int]  # the selection the keyboard was drawn with


@dataclass(frozen=True, slots=True)
class ConfirmDiscard:
    """Discard the selected cards (base: one; Deluxe: one to three, a pass) and draw."""

    game: GameId
    version: int
    selected: frozenset[int]


@dataclass(frozen=True, slots=True)
class ClearFront:
    """Deluxe: discard the two selected cards to remove this card lying in front of oneself."""

    game: GameId
    version: int
    selected: frozenset[int]
    item: int  # index into the player's in-front cards


@dataclass(frozen=True, slots=True)
class StealFrom:
    """Deluxe, at a round's end: the thief takes a nugget from the player in this seat."""

    game: GameId
    version: int
    seat: int


# ------------------------------------------------------------------ history and rematch (group)


@dataclass(frozen=True, slots=True)
class ReplayRound:
    """Post one round's replay of an archived game of this group (a /history button)."""

    game: GameId
    round: int


@dataclass(frozen=True, slots=True)
class Rematch:
    """Open a new lobby in this group with the players of a finished game, all invited."""

    game: GameId


@dataclass(frozen=True, slots=True)
class ConfirmRematch:
    """An invited player joins a rematch lobby with one tap."""

    game: GameId


# ------------------------------------------------------------------ anywhere


@dataclass(frozen=True, slots=True)
class SetLanguage:
    """Choose the language of this chat (the group's, or one's own in private)."""

    language: Language


@dataclass(frozen=True, slots=True)
class Noop:
    """A button that does nothing (a label, a spacer)."""


GameCommand = (
    JoinGame
    | LeaveGame
    | StartGame
    | CancelGame
    | SetEdition
    | ToggleVariant
    | SetTurnLimit
    | AddComputer
    | RemoveComputer
    | SetComputers
    | ShowHand
    | PickCard
    | TurnCard
    | PickSpot
    | PickTarget
    | PickGoal
    | PickTool
    | ConfirmSpot
    | ConfirmTarget
    | ConfirmGoal
    | Back
    | StartDiscard
    | ToggleDiscard
    | ConfirmDiscard
    | ClearFront
    | StealFrom
)
HistoryCommand = ReplayRound | Rematch | ConfirmRematch
Command = GameCommand | HistoryCommand | KeepGame | SetLanguage | Noop
LOBBY_COMMANDS: tuple[type[GameCommand], ...] = (
    JoinGame,
    LeaveGame,
    StartGame,
    CancelGame,
    SetEdition,
    ToggleVariant,
    SetTurnLimit,
    AddComputer,
    RemoveComputer,
    SetComputers,
)


def is_game_command(command: Command) -> bool:
    """True for commands that belong to one game (all but language and no-op)."""
    return not isinstance(command, SetLanguage | Noop)
