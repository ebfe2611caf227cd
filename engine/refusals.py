"""Why an action that is not among the legal ones is refused (an IllegalAction with a reason)."""

from __future__ import annotations

import dataclasses
from collections import Counter

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
    EDGES,
    Card,
    Edition,
    Kind,
    spec,
)
from .errors import IllegalAction, Reason
from .legal import _OVER, _equal_legal, _ladder_cells, can_dig
from .model import (
    GameState,
    Phase,
    PlayerId,
)

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
    """Whether a value is a player id: an int itself (not a boolean, nor an IntEnum)."""
    return type(value) is int


def _is_cell(at: object) -> bool:
    """Whether a value is a cell of the grid: a pair of ints (not booleans, nor IntEnums)."""
    return isinstance(at, tuple) and len(at) == 2 and all(type(v) is int for v in at)


def _same_shape(given: object, offered: object) -> bool:
    """Whether an action equal to an offered one also holds values of the same types, field by
    field (Steal(Card.GOLD) equals Steal(1), and PlaceTunnel(5, ...) a card's, but neither is
    what was offered)."""
    if type(given) is not type(offered):
        return False
    if isinstance(given, tuple):
        assert isinstance(offered, tuple)
        return len(given) == len(offered) and all(map(_same_shape, given, offered))
    if dataclasses.is_dataclass(given):
        return all(
            _same_shape(getattr(given, f.name), getattr(offered, f.name))
            for f in dataclasses.fields(given)
        )
    return True


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
        offered = _equal_legal(state, seat, action)
    except TypeError:  # an unhashable forgery
        offered = None
    if offered is not None and _same_shape(action, offered):
        return offered
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
