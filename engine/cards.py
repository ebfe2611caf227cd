"""Every card of both editions in one table, with the numbers of docs/rules.md."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

# Edges are bits so that a card's open sides and its tunnels are small integers.
N, E, S, W = 1, 2, 4, 8
EDGES: tuple[int, ...] = (N, E, S, W)
OPPOSITE: dict[int, int] = {N: S, E: W, S: N, W: E}
STEP: dict[int, tuple[int, int]] = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
EDGE_NAMES: dict[int, str] = {N: "N", E: "E", S: "S", W: "W"}


def rotate_mask(mask: int) -> int:
    """Turn a set of edges by 180 degrees (N<->S, E<->W)."""
    return ((mask << 2) | (mask >> 2)) & 15


def edges_of(text: str) -> int:
    """Parse edge letters such as "NES" into a mask."""
    mask = 0
    for ch in text:
        mask |= {"N": N, "E": E, "S": S, "W": W}[ch]
    return mask


def edge_text(mask: int) -> str:
    """Write a mask as edge letters in N E S W order."""
    return "".join(EDGE_NAMES[e] for e in EDGES if mask & e)


class Named(Enum):
    """An Enum whose members hash by identity, in C.

    Enum's own `__hash__` is Python code (the hash of the member's name); members are singletons
    that compare by identity, so identity is as good a hash and several times cheaper where they
    key dicts in the engine's and the computer player's inner loops. Like names' hashes (which
    Python salts per process), it gives no order to rely on."""

    __hash__ = object.__hash__


class Edition(Named):
    """Which game is played: Saboteur (3-10) or Saboteur Deluxe with the expansion (2-12)."""

    BASE = "base"
    DELUXE = "deluxe"


class Kind(Named):
    """What sort of card this is."""

    START = "start"
    GOAL = "goal"
    TUNNEL = "tunnel"
    BREAK = "break"
    REPAIR = "repair"
    MAP = "map"
    ROCKFALL = "rockfall"
    THEFT = "theft"
    HANDS_OFF = "hands_off"
    SWAP_HAND = "swap_hand"
    INSPECTION = "inspection"
    SWAP_HATS = "swap_hats"
    TRAPPED = "trapped"
    FREE = "free"


class Tool(Named):
    """The three tools a broken-tool card can break."""

    PICKAXE = "pickaxe"
    LANTERN = "lantern"
    CART = "cart"


class Door(Named):
    """Door colours of Saboteur 2."""

    BLUE = "blue"
    GREEN = "green"


class Card(IntEnum):
    """Every card design. The value is an index into CARDS; names are stable (JSON, buttons)."""

    START = 0
    GOLD = 1
    COAL_NE = 2
    COAL_NW = 3
    CROSS = 4
    T_NES = 5
    T_NEW = 6
    STRAIGHT_NS = 7
    STRAIGHT_EW = 8
    CURVE_NW = 9
    CURVE_NE = 10
    DEAD_NESW = 11
    DEAD_NES = 12
    DEAD_NEW = 13
    DEAD_NS = 14
    DEAD_EW = 15
    DEAD_NW = 16
    DEAD_NE = 17
    DEAD_N = 18
    DEAD_E = 19
    BREAK_PICKAXE = 20
    BREAK_LANTERN = 21
    BREAK_CART = 22
    REPAIR_PICKAXE = 23
    REPAIR_LANTERN = 24
    REPAIR_CART = 25
    REPAIR_PICKAXE_LANTERN = 26
    REPAIR_PICKAXE_CART = 27
    REPAIR_LANTERN_CART = 28
    MAP = 29
    ROCKFALL = 30
    # Saboteur 2 tunnels
    BRIDGE = 31
    DOUBLE_CURVE = 32
    LADDER_N = 33
    LADDER_E = 34
    LADDER_NE = 35
    LADDER_NW = 36
    BLUE_DOOR_NS = 37
    BLUE_DOOR_EW = 38
    BLUE_DOOR_NW = 39
    GREEN_DOOR_NS = 40
    GREEN_DOOR_NE = 41
    GREEN_DOOR_NS_E = 42
    CRYSTAL_N = 43
    CRYSTAL_E = 44
    CRYSTAL_NESW = 45
    CRYSTAL_NES = 46
    CRYSTAL_ESW = 47
    CRYSTAL_ESW_N = 48
    CRYSTAL_NES_W = 49
    CRYSTAL_NS_E = 50
    CRYSTAL_NE = 51
    CRYSTAL_NS = 52
    CRYSTAL_EW = 53
    # Saboteur 2 actions
    THEFT = 54
    HANDS_OFF = 55
    SWAP_HAND = 56
    INSPECTION = 57
    SWAP_HATS = 58
    TRAPPED = 59
    FREE = 60


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One card design: what it is, its tunnels at 0 degrees, and how many of it each box holds."""

    card: Card
    kind: Kind
    base_copies: int = 0
    expansion_copies: int = 0
    # Each tunnel is a mask of edges joined to each other; a one-edge tunnel is a dead-end stub.
    tunnels: tuple[int, ...] = ()
    tools: tuple[Tool, ...] = ()
    door: Door | None = None
    crystal: bool = False
    ladder: bool = False

    @property
    def open_edges(self) -> int:
        """All edges with a tunnel opening at 0 degrees."""
        mask = 0
        for t in self.tunnels:
            mask |= t
        return mask

    @property
    def is_tunnel(self) -> bool:
        """True for cards placed in the maze from a hand."""
        return self.kind is Kind.TUNNEL

    @property
    def is_symmetric(self) -> bool:
        """True when the 180-degree turn gives the same card, so only one rotation is offered."""
        return sorted(self.tunnels) == sorted(rotate_mask(t) for t in self.tunnels)


