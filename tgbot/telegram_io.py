"""Sending to Telegram: one place that turns screens into Bot API calls and handles its errors."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError

from .callback import encode
from .menus import Button

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


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Sender:
    """The bot's outgoing calls; each returns None/False instead of raising on Telegram errors."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @property
    def username(self) -> str:
        """The bot's @username (for deep links)."""
        return self.bot.username

    async def _call(self, what: str, make: Callable[[], Awaitable[object]]) -> object | None:
        """Run a Bot API call; wait once on flood control; None on a refusal."""
        for attempt in (1, 2):
            try:
                result: object = await make()
                return result
            except RetryAfter as err:
                delay = float(getattr(err, "retry_after", 1))
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
        """Send an HTML text to a group (in its topic); the new message id."""
        message = await self._call(
            "sendMessage",
            lambda: self.bot.send_message(
                chat_id,
                _clip(text, TEXT_LIMIT),
                parse_mode=ParseMode.HTML,
                message_thread_id=thread_id,
                reply_markup=markup(keyboard),
            ),
        )
        return getattr(message, "message_id", None)

    async def group_photo(
        self, chat_id: int, thread_id: int | None, png: bytes, caption: str
    ) -> int | None:
        """Send a photo with an HTML caption to a group; the new message id."""
        message = await self._call(
            "sendPhoto",
            lambda: self.bot.send_photo(
                chat_id,
                png,
                caption=_clip(caption, CAPTION_LIMIT),
                parse_mode=ParseMode.HTML,
                message_thread_id=thread_id,
            ),
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
