"""A player's live message in private: their hand and menus, edited in place or sent anew."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from engine import Phase

from .. import menus, presenter
from ..outbox import delete_later, deleted
from ..records import GameRecord, Status
from .context import Context, group_texts, player_language


async def refresh_private(
    ctx: Context,
    record: GameRecord,
    user_id: int,
    *,
    new_message: bool,
    tapped: int | None = None,
    prompt: Sequence[str] = (),
) -> None:
    """Show a player their hand's home screen (with notes for them on top)."""
    state = record.state
    assert state is not None
    lang = player_language(record, user_id)
    seat = menus.Seat(record.game_id, state, user_id, presenter.names_of(record), lang)
    screen = menus.home(seat, prompt)
    await show(ctx, record, user_id, screen, new_message=new_message, tapped=tapped)


async def show(
    ctx: Context,
    record: GameRecord,
    user_id: int,
    screen: menus.Screen,
    *,
    new_message: bool = False,
    tapped: int | None = None,
) -> None:
    """Draw a screen in the player's live message: edit it, or send a new one and delete the
    old (and a tapped stale one)."""
    state = record.state
    assert state is not None
    lang = player_language(record, user_id)
    names = presenter.names_of(record)
    caption = presenter.hand_caption(record, state, user_id, lang, screen.prompt)
    png = ctx.painter.screen(state, user_id, screen, names)
    in_play = record.status is Status.PLAYING and state.phase is Phase.PLAYING
    keyboard = screen.keyboard if in_play else ()
    live = record.messages.hand_of(user_id)
    sender = ctx.sender
    if tapped is not None and live is not None and tapped != live:
        await sender.delete(user_id, tapped)
    if (
        not new_message
        and live is not None
        and await sender.edit_photo(user_id, live, png, caption, keyboard)
    ):
        return
    message_id = await sender.private_photo(user_id, png, caption, keyboard)
    if message_id is None:
        if new_message:  # only a player's turn is worth a notice in the group
            await _cannot_reach(ctx, record, names.get(user_id, "?"))
        return

    def replaced(r: GameRecord) -> GameRecord:
        previous = r.messages.hand_of(user_id)
        owed = r.owed if previous == message_id else delete_later(r.owed, user_id, previous)
        return dataclasses.replace(r, owed=owed, messages=r.messages.with_hand(user_id, message_id))

    await ctx.strike(record.game_id, replaced)
    await delete_owed(ctx, record.game_id)


async def _cannot_reach(ctx: Context, record: GameRecord, name: str) -> None:
    """A player's private chat refused their cards (blocked, never started): say so in the group."""
    text = group_texts(record).gettext(
        "I could not send {name} their cards. "
        "{name}, please open a private chat with me and press Start.",
        name=presenter.escape_text(name),
    )
    await ctx.sender.group_text(record.chat_id, record.thread_id, text)


async def delete_owed(ctx: Context, gid: str) -> None:
    """Carry out the deletions a game owes now (what a crash leaves, the sweeper does)."""
    record = await ctx.store.load(gid)
    for where, message in record.owed.deletions if record is not None else ():
        await ctx.sender.delete(where, message)
        await ctx.strike(gid, _deletion_done(where, message))


async def delete_first(ctx: Context, record: GameRecord) -> None:
    """Carry out the first deletion a game owes (refused, too old or gone: done all the same)."""
    where, message = record.owed.deletions[0]
    await ctx.sender.delete(where, message)
    await ctx.strike(record.game_id, _deletion_done(where, message))


def _deletion_done(chat_id: int, message_id: int) -> Callable[[GameRecord], GameRecord]:
    """The change striking a done deletion off what a game owes."""

    def change(record: GameRecord) -> GameRecord:
        return dataclasses.replace(record, owed=deleted(record.owed, chat_id, message_id))

    return change
