"""Readable transcripts of a game: public view, each private view, legal actions, events."""

from __future__ import annotations

from collections.abc import Iterable

from .actions import Action
from .events import Event
from .model import GameState
from .notation import board_text
from .rules import Transition, legal_actions
from .views import BoardView, PlayerView, PublicView, player_view, public_view


def _seat_line(view: PublicView) -> str:
    parts = []
    for s in view.seats:
        front = ",".join(c.name for c in s.in_front)
        parts.append(f"{s.player}[{s.hand_size}{' ' + front if front else ''}]")
    return " ".join(parts)


def _private_line(view: PlayerView) -> str:
    peeked = ",".join(
        f"{g.at[0]},{g.at[1]}={g.card.name}" for g in view.board.goals if g.peeked and g.card
    )
    seen = ",".join(f"{p}={r.value}" for p, r in view.inspected)
    hand = ",".join(c.name for c in view.hand)
    return (
        f"  {view.me}: {view.role.value} gold={view.gold} hand={hand}"
        + (f" peeked={peeked}" if peeked else "")
        + (f" inspected={seen}" if seen else "")
    )


def describe_event(event: Event) -> str:
    """One event as `audience: Name(fields)`."""
    who = "all" if event.audience is None else str(event.audience)
    fields = ", ".join(
        f"{k}={_value(getattr(event, k))}" for k in event.__dataclass_fields__ if k != "audience"
    )
    return f"  {who}: {type(event).__name__}({fields})"


def _value(v: object) -> str:
    if isinstance(v, BoardView):
        return "\n" + "\n".join("      " + row for row in board_text(v).splitlines())
    if hasattr(v, "name") and hasattr(v, "value"):
        return str(v.name)
    if isinstance(v, tuple):
        return "(" + ", ".join(_value(x) for x in v) + ")"
    if hasattr(v, "__dataclass_fields__"):
        return (
            f"{type(v).__name__}("
            + ", ".join(f"{k}={_value(getattr(v, k))}" for k in v.__dataclass_fields__)
            + ")"
        )
    return repr(v)


def describe_action(action: Action) -> str:
    """An action in one line."""
    return _value(action)


def turn_text(state: GameState, player: int, action: Action, transition: Transition) -> str:
    """The transcript of one turn."""
    pub = public_view(state)
    lines = [
        f"== v{state.version} round {state.round}: {player} to act, deck {pub.deck_size},"
        f" discards {pub.discard_size}",
        f"seats {_seat_line(pub)}",
        *("  " + row for row in board_text(pub.board).splitlines()),
        *(_private_line(player_view(state, p)) for p in state.players),
        f"legal actions: {len(legal_actions(state, player))}",
        f"action: {describe_action(action)}",
        *(describe_event(e) for e in transition.events),
    ]
    return "\n".join(lines)


def transcript(steps: Iterable[tuple[GameState, int, Action, Transition]]) -> str:
    """A whole game, turn after turn, ending with the final public view."""
    out = []
    last: GameState | None = None
    for state, player, action, transition in steps:
        out.append(turn_text(state, player, action, transition))
        last = transition.state
    if last is not None:
        pub = public_view(last)
        out.append(f"== final: {pub.final_gold}")
    return "\n".join(out) + "\n"
