"""The rules of docs/rules.md: new_game, current_player, legal_actions, apply."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, repeat
from operator import is_
from typing import Any, TypeVar

from . import board as bd
from .actions import (
    Action,
    ClearInFront,
    Discard,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    Steal,
    UseMap,
)
from .cards import (
    BROKEN_CARD,
    CARDS,
    EDGES,
    GOAL_CARDS,
    GOAL_SPOTS,
    GOLD_CARDS,
    OPPOSITE,
    ROUNDS,
    START_AT,
    Card,
    Door,
    Edition,
    Kind,
    Tool,
    deck_cards,
    spec,
)
from .errors import IllegalAction, Reason
from .events import (
    ActionPlayed,
    CardDrawn,
    CardsDiscarded,
    Event,
    GameEnded,
    GoalPeeked,
    GoalRevealed,
    GoldReceived,
    GoldStolen,
    HandDealt,
    InFrontCleared,
    MapUsed,
    PlayerPassed,
    RockfallPlayed,
    RoleDealt,
    RoleSeen,
    RoundEnded,
    RoundStarted,
    TunnelPlaced,
)
from .model import (
    BASE_COUNTS,
    DELUXE_HAND_SIZE,
    DELUXE_PAY,
    DELUXE_PAY_LESS,
    DELUXE_PAY_MANY,
    DELUXE_REMOVED,
    DELUXE_ROLES,
    MAX_MINER_GOLD_CARDS,
    SABOTEUR_SHARE,
    Coord,
    GameState,
    Goal,
    GoldRule,
    Net,
    Options,
    Phase,
    PlayerId,
    Role,
    RoundResult,
    Side,
    player_range,
)
from .rng import below, seed_state, shuffled
from .views import board_view


@dataclass(frozen=True, slots=True)
class Transition:
    """The result of an action: the new state and what happened."""

    state: GameState
    events: tuple[Event, ...]


T = TypeVar("T")

# The kinds of card that are played at a player.
_PLAYER_CARD_KINDS = frozenset(
    {
        Kind.BREAK,
        Kind.REPAIR,
        Kind.THEFT,
        Kind.HANDS_OFF,
        Kind.SWAP_HAND,
        Kind.INSPECTION,
        Kind.SWAP_HATS,
        Kind.TRAPPED,
        Kind.FREE,
    }
)
_AT_OTHERS = frozenset({Kind.SWAP_HAND, Kind.INSPECTION, Kind.TRAPPED})
_KIND = tuple(s.kind for s in CARDS)  # by card: read in every listing of the legal actions
_DISCARD_ONE = tuple(Discard((s.card,)) for s in CARDS)  # the base game's discards, made once
_TOOL_CARDS = frozenset(BROKEN_CARD.values())
# A repair card's tools, each with the broken-tool card it removes.
_REPAIRS = {
    s.card: tuple((t, BROKEN_CARD[t]) for t in s.tools) for s in CARDS if s.kind is Kind.REPAIR
}
# Enum members read on every turn, as module globals (an enum's attribute costs ~90 ns in 3.11).
_OVER, _THEFT_PHASE, _DELUXE = Phase.OVER, Phase.THEFT, Edition.DELUXE
_C_THEFT, _C_TRAPPED = Card.THEFT, Card.TRAPPED
_K_TUNNEL, _K_BREAK, _K_REPAIR, _K_MAP = Kind.TUNNEL, Kind.BREAK, Kind.REPAIR, Kind.MAP
_K_ROCKFALL, _K_THEFT, _K_HANDS_OFF, _K_FREE = Kind.ROCKFALL, Kind.THEFT, Kind.HANDS_OFF, Kind.FREE
_K_TRAPPED, _K_SWAP_HAND, _K_INSPECTION = Kind.TRAPPED, Kind.SWAP_HAND, Kind.INSPECTION
_K_SWAP_HATS = Kind.SWAP_HATS


# ---------------------------------------------------------------- the mutable working copy


# A state is made every turn. Its frozen dataclass `__init__` sets each field through
# `object.__setattr__`; instead a twin class with the very same slots is filled by plain
# attribute stores and then becomes the state's class (`__class__` assignment, which Python
# allows only between classes of the same layout: checked at import, below).
def _twin(cls: type) -> type:
    """A plain class with the slots of a frozen dataclass, whose instances may become `cls`."""
    twin = type(f"_Fresh{cls.__name__}", (), {"__slots__": cls.__dict__["__slots__"]})
    probe: Any = object.__new__(twin)
    probe.__class__ = cls  # TypeError here if the layouts ever differ
    return twin


_FreshState = _twin(GameState)
_FreshTransition = _twin(Transition)
_new = object.__new__


def _maker(cls: type[T]) -> Callable[..., T]:
    """A function of all of a frozen dataclass's fields, in order, that makes the same value as
    its constructor: a twin filled by plain stores (generated, as dataclasses make __init__)."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    stores = "".join(f"    o.{n} = {n}\n" for n in names)
    head = f"def make({', '.join(names)}):\n    o = new(twin)\n"
    source = f"{head}{stores}    o.__class__ = cls\n    return o\n"
    space: dict[str, Any] = {"new": object.__new__, "twin": _twin(cls), "cls": cls}
    exec(source, space)
    return space["make"]  # type: ignore[no-any-return]


# The events of nearly every turn, made that way: (player, card, audience), and so on.
_card_drawn: Callable[[PlayerId, Card, PlayerId | None], CardDrawn] = _maker(CardDrawn)
_tunnel_placed: Callable[[PlayerId, Card, Coord, bool, None], TunnelPlaced] = _maker(TunnelPlaced)
_cards_discarded: Callable[[PlayerId, int, None], CardsDiscarded] = _maker(CardsDiscarded)
_action_played: Callable[[PlayerId, Card, PlayerId, Tool | None, None], ActionPlayed] = _maker(
    ActionPlayed
)


def _listed(t: _Table, name: str) -> list[Any]:
    """A field of the working copy as a list of its own (copied from the state's tuple once)."""
    value = getattr(t, name)
    if type(value) is not list:
        value = list(value)
        setattr(t, name, value)
    return value


