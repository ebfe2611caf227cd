"""The one callback-data codec: every button's command as a typed value, in at most 64 bytes.

Wire format, version 1 (ASCII only):

    s1:<op>[:<field>]...        e.g.  s1:gp:Ab3dE9xYz0:42:3:12   (PickSpot, 24 bytes)

`s1` is the codec's version tag: a later format gets a new tag, and data with an unknown tag
decodes to None (the handler then answers "this button is out of date"). `<op>` names the command
(the table `_SPECS` below); the fields follow the dataclass's field order:

- game id: 10 characters of [0-9A-Za-z] (`new_game_id`);
- version: decimal, no sign, no leading zero, 0 to 2**31-1: the engine state's `version` the
  keyboard was drawn for, or, for lobby buttons, the game record's `rev`;
- small numbers (a hand index, a spot, a seat, a count of computer players): decimal in a fixed
  range; an optional number is empty for None;
- enums: a short code (`b`/`d` editions, `pm`/`gd` variants, `p`/`l`/`c` tools), and a
  language's catalog code (`ko`, `en`);
- a set of hand indexes: its digits in increasing order (`025`), possibly empty.

Every input is canonical: a string decodes only if encoding the result gives the same string back,
so no two strings mean the same command. The fields' codecs are in `tgbot.fields`; start links
(`t.me/<bot>?start=<payload>`) in `tgbot.links`.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, fields
from enum import Enum

from ai import Level
from engine import Edition, Tool

from .fields import Code, Field, IndexSet, Int, Opt, Pattern
from .i18n import LANGUAGES, Language

TAG = "s1"
SEP = ":"
MAX_BYTES = 64  # Telegram's limit for callback_data

GameId = str
GAME_ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
GAME_ID_LENGTH = 10
_GAME_ID = re.compile(f"[0-9A-Za-z]{{{GAME_ID_LENGTH}}}")

MAX_VERSION = 2**31 - 1
MAX_HAND_INDEX = 9  # hands hold at most 6 cards; the codec leaves room
MAX_SPOT = 999  # numbered spots on a preview board start at 1
MAX_SEAT = 11  # Deluxe seats 12
GOAL_COUNT = 3
MAX_IN_FRONT_INDEX = 9
MAX_TURN_LIMIT_HOURS = 168  # a week
MAX_DISCARD = 3  # Deluxe passes with 1 to 3 cards
ROUNDS = 3


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


_GAME = Pattern(GAME_ID_LENGTH, _GAME_ID)
_VERSION = Int(0, MAX_VERSION)
_HAND = Int(0, MAX_HAND_INDEX)
_SPOT = Int(1, MAX_SPOT)
_SEAT = Int(0, MAX_SEAT)
_GOAL = Int(0, GOAL_COUNT - 1)
_ITEM = Int(0, MAX_IN_FRONT_INDEX)
_COMPUTERS = Int(0, MAX_SEAT)  # computer players: all seats but one
_LEVEL = Code({Level.HEURISTIC: "e", Level.SEARCH: "s"})  # no button plays random (tests do)
_HOURS = Opt(Int(1, MAX_TURN_LIMIT_HOURS))
_EDITION = Code({Edition.BASE: "b", Edition.DELUXE: "d"})
_VARIANT = Code({Variant.GOLD_PER_MINER: "pm", Variant.GREEDY_DWARF: "gd"})
_TOOL = Code({Tool.PICKAXE: "p", Tool.LANTERN: "l", Tool.CART: "c"})
_LANGUAGE = Code({lang: lang.code for lang in LANGUAGES})
_GV: tuple[Field, ...] = (_GAME, _VERSION)

# op code and field codecs of each command, in dataclass field order
_SPECS: dict[type[Command], tuple[str, tuple[Field, ...]]] = {
    JoinGame: ("lj", _GV),
    LeaveGame: ("ll", _GV),
    StartGame: ("ls", _GV),
    CancelGame: ("lx", _GV),
    KeepGame: ("lk", (_GAME,)),
    SetEdition: ("le", (*_GV, _EDITION)),
    ToggleVariant: ("lv", (*_GV, _VARIANT)),
    SetTurnLimit: ("lt", (*_GV, _HOURS)),
    AddComputer: ("lc", (*_GV, _LEVEL)),
    RemoveComputer: ("lr", _GV),
    SetComputers: ("ln", (*_GV, _COMPUTERS, _LEVEL)),
    ShowHand: ("gh", _GV),
    PickCard: ("gc", (*_GV, _HAND)),
    TurnCard: ("gr", (*_GV, _HAND)),
    PickSpot: ("gp", (*_GV, _HAND, _SPOT)),
    PickTarget: ("gt", (*_GV, _HAND, _SEAT)),
    PickGoal: ("gg", (*_GV, _HAND, _GOAL)),
    PickTool: ("go", (*_GV, _HAND, _SEAT, _TOOL)),
    ConfirmSpot: ("cp", (*_GV, _HAND, _SPOT)),
    ConfirmTarget: ("ct", (*_GV, _HAND, _SEAT, Opt(_TOOL))),
    ConfirmGoal: ("cg", (*_GV, _HAND, _GOAL)),
    Back: ("gb", _GV),
    StartDiscard: ("gd", _GV),
    ToggleDiscard: ("dk", (*_GV, _HAND, IndexSet(0, MAX_HAND_INDEX + 1))),
    ConfirmDiscard: ("dc", (*_GV, IndexSet(1, MAX_DISCARD))),
    ClearFront: ("df", (*_GV, IndexSet(2, 2), _ITEM)),
    StealFrom: ("gs", (*_GV, _SEAT)),
    ReplayRound: ("hr", (_GAME, Int(1, ROUNDS))),
    Rematch: ("rm", (_GAME,)),
    ConfirmRematch: ("ri", (_GAME,)),
    SetLanguage: ("la", (_LANGUAGE,)),
    Noop: ("no", ()),
}
_BY_OP: dict[str, tuple[type[Command], tuple[Field, ...]]] = {
    op: (cls, specs) for cls, (op, specs) in _SPECS.items()
}
COMMAND_TYPES: tuple[type[Command], ...] = tuple(_SPECS)


def max_length(command_type: type[Command]) -> int:
    """The most bytes `encode` can produce for this command type."""
    op, specs = _SPECS[command_type]
    return len(TAG) + len(SEP) + len(op) + sum(len(SEP) + spec.width for spec in specs)


def _check_table() -> None:
    if len(_BY_OP) != len(_SPECS):
        raise AssertionError("two commands share an op code")
    for cls, (_, specs) in _SPECS.items():
        if len(fields(cls)) != len(specs):
            raise AssertionError(f"{cls.__name__}: one codec per field")
        if max_length(cls) > MAX_BYTES:
            raise AssertionError(f"{cls.__name__} can exceed {MAX_BYTES} bytes")


_check_table()


def encode(command: Command) -> str:
    """The callback_data of a button; raises ValueError for a value out of the codec's range."""
    op, specs = _SPECS[type(command)]
    parts = [TAG, op]
    for f, spec in zip(fields(command), specs, strict=True):
        parts.append(spec.to_wire(getattr(command, f.name)))
    data = SEP.join(parts)
    assert len(data.encode()) <= MAX_BYTES, data
    return data


def decode(data: object) -> Command | None:
    """The command of a button's callback_data, or None for anything this codec did not write."""
    if not isinstance(data, str) or len(data) > MAX_BYTES or not data.isascii():
        return None
    parts = data.split(SEP)
    if len(parts) < 2 or parts[0] != TAG:
        return None
    entry = _BY_OP.get(parts[1])
    if entry is None:
        return None
    cls, specs = entry
    values = parts[2:]
    if len(values) != len(specs):
        return None
    try:
        args = [spec.from_wire(text) for spec, text in zip(specs, values, strict=True)]
    except ValueError:
        return None
    return cls(*args)


def is_game_command(command: Command) -> bool:
    """True for commands that belong to one game (all but language and no-op)."""
    return not isinstance(command, SetLanguage | Noop)


# ------------------------------------------------------------------ game ids


def new_game_id(rng: random.Random) -> GameId:
    """A fresh game id from this random source (pass `random.SystemRandom()` in production)."""
    return "".join(rng.choice(GAME_ID_ALPHABET) for _ in range(GAME_ID_LENGTH))


def is_game_id(text: object) -> bool:
    """True for a string shaped like a game id."""
    return isinstance(text, str) and _GAME_ID.fullmatch(text) is not None
