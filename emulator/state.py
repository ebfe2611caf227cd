"""The emulator's world and its rules, without I/O: what simulated users do and what the bot sees.

Bot API methods live in `emulator.botapi`; they use the helpers marked "for the Bot API" here.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from emulator import errors
from emulator.clock import Clock
from emulator.ephemeral import EphemeralBook
from emulator.errors import SimulationError, bad_request, forbidden
from emulator.limits import RateLimiter, RateLimits
from emulator.markup import command_entities
from emulator.model import (
    Animation,
    CallbackQuery,
    Chat,
    ChatType,
    Content,
    MemberStatus,
    Message,
    Photo,
    StoredFile,
    User,
    WebhookConfig,
)
from emulator.photos import gif_facts, renditions

JsonDict = dict[str, Any]

DEFAULT_TOKEN = "7000000001:AAHemulatorTokenForLocalTestsOnly12"
ALL_UPDATE_TYPES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "message_reaction",
        "message_reaction_count",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)
# Telegram leaves these out unless a bot asks for them by name.
DEFAULT_UPDATE_TYPES = ALL_UPDATE_TYPES - {
    "chat_member",
    "message_reaction",
    "message_reaction_count",
}
_START_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TOPIC_ICON_COLOR = 7322096


class EmulatorState:
    """Users, chats, messages, files and the bot's update queue, plus Telegram's rules."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "saboteur_emu_bot",
        bot_name: str = "Saboteur",
        clock: Clock = time.time,
        rate_limits: RateLimits | None = None,
        privacy_mode: bool = True,
        cheap_photos: bool = False,
    ) -> None:
        self.token = token
        self.cheap_photos = cheap_photos  # PNG sizes from the header, not thumbnails (load tests)
        self.clock = clock
        self.privacy_mode = privacy_mode
        self.bot = User(
            id=int(token.split(":", 1)[0]), first_name=bot_name, username=bot_username, is_bot=True
        )
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.chats: dict[int, Chat] = {}
        self.callback_queries: dict[str, CallbackQuery] = {}
        self.ephemeral = EphemeralBook()  # ephemeral messages (`emulator.ephemeral`)
        self.webhook = WebhookConfig()
        self.allowed_updates: frozenset[str] = DEFAULT_UPDATE_TYPES
        self.pending_updates: list[JsonDict] = []
        self.update_log: list[JsonDict] = []
        self.commands: dict[str, list[JsonDict]] = {}
        self.limiter = RateLimiter(rate_limits or RateLimits(), clock)
        self.version = 0
        self._files: dict[str, StoredFile] = {}
        self._photos: dict[str, Photo] = {}
        self._animations: dict[str, Animation] = {}
        self._listeners: list[Callable[[], None]] = []
        self._next_update_id = 1
        self._next_user_id = 100_000_001
        self._next_group = 1
        self._next_query = 1
        self._next_file = 1
        self.photo_uploads = 0  # images uploaded as photos (a file id sent again is not one)

    # -- bookkeeping ------------------------------------------------------------------------

    def add_listener(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every change (new update, message, answer...)."""
        self._listeners.append(listener)

    def changed(self) -> None:
        """Bump the version and tell listeners something changed."""
        self.version += 1
        for listener in self._listeners:
            listener()

    def now(self) -> float:
        """The emulator's current time in seconds."""
        return self.clock()

    def emit(self, kind: str, payload: JsonDict) -> None:
        """Queue an update for the bot, unless it asked not to receive this kind."""
        if kind not in self.allowed_updates:
            return
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self.pending_updates.append(update)
        self.update_log.append(update)

    # -- simulated users: accounts and chats -----------------------------------------------

    def create_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "en",
        user_id: int | None = None,
    ) -> User:
        """Create a human Telegram account."""
        if user_id is None:
            user_id = self._next_user_id
            self._next_user_id += 1
        if user_id <= 0 or user_id in self.users:
            raise SimulationError(f"user id {user_id} is taken or invalid")
        user = User(user_id, first_name, username, last_name, language_code)
        self.users[user_id] = user
        self.changed()
        return user

    def create_group(
        self,
        title: str,
        *,
        creator: int,
        members: Iterable[int] = (),
        supergroup: bool = False,
        forum: bool = False,
        bot_admin: bool = False,
    ) -> Chat:
        """Create a group (or supergroup, optionally with topics) with the bot in it."""
        self.user(creator)
        member_ids = {creator, *members}
        for member in member_ids:
            self.user(member)
        if forum and not supergroup:
            raise SimulationError("only supergroups can have topics")
        chat_type = ChatType.SUPERGROUP if supergroup else ChatType.GROUP
        chat = Chat(
            id=self._new_group_id(chat_type),
            type=chat_type,
            title=title,
            is_forum=forum,
            creator_id=creator,
            members=member_ids,
            bot_status=MemberStatus.ADMINISTRATOR if bot_admin else MemberStatus.MEMBER,
        )
        self.chats[chat.id] = chat
        self._emit_bot_status(chat, creator, MemberStatus.LEFT)
        service: JsonDict = {"group_chat_created": True}
        if supergroup:
            service = {"new_chat_members": [self.bot.to_api()]}
        self._post_service(chat, creator, service)
        self.changed()
        return chat

    def add_member(self, chat_id: int, user_id: int) -> None:
        """A user joins a group."""
        chat = self._group(chat_id)
        user = self.user(user_id)
        if user_id in chat.members:
            raise SimulationError(f"user {user_id} is already in chat {chat_id}")
        chat.members.add(user_id)
        self._emit_chat_member(chat, user_id, MemberStatus.LEFT)
        self._post_service(chat, user_id, {"new_chat_members": [user.to_api()]})
        self.changed()

    def remove_member(self, chat_id: int, user_id: int) -> None:
        """A user leaves a group."""
        chat = self._group(chat_id)
        user = self.user(user_id)
        if user_id not in chat.members:
            raise SimulationError(f"user {user_id} is not in chat {chat_id}")
        old = chat.status_of(user_id)
        chat.members.discard(user_id)
        chat.admins.discard(user_id)
        self._emit_chat_member(chat, user_id, old)
        self._post_service(chat, user_id, {"left_chat_member": user.to_api()})
        self.changed()

    def make_admin(self, chat_id: int, user_id: int) -> None:
        """Promote a member (or the bot itself) to administrator."""
        chat = self._group(chat_id)
        if user_id == self.bot.id:
            if not chat.bot_is_present:
                raise SimulationError("the bot is not in this chat")
            old = chat.bot_status
            chat.bot_status = MemberStatus.ADMINISTRATOR
            self._emit_bot_status(chat, chat.creator_id or self.bot.id, old)
        else:
            if user_id not in chat.members:
                raise SimulationError(f"user {user_id} is not in chat {chat_id}")
            old = chat.status_of(user_id)
            chat.admins.add(user_id)
            self._emit_chat_member(chat, user_id, old)
        self.changed()

    def create_topic(self, chat_id: int, user_id: int, name: str) -> int:
        """A member opens a forum topic; returns its `message_thread_id`."""
        chat = self._group(chat_id)
        if not chat.is_forum:
            raise SimulationError(f"chat {chat_id} is not a forum")
        self._require_member(chat, user_id)
        message = self._store(
            chat,
            user_id,
            Content(),
            service={"forum_topic_created": {"name": name, "icon_color": _TOPIC_ICON_COLOR}},
            topic_root=True,
        )
        chat.topics[message.message_id] = name
        self._deliver(chat, message)
        self.changed()
        return message.message_id

    def migrate_to_supergroup(self, chat_id: int, *, by: int) -> Chat:
        """An admin upgrades a basic group; the bot sees both migration service messages."""
        old = self._group(chat_id)
        if old.type is not ChatType.GROUP:
            raise SimulationError(f"chat {chat_id} is not a basic group")
        if by not in (old.creator_id, *old.admins):
            raise SimulationError(f"user {by} is not an admin of chat {chat_id}")
        new = Chat(
            id=self._new_group_id(ChatType.SUPERGROUP),
            type=ChatType.SUPERGROUP,
            title=old.title,
            creator_id=old.creator_id,
            members=set(old.members),
            admins=set(old.admins),
            bot_status=old.bot_status,
        )
        self.chats[new.id] = new
        self._post_service(old, by, {"migrate_to_chat_id": new.id})
        old.migrated_to = new.id
        self._post_service(new, by, {"migrate_from_chat_id": old.id})
        self.changed()
        return new

    def remove_bot(self, chat_id: int, *, by: int) -> None:
        """An admin removes the bot from a group."""
        chat = self._group(chat_id)
        if not chat.bot_is_present:
            raise SimulationError(f"the bot is not in chat {chat_id}")
        old = chat.bot_status
        # Telegram bans a bot removed from a supergroup, but only drops it from a basic group.
        chat.bot_status = (
            MemberStatus.KICKED if chat.type is ChatType.SUPERGROUP else MemberStatus.LEFT
        )
        self._emit_bot_status(chat, by, old)
        self.changed()

    def add_bot(self, chat_id: int, *, by: int) -> None:
        """A member adds the bot back to a group."""
        chat = self._group(chat_id)
        self._require_member(chat, by)
        if chat.bot_is_present:
            raise SimulationError(f"the bot is already in chat {chat_id}")
        old = chat.bot_status
        chat.bot_status = MemberStatus.MEMBER
        self._emit_bot_status(chat, by, old)
        self._post_service(chat, by, {"new_chat_members": [self.bot.to_api()]})
        self.changed()

    # -- simulated users: private chat with the bot ----------------------------------------

    def start_bot(self, user_id: int, payload: str | None = None) -> Message:
        """The user taps Start (optionally through a deep link): sends `/start [payload]`."""
        user = self.user(user_id)
        if payload is not None and not _START_PAYLOAD.fullmatch(payload):
            raise SimulationError(f"invalid start payload {payload!r}: use 1-64 of A-Z a-z 0-9 _ -")
        chat = self.chats.setdefault(
            user_id,
            Chat(id=user_id, type=ChatType.PRIVATE, user_id=user_id, bot_status=MemberStatus.LEFT),
        )
        blocked = chat.bot_status is MemberStatus.KICKED
        chat.bot_status = MemberStatus.MEMBER
        if blocked:
            # Only a restart after blocking is reported; a first start is just the /start message.
            self._emit_bot_status(chat, user.id, MemberStatus.KICKED)
        text = "/start" if payload is None else f"/start {payload}"
        message = self._store(chat, user_id, Content(text=text, entities=command_entities(text)))
        self._deliver(chat, message)
        self.changed()
        return message

    def open_link(self, user_id: int, url: str) -> Message:
        """The user opens `https://t.me/<bot>?start=<payload>`: starts the bot with the payload."""
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        if parts.scheme == "tg" and parts.netloc == "resolve":
            username = query.get("domain", [""])[0]
        elif parts.netloc in ("t.me", "telegram.me"):
            username = parts.path.strip("/")
        else:
            raise SimulationError(f"{url!r} is not a Telegram link")
        if username.lower() != (self.bot.username or "").lower():
            raise SimulationError(f"{url!r} does not point to @{self.bot.username}")
        payloads = query.get("start")
        return self.start_bot(user_id, payloads[0] if payloads else None)

    def block_bot(self, user_id: int) -> None:
        """The user blocks the bot; the bot hears about it through `my_chat_member`."""
        chat = self.chats.get(user_id)
        if chat is None or chat.bot_status is not MemberStatus.MEMBER:
            raise SimulationError(f"user {user_id} has no active chat with the bot")
        chat.bot_status = MemberStatus.KICKED
        self._emit_bot_status(chat, user_id, MemberStatus.MEMBER)
        self.changed()

    # -- simulated users: messages and buttons ---------------------------------------------

    def send_text(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> Message:
        """The user sends a text (or a command) to a chat they are in."""
        if chat_id == user_id:
            private = self.chats.get(user_id)
            if private is None or private.bot_status is not MemberStatus.MEMBER:
                raise SimulationError("the user must start (or restart) the bot first")
        chat = self.chat(chat_id)
        self._require_member(chat, user_id)
        if not text.strip():
            raise SimulationError("a message needs some text")
        if thread_id is not None and thread_id not in chat.topics:
            raise SimulationError(f"chat {chat_id} has no topic {thread_id}")
        if reply_to is not None and self.visible_message(chat, reply_to) is None:
            raise SimulationError(f"no message {reply_to} in chat {chat_id}")
        message = self._store(
            chat,
            user_id,
            Content(text=text, entities=command_entities(text)),
            thread_id=thread_id,
            reply_to=reply_to,
        )
        self._deliver(chat, message)
        self.changed()
        return message

    def press_button(self, user_id: int, chat_id: int, message_id: int, callback_data: str) -> str:
        """The user taps an inline button the bot sent; returns the callback query id."""
        user = self.user(user_id)
        chat = self.chat(chat_id)
        self._require_member(chat, user_id)
        if not chat.bot_is_present:
            raise SimulationError(f"the bot is no longer in chat {chat_id}")
        message = self.visible_message(chat, message_id)
        if message is None:
            raise SimulationError(f"message {message_id} does not exist in chat {chat_id}")
        if not any(button.get("callback_data") == callback_data for button in message.buttons):
            raise SimulationError(
                f"message {message_id} has no button with callback_data {callback_data!r}"
            )
        query = self.new_callback_query(user_id, chat_id, message_id, callback_data)
        self.emit(
            "callback_query",
            {
                "id": query.id,
                "from": user.to_api(),
                "message": self.message_to_api(message),
                "chat_instance": str(abs(chat_id) * 7919 % 10**12),
                "data": callback_data,
            },
        )
        self.changed()
        return query.id

    def new_callback_query(
        self, user_id: int, chat_id: int, message_id: int, callback_data: str
    ) -> CallbackQuery:
        """Record a new button press (its update is the caller's to emit)."""
        query = CallbackQuery(
            id=str(4_000_000_000_000_000_000 + self._next_query),
            user_id=user_id,
            chat_id=chat_id,
            message_id=message_id,
            data=callback_data,
            created_at=self.now(),
        )
        self._next_query += 1
        self.callback_queries[query.id] = query
        return query

    # -- queries for tests and the sandbox -------------------------------------------------

    def user(self, user_id: int) -> User:
        """A known user."""
        user = self.users.get(user_id)
        if user is None:
            raise SimulationError(f"no user {user_id}")
        return user

    def chat(self, chat_id: int) -> Chat:
        """A known chat."""
        chat = self.chats.get(chat_id)
        if chat is None:
            raise SimulationError(f"no chat {chat_id}")
        return chat

    def messages(
        self, chat_id: int, *, user_id: int | None = None, include_deleted: bool = False
    ) -> list[Message]:
        """A chat's messages in order, as `user_id` (if given, a member) sees them now."""
        chat = self.chat(chat_id)
        if user_id is not None:
            self._require_member(chat, user_id)
        return [m for m in chat.messages.values() if include_deleted or not m.deleted]

    def last_message(self, chat_id: int, *, user_id: int | None = None) -> Message | None:
        """The newest visible message of a chat, if any."""
        visible = self.messages(chat_id, user_id=user_id)
        return visible[-1] if visible else None

    def message(self, chat_id: int, message_id: int) -> Message:
        """A stored message, deleted or not."""
        message = self.chat(chat_id).messages.get(message_id)
        if message is None:
            raise SimulationError(f"no message {message_id} in chat {chat_id}")
        return message

    def photo_bytes(self, chat_id: int, message_id: int) -> bytes:
        """The bytes of the largest size of a message's photo."""
        photo = self.message(chat_id, message_id).content.photo
        if not photo:
            raise SimulationError(f"message {message_id} in chat {chat_id} has no photo")
        return photo[-1].data

    def animation_bytes(self, chat_id: int, message_id: int) -> bytes:
        """The bytes of a message's animation, as uploaded."""
        animation = self.message(chat_id, message_id).content.animation
        if animation is None:
            raise SimulationError(f"message {message_id} in chat {chat_id} has no animation")
        return animation.file.data

    def file(self, file_id: str) -> StoredFile:
        """A stored file by its file id."""
        stored = self._files.get(file_id)
        if stored is None:
            raise SimulationError(f"no file {file_id!r}")
        return stored

    def file_by_path(self, file_path: str) -> StoredFile | None:
        """A stored file by the `file_path` that `getFile` gave out."""
        return next((f for f in self._files.values() if f.file_path == file_path), None)

    def callback_query(self, query_id: str) -> CallbackQuery:
        """A callback query and, if the bot answered it, the answer."""
        query = self.callback_queries.get(query_id)
        if query is None:
            raise SimulationError(f"no callback query {query_id}")
        return query

    # -- for the Bot API: updates ------------------------------------------------------------

    def take_updates(self, offset: int | None, limit: int) -> list[JsonDict]:
        """Confirm updates below a positive `offset`; return the next `limit` (for getUpdates)."""
        if self.webhook.url:
            raise errors.conflict(errors.WEBHOOK_ACTIVE)
        kept = self.pending_updates
        if offset is not None and offset < 0:
            kept = kept[offset:]
        elif offset:
            kept = [u for u in kept if u["update_id"] >= offset]
        if len(kept) != len(self.pending_updates):
            self.pending_updates = kept
            self.changed()
        return kept[:limit]

    def confirm_update(self, update_id: int) -> None:
        """Forget an update the webhook accepted."""
        self.pending_updates = [u for u in self.pending_updates if u["update_id"] != update_id]
        self.changed()

    # -- for the Bot API: chats, messages and files -----------------------------------------

    def bot_chat(self, chat_ref: int | str, *, sending: bool = True) -> Chat:
        """The chat a Bot API call targets, or Telegram's error for why the bot can't use it.

        `sending` is false for read-only calls (getChat...), which a blocked bot may still make.
        """
        chat = self.chats.get(chat_ref) if isinstance(chat_ref, int) else None
        if chat is None:
            if sending and isinstance(chat_ref, int) and chat_ref in self.users:
                raise forbidden(errors.CANT_INITIATE)
            raise bad_request(errors.CHAT_NOT_FOUND)
        if chat.migrated_to is not None:
            raise errors.chat_migrated(chat.migrated_to)
        if chat.type is ChatType.PRIVATE:
            if chat.bot_status is MemberStatus.LEFT:
                if not sending:
                    raise bad_request(errors.CHAT_NOT_FOUND)
                raise forbidden(errors.CANT_INITIATE)
            if chat.bot_status is MemberStatus.KICKED and sending:
                raise forbidden(errors.BLOCKED)
        elif not chat.bot_is_present:
            raise errors.kicked(chat.type.value)
        return chat

    def bot_message(self, chat: Chat, message_id: int | None, not_found: str) -> Message:
        """A live message of `chat`, or Telegram's `not_found` error."""
        if message_id is None:
            raise bad_request(errors.MESSAGE_ID_MISSING)
        message = self.visible_message(chat, message_id)
        if message is None:
            raise bad_request(not_found)
        return message

    def check_thread(self, chat: Chat, thread_id: int | None) -> None:
        """Refuse a `message_thread_id` that names no thread of `chat`."""
        if thread_id is None or chat.type is ChatType.PRIVATE:
            return
        if thread_id in chat.topics or (not chat.is_forum and thread_id in chat.messages):
            return
        raise bad_request(errors.THREAD_NOT_FOUND)

    def send_as_bot(
        self,
        chat: Chat,
        content: Content,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> Message:
        """Store a message from the bot, counting it against the flood limits."""
        self.limiter.check(chat.id, is_group=chat.is_group)
        self.limiter.record(chat.id, is_group=chat.is_group)
        message = self._store(chat, self.bot.id, content, thread_id=thread_id, reply_to=reply_to)
        self.changed()
        return message

    def store_photo(self, data: bytes) -> Photo:
        """Store an uploaded image as a photo with several sizes."""
        self.photo_uploads += 1
        number = self._next_file
        self._next_file += 1
        photo = tuple(
            StoredFile(
                file_id=f"AgACAgEmu{number:06d}{letter}",
                file_unique_id=f"AQADEmu{number:06d}{letter}",
                file_path=f"photos/file_{number}_{letter}.jpg",
                width=size.width,
                height=size.height,
                data=size.data,
            )
            for letter, size in zip("smxy", renditions(data, cheap=self.cheap_photos), strict=False)
        )
        for stored in photo:
            self._files[stored.file_id] = stored
            self._photos[stored.file_id] = photo
        return photo

    def store_animation(self, data: bytes, file_name: str | None) -> Animation:
        """Store an uploaded GIF as an animation (kept as uploaded; Telegram makes an MP4)."""
        width, height, seconds = gif_facts(data)
        number = self._next_file
        self._next_file += 1
        stored = StoredFile(
            file_id=f"CgACAgEmu{number:06d}",
            file_unique_id=f"AgADEmu{number:06d}",
            file_path=f"animations/file_{number}.gif",
            width=width,
            height=height,
            data=data,
        )
        animation = Animation(stored, seconds, file_name)
        self._files[stored.file_id] = stored
        self._animations[stored.file_id] = animation
        return animation

    def animation_by_file_id(self, file_id: str) -> Animation:
        """The animation with this file id (for re-sending)."""
        animation = self._animations.get(file_id)
        if animation is None:
            raise bad_request(errors.WRONG_FILE_ID)
        return animation

    def photo_by_file_id(self, file_id: str) -> Photo:
        """The photo one of whose sizes has this file id (for re-sending)."""
        photo = self._photos.get(file_id)
        if photo is None:
            raise bad_request(errors.WRONG_FILE_ID)
        return photo

    def stored_file(self, file_id: str) -> StoredFile:
        """A file by id for `getFile`."""
        stored = self._files.get(file_id)
        if stored is None:
            raise bad_request(errors.INVALID_FILE_ID)
        return stored

    # -- rendering -------------------------------------------------------------------------

    def chat_to_api(self, chat: Chat) -> JsonDict:
        """The Bot API `Chat` object."""
        if chat.type is ChatType.PRIVATE:
            user = self.users[chat.id]
            out: JsonDict = {"id": chat.id, "type": "private", "first_name": user.first_name}
            if user.last_name:
                out["last_name"] = user.last_name
            if user.username:
                out["username"] = user.username
            return out
        out = {"id": chat.id, "title": chat.title, "type": chat.type.value}
        if chat.is_forum:
            out["is_forum"] = True
        return out

    def message_to_api(self, message: Message, *, with_reply: bool = True) -> JsonDict:
        """The Bot API `Message` object for a stored message."""
        chat = self.chats[message.chat_id]
        out: JsonDict = {
            "message_id": message.message_id,
            "from": self.users[message.sender_id].to_api(),
            "chat": self.chat_to_api(chat),
            "date": message.date,
        }
        if message.thread_id is not None:
            out["message_thread_id"] = message.thread_id
        if message.is_topic_message:
            out["is_topic_message"] = True
        content = message.content
        if content.text is not None:
            out["text"] = content.text
            if content.entities:
                out["entities"] = list(content.entities)
        if content.photo:
            out["photo"] = [size.to_api() for size in content.photo]
        if content.animation is not None:
            out["animation"] = content.animation.to_api()
            out["document"] = content.animation.document_to_api()
        if content.caption:
            out["caption"] = content.caption
            if content.caption_entities:
                out["caption_entities"] = list(content.caption_entities)
            if content.show_caption_above_media:
                out["show_caption_above_media"] = True
        if content.reply_markup is not None:
            out["reply_markup"] = content.reply_markup
        if content.edit_date is not None:
            out["edit_date"] = content.edit_date
        if with_reply and message.reply_to_message_id is not None:
            replied = self.visible_message(chat, message.reply_to_message_id)
            if replied is not None:
                out["reply_to_message"] = self.message_to_api(replied, with_reply=False)
        out.update(message.service)
        return out

    def member_to_api(self, chat: Chat, user_id: int) -> JsonDict:
        """The Bot API `ChatMember` object for a user (or the bot) in a chat."""
        if user_id not in self.users:
            raise bad_request(errors.USER_NOT_FOUND)
        status = chat.bot_status if user_id == self.bot.id else chat.status_of(user_id)
        return self._member_json(chat, user_id, status)

    # -- internals -------------------------------------------------------------------------

    def _new_group_id(self, chat_type: ChatType) -> int:
        number = self._next_group
        self._next_group += 1
        if chat_type is ChatType.SUPERGROUP:
            return -1_000_000_000_000 - number
        return -4_000_000_000 - number

    def _group(self, chat_id: int) -> Chat:
        chat = self.chat(chat_id)
        if not chat.is_group:
            raise SimulationError(f"chat {chat_id} is not a group")
        if chat.migrated_to is not None:
            raise SimulationError(f"chat {chat_id} was upgraded to {chat.migrated_to}")
        return chat

    def _require_member(self, chat: Chat, user_id: int) -> None:
        self.user(user_id)
        if chat.type is ChatType.PRIVATE:
            if chat.user_id != user_id:
                raise SimulationError(f"chat {chat.id} is someone else's private chat")
        elif user_id not in chat.members:
            raise SimulationError(f"user {user_id} is not a member of chat {chat.id}")
        if chat.migrated_to is not None:
            raise SimulationError(f"chat {chat.id} was upgraded to {chat.migrated_to}")

    def visible_message(self, chat: Chat, message_id: int) -> Message | None:
        """A message of `chat` that was not deleted."""
        message = chat.messages.get(message_id)
        return None if message is None or message.deleted else message

    def _store(
        self,
        chat: Chat,
        sender_id: int,
        content: Content,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
        service: JsonDict | None = None,
        topic_root: bool = False,
    ) -> Message:
        message_id = chat.next_message_id
        chat.next_message_id += 1
        if topic_root:
            thread_id = message_id
        elif chat.is_forum and thread_id is not None and reply_to is None:
            # In a forum, Telegram makes every topic message a reply to the topic's first message.
            reply_to = thread_id
        message = Message(
            chat_id=chat.id,
            message_id=message_id,
            sender_id=sender_id,
            date=int(self.now()),
            content=content,
            thread_id=thread_id,
            is_topic_message=chat.is_forum and thread_id is not None,
            reply_to_message_id=reply_to,
            service=service or {},
        )
        chat.messages[message_id] = message
        return message

    def _post_service(self, chat: Chat, user_id: int, service: JsonDict) -> None:
        self._deliver(chat, self._store(chat, user_id, Content(), service=service))

    def _deliver(self, chat: Chat, message: Message) -> None:
        if self._bot_receives(chat, message):
            self.emit("message", self.message_to_api(message))

    def _bot_receives(self, chat: Chat, message: Message) -> bool:
        """Telegram's privacy mode: in groups the bot only gets what is meant for it."""
        if chat.type is ChatType.PRIVATE:
            return True
        if not chat.bot_is_present:
            return False
        if message.service or not self.privacy_mode:
            return True
        if chat.bot_status is MemberStatus.ADMINISTRATOR:
            return True
        text = message.content.text or ""
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            _, _, target = command.partition("@")
            return not target or target.lower() == (self.bot.username or "").lower()
        replied = chat.messages.get(message.reply_to_message_id or 0)
        return replied is not None and replied.sender_id == self.bot.id

    def _emit_bot_status(self, chat: Chat, by: int, old: MemberStatus) -> None:
        self.emit("my_chat_member", self._member_update(chat, by, self.bot.id, old))

    def _emit_chat_member(self, chat: Chat, user_id: int, old: MemberStatus) -> None:
        self.emit("chat_member", self._member_update(chat, user_id, user_id, old))

    def _member_update(self, chat: Chat, by: int, user_id: int, old: MemberStatus) -> JsonDict:
        return {
            "chat": self.chat_to_api(chat),
            "from": self.users[by].to_api(),
            "date": int(self.now()),
            "old_chat_member": self._member_json(chat, user_id, old),
            "new_chat_member": self.member_to_api(chat, user_id),
        }

    def _member_json(self, chat: Chat, user_id: int, status: MemberStatus) -> JsonDict:
        out: JsonDict = {"status": status.value, "user": self.users[user_id].to_api()}
        if status is MemberStatus.CREATOR:
            out["is_anonymous"] = False
        elif status is MemberStatus.ADMINISTRATOR:
            out.update(
                can_be_edited=False,
                is_anonymous=False,
                can_manage_chat=True,
                can_delete_messages=True,
                can_manage_video_chats=True,
                can_restrict_members=True,
                can_promote_members=False,
                can_change_info=True,
                can_invite_users=True,
                can_post_stories=True,
                can_edit_stories=True,
                can_delete_stories=True,
                can_pin_messages=True,
                can_manage_topics=chat.is_forum,
            )
        elif status is MemberStatus.KICKED:
            out["until_date"] = 0
        return out