def _rows(rows: Sequence[Sequence[T]]) -> tuple[tuple[T, ...], ...]:
    """A per-seat field as tuples: the state's own tuple when no move changed it."""
    if type(rows) is tuple:
        return rows
    return tuple(map(tuple, rows))


def _seat_row(t: _Table, name: str, i: int) -> list[Any]:
    """Row `i` of a per-seat field of the working copy as a list of its own."""
    return _own(_listed(t, name), i)


def _own(rows: list[Sequence[T]], i: int) -> list[T]:
    """Row `i` of a per-seat field as a list of its own, copied from the state's tuple once."""
    row = rows[i]
    if type(row) is not list:
        row = rows[i] = list(row)
    return row


class _Table:
    """A mutable copy of a state used inside one `apply` or `new_game`, frozen at the end."""

    __slots__ = (
        "deck",
        "discards",
        "edition",
        "events",
        "finder",
        "goals",
        "gold",
        "gold_deck",
        "hands",
        "in_front",
        "inspected",
        "last_at",
        "last_seat",
        "last_target",
        "maze",
        "net",
        "options",
        "peeked",
        "phase",
        "players",
        "removed",
        "results",
        "rng",
        "roles",
        "round",
        "round_over",
        "seed",
        "spare_roles",
        "stealing",
        "thefts",
        "turn",
        "version",
    )

    def __init__(self, s: GameState) -> None:
        self.edition = s.edition
        self.options = s.options
        self.players = s.players
        self.seed = s.seed
        self.rng = s.rng
        self.version = s.version
        self.round = s.round
        self.phase = s.phase
        self.turn = s.turn
        # Fields a turn seldom changes stay the state's tuples: a change makes a list first.
        self.roles: Sequence[Role] = s.roles
        self.spare_roles: Sequence[Role] = s.spare_roles
        # Per-seat rows stay the state's tuples until `_own` copies the one that changes.
        self.hands: list[Sequence[Card]] = list(s.hands)
        # The deck and the discards stay tuples: a move makes a new one (one copy, not two).
        self.deck: tuple[Card, ...] = s.deck
        self.removed = s.removed
        self.discards: tuple[Card, ...] = s.discards
        self.maze = s.maze
        self.goals: Sequence[Goal] = s.goals
        # Per-seat fields stay the state's tuples until a move changes one (`_row_of`).
        self.in_front: Sequence[Sequence[Card]] = s.in_front
        self.peeked: Sequence[Sequence[Coord]] = s.peeked
        self.inspected: Sequence[Sequence[tuple[int, Role]]] = s.inspected
        self.gold: Sequence[int] = s.gold
        self.gold_deck: Sequence[int] = s.gold_deck
        self.last_seat = s.last_seat
        self.last_at = s.last_at
        self.last_target = s.last_target
        self.results = s.results
        self.thefts: Sequence[int] = s.thefts
        self.stealing: Sequence[int] = s.stealing
        self.net = s.net
        self.events: list[Event] = []
        self.finder: int | None = None
        self.round_over = False

    def freeze(self) -> GameState:
        """The state this working copy now describes (its lists made tuples)."""
        o: Any = _new(_FreshState)
        o.edition = self.edition
        o.options = self.options
        o.players = self.players
        o.seed = self.seed
        o.rng = self.rng
        o.version = self.version
        o.round = self.round
        o.phase = self.phase
        o.turn = self.turn
        o.roles = tuple(self.roles)  # (a tuple gives itself back: no copy when unchanged)
        o.spare_roles = tuple(self.spare_roles)
        # A row still the state's tuple is unchanged (and sorted already).
        o.hands = tuple([h if type(h) is tuple else tuple(sorted(h)) for h in self.hands])
        o.deck = self.deck
        o.removed = self.removed
        o.discards = self.discards
        o.maze = self.maze
        o.goals = tuple(self.goals)
        o.in_front = _rows(self.in_front)
        o.peeked = _rows(self.peeked)
        o.inspected = _rows(self.inspected)
        o.gold = tuple(self.gold)
        o.gold_deck = tuple(self.gold_deck)
        o.last_seat = self.last_seat
        o.last_at = self.last_at
        o.results = self.results
        o.thefts = tuple(self.thefts)
        o.last_target = self.last_target
        o.stealing = tuple(self.stealing)
        o.net = self.net
        o.cache = {}
        o.__class__ = GameState
        return o  # type: ignore[no-any-return]

    def transition(self) -> Transition:
        """The frozen state and the events of this move."""
        o: Any = _new(_FreshTransition)
        o.state = self.freeze()
        o.events = tuple(self.events)
        o.__class__ = Transition
        return o  # type: ignore[no-any-return]

    def own_maze(self) -> None:
        """Copy the maze and its network before changing them (the old state keeps its own)."""
        self.maze = dict(self.maze)
        self.net = Net(dict(self.net.reached), dict(self.net.frontier))

    def hidden_goals(self) -> list[Coord]:
        return [g.at for g in self.goals if not g.revealed]

    def take_from_hand(self, seat: int, card: Card) -> None:
        _own(self.hands, seat).remove(card)

    def draw(self, seat: int, count: int) -> None:
        for _ in range(count):
            deck = self.deck
            if not deck:
                return
            card = deck[-1]
            self.deck = deck[:-1]
            _own(self.hands, seat).append(card)
            self.events.append(_card_drawn(self.players[seat], card, self.players[seat]))


# ---------------------------------------------------------------- setting up


