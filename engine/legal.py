"""Listing a player's legal actions: each offered action made once and kept in bounded memos."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, repeat
from operator import is_
from typing import TypeVar

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
    Card,
    Edition,
    Kind,
    Tool,
)
from .model import (
    Coord,
    GameState,
    Phase,
    PlayerId,
)
from .table import _maker

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


def _equal_legal(state: GameState, seat: int, action: Action) -> Action | None:
    """The legal action equal to `action`, if any (a map built only when needed). Equal is not
    the same: Card.GOLD == 1 and True == 1, so the caller checks the fields' types too."""
    key = ("legal map", seat)
    found = state.cache.get(key)
    if found is None:
        found = state.cache[key] = {a: a for a in _legal(state, seat)}
    assert isinstance(found, dict)
    hit: Action | None = found.get(action)
    return hit


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
        out += _discards(hand)
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
        tuple([_place_tunnel(card, at, rotated) for rotated in fitting])
        for card, fitting in zip(_ALL_CARDS, _rotations(must_open, must_closed), strict=True)
    )
    return made


# By constraints, then by card: the offered rotations of each plain tunnel card that fit (a
# small table: 81 pairs of constraints at most). A placement is then made as a slot twin.
_ROTATIONS: dict[tuple[int, int], tuple[tuple[bool, ...], ...]] = {}
_ALL_CARDS = tuple(Card)
_place_tunnel: Callable[[Card, Coord, bool], PlaceTunnel] = _maker(PlaceTunnel)


def _rotations(must_open: int, must_closed: int) -> tuple[tuple[bool, ...], ...]:
    """Each card's offered rotations that match these constraints (none for other cards)."""
    key = (must_open, must_closed)
    hit = _ROTATIONS.get(key)
    if hit is None:
        hit = _ROTATIONS[key] = tuple(
            tuple(bd.is_rotated(c) for c in bd.OFFERED[card] if bd.fits(c, must_open, must_closed))
            if card in _PLAIN_TUNNELS
            else ()
            for card in _ALL_CARDS
        )
    return hit


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


# A Deluxe hand's discards of one to three cards, by the hand as it is (a combination keeps the
# hand's order): the same values every game, about 40 a hand, made once.
_DISCARDS: dict[tuple[Card, ...], tuple[Discard, ...]] = {}
_DISCARDS_MAX = 100_000


def _discards(hand: tuple[Card, ...]) -> tuple[Discard, ...]:
    hit = _DISCARDS.get(hand)
    if hit is None:
        if len(_DISCARDS) >= _DISCARDS_MAX:
            _DISCARDS.clear()
        hit = _DISCARDS[hand] = tuple(
            _made(Discard, combo)
            for size in (1, 2, 3)
            for combo in sorted(set(combinations(hand, size)))
        )
    return hit


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
