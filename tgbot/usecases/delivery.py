"""Delivery: send what a saved game owes (the outbox), one process per game (a lease), and the
sweeper that serves due deadlines and retries whatever is still owed.

The contract: an owed item stays owed until Telegram confirmed it, or refused it in a way
retrying cannot fix (then the bot does what the refusal means). A passing failure (a 5xx, a
429, a timeout, the group's budget spent) makes that chat wait, with back-off, while the other
chats are served; whichever process delivers next tries again. Per chat, items leave in order.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable

from engine import current_player

from .. import ahead, notice_texts, presenter, time_texts
from ..bot_budget import AGED_AFTER, overdue, urgency
from ..fitting import CAPTION_LIMIT, TEXT_LIMIT, keep_within, split_fitting, visible
from ..game_ids import GameId
from ..notice_texts import private_keyboard, render
from ..notices import Message, said
from ..outbox import (
    Owed,
    attempts_in,
    board_posted,
    delete_later,
    deleted,
    doubt,
    group_dropped,
    lines_shown,
    notes_for,
    owe,
    private_sent,
    private_text_sent,
    text_sent,
    wait,
    waiting,
    went_through,
)
from ..ports import Fate, Sent
from ..records import CorruptRecordError, GameRecord, Status
from .chats import migrate
from .clocks import handle_deadline
from .context import Context, player_language
from .history import deliver_replay, due
from .lobby_message import draw_lobby
from .panels import board_keyboard
from .reconcile import confirmed_send, floor_before, noted_floors
from .screens import refresh_private

log = logging.getLogger(__name__)

MAX_ITEMS = 200  # rounds one delivery run tries before leaving the rest to the sweeper
# The lease (15 s) is renewed before a round only once this much of it has passed: a round
# within seconds of the last renewal holds it for certain, and saves a Redis round trip.
RENEW_AFTER = 3.0
SWEEP_GAMES_AT_ONCE = 16  # games a sweep delivers side by side
Change = Callable[[GameRecord], GameRecord]
Step = Callable[[], Awaitable[None]]


async def deliver(ctx: Context, gid: GameId) -> None:
    """Send what a game owes, striking each item off once sent; one process at a time."""
    token = await ctx.lease.acquire(gid)
    if token is None:
        return  # another process delivers; what it leaves the sweeper picks up
    floors = ahead.take_floors()  # read with the lease: the first round's sends take them
    try:
        renewed = ctx.clock()
        record = await ctx.store.load(gid)  # afresh: another process may have delivered
        for _ in range(MAX_ITEMS):
            if record is None or record.owed.is_empty:
                return
            if ctx.clock() - renewed >= RENEW_AFTER:
                if not await ctx.lease.renew(gid, token):
                    return  # the lease ran out (a very slow send): another process goes on
                renewed = ctx.clock()
            steps = plan(ctx, record)
            if not steps:
                return  # what is left waits for its chat's back-off
            # Each chat's next item at once: a board post and the next player's hand do not
            # wait for each other (each saves its own outcome by compare-and-set).
            with noted_floors(floors):
                async with ctx.batched() as saved:  # one compare-and-set for the whole round
                    outcomes = await asyncio.gather(
                        *(step() for step in steps), return_exceptions=True
                    )
            floors = {}  # (older by now)
            # The round's save is the latest record (its compare-and-set saw every other
            # save), so the next round plans from it; only a round that saved nothing loads.
            record = saved[gid] if gid in saved else await ctx.store.load(gid)
            failed = next((o for o in outcomes if isinstance(o, BaseException)), None)
            if failed is not None:
                raise failed  # after the other chats' items went their way
    finally:
        await ctx.lease.release(gid, token)


async def deliver_one(ctx: Context, record: GameRecord) -> bool:
    """Try the first owed item of the first chat that is not waiting. False when every owed chat
    waits."""
    steps = plan(ctx, record)
    if steps:
        await steps[0]()
    return bool(steps)


def plan(ctx: Context, record: GameRecord) -> list[Step]:
    """The next item of every owed chat that is not waiting, one per chat (so each chat's items
    leave in order): in a chat, deletions first; in the group then the lobby, texts, replays and
    the board; in private chats texts of their own, then the live messages. A hand sent anew
    (a player's turn) goes after the group's send of the same round when a board is owed."""
    owed, now = record.owed, ctx.clock()
    steps: dict[int, Step] = {}
    for chat, message in owed.deletions:
        if chat not in steps and not waiting(owed, chat, now):
            steps[chat] = functools.partial(_delete, ctx, record, chat, message)
    group = record.chat_id
    if group not in steps and not waiting(owed, group, now):
        step = _group_step(ctx, record)
        if step is not None:
            steps[group] = _aged(owed, group, step)
    for user, text in owed.private_texts:
        if user not in steps and not waiting(owed, user, now):
            steps[user] = _aged(
                owed, user, functools.partial(_private_text, ctx, record, user, text)
            )
    if record.state is not None:
        # A player's turn comes after the board that shows the move before it: when the group
        # sends now and owes a board, a hand sent anew waits for the group's send (in the same
        # round, saved with it); when the group waits, the hands do not.
        board = steps.get(group) if owed.board_version is not None else None
        sent: asyncio.Event | None = None
        if board is not None:
            sent = asyncio.Event()
            steps[group] = _then_set(board, sent)
        for fresh, users in ((True, owed.fresh), (False, owed.edits)):
            for user in users:
                if user not in steps and not waiting(owed, user, now):
                    step = functools.partial(_private, ctx, record, user, fresh=fresh)
                    steps[user] = _after(sent, step) if fresh and sent is not None else step
    return list(steps.values())


def _then_set(step: Step, done: asyncio.Event) -> Step:
    async def then_set() -> None:
        try:
            await step()
        finally:
            done.set()

    return then_set


def _after(done: asyncio.Event, step: Step) -> Step:
    """`step` once `done` is set (by a step earlier in the same plan: `deliver_one`, which runs
    the first step alone, never reaches one of these)."""

    async def after() -> None:
        await done.wait()
        await step()

    return after


def _aged(owed: Owed, chat: int, step: Step) -> Step:
    """A chat refused by the budgets AGED_AFTER times in a row sends as overdue (it books the
    bot-wide budget's next token, `bot_budget.overdue`): the group, so that the players'
    messages do not keep its board waiting; a person's own text ("you joined", a notice), so
    that the overdue sends of other chats, booked further ahead than an urgent send books, do
    not refuse it at every try (and the live message behind it with it: the load benchmark's
    first player never got a hand). A player's live message ages in `_private`."""
    if attempts_in(owed, chat) < AGED_AFTER:
        return step

    async def urgent() -> None:
        with overdue():
            await step()

    return urgent


def _group_step(ctx: Context, record: GameRecord) -> Step | None:
    """The group's next item, if it owes one."""
    owed = record.owed
    if owed.lobby_text is not None:
        return functools.partial(_lobby, ctx, record, owed.lobby_text)
    if owed.lobby_redraw:
        return functools.partial(_lobby_redraw, ctx, record)
    if owed.texts:
        return functools.partial(_group_text, ctx, record)
    if due(record):
        return functools.partial(deliver_replay, ctx, record, _send_group)
    if owed.board_version is not None and record.state is not None:
        return functools.partial(_board, ctx, record)
    if owed.board_keyboard:
        return functools.partial(_keyboard_again, ctx, record)
    return None


async def _failed(ctx: Context, record: GameRecord, chat: int, sent: Sent, drop: Change) -> None:
    """Do what a refused call means: wait and retry, follow a moved group, or drop the item."""
    now = ctx.clock()
    if sent.transient:
        await ctx.strike(
            record.game_id,
            lambda r: dataclasses.replace(r, owed=wait(r.owed, chat, now, sent.retry_after)),
        )
    elif sent.fate is Fate.MOVED and sent.new_chat is not None:
        await migrate(ctx, chat, sent.new_chat)
    else:
        log.warning(
            "game %s: chat %s refused an item (%s): %s",
            record.game_id,
            chat,
            sent.fate.value,
            sent.detail,
        )
        await ctx.strike(record.game_id, drop)


async def _send_group(
    ctx: Context,
    record: GameRecord,
    send: Callable[[], Awaitable[Sent]],
    done: Callable[[int], Change],
    drop: Change | None = None,
) -> None:
    """A group send with its bookkeeping: the floor noted before, doubts after a timeout, the
    group's waits, and `done(message id)` saved once Telegram confirmed it (`drop` instead of
    the group's items when Telegram refused it for good)."""
    chat = record.chat_id
    floor = await floor_before(ctx, chat)
    sent = await send()
    if sent.ok and sent.message_id is not None:
        await confirmed_send(ctx, record, chat, sent, done(sent.message_id))
        return
    if sent.fate is Fate.UNKNOWN:
        await ctx.strike(record.game_id, lambda r: _doubted(r, chat, floor))
    await _failed(ctx, record, chat, sent, drop or (lambda r: _group_gone(r, sent)))


def _doubted(record: GameRecord, chat: int, floor: int) -> GameRecord:
    return dataclasses.replace(record, owed=doubt(record.owed, chat, floor))


def _group_gone(record: GameRecord, sent: Sent) -> GameRecord:
    """A group that is gone gets nothing more; an item Telegram cannot take is dropped alone."""
    owed = record.owed
    if sent.fate is Fate.REFUSED and owed.lobby_text is not None:
        return dataclasses.replace(record, owed=dataclasses.replace(owed, lobby_text=None))
    if sent.fate is Fate.REFUSED and owed.texts:
        return dataclasses.replace(record, owed=dataclasses.replace(owed, texts=owed.texts[1:]))
    return dataclasses.replace(record, owed=group_dropped(owed))


async def _lobby(ctx: Context, record: GameRecord, message: Message) -> None:
    """The lobby message comes to say what happened (started, cancelled, expired); posted as a
    text when it cannot be edited (deleted, too old)."""
    text = render(message, record, record.language)

    def done(_: int | None = None) -> Change:
        def change(r: GameRecord) -> GameRecord:
            if r.owed.lobby_text != message:
                return r
            owed = dataclasses.replace(r.owed, lobby_text=None)
            return dataclasses.replace(r, owed=went_through(owed, r.chat_id))

        return change

    lobby = record.messages.lobby
    if lobby is not None:
        edited = await ctx.sender.edit_text(record.chat_id, lobby, text, ())
        if edited.ok:
            await ctx.strike(record.game_id, done())
            return
        if edited.fate is not Fate.GONE:
            await _failed(ctx, record, record.chat_id, edited, lambda r: _group_gone(r, edited))
            return
    await _send_group(
        ctx, record, lambda: ctx.sender.group_text(record.chat_id, record.thread_id, text), done
    )


async def _lobby_redraw(ctx: Context, record: GameRecord) -> None:
    """The lobby drawn again after a failed drawing (only while it is a lobby)."""

    def drawn(r: GameRecord) -> GameRecord:
        owed = dataclasses.replace(r.owed, lobby_redraw=False)
        return dataclasses.replace(r, owed=went_through(owed, r.chat_id))

    if record.status is not Status.LOBBY:
        await ctx.strike(record.game_id, drawn)
        return
    sent = await draw_lobby(ctx, record)
    if sent.ok:
        await ctx.strike(record.game_id, drawn)
    else:
        await _failed(ctx, record, record.chat_id, sent, drawn)


async def _group_text(ctx: Context, record: GameRecord) -> None:
    """The first owed group text, in the group's language (a long one in parts that each fit,
    whole lines each; one that says nothing here is struck off)."""
    message = record.owed.texts[0]
    text = render(message, record, record.language)
    parts = split_fitting(text.split("\n"), TEXT_LIMIT)
    rest = "\n".join(parts[1:])

    def done(_: int) -> Change:
        return lambda r: dataclasses.replace(r, owed=text_sent(r.owed, message, rest))

    if not text.strip():
        await ctx.strike(record.game_id, done(0))
        return

    await _send_group(
        ctx,
        record,
        lambda: ctx.sender.group_text(record.chat_id, record.thread_id, parts[0]),
        done,
    )


async def _board(ctx: Context, record: GameRecord) -> None:
    """Post the board with the moves since the last one; the old board post is deleted later.

    The caption always ends with who plays next; move lines that do not fit go first, in order,
    as a text post of their own.
    """
    state = record.state
    assert state is not None
    owed_lines, start = record.owed.board_lines, record.owed.lines_struck
    lines = tuple(render(m, record, record.language) for m in owed_lines)
    names = presenter.names_of(record)
    ends_at = time_texts.turn_ends_at(record)
    footer = presenter.board_footer(state, names, record.language, ends_at=ends_at)
    room = CAPTION_LIMIT - (visible(footer) + 1 if footer else 0)
    kept = keep_within(lines, room)
    if kept < len(lines):
        cut = len(lines) - kept
        await _overflow(ctx, record, owed_lines[:cut], lines[:cut])
        return
    caption = presenter.board_caption(state, names, record.language, lines, ends_at=ends_at)
    png = ctx.painter.board(state, names)
    version = state.version

    def done(message_id: int) -> Change:
        def change(r: GameRecord) -> GameRecord:
            posted = board_posted(r.owed, version, owed_lines, start=start)
            owed = delete_later(posted, r.chat_id, r.messages.board)
            messages = dataclasses.replace(r.messages, board=message_id)
            return dataclasses.replace(r, owed=owed, messages=messages)

        return change

    await _send_group(
        ctx,
        record,
        lambda: ctx.sender.group_photo(
            record.chat_id, record.thread_id, png, caption, board_keyboard(record), above=True
        ),
        done,
    )


async def _keyboard_again(ctx: Context, record: GameRecord) -> None:
    """The board post's keyboard set again: another game's search for copies (in another forum
    topic of the chat) took it (`reconcile`). Whatever board post the game has now gets it (a
    later post has it already: no change)."""

    def done(r: GameRecord) -> GameRecord:
        owed = dataclasses.replace(r.owed, board_keyboard=False)
        return dataclasses.replace(r, owed=went_through(owed, r.chat_id))

    board = record.messages.board
    if board is None:
        await ctx.strike(record.game_id, done)
        return
    sent = await ctx.sender.edit_keyboard(record.chat_id, board, board_keyboard(record))
    if sent.ok:
        await ctx.strike(record.game_id, done)
    else:
        await _failed(ctx, record, record.chat_id, sent, done)


async def _overflow(
    ctx: Context, record: GameRecord, owed: tuple[Message, ...], lines: tuple[str, ...]
) -> None:
    """Move lines the board's caption cannot hold (`owed`, rendered as `lines`), posted as a
    text before the board."""
    text = split_fitting(lines, TEXT_LIMIT)[0]
    shown = owed[: len(_whole_lines(lines, text))]

    def done(_: int) -> Change:
        start = record.owed.lines_struck
        return lambda r: dataclasses.replace(r, owed=lines_shown(r.owed, shown, start=start))

    await _send_group(
        ctx, record, lambda: ctx.sender.group_text(record.chat_id, record.thread_id, text), done
    )


def _whole_lines(lines: tuple[str, ...], text: str) -> tuple[str, ...]:
    """The owed lines a text shows (it joins the first few of them)."""
    for n in range(len(lines), 0, -1):
        if "\n".join(lines[:n]) == text:
            return lines[:n]
    return lines[:1]


async def _delete(ctx: Context, record: GameRecord, chat: int, message: int) -> None:
    """An owed deletion: done, or gone (too old, deleted already), is struck off; a passing
    failure waits."""
    sent = await ctx.sender.delete(chat, message)

    def drop(r: GameRecord) -> GameRecord:
        owed = went_through(deleted(r.owed, chat, message), chat)
        return dataclasses.replace(r, owed=owed)

    if sent.transient:
        await _failed(ctx, record, chat, sent, drop)
    else:
        await ctx.strike(record.game_id, drop)


async def _private(ctx: Context, record: GameRecord, user: int, *, fresh: bool) -> None:
    """A player's live message: sent anew (their turn, a new round) or edited; its notes in
    the player's language."""
    lang = player_language(record, user)
    prompt = [render(n, record, lang) for n in notes_for(record.owed, user)]
    to_move = record.state is not None and current_player(record.state) == user
    aged = attempts_in(record.owed, user) >= AGED_AFTER  # refused often enough: its turn now
    # The player to move goes first when the budget is short; a chat refused often, at once.
    with overdue() if aged else urgency(to_move):
        sent = await refresh_private(ctx, record, user, new_message=fresh, prompt=prompt)
    if sent.ok:  # (a new message's id was recorded by `show`)
        await ctx.strike(record.game_id, _private_done(user, fresh, drawn=record))
        return
    if sent.fate is Fate.BLOCKED:
        await ctx.strike(record.game_id, _unreachable(ctx, user, fresh))
        return
    await _failed(ctx, record, user, sent, _private_done(user, True))


async def _private_text(ctx: Context, record: GameRecord, user: int, message: Message) -> None:
    """A text sent once to a person's private chat (such as "you joined"), in their language."""
    lang = player_language(record, user)
    text = render(message, record, lang)

    def done(r: GameRecord) -> GameRecord:
        return dataclasses.replace(r, owed=private_text_sent(r.owed, user, message))

    if not text.strip():
        await ctx.strike(record.game_id, done)
        return
    floor = await floor_before(ctx, user)
    sent = await ctx.sender.private_text(user, text, private_keyboard(message, record, lang))
    if sent.ok and sent.message_id is not None:
        await confirmed_send(ctx, record, user, sent, done)
        return
    if sent.fate is Fate.UNKNOWN:
        await ctx.strike(record.game_id, lambda r: _doubted(r, user, floor))
    await _failed(ctx, record, user, sent, done)


def _private_done(user: int, fresh: bool, drawn: GameRecord | None = None) -> Change:
    """Strike off a player's live message. One `drawn` from an older move than the record's now
    (a move was saved while it was sent, a computer's at once, say) is owed again as an edit,
    with the notes it did not show: striking it whole would leave the older hand on screen (the
    newer move's redraw was folded into the one being sent)."""

    def change(r: GameRecord) -> GameRecord:
        owed = went_through(private_sent(r.owed, user, fresh=fresh), user)
        if drawn is not None and _moved_since(drawn, r):
            shown = notes_for(drawn.owed, user)
            later = [(u, n) for u, n in r.owed.notes if u == user and n not in shown]
            owed = owe(owed, edits=(user,), notes=later)
        return dataclasses.replace(r, owed=owed)

    return change


def _moved_since(drawn: GameRecord, now: GameRecord) -> bool:
    """Whether a move was saved after `drawn` was loaded."""
    before, after = drawn.state, now.state
    return before is not None and after is not None and after.version != before.version


def _unreachable(ctx: Context, user: int, fresh: bool) -> Change:
    """A player's private chat refused the bot (blocked, or never started): their live message
    is dropped until they press Start; the group hears it when the game waits for them."""
    bot = ctx.sender.username

    def change(r: GameRecord) -> GameRecord:
        owed = private_sent(r.owed, user, fresh=True)
        waits_for_them = r.state is not None and current_player(r.state) == user
        if fresh and (waits_for_them or user not in r.unreachable):
            name = presenter.mention(user, presenter.names_of(r).get(user, "?"))
            owed = owe(owed, texts=[said(notice_texts.unreachable, name=name, bot=bot)])
        unreachable = r.unreachable if user in r.unreachable else (*r.unreachable, user)
        return dataclasses.replace(r, owed=owed, unreachable=unreachable)

    return change


async def sweep(ctx: Context) -> None:
    """Serve due deadlines (one claimed and never served, its process dead, is served again
    when its claim ends) and deliver whatever any game still owes (run periodically).

    A game whose record cannot be read is logged and skipped, so every other game is served.
    """
    for member in await ctx.deadlines.claim_due(ctx.clock()):
        try:
            await handle_deadline(ctx, member)
        except Exception:
            log.exception("deadline %s failed", member)
        # Served (or failed for good). A process that dies before this line leaves the claim
        # to run out, and the deadline is served again by whichever process sweeps then.
        await ctx.deadlines.done(member)
    # Games are delivered side by side (each under its own lease): one after another, a pass
    # over many games behind a spent budget took longer than a minute, and a game whose item
    # was refused waited a whole pass for its next try (its mover's hand stayed as it was).
    gate = asyncio.Semaphore(SWEEP_GAMES_AT_ONCE)

    async def one(gid: GameId) -> None:
        async with gate:
            try:
                await ctx.deliver(gid)
            except CorruptRecordError:
                log.exception("game %s: its record cannot be read; skipped", gid)

    outcomes = await asyncio.gather(
        *(one(gid) for gid in await ctx.store.owing_games()), return_exceptions=True
    )
    failed = next((o for o in outcomes if isinstance(o, BaseException)), None)
    if failed is not None:
        raise failed  # (Redis away: the sweeper says so once) after every other game's turn