def _t(*parts: str) -> tuple[int, ...]:
    return tuple(edges_of(p) for p in parts)


def _dead(edges: str) -> tuple[int, ...]:
    return tuple(edges_of(ch) for ch in edges)


_P, _L, _C = Tool.PICKAXE, Tool.LANTERN, Tool.CART
_T = Kind.TUNNEL

CARDS: tuple[CardSpec, ...] = (
    CardSpec(Card.START, Kind.START, tunnels=_t("NESW")),
    CardSpec(Card.GOLD, Kind.GOAL, tunnels=_t("NESW")),
    CardSpec(Card.COAL_NE, Kind.GOAL, tunnels=_t("NE")),
    CardSpec(Card.COAL_NW, Kind.GOAL, tunnels=_t("NW")),
    # rule base.cards.tunnels: 40 tunnel cards
    CardSpec(Card.CROSS, _T, 5, tunnels=_t("NESW")),
    CardSpec(Card.T_NES, _T, 5, tunnels=_t("NES")),
    CardSpec(Card.T_NEW, _T, 5, tunnels=_t("NEW")),
    CardSpec(Card.STRAIGHT_NS, _T, 4, tunnels=_t("NS")),
    CardSpec(Card.STRAIGHT_EW, _T, 3, tunnels=_t("EW")),
    CardSpec(Card.CURVE_NW, _T, 4, tunnels=_t("NW")),
    CardSpec(Card.CURVE_NE, _T, 5, tunnels=_t("NE")),
    CardSpec(Card.DEAD_NESW, _T, 1, tunnels=_dead("NESW")),
    CardSpec(Card.DEAD_NES, _T, 1, tunnels=_dead("NES")),
    CardSpec(Card.DEAD_NEW, _T, 1, tunnels=_dead("NEW")),
    CardSpec(Card.DEAD_NS, _T, 1, tunnels=_dead("NS")),
    CardSpec(Card.DEAD_EW, _T, 1, tunnels=_dead("EW")),
    CardSpec(Card.DEAD_NW, _T, 1, tunnels=_dead("NW")),
    CardSpec(Card.DEAD_NE, _T, 1, tunnels=_dead("NE")),
    CardSpec(Card.DEAD_N, _T, 1, tunnels=_dead("N")),
    CardSpec(Card.DEAD_E, _T, 1, tunnels=_dead("E")),
    # rule base.cards.actions: 27 action cards
    CardSpec(Card.BREAK_PICKAXE, Kind.BREAK, 3, tools=(_P,)),
    CardSpec(Card.BREAK_LANTERN, Kind.BREAK, 3, tools=(_L,)),
    CardSpec(Card.BREAK_CART, Kind.BREAK, 3, tools=(_C,)),
    CardSpec(Card.REPAIR_PICKAXE, Kind.REPAIR, 2, tools=(_P,)),
    CardSpec(Card.REPAIR_LANTERN, Kind.REPAIR, 2, tools=(_L,)),
    CardSpec(Card.REPAIR_CART, Kind.REPAIR, 2, tools=(_C,)),
    CardSpec(Card.REPAIR_PICKAXE_LANTERN, Kind.REPAIR, 1, tools=(_P, _L)),
    CardSpec(Card.REPAIR_PICKAXE_CART, Kind.REPAIR, 1, tools=(_P, _C)),
    CardSpec(Card.REPAIR_LANTERN_CART, Kind.REPAIR, 1, tools=(_L, _C)),
    CardSpec(Card.MAP, Kind.MAP, 6),
    CardSpec(Card.ROCKFALL, Kind.ROCKFALL, 3),
    # rule deluxe.cards.tunnels: 30 expansion tunnel cards
    CardSpec(Card.BRIDGE, _T, 0, 2, tunnels=_t("NS", "EW")),
    CardSpec(Card.DOUBLE_CURVE, _T, 0, 2, tunnels=_t("NW", "ES")),
    CardSpec(Card.LADDER_N, _T, 0, 1, tunnels=_t("N"), ladder=True),
    CardSpec(Card.LADDER_E, _T, 0, 1, tunnels=_t("E"), ladder=True),
    CardSpec(Card.LADDER_NE, _T, 0, 1, tunnels=_t("NE"), ladder=True),
    CardSpec(Card.LADDER_NW, _T, 0, 1, tunnels=_t("NW"), ladder=True),
    CardSpec(Card.BLUE_DOOR_NS, _T, 0, 1, tunnels=_t("NS"), door=Door.BLUE),
    CardSpec(Card.BLUE_DOOR_EW, _T, 0, 1, tunnels=_t("EW"), door=Door.BLUE),
    CardSpec(Card.BLUE_DOOR_NW, _T, 0, 1, tunnels=_t("NW"), door=Door.BLUE),
    CardSpec(Card.GREEN_DOOR_NS, _T, 0, 1, tunnels=_t("NS"), door=Door.GREEN),
    CardSpec(Card.GREEN_DOOR_NE, _T, 0, 1, tunnels=_t("NE"), door=Door.GREEN),
    CardSpec(Card.GREEN_DOOR_NS_E, _T, 0, 1, tunnels=_t("NS", "E"), door=Door.GREEN),
    CardSpec(Card.CRYSTAL_N, _T, 0, 1, tunnels=_t("N"), crystal=True),
    CardSpec(Card.CRYSTAL_E, _T, 0, 1, tunnels=_t("E"), crystal=True),
    CardSpec(Card.CRYSTAL_NESW, _T, 0, 1, tunnels=_t("NESW"), crystal=True),
    CardSpec(Card.CRYSTAL_NES, _T, 0, 3, tunnels=_t("NES"), crystal=True),
    CardSpec(Card.CRYSTAL_ESW, _T, 0, 2, tunnels=_t("ESW"), crystal=True),
    CardSpec(Card.CRYSTAL_ESW_N, _T, 0, 1, tunnels=_t("ESW", "N"), crystal=True),
    CardSpec(Card.CRYSTAL_NES_W, _T, 0, 1, tunnels=_t("NES", "W"), crystal=True),
    CardSpec(Card.CRYSTAL_NS_E, _T, 0, 1, tunnels=_t("NS", "E"), crystal=True),
    # No source gives these six shapes (rule deluxe.cards.tunnels); correct them here if one does.
    # Its N-E-W crystal is the E-S-W crystal turned 180 degrees, so it counts as a second copy.
    CardSpec(Card.CRYSTAL_NE, _T, 0, 2, tunnels=_t("NE"), crystal=True),
    CardSpec(Card.CRYSTAL_NS, _T, 0, 2, tunnels=_t("NS"), crystal=True),
    CardSpec(Card.CRYSTAL_EW, _T, 0, 1, tunnels=_t("EW"), crystal=True),
    # rule deluxe.cards.actions: 20 expansion action cards
    CardSpec(Card.THEFT, Kind.THEFT, 0, 4),
    CardSpec(Card.HANDS_OFF, Kind.HANDS_OFF, 0, 3),
    CardSpec(Card.SWAP_HAND, Kind.SWAP_HAND, 0, 2),
    CardSpec(Card.INSPECTION, Kind.INSPECTION, 0, 2),
    CardSpec(Card.SWAP_HATS, Kind.SWAP_HATS, 0, 2),
    CardSpec(Card.TRAPPED, Kind.TRAPPED, 0, 3),
    CardSpec(Card.FREE, Kind.FREE, 0, 4),
)

