"""Chat events: a group moved to a supergroup, the bot removed from a group, languages chosen."""

from __future__ import annotations

import dataclasses

from .. import notice_texts, presenter
from ..buttons import SetLanguage
from ..i18n import Language, texts
from ..notices import said
from ..outbox import END, Owed
from ..records import GameRecord, Status
from .context import FINISHED_TTL_SECONDS, Context, Person, Toast
from .lobby_message import refresh_lobby
from .screens import refresh_private
from .turns import unschedule


async def migrate(ctx: Context, old_chat: int, new_chat: int) -> None:
    """A group was upgraded to a supergroup: its games, its language, its history and its
    statistics follow to the new chat id (each step safe to repeat, as when Telegram delivers
    the update again after a crash)."""
    for gid in await ctx.store.chat_games(old_chat):
        record = await ctx.change(gid, lambda r: dataclasses.replace(r, chat_id=new_chat))
        if record is not None:
            await ctx.store.move_chat(gid, old_chat, new_chat, record.thread_id)
            await ctx.deliver(gid)
    language = await ctx.store.group_language(old_chat)
    if language is not None and await ctx.store.group_language(new_chat) is None:
        await ctx.store.set_group_language(new_chat, language)
    await ctx.archives.move_group(old_chat, new_chat, int(ctx.now()))


async def bot_removed(ctx: Context, chat_id: int) -> None:
    """The bot was removed from a group: its games end cleanly and the players are told."""
    now = ctx.now()

    def ended(record: GameRecord) -> GameRecord:
        # Nothing more is said in the group; a game dealt still owes its archive, and each
        # person is told in private (owed, so a refused send for a passing reason comes later).
        told = said(notice_texts.bot_removed, chat=presenter.escape_text(record.title))
        owed = Owed(
            replays=(END,) if record.state is not None else (),
            private_texts=tuple((uid, told) for uid in record.human_ids),
        )
        return dataclasses.replace(record, status=Status.CANCELLED, owed=owed, updated_at=now)

    for gid in await ctx.store.chat_games(chat_id):
        record = await ctx.change(gid, ended)
        if record is None:
            continue
        await ctx.store.finish(gid, FINISHED_TTL_SECONDS)
        await unschedule(ctx, record)
        for uid in record.human_ids:
            await ctx.store.remove_user_game(uid, gid)
        await ctx.deliver(gid)  # the players' notes, and its archive for the group's history


async def choose_language(
    ctx: Context,
    person: Person,
    command: SetLanguage,
    chat_id: int,
    thread_id: int | None,
    message_id: int | None = None,
) -> Toast:
    """A language button: in private the user's language, in a group the group's; the message
    of /lang or /settings then says the choice, without its buttons (they are stale)."""
    if chat_id == person.user_id:
        await ctx.store.set_user_language(person.user_id, command.language)
        await _relabel_player(ctx, person.user_id, command.language)
    else:
        await ctx.store.set_group_language(chat_id, command.language)
        await _relabel_game(ctx, chat_id, thread_id, command.language)
    chosen = texts(command.language)
    said = chosen.pgettext("toast", "Language: {language}", language=chosen.native_name)
    if message_id is not None:
        await ctx.sender.edit_text(chat_id, message_id, f"✅ {said}", ())  # best effort
    return Toast(said)


async def _relabel_game(ctx: Context, chat_id: int, thread_id: int | None, lang: Language) -> None:
    """The active game of this chat (or topic) speaks the group's new language from now on."""
    gid = await ctx.store.active_game(chat_id, thread_id)
    if gid is None:
        return
    record = await ctx.change(gid, lambda r: dataclasses.replace(r, language=lang))
    if record is not None and record.status is Status.LOBBY:
        await refresh_lobby(ctx, gid)


async def _relabel_player(ctx: Context, user_id: int, lang: Language) -> None:
    """A user's active games write to them in their new language from now on (a practice game,
    in their private chat, all of it)."""

    def relabel(record: GameRecord) -> GameRecord:
        players = tuple(
            dataclasses.replace(p, language=lang) if p.user_id == user_id else p
            for p in record.lobby.players
        )
        lobby = dataclasses.replace(record.lobby, players=players)
        if record.is_practice:  # its "group" is this private chat: it speaks the same language
            return dataclasses.replace(record, lobby=lobby, language=lang)
        return dataclasses.replace(record, lobby=lobby)

    for gid in await ctx.store.user_games(user_id):
        record = await ctx.change(gid, relabel)
        if record is not None and record.state is not None and record.status is Status.PLAYING:
            await refresh_private(ctx, record, user_id, new_message=False)
