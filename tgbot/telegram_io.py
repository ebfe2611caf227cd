"""Sending to Telegram: one place that turns screens into Bot API calls and handles its errors."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    InputMediaPhoto,
)
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from .callback import encode
from .menus import Button
from .ports import Budget

log = logging.getLogger(__name__)

CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
MAX_RETRY_AFTER = 30.0


def markup(keyboard: Sequence[Sequence[Button]] | None) -> InlineKeyboardMarkup | None:
    """An inline keyboard from menu buttons (None for no keyboard)."""
    if not keyboard:
        return None
    rows = [
        [
            InlineKeyboardButton(b.label, url=b.url)
            if b.url is not None
            else InlineKeyboardButton(
                b.label, callback_data=encode(b.command) if b.command else None
            )
            for b in row
        ]
        for row in keyboard
    ]
    return InlineKeyboardMarkup(rows)


def _seconds(value: object) -> float:
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value) if isinstance(value, int | float) else 1.0


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Sender:
    """The `ports.Sender` port over the Bot API: None/False, not raising, on Telegram errors."""

    def __init__(
        self,
        bot: Bot,
        budget: Budget | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.bot = bot
        self.budget = budget
        self.clock = clock
        self._retry_after: float | None = None
        self.migrations: dict[int, int] = {}  # group id -> its supergroup's id, as Telegram said

    async def _spend(self, chat_id: int) -> bool:
        """Take one send from the group's budget; False (and a retry_after) when it is spent."""
        if self.budget is None:
            return True
        wait = await self.budget.take(chat_id, self.clock())
        if wait > 0:
            self._retry_after = wait
            log.info("group %s: budget spent for %.0f s", chat_id, wait)
            return False
        return True

    def take_retry_after(self) -> float | None:
        """The retry_after of the last refused group send, if Telegram said 429 (then cleared)."""
        value, self._retry_after = self._retry_after, None
        return value

    @property
    def username(self) -> str:
        """The bot's @username (for deep links)."""
        return self.bot.username

    async def _call(
        self,
        what: str,
        make: Callable[[], Awaitable[object]],
        *,
        wait: bool = True,
        chat_id: int | None = None,
    ) -> object | None:
        """Run a Bot API call; None on a refusal.

        On flood control a private call waits once (briefly); a group call does not wait: it
        records retry_after for the caller, who keeps the announcement owed.
        """
        for attempt in (1, 2):
            try:
                result: object = await make()
                return result
            except ChatMigrated as err:
                if chat_id is not None:
                    self.migrations[chat_id] = int(err.new_chat_id)
                log.info("%s: the group moved to %s", what, err.new_chat_id)
                return None
            except RetryAfter as err:
                delay = _seconds(err.retry_after)
                if not wait:
                    self._retry_after = delay
                    if self.budget is not None and chat_id is not None:
                        await self.budget.hold(chat_id, self.clock(), delay)
                    return None
                if attempt == 2 or delay > MAX_RETRY_AFTER:
                    log.warning("%s: flood control, giving up (%s s)", what, delay)
                    return None
                await asyncio.sleep(delay)
            except Forbidden as err:
                log.info("%s: forbidden: %s", what, err)
                return None
            except BadRequest as err:
                if "not modified" in str(err).lower():
                    return True
                log.info("%s: bad request: %s", what, err)
                return None
            except TelegramError as err:
                log.warning("%s: %s", what, err)
                return None
        return None

    async def group_text(
        self,
        chat_id: int,
        thread_id: int | None,
        text: str,
        keyboard: Sequence[Sequence[Button]] | None = None,
    ) -> int | None:
        """Send an HTML text to a group (in its topic); the new message id.

        None when the group's budget is spent or Telegram refuses (see take_retry_after).
        """
        if not await self._spend(chat_id):
            return None
        message = await self._call(
            "sendMessage",
            lambda: self.bot.send_message(
                chat_id,
                _clip(text, TEXT_LIMIT),
                parse_mode=ParseMode.HTML,
                message_thread_id=thread_id,
                reply_markup=markup(keyboard),
            ),
            wait=False,
            chat_id=chat_id,
        )
        return getattr(message, "message_id", None)

    async def group_photo(
        self, chat_id: int, thread_id: int | None, png: bytes, caption: str
    ) -> int | None:
        """Send a photo with an HTML caption to a group; the new message id (None as above)."""
        if not await self._spend(chat_id):
            return None
        message = await self._call(
            "sendPhoto",
            lambda: self.bot.send_photo(
                chat_id,
                png,
                caption=_clip(caption, CAPTION_LIMIT),
                parse_mode=ParseMode.HTML,
                message_thread_id=thread_id,
            ),
            wait=False,
            chat_id=chat_id,
        )
        return getattr(message, "message_id", None)

    async def group_animation(
        self,
        chat_id: int,
        thread_id: int | None,
        data: bytes,
        caption: str,
        keyboard: Sequence[Sequence[Button]] | None = None,
    ) -> int | None:
        """Send an animation (a GIF) with an HTML caption to a group; the new message id (None as
        above)."""
        if not await self._spend(chat_id):
            return None
        message = await self._call(
            "sendAnimation",
            lambda: self.bot.send_animation(
                chat_id,
                InputFile(data, filename="replay.gif"),
                caption=_clip(caption, CAPTION_LIMIT),
                parse_mode=ParseMode.HTML,
                message_thread_id=thread_id,
                reply_markup=markup(keyboard),
            ),
            wait=False,
            chat_id=chat_id,
        )
        return getattr(message, "message_id", None)

    async def private_text(self, user_id: int, text: str) -> int | None:
        """Send an HTML text to a user's private chat."""
        message = await self._call(
            "sendMessage",
            lambda: self.bot.send_message(
                user_id, _clip(text, TEXT_LIMIT), parse_mode=ParseMode.HTML
            ),
        )
        return getattr(message, "message_id", None)

    async def private_photo(
        self, user_id: int, png: bytes, caption: str, keyboard: Sequence[Sequence[Button]]
    ) -> int | None:
        """Send a photo with caption and keyboard to a user's private chat."""
        message = await self._call(
            "sendPhoto",
            lambda: self.bot.send_photo(
                user_id,
                png,
                caption=_clip(caption, CAPTION_LIMIT),
                parse_mode=ParseMode.HTML,
                reply_markup=markup(keyboard),
            ),
        )
        return getattr(message, "message_id", None)

    async def edit_photo(
        self,
        chat_id: int,
        message_id: int,
        png: bytes,
        caption: str,
        keyboard: Sequence[Sequence[Button]],
    ) -> bool:
        """Replace a photo message's picture, caption and keyboard; False if it cannot be edited."""
        media = InputMediaPhoto(
            png, caption=_clip(caption, CAPTION_LIMIT), parse_mode=ParseMode.HTML
        )
        result = await self._call(
            "editMessageMedia",
            lambda: self.bot.edit_message_media(
                media, chat_id=chat_id, message_id=message_id, reply_markup=markup(keyboard)
            ),
        )
        return result is not None

    async def edit_text(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        keyboard: Sequence[Sequence[Button]] | None,
    ) -> bool:
        """Replace a text message's text and keyboard; False if it cannot be edited."""
        result = await self._call(
            "editMessageText",
            lambda: self.bot.edit_message_text(
                _clip(text, TEXT_LIMIT),
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup(keyboard),
            ),
        )
        return result is not None

    async def delete(self, chat_id: int, message_id: int) -> bool:
        """Delete a message; False if Telegram refuses (too old, already gone)."""
        return (
            await self._call("deleteMessage", lambda: self.bot.delete_message(chat_id, message_id))
            is not None
        )

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether a user is an administrator (or the creator) of a group."""
        member = await self._call(
            "getChatMember", lambda: self.bot.get_chat_member(chat_id, user_id)
        )
        status = getattr(member, "status", None)
        return status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