def new_game(
    players: Sequence[PlayerId],
    *,
    edition: Edition = Edition.BASE,
    seed: int,
    options: Options = Options(),
) -> GameState:
    """A new game for these players in seat order; the first round is dealt."""
    ids = tuple(players)
    if len(set(ids)) != len(ids):
        raise ValueError("players must be distinct")
    if len(ids) not in player_range(edition):
        r = player_range(edition)
        raise ValueError(f"{edition.value} needs {r.start} to {r.stop - 1} players, not {len(ids)}")
    n = len(ids)
    rng = seed_state(seed)
    gold_deck: list[int] = []
    if edition is Edition.BASE:
        rng, gold_deck = shuffled(rng, GOLD_CARDS)
    rng, starter = below(rng, n)
    empty: GameState = GameState(
        edition=edition,
        options=options,
        players=ids,
        seed=seed,
        rng=rng,
        version=0,
        round=0,
        phase=Phase.PLAYING,
        turn=starter,
        roles=(),
        spare_roles=(),
        hands=((),) * n,
        deck=(),
        removed=(),
        discards=(),
        maze={},
        goals=(),
        in_front=((),) * n,
        peeked=((),) * n,
        inspected=((),) * n,
        gold=(0,) * n,
        gold_deck=tuple(gold_deck),
        last_seat=(starter - 1) % n,
        last_at=None,
        results=(),
        thefts=(),
    )
    t = _Table(empty)
    _deal_round(t, 1, starter)
    return t.freeze()


def _deal_round(t: _Table, round_no: int, starter: int) -> None:
    n = len(t.players)
    if t.edition is Edition.BASE:
        counts = BASE_COUNTS[n]
        pool = [Role.SABOTEUR] * counts.saboteurs + [Role.MINER] * counts.miners
        hand_size = counts.hand_size
    else:
        pool = list(DELUXE_ROLES)
        hand_size = DELUXE_HAND_SIZE
    t.rng, roles = shuffled(t.rng, pool)
    t.roles, t.spare_roles = roles[:n], roles[n:]
    t.rng, deck = shuffled(t.rng, deck_cards(t.edition))
    if t.edition is Edition.DELUXE:
        t.removed, deck = tuple(deck[:DELUXE_REMOVED]), deck[DELUXE_REMOVED:]
    else:
        t.removed = ()
    t.hands = [[] for _ in range(n)]
    for i in range(n):
        seat = (starter + i) % n
        t.hands[seat] = deck[-hand_size:]
        del deck[-hand_size:]
    t.deck = tuple(deck)
    t.rng, goal_cards = shuffled(t.rng, GOAL_CARDS)
    t.goals = [Goal(at, card) for at, card in zip(GOAL_SPOTS, goal_cards, strict=True)]
    t.maze = {START_AT: bd.START_CODE}
    t.net = bd.build_net(t.maze, t.hidden_goals())
    t.discards = ()
    t.in_front = [[] for _ in range(n)]
    t.peeked = [[] for _ in range(n)]
    t.inspected = [[] for _ in range(n)]
    t.thefts = []
    t.last_at = None
    t.last_target = None
    t.round = round_no
    t.turn = starter
    t.events.append(RoundStarted(round_no, t.players[starter]))
    for seat, pid in enumerate(t.players):
        t.events.append(RoleDealt(pid, t.roles[seat], audience=pid))
        t.events.append(HandDealt(pid, tuple(sorted(t.hands[seat])), audience=pid))


# ---------------------------------------------------------------- queries


def current_player(state: GameState) -> PlayerId | None:
    """Whose turn it is; None once the game is over."""
    if state.phase is _OVER:
        return None
    return state.players[state.turn]


def can_dig(state: GameState, seat: int) -> bool:
    """Whether a seat may place tunnel cards (no broken tool, not trapped)."""
    front = state.in_front[seat]
    return not front or not any(c in _TOOL_CARDS or c is _C_TRAPPED for c in front)


def legal_actions(state: GameState, player: PlayerId) -> tuple[Action, ...]:
    """Every legal action of a player in a fixed order; empty when they may not act."""
    seat = state.seat_of(player)
    if seat < 0 or state.phase is _OVER or seat != state.turn:
        return ()
    return _legal(state, seat)


def _legal(state: GameState, seat: int) -> tuple[Action, ...]:
    # The state's cache holds its legal actions under the seat's number (a state never changes).
    hit = state.cache.get(seat)
    if hit is None:
        hit = state.cache[seat] = tuple(_enumerate(state, seat))
    return hit  # type: ignore[return-value]


def _is_offered(state: GameState, seat: int, action: Action) -> bool:
    """Whether an action is the very value `legal_actions` offered (found by identity)."""
    return any(map(is_, _legal(state, seat), repeat(action)))


def _is_legal(state: GameState, seat: int, action: Action) -> bool:
    """Whether an action equals one of the legal ones (a set built only when needed)."""
    actions = _legal(state, seat)
    key = ("legal set", seat)
    found = state.cache.get(key)
    if found is None:
        found = state.cache[key] = frozenset(actions)
    return action in found  # type: ignore[operator]


def _enumerate(state: GameState, seat: int) -> list[Action]:
    out: list[Action] = []
    add = out.append
    if state.phase is _THEFT_PHASE:
        # rule deluxe.payout.theft: any other player who has gold, in seat order.
        for i, pid in enumerate(state.players):
            if i != seat and state.gold[i] > 0:
                add(Steal(pid))
        return out
    hand = state.hands[seat]
    kinds = sorted(set(hand))
    players = state.players
    n = len(players)
    deluxe = state.edition is _DELUXE
    plain = [c for c in kinds if c in _PLAIN_TUNNELS]
    ladders = [c for c in kinds if c in _LADDERS]
    if (plain or ladders) and can_dig(state, seat):
        _placements(state, plain, ladders, out)
    in_front = state.in_front
    for card in kinds:
        k = _KIND[card]
        if k is _K_TUNNEL:
            continue
        if k is _K_BREAK:
            row = _row(card, players)
            for i in range(n):
                if card not in in_front[i]:
                    add(row[i])
        elif k is _K_REPAIR:
            for tool, broken in _REPAIRS[card]:
                row = _row(card, players, tool, broken)
                for i in range(n):
                    if broken in in_front[i]:
                        add(row[i])
        elif k is _K_MAP:
            for g in state.goals:
                if not g.revealed:
                    add(_made(UseMap, g.at))
        elif k is _K_ROCKFALL:
            out += [_made(Rockfall, at) for at in _tunnel_cells(state)]
        elif k is _K_THEFT:
            if _C_THEFT not in in_front[seat]:
                add(_on(card, players[seat]))
        elif k is _K_HANDS_OFF:
            row = _row(card, players)
            for i in range(n):
                if _C_THEFT in in_front[i]:
                    add(row[i])
        elif k is _K_FREE:
            row = _row(card, players)
            for i in range(n):
                if _C_TRAPPED in in_front[i]:
                    add(row[i])
        elif k is _K_TRAPPED:
            row = _row(card, players)
            for i in range(n):
                if i != seat and _C_TRAPPED not in in_front[i]:
                    add(row[i])
        elif k is _K_SWAP_HAND:
            # An empty hand is out of the round (rule deluxe.turn.empty_hand): not a partner.
            row = _row(card, players)
            for i in range(n):
                if i != seat and state.hands[i]:
                    add(row[i])
        elif k is _K_INSPECTION:
            row = _row(card, players)
            for i in range(n):
                if i != seat:
                    add(row[i])
        elif k is _K_SWAP_HATS and state.spare_roles:
            out += _row(card, players)
    if deluxe:
        front = sorted(set(in_front[seat]))
        if front and len(hand) >= 2:
            for pair in sorted(set(combinations(hand, 2))):
                for removes in front:
                    add(ClearInFront((pair[0], pair[1]), removes))
        for size in (1, 2, 3):
            for combo in sorted(set(combinations(hand, size))):
                add(_made(Discard, combo))
    else:
        out += [_DISCARD_ONE[card] for card in kinds]
    return out


