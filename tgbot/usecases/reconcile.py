"""Sends whose outcome is unknown (a timeout): found and deleted once the retry is confirmed.

Before each send the deliverer notes the chat's highest recorded message id (the floor; for the
first sends of a delivery, read with its lease, `noted_floors`). When a
send times out, the game keeps that floor (`outbox.doubt`) and the item stays owed. Once the
retried send is confirmed with id N, every message between the floor and N that is the bot's own
and in the send's forum topic (`Sender.probe`) but not in the sent-message ledger is a copy
Telegram posted after all: it is deleted, so the chat shows each message once. (A message of
another topic is another game's, perhaps sent an instant ago and not recorded yet; only a message
with a keyboard tells its topic, see `Sender.probe`.)
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import logging
from collections.abc import Callable, Iterator

from ..outbox import delete_later, doubt_in, settled, went_through
from ..ports import Fate, Sent
from ..records import GameRecord, Status
from .context import Context

log = logging.getLogger(__name__)

MAX_PROBES = 25  # messages looked at in one gap (a busy group has users' messages in it)


_NOTED: contextvars.ContextVar[dict[int, int] | None] = contextvars.ContextVar(
    "noted_floors", default=None
)


@contextlib.contextmanager
def noted_floors(floors: dict[int, int]) -> Iterator[None]:
    """Sends inside (by tasks started inside too) take their chat's floor from `floors`, each
    once, instead of reading it: a delivery's floors read with its lease, for its first round.
    A floor read a moment earlier is at most lower: the gap a timed-out send leaves is then
    wider by messages that were recorded by then (not taken for copies)."""
    token = _NOTED.set(floors)
    try:
        yield
    finally:
        _NOTED.reset(token)


async def floor_before(ctx: Context, chat_id: int) -> int:
    """The chat's highest recorded message id, noted before a send."""
    noted = _NOTED.get()
    if noted is not None and chat_id in noted:
        return noted.pop(chat_id)
    return await ctx.sender.posts.latest(chat_id)


async def confirmed_send(
    ctx: Context,
    record: GameRecord,
    chat_id: int,
    sent: Sent,
    change: Callable[[GameRecord], GameRecord],
) -> None:
    """A send to a chat was confirmed: delete the copies an earlier timed-out send may have left
    (the record read before the send knows of them), then save `change` with the chat's doubts
    and waits cleared."""
    doubt = doubt_in(record.owed, chat_id)
    left: list[int] = []
    unsure = False
    if doubt is not None and sent.message_id is not None:
        thread = record.thread_id if chat_id == record.chat_id else None
        left, unsure = await remove_copies(ctx, chat_id, thread, doubt, sent.message_id)

    def saved(r: GameRecord) -> GameRecord:
        r = change(r)
        owed = went_through(r.owed if unsure else settled(r.owed, chat_id), chat_id)
        for message_id in left:  # copies whose deletion failed for now: owed like any other
            owed = delete_later(owed, chat_id, message_id)
        return dataclasses.replace(r, owed=owed)

    await ctx.strike(record.game_id, saved)


async def remove_copies(
    ctx: Context, chat_id: int, thread_id: int | None, floor: int, confirmed_id: int
) -> tuple[list[int], bool]:
    """Delete the bot's own unrecorded messages between `floor` and `confirmed_id` in the send's
    forum topic (`thread_id`; another topic's are another game's, maybe sent an instant ago and
    not recorded yet): the copies whose deletion must be tried again, and whether some message
    could not be looked at (then the doubt stays for the next confirmed send, whose gap covers
    this one)."""
    posts = ctx.sender.posts
    known = await posts.confirmed(chat_id, floor, confirmed_id)
    candidates = [m for m in range(floor + 1, confirmed_id) if m not in known][:MAX_PROBES]
    left: list[int] = []
    unsure = False
    for message_id in candidates:
        probed = await ctx.sender.probe(chat_id, message_id, thread_id)
        if probed.transient:
            unsure = True
            continue
        if probed.elsewhere:
            await _restore_keyboard(ctx, chat_id, probed.topic, message_id)
            continue
        if probed.fate is not Fate.DONE:
            continue  # not the bot's, or not there
        if message_id in await posts.confirmed(chat_id, message_id - 1, message_id + 1):
            continue  # another game's send, confirmed meanwhile
        deleted = await ctx.sender.delete(chat_id, message_id)
        if deleted.transient:
            left.append(message_id)
        elif deleted.ok:
            log.info("chat %s: deleted %s, a copy of a send that timed out", chat_id, message_id)
    return left, unsure


async def _restore_keyboard(ctx: Context, chat_id: int, topic: int | None, message_id: int) -> None:
    """The probe took the keyboard of another topic's message: its game's lobby, or its board
    post (perhaps sent an instant ago, not recorded yet), is owed its keyboard again. The board's
    is set on whichever board post the game has then (the same keyboard on a later post: no
    change)."""
    gid = await ctx.store.active_game(chat_id, topic)
    where = f"chat {chat_id}: message {message_id} of topic {topic}"
    if gid is None:
        log.info("%s lost its keyboard (no game there)", where)
        return

    def owed_again(r: GameRecord) -> GameRecord:
        if r.status is Status.LOBBY:
            return dataclasses.replace(r, owed=dataclasses.replace(r.owed, lobby_redraw=True))
        return dataclasses.replace(r, owed=dataclasses.replace(r.owed, board_keyboard=True))

    await ctx.strike(gid, owed_again)
    log.info("%s: game %s owes its keyboard again", where, gid)
