"""A move saved with what it owes the chats, and the turn's deadlines kept in step with it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from engine import Action, GameState, Phase, Transition, current_player
from engine.archive import seat_move_text
from engine.events import (
    Event,
    GameEnded,
    GoalPeeked,
    GoldReceived,
    HandDealt,
    RoleDealt,
    RoleSeen,
    RoundEnded,
    RoundStarted,
)
from engine.timeline import Entry

from .. import clocks, presenter
from ..archives import round_deeds
from ..outbox import END, Owed, owe
from ..records import GameRecord, Status, is_computer_id
from .context import FINISHED_TTL_SECONDS, Context

_PRIVATE_EVENTS = GoalPeeked | RoleSeen | HandDealt | RoleDealt | GoldReceived


def owed_after(
    record: GameRecord,
    state: GameState,
    actor: int,
    events: Sequence[Event],
    deeds: Mapping[int, Sequence[Entry]] | None = None,
) -> Owed:
    """What a move owes the chats: summaries (with the round's `deeds`, by round), the board
    post, a round's replay, the game's end (its archive and message), private messages (to
    people only: a computer player has no chat)."""
    lang = record.language
    names = presenter.names_of(record)
    moves = presenter.move_lines(events, names, lang)
    announcements: list[str] = []
    replays: list[int] = []
    for i, e in enumerate(events):
        if isinstance(e, RoundEnded):
            starter = next((x.starter for x in events[i:] if isinstance(x, RoundStarted)), None)
            next_round = e.result.round + 1 if starter is not None else None
            told = (deeds or {}).get(e.result.round, ())
            text = presenter.round_text(e.result, names, lang, next_round, starter, events, told)
            announcements.append("\n".join([*moves, "", text]) if moves else text)
            replays.append(e.result.round)
            moves = []
    people = [u for u in state.players if not is_computer_id(u)]
    ended = next((e for e in events if isinstance(e, GameEnded)), None)
    if ended is not None:
        if record.is_practice:  # its chat is the player's: the scoreboard ends the last board
            moves.append(presenter.game_text(ended, names, lang, practice=True))
        # Otherwise the scoreboard is the game-end message, sent after the last board (with a
        # rematch), when the game is archived (a practice game is not).
        return owe(
            record.owed,
            texts=announcements,
            lines=moves,
            board_version=state.version,
            edits=people,
            replays=replays if record.is_practice else [*replays, END],
        )
    new_round = any(isinstance(e, RoundStarted) for e in events)
    nxt = current_player(state)
    fresh = people if new_round else [nxt] if nxt is not None and nxt in people else []
    touched = {actor} | {
        e.audience for e in events if isinstance(e, _PRIVATE_EVENTS) and e.audience is not None
    }
    return owe(
        record.owed,
        texts=announcements,
        lines=moves,
        board_version=state.version,
        fresh=fresh,
        edits=[u for u in people if u in touched],
        replays=replays,
    )


def moved(
    record: GameRecord,
    transition: Transition,
    actor: int,
    now: int,
    *,
    action: Action,
    stand_in: bool = False,
    texts: Sequence[str] = (),
    notes: Sequence[tuple[int, str]] = (),
) -> GameRecord:
    """The record after `actor` played `action` (kept in the game's moves, for the archive and
    the replays), owing its announcements (texts and notes first)."""
    state = transition.state
    lines = (*record.moves, seat_move_text(state.players, actor, action))  # seats never change
    deeds = {
        e.result.round: round_deeds(state, lines, e.result.round)
        for e in transition.events
        if isinstance(e, RoundEnded)
    }
    owed = owed_after(record, state, actor, transition.events, deeds)
    if texts:
        owed = dataclasses.replace(owed, texts=(*texts, *owed.texts))
    if notes:
        owed = owe(owed, notes=notes)
    misses = dict(record.misses)
    automatic = list(record.automatic)
    if not stand_in:
        misses.pop(actor, None)
        if actor in automatic:
            automatic.remove(actor)
    return dataclasses.replace(
        record,
        state=state,
        status=Status.FINISHED if state.phase is Phase.OVER else record.status,
        updated_at=now,
        turn_started_at=now,
        owed=owed,
        misses=tuple(sorted(misses.items())),
        automatic=tuple(automatic),
        kick_votes=(),
        moves=lines,
    )


async def after_move(ctx: Context, record: GameRecord, before_version: int) -> None:
    """Once a move is saved: free a finished game, reschedule the turn, deliver."""
    state = record.state
    assert state is not None
    if state.phase is Phase.OVER:
        await ctx.store.finish(record.game_id, FINISHED_TTL_SECONDS)
        for uid in record.human_ids:
            await ctx.store.remove_user_game(uid, record.game_id)
    await schedule(ctx, record, before_version)
    await ctx.deliver(record.game_id)


async def schedule(ctx: Context, record: GameRecord, previous_version: int | None) -> None:
    """Replace the deadlines of the previous turn by those of the current one (one call)."""
    old = [] if previous_version is None else _turn_members(record.game_id, previous_version)
    state = record.state
    if state is None or record.status is not Status.PLAYING:
        if old:
            await ctx.deadlines.drop(old)
        return
    player = current_player(state)
    await ctx.deadlines.replace(
        old,
        clocks.deadlines(
            record.game_id,
            state,
            turn_started_at=record.turn_started_at,
            limit_hours=record.lobby.turn_limit_hours,
            automatic=player in record.automatic,
            computer_pause=(
                ctx.computer_pause if player is not None and is_computer_id(player) else None
            ),
        ),
    )


async def resume(ctx: Context, record: GameRecord) -> None:
    """A turn the game plays by itself (a computer player's, or an absent player's) is owed its
    deadline again: a process that died after claiming it would otherwise leave the game
    waiting. Harmless when it is pending or being served (the move is made once)."""
    state = record.state
    if state is None or record.status is not Status.PLAYING:
        return
    player = current_player(state)
    if player is None or not (is_computer_id(player) or player in record.automatic):
        return
    await schedule(ctx, record, None)


async def unschedule(ctx: Context, record: GameRecord) -> None:
    """Drop the pending deadlines of a game that stopped (cancelled, expired, bot removed)."""
    members = [_expiry_member(record, record.lobby.revision)]
    if record.state is not None:
        members += _turn_members(record.game_id, record.state.version)
    await ctx.deadlines.drop(members)


async def keep_lobby(ctx: Context, record: GameRecord) -> None:
    """A lobby just saved: it expires a day after its latest change, not an earlier one."""
    if record.status is not Status.LOBBY:
        return
    revision = record.lobby.revision
    if revision > 0:
        await ctx.deadlines.drop([_expiry_member(record, revision - 1)])
    await ctx.deadlines.add([clocks.lobby_expiry(record.game_id, revision, record.updated_at)])


async def lobby_started(ctx: Context, record: GameRecord) -> None:
    """A started game no longer expires as a lobby."""
    await ctx.deadlines.drop([_expiry_member(record, record.lobby.revision)])


def _expiry_member(record: GameRecord, revision: int) -> str:
    return clocks.lobby_expiry(record.game_id, revision, 0).member


def _turn_members(game: str, version: int) -> list[str]:
    kinds = (clocks.DeadlineKind.REMIND, clocks.DeadlineKind.TIMEOUT, clocks.DeadlineKind.COMPUTER)
    return [clocks.Deadline(game, version, kind, 0).member for kind in kinds]
