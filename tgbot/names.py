"""The names of the game's things, marked for extraction and translated where they are shown.

Each table covers its enum (a test checks it), so a new card, role or refusal reason of the
engine needs its English name here, then `scripts/i18n.sh all` and a translation.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from ai import Level
from engine import Card, Edition, Reason, Role, Side, Tool
from engine.cards import GOAL_SPOTS

from .i18n import LANGUAGES, NC_, Marked, Texts, texts

CARDS: Mapping[Card, Marked] = {
    Card.START: NC_("card", "Start"),
    Card.GOLD: NC_("card", "Gold"),
    Card.COAL_NE: NC_("card", "Coal"),
    Card.COAL_NW: NC_("card", "Coal"),
    # Translators: the glyph after a tunnel card's name draws its paths: keep it as it is.
    Card.CROSS: NC_("card", "Tunnel ┼"),
    Card.T_NES: NC_("card", "Tunnel ├"),
    Card.T_NEW: NC_("card", "Tunnel ┴"),
    Card.STRAIGHT_NS: NC_("card", "Tunnel │"),
    Card.STRAIGHT_EW: NC_("card", "Tunnel ─"),
    Card.CURVE_NW: NC_("card", "Tunnel ┘"),
    Card.CURVE_NE: NC_("card", "Tunnel └"),
    Card.DEAD_NESW: NC_("card", "Dead end ┼"),
    Card.DEAD_NES: NC_("card", "Dead end ├"),
    Card.DEAD_NEW: NC_("card", "Dead end ┴"),
    Card.DEAD_NS: NC_("card", "Dead end │"),
    Card.DEAD_EW: NC_("card", "Dead end ─"),
    Card.DEAD_NW: NC_("card", "Dead end ┘"),
    Card.DEAD_NE: NC_("card", "Dead end └"),
    Card.DEAD_N: NC_("card", "Dead end ╵"),
    Card.DEAD_E: NC_("card", "Dead end ╶"),
    Card.BREAK_PICKAXE: NC_("card", "Broken pickaxe"),
    Card.BREAK_LANTERN: NC_("card", "Broken lantern"),
    Card.BREAK_CART: NC_("card", "Broken cart"),
    Card.REPAIR_PICKAXE: NC_("card", "Repair pickaxe"),
    Card.REPAIR_LANTERN: NC_("card", "Repair lantern"),
    Card.REPAIR_CART: NC_("card", "Repair cart"),
    Card.REPAIR_PICKAXE_LANTERN: NC_("card", "Repair pickaxe or lantern"),
    Card.REPAIR_PICKAXE_CART: NC_("card", "Repair pickaxe or cart"),
    Card.REPAIR_LANTERN_CART: NC_("card", "Repair lantern or cart"),
    Card.MAP: NC_("card", "Map"),
    Card.ROCKFALL: NC_("card", "Rockfall"),
    Card.BRIDGE: NC_("card", "Bridge ┼"),
    Card.DOUBLE_CURVE: NC_("card", "Double curve ┘┌"),
    Card.LADDER_N: NC_("card", "Ladder ╵"),
    Card.LADDER_E: NC_("card", "Ladder ╶"),
    Card.LADDER_NE: NC_("card", "Ladder └"),
    Card.LADDER_NW: NC_("card", "Ladder ┘"),
    Card.BLUE_DOOR_NS: NC_("card", "Blue door │"),
    Card.BLUE_DOOR_EW: NC_("card", "Blue door ─"),
    Card.BLUE_DOOR_NW: NC_("card", "Blue door ┘"),
    Card.GREEN_DOOR_NS: NC_("card", "Green door │"),
    Card.GREEN_DOOR_NE: NC_("card", "Green door └"),
    Card.GREEN_DOOR_NS_E: NC_("card", "Green door │ +╶"),
    Card.CRYSTAL_N: NC_("card", "Crystal ╵"),
    Card.CRYSTAL_E: NC_("card", "Crystal ╶"),
    Card.CRYSTAL_NESW: NC_("card", "Crystal ┼"),
    Card.CRYSTAL_NES: NC_("card", "Crystal ├"),
    Card.CRYSTAL_ESW: NC_("card", "Crystal ┬"),
    Card.CRYSTAL_ESW_N: NC_("card", "Crystal ┬ +╵"),
    Card.CRYSTAL_NES_W: NC_("card", "Crystal ├ +╴"),
    Card.CRYSTAL_NS_E: NC_("card", "Crystal │ +╶"),
    Card.CRYSTAL_NE: NC_("card", "Crystal └"),
    Card.CRYSTAL_NS: NC_("card", "Crystal │"),
    Card.CRYSTAL_EW: NC_("card", "Crystal ─"),
    Card.THEFT: NC_("card", "Theft"),
    Card.HANDS_OFF: NC_("card", "Hands off"),
    Card.SWAP_HAND: NC_("card", "Swap your hand"),
    Card.INSPECTION: NC_("card", "Inspection"),
    Card.SWAP_HATS: NC_("card", "Swap your hats"),
    Card.TRAPPED: NC_("card", "Trapped!"),
    Card.FREE: NC_("card", "Free at last!"),
}

ROLES: Mapping[Role, Marked] = {
    Role.MINER: NC_("role", "Miner"),
    Role.SABOTEUR: NC_("role", "Saboteur"),
    Role.BLUE_MINER: NC_("role", "Blue miner"),
    Role.GREEN_MINER: NC_("role", "Green miner"),
    Role.BOSS: NC_("role", "Boss"),
    Role.PROFITEER: NC_("role", "Profiteer"),
    Role.GEOLOGIST: NC_("role", "Geologist"),
}

SIDES: Mapping[Side, Marked] = {
    Side.MINERS: NC_("winning side", "the miners"),
    Side.SABOTEURS: NC_("winning side", "the saboteurs"),
    Side.BLUE: NC_("winning side", "the blue team"),
    Side.GREEN: NC_("winning side", "the green team"),
    Side.BOTH_TEAMS: NC_("winning side", "both teams"),
    Side.BOSS: NC_("winning side", "the boss"),
}

TOOLS: Mapping[Tool, Marked] = {
    Tool.PICKAXE: NC_("tool", "pickaxe"),
    Tool.LANTERN: NC_("tool", "lantern"),
    Tool.CART: NC_("tool", "cart"),
}

EDITIONS: Mapping[Edition, Marked] = {
    Edition.BASE: NC_("edition", "Saboteur"),
    Edition.DELUXE: NC_("edition", "Saboteur Deluxe"),
}

REASONS: Mapping[Reason, Marked] = {
    # Translators: why a move is refused, shown after "Not allowed:".
    Reason.GAME_OVER: NC_("refusal", "the game is over"),
    Reason.NOT_A_PLAYER: NC_("refusal", "you are not playing in this game"),
    Reason.NOT_YOUR_TURN: NC_("refusal", "it is not your turn"),
    Reason.NOT_AN_ACTION: NC_("refusal", "that is not a move"),
    Reason.CARD_NOT_IN_HAND: NC_("refusal", "that card is not in your hand"),
    Reason.WRONG_EDITION: NC_("refusal", "that card is not in this edition"),
    Reason.TOOL_BROKEN: NC_("refusal", "a broken tool stops you from digging"),
    Reason.TRAPPED: NC_("refusal", "you are trapped"),
    Reason.CELL_TAKEN: NC_("refusal", "that spot is taken"),
    Reason.NOT_CONNECTED: NC_("refusal", "the card must join a tunnel connected to the start"),
    Reason.DOES_NOT_FIT: NC_("refusal", "the card does not match its neighbours"),
    Reason.ROTATION_NOT_OFFERED: NC_("refusal", "that turn of the card is not offered"),
    Reason.NEXT_TO_GOAL: NC_("refusal", "a ladder cannot go next to a goal card"),
    Reason.BAD_TARGET: NC_("refusal", "that target is not allowed"),
    Reason.ALREADY_IN_FRONT: NC_("refusal", "that player already has such a card in front of them"),
    Reason.NOTHING_TO_REPAIR: NC_("refusal", "there is nothing to repair"),
    Reason.NOT_A_HIDDEN_GOAL: NC_("refusal", "that goal card is already face up"),
    Reason.NOTHING_TO_REMOVE: NC_("refusal", "there is nothing to remove"),
    Reason.BAD_DISCARD: NC_("refusal", "that discard is not allowed"),
    Reason.ROUND_OVER: NC_("refusal", "the round is over: only the thief's choice remains"),
}

# Translators: the names of computer players (dwarves). Any short, friendly name of a dwarf in
# your language will do; keep them distinct from each other.
COMPUTER_NAMES: tuple[Marked, ...] = (
    NC_("computer player", "Borin"),
    NC_("computer player", "Dagna"),
    NC_("computer player", "Fimbur"),
    NC_("computer player", "Gunnhild"),
    NC_("computer player", "Hrodi"),
    NC_("computer player", "Ingrid"),
    NC_("computer player", "Kolbrun"),
    NC_("computer player", "Norri"),
    NC_("computer player", "Orla"),
    NC_("computer player", "Skadi"),
    NC_("computer player", "Thrain"),
    NC_("computer player", "Yrsa"),
)

LEVELS: Mapping[Level, Marked] = {
    # Translators: how well a computer player plays, after its name and on the lobby's buttons.
    Level.RANDOM: NC_("computer level", "random"),
    Level.HEURISTIC: NC_("computer level", "easy"),
    Level.SEARCH: NC_("computer level", "strong"),
}

GOALS: tuple[Marked, ...] = (
    # Translators: where a goal card lies, as in "the top goal card" (and on its button).
    NC_("goal card", "top"),
    NC_("goal card", "middle"),
    NC_("goal card", "bottom"),
)


def card_name(tr: Texts, card: Card) -> str:
    """A card's name as printed on buttons and in messages."""
    return tr.marked(CARDS[card])


