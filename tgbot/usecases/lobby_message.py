"""The lobby message: posted, edited, and drawn again while other processes change the lobby."""

from __future__ import annotations

import dataclasses

from .. import lobby_texts, menus
from ..game_ids import GameId
from ..outbox import delete_later
from ..ports import Fate, Sent
from ..records import GameRecord, Status
from .context import Context
from .lobby_decisions import START_GRACE_SECONDS

REDRAWS = 8  # a lobby is drawn again while other processes keep changing it, this many times


def lobby_text(ctx: Context, record: GameRecord) -> str:
    """The lobby message of a game."""
    anyone = ctx.now() - record.created_at >= START_GRACE_SECONDS
    return lobby_texts.lobby_text(record, record.language, can_anyone_start=anyone)


def _keyboard(ctx: Context, record: GameRecord) -> menus.Keyboard:
    return lobby_texts.lobby_keyboard(record, record.language, ctx.sender.username)


async def post_lobby(ctx: Context, record: GameRecord) -> Sent:
    """Post the lobby as a new message (the old one is then owed a deletion)."""
    text = lobby_text(ctx, record)
    sent = await ctx.sender.group_text(
        record.chat_id, record.thread_id, text, _keyboard(ctx, record)
    )
    message_id = sent.message_id
    if sent.ok and message_id is not None:

        def posted(r: GameRecord) -> GameRecord:
            owed = delete_later(r.owed, r.chat_id, r.messages.lobby)
            owed = dataclasses.replace(owed, lobby_redraw=False)
            messages = dataclasses.replace(r.messages, lobby=message_id)
            return dataclasses.replace(r, owed=owed, messages=messages)

        await ctx.strike(record.game_id, posted)
        if record.messages.lobby is not None:
            await ctx.deliver(record.game_id)
    else:
        await _redraw_later(ctx, record, sent)
    return sent


async def _redraw_later(ctx: Context, record: GameRecord, sent: Sent) -> None:
    """A lobby drawing that failed for a passing reason is owed: delivery draws it later."""
    if sent.transient:
        await ctx.strike(
            record.game_id,
            lambda r: dataclasses.replace(r, owed=dataclasses.replace(r.owed, lobby_redraw=True)),
        )


async def draw_lobby(ctx: Context, record: GameRecord) -> Sent:
    """Draw the lobby of this record: edit its message, or post it anew if it is gone."""
    lobby = record.messages.lobby
    if lobby is not None:
        edited = await ctx.sender.edit_text(
            record.chat_id, lobby, lobby_text(ctx, record), _keyboard(ctx, record)
        )
        if edited.fate is not Fate.GONE:
            await _redraw_later(ctx, record, edited)
            return edited
    return await post_lobby(ctx, record)


async def refresh_lobby(ctx: Context, gid: GameId) -> None:
    """Redraw the lobby from the latest record, again if it changed meanwhile (another process
    may have drawn an older revision after ours)."""
    drawn: int | None = None
    for _ in range(REDRAWS):
        latest = await ctx.store.load(gid)
        if latest is None or latest.status is not Status.LOBBY or latest.lobby.revision == drawn:
            return
        drawn = latest.lobby.revision
        if not (await draw_lobby(ctx, latest)).ok:
            return  # owed if it may work later; delivery draws it