def _placements(
    state: GameState, plain: list[Card], ladders: list[Card], out: list[Action]
) -> None:
    maze = state.maze
    if plain:
        net = state.net
        offers = net.offers
        if offers is None:
            get = _BY_CELL.get
            offers = net.offers = tuple(
                get(cell) or _by_card(cell) for cell in bd.frontier_cells(maze, net)
            )
        for by_card in offers:
            for card in plain:
                out.extend(by_card[card])
    if ladders:
        for at in _ladder_cells(state):
            must_open, must_closed = bd.constraints(maze, at)
            for card in ladders:
                out.extend(_fitting(at, must_open, must_closed, card))


# The placements of one card at one cell, by the cell's constraints: the same values every game,
# so they are made once (a memo of immutable actions, cleared if it ever grows large).
_FITTING: dict[tuple[Coord, int, int, Card], tuple[PlaceTunnel, ...]] = {}
_FITTING_MAX = 200_000


# The same by cell and constraints, for every plain tunnel card at once, indexed by card (one
# look-up a cell; a frontier's rows are then kept on its network).
_BY_CELL: dict[tuple[Coord, int, int], tuple[tuple[PlaceTunnel, ...], ...]] = {}
_PLAIN_TUNNELS = frozenset(s.card for s in CARDS if s.kind is Kind.TUNNEL and not s.ladder)
_LADDERS = frozenset(s.card for s in CARDS if s.ladder)


def _by_card(cell: tuple[Coord, int, int]) -> tuple[tuple[PlaceTunnel, ...], ...]:
    """The placements of each plain tunnel card at a cell with these constraints, by card."""
    if len(_BY_CELL) >= _FITTING_MAX // len(_PLAIN_TUNNELS):
        _BY_CELL.clear()
    at, must_open, must_closed = cell
    made = _BY_CELL[cell] = tuple(
        _fitting(at, must_open, must_closed, s.card) if s.card in _PLAIN_TUNNELS else ()
        for s in CARDS
    )
    return made


def _fitting(at: Coord, must_open: int, must_closed: int, card: Card) -> tuple[PlaceTunnel, ...]:
    """The offered orientations of `card` at `at` that match these constraints."""
    key = (at, must_open, must_closed, card)
    hit = _FITTING.get(key)
    if hit is None:
        if len(_FITTING) >= _FITTING_MAX:
            _FITTING.clear()
        hit = tuple(
            PlaceTunnel(card, at, bd.is_rotated(c))
            for c in bd.OFFERED[card]
            if bd.fits(c, must_open, must_closed)
        )
        _FITTING[key] = hit
    return hit


def _ladder_cells(state: GameState) -> list[Coord]:
    """Empty cells facing any card's open edge, not next to a goal (rule deluxe.place.ladder)."""
    maze = state.maze
    goals = {g.at for g in state.goals}
    cells: set[Coord] = set()
    for at, c in maze.items():
        for e in EDGES:
            if bd.OPEN[c] & e:
                n = bd.neighbour(at, e)
                if n not in maze and n not in goals:
                    cells.add(n)
    return sorted(at for at in cells if not any(bd.neighbour(at, e) in goals for e in EDGES))


# Offered actions are made once and reused (equal values, so nothing depends on it): making
# frozen dataclasses is the dearest part of listing the legal actions, and `apply` finds the
# very value offered by identity. A memo of immutable values, cleared if it grows large.
_MADE: dict[tuple[object, ...], Action] = {}
_MADE_MAX = 200_000
A = TypeVar("A", UseMap, Rockfall, Discard)


def _made(kind: type[A], value: object) -> A:
    key = (kind, value)
    hit = _MADE.get(key)
    if hit is None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        hit = _MADE[key] = kind(value)  # type: ignore[arg-type]
    return hit  # type: ignore[return-value]


def _tunnel_cells(state: GameState) -> tuple[Coord, ...]:
    """The cells of the maze's tunnel cards in order (kept on the network of this maze)."""
    net = state.net
    if net.tunnels is None:
        maze = state.maze
        net.tunnels = tuple(at for at in sorted(maze) if _KIND[bd.card_of(maze[at])] is Kind.TUNNEL)
    return net.tunnels


def _row(
    card: Card,
    players: tuple[PlayerId, ...],
    tool: Tool | None = None,
    broken: Card | None = None,
) -> tuple[PlayOnPlayer, ...]:
    """This card played at each player, in seat order (made once per game's seats); a repair
    names its tool and that tool's broken card (the key: an enum's hash is slow, a card's not)."""
    key = (card, players, broken)
    hit = _MADE.get(key)
    if hit is None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        hit = _MADE[key] = tuple(_on(card, p, tool) for p in players)  # type: ignore[assignment]
    return hit  # type: ignore[return-value]


