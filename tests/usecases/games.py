"""Whole games through the use cases: seeded legal moves saved the way a tap saves them."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from engine import (
    Action,
    Card,
    Edition,
    GameState,
    Phase,
    PlaceTunnel,
    PublicView,
    apply,
    current_player,
    legal_actions,
)
from engine.archive import round_end_view, seat_move_text
from engine.events import Event, RoundEnded
from engine.timeline import is_dead_end
from engine.views import public_view
from tgbot.buttons import SetEdition, StartGame
from tgbot.records import GameRecord
from tgbot.store import Decision
from tgbot.usecases.turns import after_move, moved

from .conftest import ANN, BOB, CAT, Table


@dataclass
class Seen:
    """What the group was shown along a game: a public view after every move, and at each round
    end the view the round's end revealed (engine.archive.round_end_view), by round."""

    views: dict[int, list[PublicView]] = field(default_factory=dict)
    events: list[tuple[Event, ...]] = field(default_factory=list)


async def play(table: Table, gid: str, action: Action, seen: Seen | None = None) -> GameRecord:
    """The awaited player plays `action`, saved and announced as a tap's move is."""
    before = await table.state(gid)
    player = current_player(before)
    assert player is not None
    now = table.ctx.now()

    def decide(record: GameRecord | None) -> Decision[None]:
        assert record is not None and record.state is not None
        transition = apply(record.state, player, action)
        return Decision(None, moved(record, transition, player, now, action=action))

    done = await table.store.update(gid, decide)
    assert done.saved and done.record is not None and done.record.state is not None
    if seen is not None:
        transition = apply(before, player, action)
        events = transition.events
        seen.events.append(events)
        views = seen.views.setdefault(before.round, [public_view(before)])
        ended = [e for e in events if isinstance(e, RoundEnded)]
        if before.phase is Phase.THEFT:  # a thief's choice: the round's end stays on the board
            views.append(views[-1])
        else:
            shown = round_end_view(views[-1], events) if ended else public_view(done.record.state)
            views.append(shown)
    await after_move(table.ctx, done.record, before.version)
    return done.record


def choose(state: GameState, rng: random.Random, dig: float) -> Action:
    """A seeded legal move of the awaited player; `dig` of the time a tunnel (no dead end) as
    near the gold as offered, so that rounds end on the gold too."""
    player = current_player(state)
    assert player is not None
    offered = legal_actions(state, player)
    gold = next(g.at for g in state.goals if g.card is Card.GOLD)
    digs = [a for a in offered if isinstance(a, PlaceTunnel) and not is_dead_end(a.card)]
    if digs and rng.random() < dig:
        near = min(abs(a.at[0] - gold[0]) + abs(a.at[1] - gold[1]) for a in digs)
        return rng.choice(
            [a for a in digs if abs(a.at[0] - gold[0]) + abs(a.at[1] - gold[1]) == near]
        )
    return rng.choice(offered)


async def play_to_end(
    table: Table,
    gid: str,
    seed: int,
    *,
    dig: float = 0.8,
    seen: Seen | None = None,
    fast: bool = True,
) -> GameRecord:
    """Seeded legal moves until the game ends, every one saved and announced as a tap's move.

    `fast` saves the moves within a round in one write, unannounced (as if delivered already),
    and plays only each round's last move through the use cases: a game then takes
    milliseconds instead of seconds, and its record, archive and round ends are the same.
    """
    rng = random.Random(seed)
    record = await table.record(gid)
    while record.state is not None and current_player(record.state) is not None:
        if fast:
            await _skip_to_round_end(table, gid, rng, dig, seen)
            record = await table.record(gid)
        record = await play(table, gid, choose(record.state, rng, dig), seen)  # type: ignore[arg-type]
    return record


async def _skip_to_round_end(
    table: Table, gid: str, rng: random.Random, dig: float, seen: Seen | None
) -> None:
    """Save the moves of the current round up to (not including) the one that ends it."""
    record = await table.record(gid)
    state = record.state
    assert state is not None
    lines = list(record.moves)
    while True:
        probe = random.Random()
        probe.setstate(rng.getstate())
        action = choose(state, probe, dig)
        player = current_player(state)
        assert player is not None
        transition = apply(state, player, action)
        if any(isinstance(e, RoundEnded) for e in transition.events):
            break
        rng.setstate(probe.getstate())
        if seen is not None:
            seen.events.append(transition.events)
            views = seen.views.setdefault(state.round, [public_view(state)])
            theft = state.phase is Phase.THEFT  # a thief's choice: the round's end stays shown
            views.append(views[-1] if theft else public_view(transition.state))
        lines.append(seat_move_text(state.players, player, action))
        state = transition.state

    def skip(r: GameRecord | None) -> Decision[None]:
        assert r is not None
        return Decision(None, dataclasses.replace(r, state=state, moves=tuple(lines)))

    await table.store.update(gid, skip)


async def start(
    table: Table, players: tuple[int, ...] = (ANN, BOB, CAT), edition: Edition = Edition.BASE
) -> str:
    """A started game of this edition; its id."""
    if edition is Edition.BASE:
        return await table.start(players)
    gid = await table.open(players[0])
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(players[0], SetEdition(gid, revision, edition))
    await table.join(gid, *players)
    revision = (await table.record(gid)).lobby.revision
    toast = await table.lobby_tap(players[0], StartGame(gid, revision))
    assert toast.text == "Done!", toast
    return gid