_TURNED = str.maketrans("┘┌└┐├┤┴┬╵╷╶╴", "┌┘┐└┤├┬┴╷╵╴╶")


def placed_card_name(tr: Texts, card: Card, rotated: bool) -> str:
    """A tunnel card's name with its glyph drawn as the card lies (turned by 180° or not)."""
    name = card_name(tr, card)
    return name.translate(_TURNED) if rotated else name


def role_name(tr: Texts, role: Role) -> str:
    """A role's name."""
    return tr.marked(ROLES[role])


def side_name(tr: Texts, side: Side) -> str:
    """The name of a side that can win a round."""
    return tr.marked(SIDES[side])


def tool_name(tr: Texts, tool: Tool) -> str:
    """A tool's name."""
    return tr.marked(TOOLS[tool])


def edition_name(tr: Texts, edition: Edition) -> str:
    """An edition's name."""
    return tr.marked(EDITIONS[edition])


def reason_text(tr: Texts, reason: Reason) -> str:
    """Why the engine refused a move."""
    return tr.marked(REASONS[reason])


def computer_name(tr: Texts, index: int) -> str:
    """The name of the computer player added as the `index`-th (from 0; repeats with a number
    once the list runs out)."""
    name = tr.marked(COMPUTER_NAMES[index % len(COMPUTER_NAMES)])
    return name if index < len(COMPUTER_NAMES) else f"{name} {index // len(COMPUTER_NAMES) + 1}"


