"""Telegram handlers: parse an update into a request, call the service, answer. Nothing else."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from html import escape

from telegram import CallbackQuery, Chat, ChatMember, Message, MessageEntity, Update, User
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from . import guide, lobby_texts, metrics
from .callback import decode
from .commands import COMMANDS, Scope
from .i18n import Language, Texts, parse_language, texts
from .menus import Keyboard
from .service import GameService, Panel, Person, Place, Target, Toast

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
GROUPS = filters.ChatType.GROUPS
PRIVATE = filters.ChatType.PRIVATE


def person_of(user: User) -> Person:
    """The request's sender."""
    return Person(user.id, user.full_name or str(user.id), user.language_code, user.username)


def place_of(message: Message) -> Place:
    """The request's group and forum topic (only topic messages carry a topic).

    The title names the topic too, so a player in games of two topics can tell them apart: a
    topic message replies to the topic's creation message, which holds the topic's name.
    """
    thread = message.message_thread_id if message.is_topic_message else None
    title = message.chat.title or ""
    root = message.reply_to_message
    if thread is not None and root is not None and root.forum_topic_created is not None:
        title = f"{title} › {root.forum_topic_created.name}"
    return Place(message.chat.id, thread, title)


def target_of(message: Message, args: Sequence[str] | None) -> Target | None:
    """Whom a command's words name (None without words); a picked mention carries the user."""
    words = " ".join(args or ())
    if not words:
        return None
    for entity in message.entities:
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            return Target(words, entity.user.id)
    return Target(words)


def panel_of(query: CallbackQuery, message: Message | None) -> Panel:
    """A group tap as a possible panel tap: the query, and the ephemeral message it came from.

    PTB 22.8 (Bot API 10.0) keeps the Bot API 10.2 fields of an ephemeral message
    (`ephemeral_message_id`, `receiver_user`) among the message's unknown fields."""
    extra = message.api_kwargs if message is not None else {}
    number = extra.get("ephemeral_message_id")
    receiver = extra.get("receiver_user")
    receiver_id = receiver.get("id") if isinstance(receiver, dict) else None
    return Panel(
        query.id,
        message.chat.id if message is not None else 0,
        thread_id=place_of(message).thread_id if message is not None else None,
        ephemeral_message_id=number if isinstance(number, int) else None,
        receiver_id=receiver_id if isinstance(receiver_id, int) else None,
    )