def _on(card: Card, target: PlayerId, tool: Tool | None = None) -> PlayOnPlayer:
    key = (PlayOnPlayer, card, target, tool)
    hit = _MADE.get(key)
    if hit is None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        hit = _MADE[key] = PlayOnPlayer(card, target, tool)
    return hit  # type: ignore[return-value]


# ---------------------------------------------------------------- explaining refusals


def _acting_seat(state: GameState, player: PlayerId) -> int:
    seat = state.seat_of(player)
    if state.phase is _OVER:
        raise IllegalAction(Reason.GAME_OVER, f"the game is over; {player} cannot act")
    if seat < 0:
        raise IllegalAction(Reason.NOT_A_PLAYER, f"{player!r} does not play in this game")
    if seat != state.turn:
        raise IllegalAction(
            Reason.NOT_YOUR_TURN, f"it is {state.players[state.turn]}'s turn, not {player}'s"
        )
    return seat


def _is_id(value: object) -> bool:
    """Whether a value is a player id: an integer (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_cell(at: object) -> bool:
    """Whether a value is a cell of the grid: a pair of integers (not booleans)."""
    return (
        isinstance(at, tuple)
        and len(at) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in at)
    )


def _explain(state: GameState, seat: int, action: object) -> IllegalAction:
    """Why an action that is not among the legal ones was refused."""
    if state.phase is Phase.THEFT:
        thief = state.players[seat]
        if not isinstance(action, Steal):
            return IllegalAction(
                Reason.ROUND_OVER, f"the round is over: {thief} chooses whom to steal from"
            )
        return IllegalAction(
            Reason.BAD_TARGET, f"{action.victim!r} is no other player with gold"[:200]
        )
    if isinstance(action, Steal):
        return IllegalAction(Reason.NOT_AN_ACTION, "a theft is settled at the round's end")
    hand = state.hands[seat]

    def card_ok(card: object) -> bool:
        return isinstance(card, Card) and card in hand

    if isinstance(action, PlaceTunnel):
        if not card_ok(action.card):
            return _not_in_hand(action.card)
        s = spec(action.card)
        card = action.card.name
        if s.kind is not Kind.TUNNEL:
            return IllegalAction(Reason.NOT_AN_ACTION, f"{card} is not a tunnel card")
        if Card.TRAPPED in state.in_front[seat]:
            return IllegalAction(Reason.TRAPPED, f"a trapped player cannot place {card}")
        if not can_dig(state, seat):
            return IllegalAction(
                Reason.TOOL_BROKEN, f"a broken tool stops {card} from being placed"
            )
        at = action.at
        if not _is_cell(at):
            return IllegalAction(Reason.NOT_AN_ACTION, f"not a cell: {at!r}"[:200])
        if at in state.maze or any(g.at == at for g in state.goals):
            return IllegalAction(Reason.CELL_TAKEN, f"{at} already holds a card")
        if action.rotated and s.is_symmetric:
            return IllegalAction(
                Reason.ROTATION_NOT_OFFERED, f"{card} looks the same turned: only 0° is offered"
            )
        if s.ladder:
            if any(bd.neighbour(at, e) == g.at for e in EDGES for g in state.goals):
                return IllegalAction(Reason.NEXT_TO_GOAL, f"a ladder cannot go at {at}, by a goal")
            if at not in _ladder_cells(state):
                return IllegalAction(
                    Reason.NOT_CONNECTED, f"a ladder at {at} meets no open tunnel edge"
                )
        elif at not in state.net.frontier:
            return IllegalAction(Reason.NOT_CONNECTED, f"{at} faces no tunnel joined to the start")
        return IllegalAction(Reason.DOES_NOT_FIT, _misfit(state, action))
    if isinstance(action, PlayOnPlayer):
        if not card_ok(action.card):
            return _not_in_hand(action.card)
        s = spec(action.card)
        card = action.card.name
        if s.kind not in _PLAYER_CARD_KINDS:
            return IllegalAction(Reason.NOT_AN_ACTION, f"{card} is not played at a player")
        target = state.seat_of(action.target) if isinstance(action.target, int) else -1
        if target < 0:
            return IllegalAction(Reason.BAD_TARGET, f"{action.target!r} is not a player here")
        whom = state.players[target]
        if s.kind is Kind.REPAIR:
            tool = getattr(action.tool, "value", action.tool)
            if action.tool not in s.tools:
                return IllegalAction(Reason.BAD_TARGET, f"{card} does not repair {tool!r}")
            return IllegalAction(Reason.NOTHING_TO_REPAIR, f"{whom} has no broken {tool}")
        if action.tool is not None:
            return IllegalAction(Reason.BAD_TARGET, f"{card} names no tool; only repairs do")
        if (
            s.kind in (Kind.BREAK, Kind.TRAPPED, Kind.THEFT)
            and action.card in state.in_front[target]
        ):
            return IllegalAction(Reason.ALREADY_IN_FRONT, f"{whom} already has {card} in front")
        if s.kind in (Kind.HANDS_OFF, Kind.FREE):
            return IllegalAction(Reason.NOTHING_TO_REMOVE, f"{whom} has nothing {card} removes")
        return IllegalAction(Reason.BAD_TARGET, f"{card} cannot be played at {whom}")
    if isinstance(action, UseMap):
        if not card_ok(Card.MAP):
            return _not_in_hand(Card.MAP)
        return IllegalAction(Reason.NOT_A_HIDDEN_GOAL, f"{action.at} is no face-down goal")
    if isinstance(action, Rockfall):
        if not card_ok(Card.ROCKFALL):
            return _not_in_hand(Card.ROCKFALL)
        return IllegalAction(
            Reason.NOTHING_TO_REMOVE, f"{action.at} holds no card a rockfall can remove"
        )
    if isinstance(action, Discard | ClearInFront):
        cards = action.cards if isinstance(action, Discard) else action.discards
        if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
            return IllegalAction(Reason.BAD_DISCARD, f"not a tuple of cards: {cards!r}"[:200])
        if Counter(cards) - Counter(hand):
            missing = sorted(c.name for c in Counter(cards) - Counter(hand))
            return IllegalAction(Reason.CARD_NOT_IN_HAND, f"not in hand: {', '.join(missing)}")
        if isinstance(action, ClearInFront) and state.edition is not Edition.DELUXE:
            return IllegalAction(Reason.WRONG_EDITION, "clearing a card in front is Deluxe only")
        if isinstance(action, ClearInFront):
            removes = getattr(action.removes, "name", action.removes)
            return IllegalAction(
                Reason.NOTHING_TO_REMOVE, f"no {removes} lies in front of this player"
            )
        return IllegalAction(
            Reason.BAD_DISCARD, f"a discard of {len(cards)} card(s) is not offered now"
        )
    return IllegalAction(Reason.NOT_AN_ACTION, f"not an action: {type(action).__name__}")


def _not_in_hand(card: object) -> IllegalAction:
    """The refusal of a card the player does not hold (named from the action, nothing hidden)."""
    return IllegalAction(
        Reason.CARD_NOT_IN_HAND, f"{getattr(card, 'name', repr(card))} is not in hand"[:200]
    )


def _misfit(state: GameState, action: PlaceTunnel) -> str:
    """Which edge of a placed card meets which neighbour wrongly."""
    c = bd.code(action.card, action.rotated)
    must_open, must_closed = bd.constraints(state.maze, action.at)
    turned = " turned" if action.rotated else ""
    for e, side in zip(EDGES, "NESW", strict=True):
        if must_open & e and not bd.OPEN[c] & e:
            return f"{action.card.name}{turned} at {action.at}: rock at {side} meets a tunnel"
        if must_closed & e and bd.OPEN[c] & e:
            return f"{action.card.name}{turned} at {action.at}: a tunnel at {side} meets rock"
    return f"{action.card.name}{turned} at {action.at} does not fit there"


# ---------------------------------------------------------------- applying


def apply(state: GameState, player: PlayerId, action: Action) -> Transition:
    """Play an action; raises IllegalAction and leaves `state` as it was if it is not legal."""
    seat = _acting_seat(state, player)
    if not _is_offered(state, seat, action):  # the very value offered needs no checks
        action = _checked(state, seat, action)
    if isinstance(action, Steal):
        return _steal(state, seat, action)
    t = _Table(state)
    t.version += 1
    # The last move's mark: set below by what the move acts on (none after a discard).
    t.last_at = None
    t.last_target = None
    t.last_seat = seat
    pid = state.players[seat]
    draws = 1
    if isinstance(action, PlaceTunnel):
        _place(t, seat, action)
    elif isinstance(action, PlayOnPlayer):
        draws = _play_on_player(t, seat, action)
        t.last_target = action.target
    elif isinstance(action, UseMap):
        t.take_from_hand(seat, Card.MAP)
        t.discards += (Card.MAP,)
        _seat_row(t, "peeked", seat).append(action.at)
        t.last_at = action.at
        t.events.append(MapUsed(pid, action.at))
        card = next(g.card for g in t.goals if g.at == action.at)
        t.events.append(GoalPeeked(pid, action.at, card, audience=pid))
    elif isinstance(action, Rockfall):
        t.take_from_hand(seat, Card.ROCKFALL)
        t.own_maze()
        removed = bd.card_of(t.maze.pop(action.at))
        t.discards += (Card.ROCKFALL, removed)
        t.net = bd.build_net(t.maze, t.hidden_goals())
        t.last_at = action.at
        t.events.append(RockfallPlayed(pid, action.at, removed))
    elif isinstance(action, Discard):
        for c in action.cards:
            t.take_from_hand(seat, c)
        t.discards += action.cards
        t.events.append(_cards_discarded(pid, len(action.cards), None))
        draws = len(action.cards)
    else:
        for c in action.discards:
            t.take_from_hand(seat, c)
        t.discards += action.discards
        _seat_row(t, "in_front", seat).remove(action.removes)
        t.discards += (action.removes,)
        if action.removes is Card.THEFT:
            _listed(t, "thefts").remove(seat)
        t.events.append(_cards_discarded(pid, 2, None))
        t.events.append(InFrontCleared(pid, action.removes))
    if not t.round_over:
        t.draw(seat, draws)
        _advance(t, seat)
    if t.round_over:
        _end_round(t)
    return t.transition()


def _checked(state: GameState, seat: int, action: Action) -> Action:
    """An action that is not the very value offered: the equal legal action (discards in any
    order), or IllegalAction saying why not."""
    action = _normalised(action)
    at = (
        getattr(action, "at", None) if isinstance(action, PlaceTunnel | Rockfall | UseMap) else None
    )
    if at is not None and not _is_cell(at):  # (True, False) == (1, 0), but is no cell
        raise IllegalAction(Reason.NOT_AN_ACTION, f"not a cell: {at!r}"[:200])
    if isinstance(action, Steal) and not _is_id(action.victim):  # Steal(True) == Steal(1)
        raise IllegalAction(Reason.NOT_AN_ACTION, f"not a player: {action.victim!r}"[:200])
    try:
        legal = _is_legal(state, seat, action)
    except TypeError:  # an unhashable forgery
        legal = False
    if legal:
        return action
    try:
        refusal = _explain(state, seat, action)
    except (TypeError, ValueError, IndexError, KeyError, AttributeError):
        refusal = IllegalAction(Reason.NOT_AN_ACTION, f"malformed: {action!r}"[:200])
    raise refusal


def _normalised(action: Action) -> Action:
    """Discarded cards are a set: accept them in any order (the engine offers them sorted)."""
    try:
        if isinstance(action, Discard) and isinstance(action.cards, tuple):
            cards = tuple(sorted(action.cards))
            return action if cards == action.cards else Discard(cards)
        if isinstance(action, ClearInFront) and isinstance(action.discards, tuple):
            a, b = sorted(action.discards)
            if (a, b) == action.discards:
                return action
            return ClearInFront((a, b), action.removes)
    except (TypeError, ValueError):
        pass
    return action


def _place(t: _Table, seat: int, action: PlaceTunnel) -> None:
    pid = t.players[seat]
    t.take_from_hand(seat, action.card)
    t.own_maze()
    at = action.at
    t.maze[at] = bd.code(action.card, action.rotated)
    t.last_at = at
    t.events.append(_tunnel_placed(pid, action.card, at, action.rotated, None))
    touched = bd.join(t.maze, t.hidden_goals(), t.net, at)
    while touched:
        revealed: list[Coord] = []
        for g_at in sorted(touched):
            i = next(i for i, g in enumerate(t.goals) if g.at == g_at)
            g = t.goals[i]
            rotated = bd.goal_orientation(t.maze, g.card, g_at, at, t.net.reached)
            _listed(t, "goals")[i] = Goal(g_at, g.card, revealed=True, rotated=rotated)
            t.maze[g_at] = bd.code(g.card, rotated)
            t.events.append(GoalRevealed(g_at, g.card, rotated))
            revealed.append(g_at)
            if g.card is Card.GOLD:
                t.finder = seat
                t.round_over = True
        touched = set()
        for g_at in revealed:
            touched |= bd.join(t.maze, t.hidden_goals(), t.net, g_at)


def _play_on_player(t: _Table, seat: int, action: PlayOnPlayer) -> int:
    """Carry out a card played at a player; return how many cards the player then draws."""
    pid = t.players[seat]
    card = action.card
    target = t.players.index(action.target)
    kind = _KIND[card]
    t.take_from_hand(seat, card)
    t.events.append(_action_played(pid, card, action.target, action.tool, None))
    if kind is _K_BREAK or kind is _K_TRAPPED or kind is _K_THEFT:
        _seat_row(t, "in_front", target).append(card)
        if kind is _K_THEFT:
            _listed(t, "thefts").append(target)
        return 1
    t.discards += (card,)
    if kind is _K_REPAIR:
        assert action.tool is not None
        broken = BROKEN_CARD[action.tool]
        _seat_row(t, "in_front", target).remove(broken)
        t.discards += (broken,)
    elif kind is _K_HANDS_OFF or kind is _K_FREE:
        removed = _C_THEFT if kind is _K_HANDS_OFF else _C_TRAPPED
        _seat_row(t, "in_front", target).remove(removed)
        t.discards += (removed,)
        if removed is _C_THEFT:
            _listed(t, "thefts").remove(target)
    elif kind is _K_SWAP_HAND:
        t.hands[seat], t.hands[target] = t.hands[target], t.hands[seat]
        t.draw(target, 1)
        for s in (seat, target):
            p = t.players[s]
            t.events.append(HandDealt(p, tuple(sorted(t.hands[s])), audience=p))
        return 0
    elif kind is _K_INSPECTION:
        _seat_row(t, "inspected", seat).append((target, t.roles[target]))
        t.events.append(RoleSeen(pid, action.target, t.roles[target], audience=pid))
    elif kind is _K_SWAP_HATS:
        t.rng, i = below(t.rng, len(t.spare_roles))
        _listed(t, "roles")[target] = _listed(t, "spare_roles").pop(i)
        t.events.append(RoleDealt(action.target, t.roles[target], audience=action.target))
    return 1


def _advance(t: _Table, seat: int) -> None:
    """Pass the turn to the next player holding cards; end the round when nobody does."""
    n = len(t.players)
    skipped: list[int] = []
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if t.hands[nxt]:
            t.turn = nxt
            if skipped:
                t.events += [PlayerPassed(t.players[p]) for p in skipped]
            return
        skipped.append(nxt)
    t.round_over = True


# ---------------------------------------------------------------- round end and payout


def _end_round(t: _Table) -> None:
    if t.edition is Edition.BASE:
        winners, paid = _pay_base(t)
    else:
        winners, paid = _pay_deluxe(t)
    result = RoundResult(
        round=t.round,
        winners=winners,
        finder=None if t.finder is None else t.players[t.finder],
        roles=tuple(zip(t.players, t.roles, strict=True)),
        paid=tuple(t.players[s] for s in sorted(paid)),
    )
    t.results = (*t.results, result)
    t.events.append(RoundEnded(result, board_view(t.maze, t.goals, t.last_at)))
    for s in sorted(paid):
        p = t.players[s]
        t.events.append(GoldReceived(p, sum(paid[s]), tuple(paid[s]), audience=p))
    # rule deluxe.payout.theft: untrapped thieves choose, the last theft played first.
    t.stealing = [s for s in reversed(t.thefts) if Card.TRAPPED not in t.in_front[s]]
    _next_thief(t)


def _next_thief(t: _Table) -> None:
    """Wait for the next thief who has someone to steal from; when none is left, move on."""
    n = len(t.players)
    while t.stealing:
        thief = t.stealing[0]
        if any(t.gold[s] > 0 for s in range(n) if s != thief):
            t.phase = Phase.THEFT
            t.turn = thief
            return
        _listed(t, "stealing").pop(0)  # nobody else has gold: this theft takes nothing
    t.phase = Phase.PLAYING
    _close_round(t)


def _steal(state: GameState, seat: int, action: Steal) -> Transition:
    """A thief's choice at a round's end (legal already): one nugget moves, the group learns
    who stole from whom (rules deluxe.payout.theft and privacy.theft)."""
    t = _Table(state)
    t.version += 1
    victim = state.players.index(action.victim)
    gold = _listed(t, "gold")
    gold[victim] -= 1
    gold[seat] += 1
    t.events.append(GoldStolen(t.players[seat], action.victim))
    _listed(t, "stealing").pop(0)
    _next_thief(t)
    return t.transition()


def _close_round(t: _Table) -> None:
    """After the payout and the thefts: the game's end, or the next round dealt."""
    n = len(t.players)
    if t.round >= ROUNDS:
        t.phase = Phase.OVER
        t.turn = -1
        best = max(t.gold)
        t.events.append(
            GameEnded(
                gold=tuple(zip(t.players, t.gold, strict=True)),
                winners=tuple(p for p, g in zip(t.players, t.gold, strict=True) if g == best),
            )
        )
        return
    t.round_over = False
    t.finder = None
    _deal_round(t, t.round + 1, (t.last_seat + 1) % n)


