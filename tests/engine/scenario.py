"""Helpers to build rule scenarios: a dealt game, then the hands, roles, board and turn we want.

A scenario starts from `new_game` and replaces fields of the frozen `GameState` (always with a
fresh `cache`, and with the tunnel network rebuilt whenever the maze changes), then drives the
game through the public API only: `legal_actions`, `apply`, the views and the codec.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from engine import (
    Action,
    Card,
    Discard,
    Edition,
    GameState,
    IllegalAction,
    Options,
    PlaceTunnel,
    PlayerId,
    Reason,
    Role,
    Transition,
    apply,
    current_player,
    legal_actions,
    new_game,
)
from engine.notation import with_board

E = TypeVar("E")

# The start and the three goals face down, gold in the middle.
EMPTY = """
. . . . . . . . ?%NE
. . . . . . . . .
@ . . . . . . . ?$
. . . . . . . . .
. . . . . . . . ?%NW
"""

# A straight corridor that stops one cell short of the middle goal (the gold).
GOLD_NEXT = """
. . . . . . . . ?%NE
. . . . . . . . .
@ EW EW EW EW EW EW . ?$
. . . . . . . . .
. . . . . . . . ?%NW
"""
LAST_STEP = PlaceTunnel(Card.STRAIGHT_EW, (7, 0))

# Ids that are not seat numbers, so that a mix-up of seat and id shows.
IDS: tuple[PlayerId, ...] = (101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112)


def players(n: int) -> tuple[PlayerId, ...]:
    """The first n player ids, in seat (turn) order."""
    return IDS[:n]


def base_game(n: int = 4, *, seed: int = 7, options: Options = Options()) -> GameState:
    """A freshly dealt base game for n players."""
    return new_game(players(n), edition=Edition.BASE, seed=seed, options=options)


def deluxe_game(n: int = 4, *, seed: int = 7, options: Options = Options()) -> GameState:
    """A freshly dealt Saboteur Deluxe game for n players."""
    return new_game(players(n), edition=Edition.DELUXE, seed=seed, options=options)


def to_act(state: GameState) -> PlayerId:
    """The player whose turn it is (fails loudly once the game is over)."""
    player = current_player(state)
    assert player is not None, "the game is over"
    return player


def seat(state: GameState, player: PlayerId) -> int:
    """The seat of a player (fails loudly for a stranger)."""
    s = state.seat_of(player)
    assert s >= 0, player
    return s


def _per_seat(
    state: GameState, current: Sequence[E], given: Mapping[PlayerId, E] | Sequence[E]
) -> tuple[E, ...]:
    if isinstance(given, Mapping):
        out = list(current)
        for p, value in given.items():
            out[seat(state, p)] = value
        return tuple(out)
    assert len(given) == len(state.players)
    return tuple(given)


def setup(
    state: GameState,
    *,
    board: str | None = None,
    hands: Mapping[PlayerId, Iterable[Card]] | None = None,
    others_empty: bool = False,
    roles: Mapping[PlayerId, Role] | Sequence[Role] | None = None,
    spare_roles: Sequence[Role] | None = None,
    in_front: Mapping[PlayerId, Iterable[Card]] | None = None,
    deck: Sequence[Card] | None = None,
    turn: PlayerId | None = None,
    gold: Mapping[PlayerId, int] | None = None,
    gold_deck: Sequence[int] | None = None,
    thefts: Sequence[PlayerId] | None = None,
    round_no: int | None = None,
) -> GameState:
    """A copy of `state` with the given parts replaced.

    `board` is in the notation of `engine.notation` (the network is rebuilt). `hands` replaces
    the named players' hands; with `others_empty` every other hand is emptied. `deck` is drawn
    from its end. `thefts` lists the thieves in the order their theft cards were played.
    """
    if board is not None:
        state = with_board(state, board)
    changes: dict[str, object] = {}
    if hands is not None or others_empty:
        empty: tuple[Card, ...] = ()
        current = [empty for _ in state.players] if others_empty else list(state.hands)
        given = {p: tuple(sorted(cs)) for p, cs in (hands or {}).items()}
        changes["hands"] = _per_seat(state, current, given)
    if roles is not None:
        changes["roles"] = _per_seat(state, state.roles, roles)
    if spare_roles is not None:
        changes["spare_roles"] = tuple(spare_roles)
    if in_front is not None:
        given_front = {p: tuple(cs) for p, cs in in_front.items()}
        changes["in_front"] = _per_seat(state, state.in_front, given_front)
    if deck is not None:
        changes["deck"] = tuple(deck)
    if turn is not None:
        changes["turn"] = seat(state, turn)
    if gold is not None:
        changes["gold"] = _per_seat(state, state.gold, gold)
    if gold_deck is not None:
        changes["gold_deck"] = tuple(gold_deck)
    if thefts is not None:
        changes["thefts"] = tuple(seat(state, p) for p in thefts)
    if round_no is not None:
        changes["round"] = round_no
    return dataclasses.replace(state, **changes, cache={})  # type: ignore[arg-type]


def refused(state: GameState, player: PlayerId, action: object) -> Reason:
    """Apply an action that must be refused; return the reason (and check nothing changed)."""
    before = dataclasses.replace(state, cache={})
    try:
        apply(state, player, action)  # type: ignore[arg-type]
    except IllegalAction as exc:
        assert state == before, "a refused action changed the state"
        return exc.reason
    raise AssertionError(f"{action!r} was accepted")


def placements(state: GameState, player: PlayerId) -> list[PlaceTunnel]:
    """The tunnel placements among a player's legal actions."""
    return [a for a in legal_actions(state, player) if isinstance(a, PlaceTunnel)]


def cells(state: GameState, player: PlayerId, card: Card | None = None) -> set[tuple[int, int]]:
    """The cells where a player may place (a given card, or any tunnel)."""
    return {a.at for a in placements(state, player) if card is None or a.card is card}


def of_type(events: Iterable[object], kind: type[E]) -> list[E]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


def only_card_left(state: GameState, player: PlayerId, card: Card = Card.MAP) -> GameState:
    """Every hand empty but `player`'s single card, the deck empty, and `player` to act."""
    return setup(state, hands={player: [card]}, others_empty=True, deck=[], turn=player)


def end_round(state: GameState, player: PlayerId, card: Card = Card.MAP) -> Transition:
    """End the round without reaching the gold: `player` discards the last card in play."""
    state = only_card_left(state, player, card)
    return apply(state, player, Discard((card,)))


def act(state: GameState, player: PlayerId, action: Action) -> GameState:
    """Apply a legal action and return the new state."""
    assert action in legal_actions(state, player), f"{action!r} is not offered"
    return apply(state, player, action).state


def find_gold(state: GameState, finder: PlayerId, **changes: object) -> Transition:
    """`finder` lays the last card of the corridor of GOLD_NEXT and reaches the gold."""
    state = setup(state, board=GOLD_NEXT, hands={finder: [Card.STRAIGHT_EW]}, turn=finder)
    if changes:
        state = setup(state, **changes)  # type: ignore[arg-type]
    return apply(state, finder, LAST_STEP)
