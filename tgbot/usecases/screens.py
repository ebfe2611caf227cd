"""A player's live message in private: their hand and menus, edited in place or sent anew."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine import Phase

from .. import menus, presenter
from ..outbox import delete_later, doubt, owe
from ..ports import Fate, Sent
from ..records import GameRecord, Status
from .context import Context, player_language
from .reconcile import confirmed_send, floor_before


async def refresh_private(
    ctx: Context,
    record: GameRecord,
    user_id: int,
    *,
    new_message: bool,
    tapped: int | None = None,
    prompt: Sequence[str] = (),
) -> Sent:
    """Show a player their hand's home screen (with notes for them on top)."""
    state = record.state
    assert state is not None
    lang = player_language(record, user_id)
    away = user_id in record.automatic
    seat = menus.Seat(record.game_id, state, user_id, presenter.names_of(record, lang), lang, away)
    screen = menus.home(seat, prompt)
    return await show(ctx, record, user_id, screen, new_message=new_message, tapped=tapped)


async def show(
    ctx: Context,
    record: GameRecord,
    user_id: int,
    screen: menus.Screen,
    *,
    new_message: bool = False,
    tapped: int | None = None,
) -> Sent:
    """Draw a screen in the player's live message: edit it, or send a new one (the old one is
    then owed a deletion, and a tapped stale one is deleted); how Telegram took it.

    A new message is recorded with the game; what failed is left to the caller (delivery keeps
    it owed, a tap's redraw owes it, see `redraw_later`).
    """
    state = record.state
    assert state is not None
    lang = player_language(record, user_id)
    names = presenter.names_of(record, lang)
    caption = presenter.hand_caption(record, state, user_id, lang, screen.prompt)
    png = ctx.painter.screen(state, user_id, screen, names)
    in_play = record.status is Status.PLAYING and state.phase is not Phase.OVER
    keyboard = screen.keyboard if in_play else ()
    live = record.messages.hand_of(user_id)
    sender = ctx.sender
    if tapped is not None and live is not None and tapped > live:
        live = tapped  # newer than the record knows: the live message whose id is being saved
    elif tapped is not None and live is not None and tapped != live:
        await sender.delete(user_id, tapped)  # a stale hand; if this fails it only stays stale
    if not new_message and live is not None:
        edited = await sender.edit_photo(user_id, live, png, caption, keyboard)
        if edited.fate is not Fate.GONE:  # done, or failed in a way a new message would too
            return edited
    floor = await floor_before(ctx, user_id)
    sent = await sender.private_photo(user_id, png, caption, keyboard)
    if sent.fate is Fate.UNKNOWN:
        await ctx.strike(
            record.game_id, lambda r: dataclasses.replace(r, owed=doubt(r.owed, user_id, floor))
        )
    if not sent.ok or sent.message_id is None:
        return sent
    message_id = sent.message_id

    def replaced(r: GameRecord) -> GameRecord:
        previous = r.messages.hand_of(user_id)
        owed = r.owed if previous == message_id else delete_later(r.owed, user_id, previous)
        return dataclasses.replace(r, owed=owed, messages=r.messages.with_hand(user_id, message_id))

    await confirmed_send(ctx, record, user_id, sent, replaced)
    return sent


async def redraw_later(ctx: Context, record: GameRecord, user_id: int, sent: Sent) -> None:
    """A tap's redraw did not go through for a passing reason: the live message is owed, so
    delivery redraws it as soon as Telegram lets it."""
    if not sent.transient:
        return
    await ctx.strike(
        record.game_id, lambda r: dataclasses.replace(r, owed=owe(r.owed, edits=[user_id]))
    )
