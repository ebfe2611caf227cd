"""Delivery: send what a saved game owes (the outbox), one process per game (a lease), and the
sweeper that serves due deadlines and retries whatever is still owed."""

from __future__ import annotations

import dataclasses
import logging

from .. import presenter
from ..callback import GameId
from ..outbox import board_posted, delete_later, notes_for, private_sent, text_sent
from ..records import CorruptRecordError, GameRecord
from .chats import migrate
from .clocks import handle_deadline
from .context import Context
from .history import deliver_replay, due
from .screens import delete_first, refresh_private

log = logging.getLogger(__name__)

MAX_ITEMS = 200  # items one delivery run sends before leaving the rest to the sweeper


async def deliver(ctx: Context, gid: GameId) -> None:
    """Send what a game owes, striking each item off once sent; one process at a time."""
    token = await ctx.lease.acquire(gid)
    if token is None:
        return  # another process delivers; what it leaves the sweeper picks up
    try:
        group_open = True
        for _ in range(MAX_ITEMS):
            record = await ctx.store.load(gid)
            if record is None or record.owed.is_empty or record.state is None:
                return
            if not await ctx.lease.renew(gid, token):
                return  # the lease ran out (a very slow send): another process goes on
            step = await deliver_one(ctx, record, group_open=group_open)
            if step is None:
                group_open = False  # the group must wait; private messages need not
            elif not step:
                return
    finally:
        await ctx.lease.release(gid, token)


async def deliver_one(ctx: Context, record: GameRecord, *, group_open: bool) -> bool | None:
    """Deliver the first owed item: deletions, group texts, replays, the board, private messages.

    True after progress; None when the group must wait (its budget is spent) and the group
    items were skipped; False when nothing can be delivered now.
    """
    owed = record.owed
    if owed.deletions:
        await delete_first(ctx, record)
        return True
    if group_open and owed.texts:
        return await _group_text(ctx, record)
    if due(record, group_open=group_open):
        return await deliver_replay(ctx, record, _flooded)
    if group_open and owed.board_version is not None:
        return await _board(ctx, record)
    if owed.fresh:
        await _private(ctx, record, owed.fresh[0], fresh=True)
        return True
    if owed.edits:
        await _private(ctx, record, owed.edits[0], fresh=False)
        return True
    return False


async def _private(ctx: Context, record: GameRecord, user: int, *, fresh: bool) -> None:
    """A player's live message: sent anew (their turn, a new round) or edited."""
    prompt = notes_for(record.owed, user)
    await refresh_private(ctx, record, user, new_message=fresh, prompt=prompt)
    await ctx.strike(
        record.game_id,
        lambda r: dataclasses.replace(r, owed=private_sent(r.owed, user, fresh=fresh)),
    )


async def _group_text(ctx: Context, record: GameRecord) -> bool | None:
    text = record.owed.texts[0]
    sent = await ctx.sender.group_text(record.chat_id, record.thread_id, text)
    if sent is None and await _flooded(ctx, record.chat_id):
        return None
    await ctx.strike(record.game_id, lambda r: dataclasses.replace(r, owed=text_sent(r.owed, text)))
    return True


async def _board(ctx: Context, record: GameRecord) -> bool | None:
    """Post the board with the moves since the last one; the old board post is deleted later."""
    state = record.state
    assert state is not None
    lines = record.owed.board_lines
    names = presenter.names_of(record)
    caption = presenter.board_caption(state, names, record.language, lines)
    png = ctx.painter.board(state, names)
    posted = await ctx.sender.group_photo(record.chat_id, record.thread_id, png, caption)
    if posted is None and await _flooded(ctx, record.chat_id):
        return None
    version = state.version

    def done(r: GameRecord) -> GameRecord:
        messages, owed = r.messages, board_posted(r.owed, version, lines)
        if posted is not None:
            owed = delete_later(owed, r.chat_id, messages.board)
            messages = dataclasses.replace(messages, board=posted)
        return dataclasses.replace(r, owed=owed, messages=messages)

    await ctx.strike(record.game_id, done)
    return True


async def _flooded(ctx: Context, chat: int) -> bool:
    """After a refused group send: True when it should be tried again later (the group's
    budget is spent, or Telegram said 429, or the group moved and is followed) rather than
    dropped."""
    moved = ctx.sender.migrations.pop(chat, None)
    if moved is not None:
        await migrate(ctx, chat, moved)
        return True
    return ctx.sender.take_retry_after() is not None


async def sweep(ctx: Context) -> None:
    """Serve due deadlines and deliver whatever any game still owes (run periodically).

    A game whose record cannot be read is logged and skipped, so every other game is served.
    """
    for member in await ctx.deadlines.claim_due(ctx.clock()):
        try:
            await handle_deadline(ctx, member)
        except Exception:
            log.exception("deadline %s failed", member)
    for gid in await ctx.store.owing_games():
        try:
            await ctx.deliver(gid)
        except CorruptRecordError:
            log.exception("game %s: its record cannot be read; skipped", gid)