assert all(spec.card == i for i, spec in enumerate(CARDS)), "CARDS must follow Card order"


def spec(card: Card) -> CardSpec:
    """The design of a card."""
    return CARDS[card]


def deck_cards(edition: Edition) -> tuple[Card, ...]:
    """The shuffled-in cards of an edition, one entry per physical card, in table order."""
    out: list[Card] = []
    for s in CARDS:
        copies = s.base_copies + (s.expansion_copies if edition is Edition.DELUXE else 0)
        out.extend([s.card] * copies)
    return tuple(out)


BROKEN_CARD: dict[Tool, Card] = {
    Tool.PICKAXE: Card.BREAK_PICKAXE,
    Tool.LANTERN: Card.BREAK_LANTERN,
    Tool.CART: Card.BREAK_CART,
}

# Geometry of the layout (rule base.setup.layout); y grows southwards.
START_AT: tuple[int, int] = (0, 0)
GOAL_SPOTS: tuple[tuple[int, int], ...] = ((8, -2), (8, 0), (8, 2))
GOAL_CARDS: tuple[Card, ...] = (Card.GOLD, Card.COAL_NE, Card.COAL_NW)

# Gold cards: 16 x 1, 8 x 2, 4 x 3 nuggets (rule base.cards.gold).
GOLD_CARDS: tuple[int, ...] = (1,) * 16 + (2,) * 8 + (3,) * 4
ROUNDS = 3
