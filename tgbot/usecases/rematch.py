"""Rematch: "Same players again" opens a lobby with everyone invited, one tap each to confirm.

The invited tap "I'm in" on the lobby, or the game-end button again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .. import lobby_texts, presenter
from ..buttons import ConfirmRematch, Rematch
from ..game_ids import GameId
from ..i18n import Language, Texts, texts
from ..outbox import Owed, owe
from ..records import GameRecord, Lobby, LobbyPlayer, Status
from ..store import ChatBusyError, ContentionError, Decision
from .context import Context, Person, Toast, contended, gone, invalid_button
from .lobby_message import post_lobby, refresh_lobby
from .turns import keep_lobby


async def tap(
    ctx: Context, person: Person, command: Rematch | ConfirmRematch, chat_id: int
) -> Toast:
    """A rematch button in a group: open the rematch (or confirm in it), or say why not."""
    tr = texts(await ctx.user_language(person))
    if isinstance(command, ConfirmRematch):
        return await confirm(ctx, person, command.game, chat_id, tr)
    old = await ctx.store.load(command.game)
    if old is None:
        return Toast(gone(tr))
    if old.chat_id != chat_id:
        return Toast(tr.pgettext("toast", "These buttons are not yours."), alert=True)
    if old.status is not Status.FINISHED or old.state is None:
        return invalid_button(tr)
    if person.user_id not in old.state.players:
        text = tr.pgettext("toast", "Only the players of that game can ask for it again.")
        return Toast(text, alert=True)
    if old.rematch is not None:
        # Asked for already: the same button is then this player's one tap in it.
        return await confirm(ctx, person, old.rematch, chat_id, tr, stale_ok=False)
    lang = await ctx.user_language(person)
    try:
        lobby = await ctx.store.create(_rematch_lobby(ctx, old, person, lang))
    except ChatBusyError:
        return Toast(tr.pgettext("toast", "Another game is already running here."), alert=True)
    await ctx.strike(old.game_id, lambda r: dataclasses.replace(r, rematch=lobby.game_id))
    await keep_lobby(ctx, lobby)
    await post_lobby(ctx, lobby)
    await ctx.deliver(lobby.game_id)  # the invitations it owes (`_invitations`)
    return Toast(tr.pgettext("toast", "A new game is open: the others just tap I'm in."))


def _rematch_lobby(ctx: Context, old: GameRecord, person: Person, lang: Language) -> GameRecord:
    """A new lobby where the old game was, set up alike: the asker and the computer players in,
    the other people invited."""
    now = ctx.now()
    asker = LobbyPlayer(person.user_id, person.name, lang, person.username)
    invited = tuple(p for p in old.lobby.humans if p.user_id != person.user_id)
    return GameRecord(
        game_id=ctx.new_id(),
        chat_id=old.chat_id,
        thread_id=old.thread_id,
        language=old.language,
        creator_id=person.user_id,
        created_at=now,
        updated_at=now,
        title=old.title,
        creator_name=person.name,
        lobby=Lobby(
            edition=old.lobby.edition,
            options=old.lobby.options,
            turn_limit_hours=old.lobby.turn_limit_hours,
            players=(asker, *old.lobby.computers),  # the computer players take their seats
            invited=invited,
        ),
        owed=_invitations(invited, person, old.title),
    )


def _invitations(invited: tuple[LobbyPlayer, ...], asker: Person, title: str) -> Owed:
    """A private word owed to each invited player (in their language): where, and that one tap
    is enough. Owed, so that a send the budgets refuse is tried again (and, refused often, goes
    overdue like any private text) instead of being lost."""
    words: list[tuple[int, str]] = []
    for p in invited:
        text = texts(p.language).gettext(
            "{name} asks for the same game again in <b>{chat}</b>: tap I'm in on the lobby there.",
            name=presenter.escape_text(asker.name),
            chat=presenter.escape_text(title),
        )
        words.append((p.user_id, text))
    return owe(Owed(), private_texts=words)


async def confirm(
    ctx: Context, person: Person, gid: GameId, chat_id: int, tr: Texts, *, stale_ok: bool = True
) -> Toast:
    """An invited player's one tap: they join the rematch lobby."""
    lang = await ctx.user_language(person)
    try:
        done = await ctx.store.update(gid, _decide_confirm(person, lang, chat_id, tr, ctx.now()))
    except ContentionError:
        return Toast(contended(tr))
    toast, joined = done.result
    if not joined:
        if not stale_ok and done.record is not None and not done.record.status.is_active:
            return Toast(tr.pgettext("toast", "A rematch of this game was opened already."))
        return toast
    assert done.record is not None
    await ctx.store.add_user_game(person.user_id, gid)
    await keep_lobby(ctx, done.record)
    await refresh_lobby(ctx, gid)
    return toast


def _decide_confirm(
    person: Person, lang: Language, chat_id: int, tr: Texts, now: int
) -> Callable[[GameRecord | None], Decision[tuple[Toast, bool]]]:
    def decide(record: GameRecord | None) -> Decision[tuple[Toast, bool]]:
        if record is None or not record.status.is_active:
            return Decision((Toast(gone(tr)), False))
        if record.chat_id != chat_id:
            return Decision(
                (Toast(tr.pgettext("toast", "These buttons are not yours."), alert=True), False)
            )
        if record.status is not Status.LOBBY:
            return Decision((Toast(tr.pgettext("toast", "The game is already running.")), False))
        lobby = record.lobby
        uid = person.user_id
        if lobby.has_player(uid):
            return Decision((Toast(tr.pgettext("toast", "You are already in this game.")), False))
        if not any(p.user_id == uid for p in lobby.invited):
            text = tr.pgettext(
                "toast", "This button is for the players invited again; others tap Join."
            )
            return Decision((Toast(text, alert=True), False))
        if len(lobby.players) >= lobby_texts.range_of(lobby.edition).stop - 1:
            return Decision((Toast(tr.pgettext("toast", "The game is full.")), False))
        player = LobbyPlayer(uid, person.name, lang, person.username)
        lobby = lobby.changed(
            players=(*lobby.players, player),
            invited=tuple(p for p in lobby.invited if p.user_id != uid),
        )
        new = dataclasses.replace(record, lobby=lobby, updated_at=now)
        return Decision((Toast(tr.pgettext("toast", "You are in!")), True), new)

    return decide