def _pay_base(t: _Table) -> tuple[tuple[Side, ...], dict[int, list[int]]]:
    """Gold for the miners or the saboteurs (rules base.payout.miners and base.payout.saboteurs)."""
    n = len(t.players)
    paid: dict[int, list[int]] = {}
    if t.finder is not None:
        finder = t.finder
        miners = [s for s in range(n) if t.roles[s] is Role.MINER]
        if t.options.greedy_dwarf:
            miners = [s for s in miners if not any(c in _TOOL_CARDS for c in t.in_front[s])]
        # Counter-clockwise from the finder: the finder first, then the previous seats.
        order = sorted(miners, key=lambda s: (finder - s) % n)
        count = min(n, MAX_MINER_GOLD_CARDS) if t.options.gold is GoldRule.OFFICIAL else len(order)
        if order:
            gold_deck = _listed(t, "gold_deck")
            drawn = [gold_deck.pop() for _ in range(min(count, len(gold_deck)))]
            for i, value in enumerate(sorted(drawn, reverse=True)):
                paid.setdefault(order[i % len(order)], []).append(value)
        winners: tuple[Side, ...] = (Side.MINERS,)
    else:
        saboteurs = [s for s in range(n) if t.roles[s] is Role.SABOTEUR]
        if saboteurs:
            share = SABOTEUR_SHARE[len(saboteurs)]
            for s in saboteurs:
                cards = take_exact(_listed(t, "gold_deck"), share)
                if cards:
                    paid[s] = cards
        winners = (Side.SABOTEURS,)
    for s, cards in paid.items():
        _listed(t, "gold")[s] += sum(cards)
    return winners, paid


