"""The one callback-data codec: every button's command (`tgbot.buttons`) in at most 64 bytes.

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

from dataclasses import fields

from ai import Level
from engine import Edition, Tool

from .buttons import (
    AddComputer,
    Back,
    CancelGame,
    ClearFront,
    Command,
    ConfirmDiscard,
    ConfirmGoal,
    ConfirmRematch,
    ConfirmSpot,
    ConfirmTarget,
    JoinGame,
    KeepGame,
    LeaveGame,
    Noop,
    PickCard,
    PickGoal,
    PickSpot,
    PickTarget,
    PickTool,
    Rematch,
    RemoveComputer,
    ReplayRound,
    SetComputers,
    SetEdition,
    SetLanguage,
    SetTurnLimit,
    ShowHand,
    StartDiscard,
    StartGame,
    StealFrom,
    ToggleDiscard,
    ToggleVariant,
    TurnCard,
    Variant,
)
from .fields import Code, Field, IndexSet, Int, Opt, Pattern
from .game_ids import GAME_ID_LENGTH, GAME_ID_PATTERN
from .i18n import LANGUAGES

TAG = "s1"
SEP = ":"
MAX_BYTES = 64  # Telegram's limit for callback_data

MAX_VERSION = 2**31 - 1
MAX_HAND_INDEX = 9  # hands hold at most 6 cards; the codec leaves room
MAX_SPOT = 999  # numbered spots on a preview board start at 1
MAX_SEAT = 11  # Deluxe seats 12
GOAL_COUNT = 3
MAX_IN_FRONT_INDEX = 9
MAX_TURN_LIMIT_HOURS = 168  # a week
MAX_DISCARD = 3  # Deluxe passes with 1 to 3 cards
ROUNDS = 3

_GAME = Pattern(GAME_ID_LENGTH, GAME_ID_PATTERN)
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