@cache
def _computer_indexes() -> dict[str, int]:
    """Every computer name in every language, to its index in COMPUTER_NAMES."""
    out: dict[str, int] = {}
    for lang in reversed(LANGUAGES):
        tr = texts(lang)
        out |= {tr.marked(m): i for i, m in enumerate(COMPUTER_NAMES)}
    out |= {m.message: i for i, m in enumerate(COMPUTER_NAMES)}  # English wins a clash
    return out


def computer_index(name: str) -> int | None:
    """Which computer player a stored name is (`computer_name`'s index), in any language."""
    base, _, number = name.rpartition(" ")
    if base and number.isdigit() and int(number) >= 2:
        first = _computer_indexes().get(base)
        return None if first is None else first + len(COMPUTER_NAMES) * (int(number) - 1)
    return _computer_indexes().get(name)


def local_computer_name(tr: Texts, name: str) -> str:
    """A computer player's stored name in `tr`'s language (a name it does not know, as is)."""
    index = computer_index(name)
    return name if index is None else computer_name(tr, index)


def level_name(tr: Texts, level: Level) -> str:
    """How well a computer player plays: easy, strong."""
    return tr.marked(LEVELS[level])


def goal_name(tr: Texts, index: int) -> str:
    """top / middle / bottom, for the goal card at GOAL_SPOTS[index]."""
    return tr.marked(GOALS[index])


def goal_name_at(tr: Texts, at: tuple[int, int]) -> str:
    """top / middle / bottom for a goal card's cell; "?" for another cell."""
    return goal_name(tr, GOAL_SPOTS.index(at)) if at in GOAL_SPOTS else "?"