class Handlers:
    """The bot's handlers, bound to one service.

    `unavailable` tells whether an error means the store is away for a moment (Redis down or
    too slow): then a tap is answered "busy" from what the update itself says, and a command
    gets no reply, since both the group's language and its flood budget live in the store.
    """

    def __init__(
        self,
        service: GameService,
        *,
        unavailable: Callable[[BaseException], bool] = lambda error: False,
    ) -> None:
        self.service = service
        self.unavailable = unavailable
        self.passing: set[int] = set()  # updates whose handling met a passing failure (webhook)

    def install(self, app: Application, *, once: bool = True) -> None:  # type: ignore[type-arg]
        """Register every handler and the error handler; `once` claims each update id first
        (long polling: the webhook claims it around the handling, `tgbot.acks`)."""
        for command in COMMANDS:
            for scope, where in ((Scope.GROUP, GROUPS), (Scope.PRIVATE, PRIVATE)):
                name = command.handler(scope)
                callback = self.group_only if name is None else getattr(self, name)
                app.add_handler(CommandHandler(command.name, callback, filters=where))
        if once:
            app.add_handler(TypeHandler(Update, self.once), group=-1)
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.migrated))
        app.add_handler(ChatMemberHandler(self.membership, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_handler(CallbackQueryHandler(self.button))
        app.add_handler(MessageHandler(filters.COMMAND & PRIVATE, self.unknown))
        app.add_error_handler(self.error)

    async def _lang(self, chat: Chat, user: User | None) -> Language:
        if chat.type == Chat.PRIVATE and user is not None:
            return await self.service.user_language(person_of(user))
        return await self.service.group_language(chat.id)

    async def new(self, update: Update, context: Context) -> None:
        """/new: open a lobby."""
        if update.effective_message and update.effective_user:
            await self.service.new_lobby(
                place_of(update.effective_message), person_of(update.effective_user)
            )

    async def join(self, update: Update, context: Context) -> None:
        """/join: show the lobby with its Join link again."""
        if update.effective_message:
            await self.service.join_hint(place_of(update.effective_message))

    async def leave(self, update: Update, context: Context) -> None:
        """/leave: leave the lobby."""
        if update.effective_message and update.effective_user:
            await self.service.leave_command(
                place_of(update.effective_message), person_of(update.effective_user)
            )

    async def start_group(self, update: Update, context: Context) -> None:
        """/start in a group: start the lobby's game."""
        if update.effective_message and update.effective_user:
            await self.service.start_command(
                place_of(update.effective_message), person_of(update.effective_user)
            )

    async def start_private(self, update: Update, context: Context) -> None:
        """/start in private, maybe with a deep-link payload."""
        if update.effective_user:
            payload = context.args[0] if context.args else None
            await self.service.open_link(person_of(update.effective_user), payload)

    async def board(self, update: Update, context: Context) -> None:
        """/board: post the board again."""
        if update.effective_message:
            await self.service.repost_board(place_of(update.effective_message))

    async def status(self, update: Update, context: Context) -> None:
        """/status: whose turn."""
        message = update.effective_message
        if message:
            text = await self.service.status_text(place_of(message))
            await self._send(message, text)

    async def history(self, update: Update, context: Context) -> None:
        """/history in a group: the last games, a button each to watch it again."""
        message = update.effective_message
        if message:
            text, keyboard = await self.service.history(place_of(message))
            await self._send(message, text, keyboard)

    async def stats_group(self, update: Update, context: Context) -> None:
        """/stats in a group: each player's figures, this season and all time."""
        message = update.effective_message
        if message:
            await self._send(message, await self.service.group_stats(place_of(message)))

    async def stats_private(self, update: Update, context: Context) -> None:
        """/stats in private: the user's own figures in each of their groups."""
        message, user = update.effective_message, update.effective_user
        if message and user:
            await self._send(message, await self.service.private_stats(person_of(user)))

    async def cancel(self, update: Update, context: Context) -> None:
        """/cancel: the creator or an admin ends the game."""
        message, user = update.effective_message, update.effective_user
        if message and user:
            is_admin = await self.service.sender.is_admin(message.chat.id, user.id)
            await self.service.cancel_command(place_of(message), person_of(user), is_admin)

    async def cancel_private(self, update: Update, context: Context) -> None:
        """/cancel in private: end one's practice game."""
        if update.effective_user:
            await self.service.cancel_practice(person_of(update.effective_user))

    async def practice(self, update: Update, context: Context) -> None:
        """/practice in private: a game against computer players, in this chat."""
        if update.effective_user:
            await self.service.practice(person_of(update.effective_user))

    async def practice_in_group(self, update: Update, context: Context) -> None:
        """/practice in a group: it is played in private."""
        if update.effective_message:
            await self.service.practice_in_group(place_of(update.effective_message))

    async def once(self, update: Update, context: Context) -> None:
        """Handle each update id once, even if Telegram delivers it again (to any process)."""
        if not await self.service.ledger.claim(update.update_id):
            log.info("update %s was already handled", update.update_id)
            raise ApplicationHandlerStop

    async def kick(self, update: Update, context: Context) -> None:
        """/kick, maybe naming whom: let the game play for the awaited player (admin, or a vote)."""
        message, user = update.effective_message, update.effective_user
        if message and user:
            is_admin = await self.service.sender.is_admin(message.chat.id, user.id)
            target = target_of(message, context.args)
            text = await self.service.kick(place_of(message), person_of(user), is_admin, target)
            if text:
                await self._send(message, text)

    async def migrated(self, update: Update, context: Context) -> None:
        """A group became a supergroup: move its game along."""
        message = update.effective_message
        if message and message.migrate_to_chat_id:
            await self.service.migrate(message.chat.id, message.migrate_to_chat_id)

    async def membership(self, update: Update, context: Context) -> None:
        """The bot was removed from a group: end its games there cleanly."""
        change = update.my_chat_member
        if change is None or change.chat.type == Chat.PRIVATE:
            return
        if change.new_chat_member.status in (ChatMember.LEFT, ChatMember.BANNED):
            await self.service.bot_removed(change.chat.id)

    async def _reply(self, update: Update, say: Callable[[Language], Iterable[str]]) -> None:
        """Answer with texts in the chat's language (the user's, in private)."""
        message = update.effective_message
        if message:
            lang = await self._lang(message.chat, update.effective_user)
            for text in say(lang):
                await self._send(message, text)

    async def _send(self, message: Message, text: str, keyboard: Keyboard | None = None) -> None:
        """A reply where the command came from, through the sender: in a group it takes from the
        group's flood budget (a reply the group has no room for is left out, and the boards go
        first); Telegram's 429s hold the budget like any group send."""
        sender = self.service.sender
        if message.chat.type == Chat.PRIVATE:
            await sender.private_text(message.chat.id, text, keyboard)
            return
        sent = await sender.group_text(message.chat.id, place_of(message).thread_id, text, keyboard)
        if not sent.ok:
            log.info("a reply in %s was not sent: %s", message.chat.id, sent.detail)

    async def help(self, update: Update, context: Context) -> None:
        """/help."""
        await self._reply(update, lambda lang: [guide.help_text(lang)])

    async def rules(self, update: Update, context: Context) -> None:
        """/rules: both editions in short."""
        await self._reply(update, guide.rules_texts)

    async def settings(self, update: Update, context: Context) -> None:
        """/settings in a group: language, and the running game's time per turn."""
        message = update.effective_message
        if message:
            text, keyboard = await self.service.settings(place_of(message))
            await self._send(message, text, keyboard)

    async def lang(self, update: Update, context: Context) -> None:
        """/lang: choose the language of this chat."""
        message = update.effective_message
        if message:
            lang = await self._lang(message.chat, update.effective_user)
            await self._send(
                message, texts(lang).gettext("Choose a language:"), (lobby_texts.language_row(),)
            )

    async def group_only(self, update: Update, context: Context) -> None:
        """A group command sent in private."""
        await self._reply(update, lambda lang: [_group_only(texts(lang))])

    async def unknown(self, update: Update, context: Context) -> None:
        """A command the bot does not know, in private."""
        await self._reply(update, lambda lang: [_unknown_command(texts(lang))])

    async def button(self, update: Update, context: Context) -> None:
        """Any inline button: decode, let the service act, always answer the query."""
        query = update.callback_query
        if query is None:
            return
        message = query.message if isinstance(query.message, Message) else None
        chat_id = query.message.chat.id if query.message else 0
        message_id = query.message.message_id if query.message else None
        thread_id = place_of(message).thread_id if message else None

        async def answer(toast: Toast) -> None:
            await self._answer(query, toast)

        with metrics.timed_tap():
            await self.service.tap(
                person_of(query.from_user),
                decode(query.data),
                chat_id,
                message_id,
                thread_id=thread_id,
                answer=answer,
                panel=panel_of(query, message) if chat_id < 0 else None,
            )

    async def error(self, update: object, context: Context) -> None:
        """Log the error; answer a pending tap so the user's button does not spin.

        With the store away (the `once` claim is the first to find out) the update goes no
        further: a tap is told the bot is busy, a command is left unanswered.
        """
        if context.error is not None and self.unavailable(context.error):
            if isinstance(update, Update):
                self.passing.add(update.update_id)
            await self.busy(update, context.error)
            raise ApplicationHandlerStop
        log.error("error handling an update", exc_info=context.error)
        if isinstance(update, Update) and update.callback_query is not None:
            user = update.callback_query.from_user
            try:
                lang = await self.service.user_language(person_of(user))
            except Exception:  # the store failing too: the language the user's app reports
                lang = self._app_language(user)
            try:
                text = texts(lang).pgettext(
                    "toast", "Something went wrong. The game is safe; please try again."
                )
                await self._answer(update.callback_query, Toast(text, alert=True))
            except Exception:
                log.debug("could not answer after an error")
        elif isinstance(update, Update) and update.effective_message is not None:
            chat, sender = update.effective_message.chat, update.effective_user
            try:
                lang = await self._lang(chat, sender)
            except Exception:  # the store failing too: the app's language in private
                lang = self.service.ctx.default_language
                if chat.type == Chat.PRIVATE and sender is not None:
                    lang = self._app_language(sender)
            try:
                text = texts(lang).gettext(
                    "Something went wrong. The game is safe; please try again."
                )
                await self._send(update.effective_message, escape(text))
            except Exception:
                log.debug("could not reply after an error")

    def _app_language(self, user: User) -> Language:
        """The user's language as their Telegram app reports it (no store read)."""
        return parse_language(user.language_code) or self.service.ctx.default_language

    async def busy(self, update: object, error: BaseException) -> None:
        """The store is away: answer a tap from memory, touch nothing, log one line."""
        update_id = update.update_id if isinstance(update, Update) else None
        problem = " ".join(str(error).split()) or type(error).__name__
        log.warning("update %s not handled, the store is away: %s", update_id, problem)
        if not isinstance(update, Update) or update.callback_query is None:
            return  # a command: no reply (see the class docstring)
        query = update.callback_query
        tr = texts(self._app_language(query.from_user))
        text = tr.pgettext("toast", "The bot is busy; please try again in a moment.")
        try:
            await self._answer(query, Toast(text))
        except Exception:
            log.debug("could not answer a tap while the store is away")

    async def _answer(self, query: CallbackQuery, toast: Toast) -> None:
        """Answer a tap with a toast through the sender (its fates and flood waits apply)."""
        await self.service.sender.answer(query.id, toast.text, alert=toast.alert, url=toast.url)


def _group_only(tr: Texts) -> str:
    return tr.gettext("This command works in a group.")


def _unknown_command(tr: Texts) -> str:
    return tr.gettext("I do not know that command. /help lists what I understand.")