def take_exact(gold_deck: list[int], amount: int) -> list[int]:
    """Remove from the gold deck the fewest cards worth `amount`, or the most below it."""
    have = Counter(gold_deck)
    for target in range(amount, 0, -1):
        best: tuple[int, int, int] | None = None
        for n3 in range(min(have[3], target // 3), -1, -1):
            for n2 in range(min(have[2], (target - 3 * n3) // 2), -1, -1):
                n1 = target - 3 * n3 - 2 * n2
                if n1 <= have[1] and (best is None or n3 + n2 + n1 < sum(best)):
                    best = (n3, n2, n1)
        if best is not None:
            cards = [3] * best[0] + [2] * best[1] + [1] * best[2]
            for c in cards:
                gold_deck.remove(c)
            return cards
    return []


def doors_allow(maze: dict[Coord, int], goal: Coord, banned: Door | None) -> bool:
    """Whether a joined route leads from the start or a ladder to `goal` with no `banned` door."""
    roots = [at for at, c in maze.items() if c == bd.START_CODE or c in bd.LADDER_CODES]
    reached: dict[Coord, int] = {}
    queue: list[tuple[Coord, int]] = []
    for at in roots:
        if banned is not None and CARDS[bd.card_of(maze[at])].door is banned:
            continue
        for tun in bd.TUNNELS[maze[at]]:
            reached[at] = reached.get(at, 0) | tun
            queue.append((at, tun))
    while queue:
        at, tun = queue.pop()
        if at == goal:
            return True
        for e in EDGES:
            if not tun & e:
                continue
            n = bd.neighbour(at, e)
            c = maze.get(n)
            if c is None or (banned is not None and CARDS[bd.card_of(c)].door is banned):
                continue
            nt = bd.TUNNEL_AT[c][OPPOSITE[e]]
            if nt and not reached.get(n, 0) & nt:
                reached[n] = reached.get(n, 0) | nt
                queue.append((n, nt))
    return False


def deluxe_winners(
    maze: dict[Coord, int], gold_at: Coord | None, finder_role: Role | None
) -> tuple[Side, ...]:
    """Which side wins, from the routes to the gold and who reached it (rule deluxe.win.routes)."""
    if gold_at is None:
        return (Side.SABOTEURS,)
    no_green = doors_allow(maze, gold_at, Door.GREEN)
    no_blue = doors_allow(maze, gold_at, Door.BLUE)
    if finder_role is Role.GREEN_MINER:
        blue = not no_blue and no_green
    else:
        blue = no_green
    if finder_role is Role.BLUE_MINER:
        green = not no_green and no_blue
    else:
        green = no_blue
    if blue and green:
        return (Side.BOTH_TEAMS,)
    if blue:
        return (Side.BLUE,)
    if green:
        return (Side.GREEN,)
    return (Side.BOSS,)


def _pay_deluxe(t: _Table) -> tuple[tuple[Side, ...], dict[int, list[int]]]:
    """The Deluxe payout (rules deluxe.payout.table and deluxe.payout.geologists)."""
    n = len(t.players)
    gold_at = next((g.at for g in t.goals if g.card is Card.GOLD and g.revealed), None)
    if t.finder is None:
        gold_at = None
    finder_role = None if t.finder is None else t.roles[t.finder]
    sides = deluxe_winners(t.maze, gold_at, finder_role)
    side = sides[0]
    winning_roles: set[Role] = {Role.PROFITEER}
    if side is Side.SABOTEURS:
        winning_roles.add(Role.SABOTEUR)
    else:
        winning_roles.add(Role.BOSS)
        if side in (Side.BLUE, Side.BOTH_TEAMS):
            winning_roles.add(Role.BLUE_MINER)
        if side in (Side.GREEN, Side.BOTH_TEAMS):
            winning_roles.add(Role.GREEN_MINER)
    trapped = {s for s in range(n) if Card.TRAPPED in t.in_front[s]}
    winners = [s for s in range(n) if t.roles[s] in winning_roles and s not in trapped]
    paid: dict[int, list[int]] = {}
    if winners:
        each = DELUXE_PAY.get(len(winners), DELUXE_PAY_MANY)
        for s in winners:
            amount = each - DELUXE_PAY_LESS.get(t.roles[s], 0)
            if amount > 0:
                paid[s] = [amount]
    geologists = [s for s in range(n) if t.roles[s] is Role.GEOLOGIST]
    if geologists:
        crystals = sum(1 for c in t.maze.values() if CARDS[bd.card_of(c)].crystal)
        share = crystals // len(geologists)
        for s in geologists:
            if s not in trapped and share > 0:
                paid[s] = [share]
    for s, cards in paid.items():
        _listed(t, "gold")[s] += sum(cards)
    return sides, paid
