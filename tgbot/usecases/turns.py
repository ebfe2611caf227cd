"""A move saved with what it owes the chats, and the turn's deadlines kept in step with it."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence

from engine import Action, Card, GameState, Phase, Transition, current_player
from engine.archive import seat_move_text
from engine.events import (
    ActionPlayed,
    Event,
    GameEnded,
    GoalPeeked,
    GoldReceived,
    GoldStolen,
    HandDealt,
    RoleDealt,
    RoleSeen,
    RoundEnded,
    RoundStarted,
)
from engine.timeline import Entry

from .. import clocks, metrics, notice_texts, presenter, round_texts
from ..archives import round_deeds, round_end
from ..notices import GameOver, Message, RoundOver, Told, as_message, said, told
from ..outbox import END, Owed, owe
from ..records import GameRecord, Status, is_computer_id
from ..trips import riding
from .context import FINISHED_TTL_SECONDS, Context

_PRIVATE_EVENTS = GoalPeeked | RoleSeen | HandDealt | RoleDealt | GoldReceived


def owed_after(
    record: GameRecord,
    state: GameState,
    actor: int,
    events: Sequence[Event],
    deeds: Mapping[int, Sequence[Entry]] | None = None,
    finals: Collection[int] = (),
) -> Owed:
    """What a move owes the chats: summaries (with the round's `deeds`, by round), the board
    post, a round's final board and replay, the game's end (its archive and message), private
    messages and notices (to people only: a computer player has no chat).

    A round in `finals` can be replayed from the record: its end is owed as the round's final
    board with every goal turned up, its story as the caption (drawn at delivery); otherwise
    its story is owed as a text."""
    moves: list[Message] = list(told(events))
    announcements: list[Message] = []
    replays: list[int] = []
    for i, e in enumerate(events):
        if isinstance(e, RoundEnded):
            number = e.result.round
            if number in finals:
                replays += [final_board(number), number]
            else:
                starter = next((x.starter for x in events[i:] if isinstance(x, RoundStarted)), None)
                round_deeds = (deeds or {}).get(number, ())
                over = RoundOver(
                    e.result,
                    moves=tuple(m for m in moves if isinstance(m, Told)),
                    deeds=tuple(d for d in round_deeds if d.deed in presenter.TOLD_DEEDS),
                    next_round=number + 1 if starter is not None else None,
                    starter=starter,
                )
                announcements.append(over)
                replays.append(number)
            moves = []
    if not any(isinstance(e, RoundEnded) for e in events):
        # A thief's choice that settles a round deals the next one.
        for e in events:
            if isinstance(e, RoundStarted):
                moves.append(said(notice_texts.round_begins, round=e.round, starter=e.starter))
    if state.phase is Phase.THEFT:  # told under the round's last board
        thief = current_player(state)
        assert thief is not None
        moves.append(said(notice_texts.thief_choosing, thief=thief))
    people = [u for u in state.players if not is_computer_id(u)]
    notices, told_privately = private_notices(record, state, events)
    ended = next((e for e in events if isinstance(e, GameEnded)), None)
    if ended is not None:
        final = state.results[-1].round in finals
        if record.is_practice and not final:  # its chat is the player's: the scoreboard ends
            moves.append(GameOver(ended.gold, ended.winners, practice=True))  # the last board
        # Otherwise the scoreboard is the game-end message, sent after the last board (with a
        # rematch), when the game is archived (a practice game is not); the round's final board
        # is the last board.
        return owe(
            record.owed,
            texts=announcements,
            lines=moves,
            board_version=None if final else state.version,
            edits=people,
            private_texts=notices,
            replays=replays if record.is_practice else [*replays, END],
        )
    new_round = any(isinstance(e, RoundStarted) for e in events)
    nxt = current_player(state)
    fresh = people if new_round else [nxt] if nxt is not None and nxt in people else []
    touched = {actor} | {
        e.audience for e in events if isinstance(e, _PRIVATE_EVENTS) and e.audience is not None
    }
    if state.phase is Phase.THEFT:  # the round is over for everyone while a thief chooses
        touched |= set(people)
    return owe(
        record.owed,
        texts=announcements,
        lines=moves,
        board_version=state.version,
        fresh=[*fresh, *(u for u in told_privately if u in people)],
        edits=[u for u in people if u in touched],
        private_texts=notices,
        replays=replays,
    )


def final_board(number: int) -> int:
    """The item of `Owed.replays` that owes round `number`'s final board (before its replay)."""
    return -number


def private_notices(
    record: GameRecord, state: GameState, events: Sequence[Event]
) -> tuple[list[tuple[int, Message]], list[int]]:
    """The notices a move owes players privately, each to its own player's private chat (made
    in their language at delivery), and the players the move acted on, whose live message comes
    anew so that they notice: a hat or a hand swapped with them, a trap, a theft; at a round's
    end what each received and their total; at the game's end their place."""
    people = [u for u in state.players if not is_computer_id(u)]
    gold = dict(zip(state.players, state.gold, strict=True))
    notes: list[tuple[int, Message]] = []
    acted_on: list[int] = []

    def say(user: int, message: Message, *, notify: bool = False) -> None:
        if user in people:
            notes.append((user, message))
            if notify and user not in acted_on:
                acted_on.append(user)

    for i, e in enumerate(events):
        if isinstance(e, ActionPlayed):
            if e.card is Card.SWAP_HATS:
                role = next(
                    (
                        x.role
                        for x in events[i:]
                        if isinstance(x, RoleDealt) and x.player == e.target
                    ),
                    None,
                )
                if role is not None:
                    hat = said(notice_texts.hat_swapped, by=e.player, me=e.target, role=role.name)
                    say(e.target, hat, notify=e.target != e.player)
            elif e.card is Card.SWAP_HAND:
                say(e.target, said(notice_texts.hand_swapped, by=e.player), notify=True)
            elif e.card is Card.TRAPPED:
                say(e.target, said(notice_texts.trapped, by=e.player), notify=True)
        elif isinstance(e, RoundEnded):
            received = {
                x.player: x.nuggets
                for x in events[i:]
                if isinstance(x, GoldReceived) and x.audience == x.player
            }
            for u in people:
                paid = said(
                    notice_texts.round_paid,
                    round=e.result.round,
                    nuggets=received.get(u, 0),
                    total=gold[u],
                )
                say(u, paid)
        elif isinstance(e, GoldStolen):  # public: who from whom; each of the two is told
            for me in dict.fromkeys((e.thief, e.victim)):  # their own total, privately
                theft = said(
                    notice_texts.gold_stolen, me=me, thief=e.thief, victim=e.victim, total=gold[me]
                )
                say(me, theft, notify=True)
        elif isinstance(e, GameEnded):
            place = round_texts.places(e.gold)
            for u in people:
                tied = len(e.winners) > 1
                final = said(
                    notice_texts.final_place,
                    place=place[u],
                    count=len(e.gold),
                    gold=gold[u],
                    tied=tied,
                )
                say(u, final)
    return notes, acted_on


def moved(
    record: GameRecord,
    transition: Transition,
    actor: int,
    now: int,
    *,
    action: Action,
    stand_in: bool = False,
    texts: Sequence[str | Message] = (),
    notes: Sequence[tuple[int, str | Message]] = (),
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
    finals = [r for r in deeds if round_end(state, lines, r) is not None]
    owed = owed_after(record, state, actor, transition.events, deeds, finals)
    if texts:
        owed = dataclasses.replace(owed, texts=(*map(as_message, texts), *owed.texts))
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
    metrics.MOVES.inc()
    state = record.state
    assert state is not None
    if state.phase is Phase.OVER:
        await ctx.store.finish(record.game_id, FINISHED_TTL_SECONDS)
        for uid in record.human_ids:
            await ctx.store.remove_user_game(uid, record.game_id)
    async with riding():  # the turn's deadlines go to Redis with the delivery's lease
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
    computer = player is not None and is_computer_id(player)
    await ctx.deadlines.replace(
        old,
        clocks.deadlines(
            record.game_id,
            state,
            turn_started_at=record.turn_started_at,
            limit_hours=record.lobby.turn_limit_hours,
            automatic=player in record.automatic,
            computer_pause=ctx.computer_pause if computer else None,
            practice=record.is_practice,
        ),
    )
    if computer:
        ctx.wake(ctx.computer_pause)  # its move is served when due, not at the next tick


async def resume(ctx: Context, record: GameRecord) -> None:
    """A turn the game plays by itself (a computer player's, or an absent player's) is owed its
    deadline again, at once: a process that died after claiming it leaves it to its claim's
    lease otherwise (a minute). Harmless when it is pending or being served (the move is made
    once)."""
    state = record.state
    if state is None or record.status is not Status.PLAYING:
        return
    player = current_player(state)
    by_itself = player is not None and (is_computer_id(player) or player in record.automatic)
    if not (by_itself or record.is_practice):  # (a practice game's idle end is owed too)
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
    kinds = (
        clocks.DeadlineKind.REMIND,
        clocks.DeadlineKind.TIMEOUT,
        clocks.DeadlineKind.COMPUTER,
        clocks.DeadlineKind.IDLE,
    )
    return [clocks.Deadline(game, version, kind, 0).member for kind in kinds]
