"""Sending to Telegram: one place that turns screens into Bot API calls and handles its errors."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence

from telegram import Bot
from telegram.constants import ChatMemberStatus
from telegram.error import RetryAfter, TelegramError

from . import ephemeral_requests as ephemeral
from . import fitting, metrics, webhook_reply
from .bot_calls import BotCalls, Upload, field, topic_of
from .fates import fate_of
from .fitting import CAPTION_LIMIT, TEXT_LIMIT
from .keyboards import markup
from .memory_ports import MemoryPosts
from .menus import Button
from .ports import BotBudget, Budget, Ephemeral, Fate, Posts, Sent
from .spending import Spending
from .uploads import SHOWN_KEPT, UPLOADS_KEPT, Shown, Uploaded, digest, keep, photo_of

log = logging.getLogger(__name__)

MAX_ANSWER_WAIT = 3.0  # a tap is answered within seconds or not at all (Telegram's 15 s)


def _fit(text: str, limit: int) -> str:
    """A last safety net: the presenter composes texts to fit (see `tgbot.fitting`)."""
    if fitting.fits(text, limit):
        return text
    log.warning("a text of %d units was shortened to %d", fitting.visible(text), limit)
    return fitting.shorten(text, limit)


class Sender:
    """The `ports.Sender` port over the Bot API: every call answers with its outcome (`Sent`).

    Nothing is shared between calls: concurrent tasks each get their own outcome. Every send and
    edit takes from the budgets first (`spending`: the bot-wide one, and a group's); a 429 holds
    that budget for every process. Every message Telegram confirms is recorded in the
    sent-message ledger (`posts`).

    Each picture is uploaded once: later sends of the same bytes use its file id. An edit that
    keeps a message's picture changes only its caption and keyboard, or only its keyboard
    (`editMessageReplyMarkup`), once Telegram's answer confirms the message still shows that
    picture (another process may have changed it meanwhile: then the picture is sent too).
    """

    def __init__(
        self,
        bot: Bot,
        budget: Budget | None = None,
        clock: Callable[[], float] = time.time,
        posts: Posts | None = None,
        bot_budget: BotBudget | None = None,
    ) -> None:
        self.bot = bot
        self.api = BotCalls(bot)
        self.spending = Spending(budget, bot_budget, clock)
        self.posts: Posts = posts if posts is not None else MemoryPosts()
        self.uploads: OrderedDict[bytes, Uploaded] = OrderedDict()
        self.shown: OrderedDict[tuple[int, int], Shown] = OrderedDict()

    @property
    def username(self) -> str:
        """The bot's @username (for deep links)."""
        return self.bot.username

    async def _call(
        self,
        method: str,
        parameters: Mapping[str, object],
        *,
        chat_id: int,
        new: bool = False,
        seen: Callable[[object], None] | None = None,
        what: str | None = None,
    ) -> Sent:
        """Run one Bot API call and say how it went (logged as `what`, by default the method);
        a `new` message's id is recorded, and `seen` is given what Telegram answered (its
        JSON)."""
        what = what or method
        try:
            result = await self.api(method, parameters)
        except TelegramError as err:
            sent = fate_of(err, private=chat_id > 0)
            metrics.DELIVERIES.labels(sent.fate.value).inc()
            if isinstance(err, RetryAfter):
                metrics.FLOOD_WAITS.inc()
            await self.spending.hold(chat_id, sent)
            level = logging.WARNING if sent.fate is Fate.REFUSED else logging.INFO
            log.log(level, "%s in %s: %s (%s)", what, chat_id, sent.fate.value, sent.detail)
            return sent
        metrics.DELIVERIES.labels(Fate.DONE.value).inc()
        if seen is not None:
            seen(result)
        message_id = field(result, "ephemeral_message_id")  # an ephemeral message's own id
        if message_id is None:
            message_id = field(result, "message_id")
        if new and isinstance(message_id, int):
            await self.posts.confirm(chat_id, message_id)
        return Sent(Fate.DONE, message_id=message_id if isinstance(message_id, int) else None)

    async def group_text(
        self,
        chat_id: int,
        thread_id: int | None,
        text: str,
        keyboard: Sequence[Sequence[Button]] | None = None,
    ) -> Sent:
        """Send an HTML text to a group (in its topic), within the group's budget."""
        return await self._text(chat_id, thread_id, text, keyboard, self.spending.group)

    async def private_text(
        self, user_id: int, text: str, keyboard: Sequence[Sequence[Button]] | None = None
    ) -> Sent:
        """Send an HTML text to a user's private chat."""
        return await self._text(user_id, None, text, keyboard, self.spending.bot)

    async def _text(
        self,
        chat_id: int,
        thread_id: int | None,
        text: str,
        keyboard: Sequence[Sequence[Button]] | None,
        spend: Callable[[int], Awaitable[Sent | None]],
    ) -> Sent:
        """sendMessage with an HTML text, once `spend` lets it go."""
        spent = await spend(chat_id)
        if spent is not None:
            return spent
        parameters = {
            "chat_id": chat_id,
            "text": _fit(text, TEXT_LIMIT),
            "parse_mode": "HTML",
            "message_thread_id": thread_id,
            "reply_markup": markup(keyboard),
        }
        return await self._call("sendMessage", parameters, chat_id=chat_id, new=True)

    async def group_photo(
        self,
        chat_id: int,
        thread_id: int | None,
        png: bytes,
        caption: str,
        keyboard: Sequence[Sequence[Button]] | None = None,
        *,
        above: bool = False,
    ) -> Sent:
        """Send a photo with an HTML caption to a group, within the group's budget (`above`:
        the caption shown above the picture)."""
        spend = self.spending.group
        return await self._send_photo(chat_id, thread_id, png, caption, keyboard, spend, above)

    async def private_photo(
        self, user_id: int, png: bytes, caption: str, keyboard: Sequence[Sequence[Button]]
    ) -> Sent:
        """Send a photo with caption and keyboard to a user's private chat."""
        return await self._send_photo(user_id, None, png, caption, keyboard, self.spending.bot)

    async def _send_photo(
        self,
        chat_id: int,
        thread_id: int | None,
        png: bytes,
        caption: str,
        keyboard: Sequence[Sequence[Button]] | None,
        spend: Callable[[int], Awaitable[Sent | None]],
        above: bool = False,
    ) -> Sent:
        """sendPhoto with an HTML caption, once `spend` lets it go."""
        spent = await spend(chat_id)
        if spent is not None:
            return spent
        text = _fit(caption, CAPTION_LIMIT)

        def parameters(photo: str | Upload) -> dict[str, object]:
            return {
                "chat_id": chat_id,
                "photo": photo,
                "caption": text,
                "parse_mode": "HTML",
                "message_thread_id": thread_id,
                "reply_markup": markup(keyboard),
                "show_caption_above_media": above or None,
            }

        return await self._photo("sendPhoto", png, text, parameters, chat_id=chat_id, new=True)

    async def _photo(
        self,
        method: str,
        png: bytes,
        caption: str,
        parameters: Callable[[str | Upload], Mapping[str, object]],
        *,
        chat_id: int,
        new: bool = False,
    ) -> Sent:
        """A call that sends a picture: by its file id when it was uploaded before (uploaded
        anew if Telegram no longer takes that id); what the message shows is remembered."""
        key = digest(png)

        def seen(result: object) -> None:
            photo = photo_of(result)
            message_id = field(result, "message_id")
            if photo is None or not isinstance(message_id, int):
                return
            keep(self.uploads, key, photo, UPLOADS_KEPT)
            text = field(result, "caption")
            shown = Shown(key, caption, photo.unique_id, text if isinstance(text, str) else None)
            keep(self.shown, (chat_id, message_id), shown, SHOWN_KEPT)

        uploaded = self.uploads.get(key)
        if uploaded is not None:
            by_id = parameters(uploaded.file_id)
            sent = await self._call(method, by_id, chat_id=chat_id, new=new, seen=seen)
            if sent.fate is not Fate.REFUSED:
                return sent
            self.uploads.pop(key, None)  # an id Telegram no longer knows: upload the bytes
        upload = parameters(Upload("picture.png", png, "image/png"))
        return await self._call(method, upload, chat_id=chat_id, new=new, seen=seen)

    async def group_animation(
        self,
        chat_id: int,
        thread_id: int | None,
        data: bytes,
        caption: str,
        keyboard: Sequence[Sequence[Button]] | None = None,
    ) -> Sent:
        """Send an animation (a GIF) with an HTML caption to a group, within the group's budget."""
        spent = await self.spending.group(chat_id)
        if spent is not None:
            return spent
        parameters = {
            "chat_id": chat_id,
            "animation": Upload("replay.gif", data, "image/gif"),
            "caption": _fit(caption, CAPTION_LIMIT),
            "parse_mode": "HTML",
            "message_thread_id": thread_id,
            "reply_markup": markup(keyboard),
        }
        return await self._call("sendAnimation", parameters, chat_id=chat_id, new=True)

    async def edit_photo(
        self,
        chat_id: int,
        message_id: int,
        png: bytes,
        caption: str,
        keyboard: Sequence[Sequence[Button]],
    ) -> Sent:
        """Replace a photo message's picture, caption and keyboard (only what changed, when this
        process knows what the message shows)."""
        spent = await self.spending.bot(chat_id)
        if spent is not None:
            return spent
        text = _fit(caption, CAPTION_LIMIT)
        where = (chat_id, message_id)
        shown = self.shown.get(where)
        if shown is not None and shown.digest == digest(png):
            sent = await self._keep_picture(chat_id, message_id, shown, text, keyboard)
            if sent is not None:
                return sent
        self.shown.pop(where, None)  # unknown until Telegram confirms the edit

        def parameters(photo: str | Upload) -> dict[str, object]:
            media = {"type": "photo", "media": photo, "caption": text, "parse_mode": "HTML"}
            return {
                "chat_id": chat_id,
                "message_id": message_id,
                "media": media,
                "reply_markup": markup(keyboard),
            }

        return await self._photo("editMessageMedia", png, text, parameters, chat_id=chat_id)

    async def _keep_picture(
        self,
        chat_id: int,
        message_id: int,
        shown: Shown,
        caption: str,
        keyboard: Sequence[Sequence[Button]],
    ) -> Sent | None:
        """Edit a message's keyboard (and caption, if it changed) but not its picture; None when
        Telegram's answer shows the message no longer had the picture remembered."""
        same_caption = shown.caption == caption
        answered: list[object] = []
        if same_caption:
            method = "editMessageReplyMarkup"
            parameters: dict[str, object] = {"chat_id": chat_id, "message_id": message_id}
        else:
            method = "editMessageCaption"
            parameters = {
                "chat_id": chat_id,
                "message_id": message_id,
                "caption": caption,
                "parse_mode": "HTML",
            }
        parameters["reply_markup"] = markup(keyboard)
        sent = await self._call(method, parameters, chat_id=chat_id, seen=answered.append)
        if not answered:
            if sent.ok:
                return None  # "not modified": that says nothing of the picture, so send it
            self.shown.pop((chat_id, message_id), None)
            return sent  # refused: as an edit of the picture would be
        photo = photo_of(answered[0])
        answer = field(answered[0], "caption")
        text = answer if isinstance(answer, str) else None
        if photo is None or photo.unique_id != shown.unique_id:
            return None
        if same_caption and text != shown.text:
            return None
        now = Shown(shown.digest, caption, shown.unique_id, text)
        keep(self.shown, (chat_id, message_id), now, SHOWN_KEPT)
        return sent

    async def edit_text(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        keyboard: Sequence[Sequence[Button]] | None,
    ) -> Sent:
        """Replace a text message's text and keyboard."""
        spent = await self.spending.bot(chat_id)
        if spent is not None:
            return spent
        parameters = {
            "chat_id": chat_id,
            "message_id": message_id,
            "text": _fit(text, TEXT_LIMIT),
            "parse_mode": "HTML",
            "reply_markup": markup(keyboard),
        }
        return await self._call("editMessageText", parameters, chat_id=chat_id)

    async def delete(self, chat_id: int, message_id: int) -> Sent:
        """Delete a message (GONE when it is gone already or too old to delete)."""
        parameters = {"chat_id": chat_id, "message_id": message_id}
        return await self._call("deleteMessage", parameters, chat_id=chat_id)

    async def probe(self, chat_id: int, message_id: int, thread_id: int | None) -> Sent:
        """Whether a message is the bot's own, still there and in forum topic `thread_id`: DONE
        (its keyboard, if any, is removed), else GONE (not the bot's, not there, or another
        topic's: another game's message, never a copy of this one's)."""
        method = "editMessageReplyMarkup"
        parameters = {"chat_id": chat_id, "message_id": message_id}
        topics: list[int | None] = []

        def seen(result: object) -> None:
            topics.append(topic_of(result))

        sent = await self._call(method, parameters, chat_id=chat_id, seen=seen)
        if not sent.ok:
            return sent
        if topics and topics[0] != thread_id:
            detail = f"in topic {topics[0]}, not {thread_id}"
            return Sent(Fate.GONE, detail=detail, elsewhere=True, topic=topics[0])
        return Sent(Fate.DONE)

    async def edit_keyboard(
        self, chat_id: int, message_id: int, keyboard: Sequence[Sequence[Button]]
    ) -> Sent:
        """Set a message's keyboard, nothing else (DONE when it was so already)."""
        spent = await self.spending.bot(chat_id)
        if spent is not None:
            return spent
        method = "editMessageReplyMarkup"
        parameters: dict[str, object] = {"chat_id": chat_id, "message_id": message_id}
        parameters["reply_markup"] = markup(keyboard)
        return await self._call(method, parameters, chat_id=chat_id)

    async def answer(self, query_id: str, text: str, *, alert: bool, url: str | None) -> Sent:
        """Answer a button tap: in the webhook's own answer while its update is handled
        (`tgbot.webhook_reply`), else by a call, where a short flood wait is waited out once
        (the tap is fresh)."""
        parameters = {
            "callback_query_id": query_id,
            "text": text or None,
            "show_alert": alert,
            "url": url,
        }
        if webhook_reply.offer(query_id, parameters):
            metrics.WEBHOOK_REPLIES.inc()
            return Sent(Fate.DONE)
        for attempt in (1, 2):
            method = "answerCallbackQuery"
            sent = await self._call(method, parameters, chat_id=0)
            wait = sent.retry_after
            if (
                sent.fate is not Fate.RETRY
                or wait is None
                or wait > MAX_ANSWER_WAIT
                or attempt == 2
            ):
                return sent
            await asyncio.sleep(wait)
        return sent

    async def ephemeral_photo(
        self, to: Ephemeral, png: bytes, caption: str, keyboard: Sequence[Sequence[Button]]
    ) -> Sent:
        """Send a photo only `to.receiver_user_id` sees in the group (sendPhoto with
        `ephemeral_message_parameters`); `Sent.message_id` is its `ephemeral_message_id`."""
        body = ephemeral.send_photo(to, png, _fit(caption, CAPTION_LIMIT), markup(keyboard))
        await self.spending.charge()  # a message, answering the receiver's own tap
        return await self._raw("sendPhoto (ephemeral)", ephemeral.SEND_PHOTO, body, to.chat_id)

    async def edit_ephemeral_photo(
        self,
        chat_id: int,
        receiver_user_id: int,
        ephemeral_message_id: int,
        png: bytes,
        caption: str,
        keyboard: Sequence[Sequence[Button]],
    ) -> Sent:
        """Replace an ephemeral photo's picture (a new upload, Bot API 10.3), caption and
        keyboard."""
        message = (chat_id, receiver_user_id, ephemeral_message_id)
        body = ephemeral.edit_media(message, png, _fit(caption, CAPTION_LIMIT), markup(keyboard))
        await self.spending.charge()  # an edit, answering the receiver's own tap
        return await self._raw(ephemeral.EDIT_MEDIA, ephemeral.EDIT_MEDIA, body, chat_id)

    async def delete_ephemeral(
        self, chat_id: int, receiver_user_id: int, ephemeral_message_id: int
    ) -> Sent:
        """Delete an ephemeral message."""
        body = ephemeral.delete((chat_id, receiver_user_id, ephemeral_message_id))
        return await self._raw(ephemeral.DELETE, ephemeral.DELETE, body, chat_id)

    async def _raw(self, what: str, method: str, body: dict[str, object], chat_id: int) -> Sent:
        """A request PTB has no method for."""
        return await self._call(method, body, chat_id=chat_id, what=what)

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether a user is an administrator (or the creator) of a group."""
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError as err:
            log.info("getChatMember in %s: %s", chat_id, err)
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
