"""The emulated Telegram world: users, chats, messages, files and callback queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from emulator.markup import inline_buttons

JsonDict = dict[str, Any]


class ChatType(StrEnum):
    """Kinds of chats the bot can be in."""

    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"


class MemberStatus(StrEnum):
    """A chat member's status, as `getChatMember` reports it."""

    CREATOR = "creator"
    ADMINISTRATOR = "administrator"
    MEMBER = "member"
    LEFT = "left"
    KICKED = "kicked"


@dataclass
class User:
    """A Telegram account, human or bot."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = None
    is_bot: bool = False

    def to_api(self) -> JsonDict:
        """The Bot API `User` object."""
        out: JsonDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code and not self.is_bot:
            out["language_code"] = self.language_code
        return out


@dataclass(frozen=True)
class StoredFile:
    """One stored file (one size of a photo), downloadable through `getFile`."""

    file_id: str
    file_unique_id: str
    file_path: str
    width: int
    height: int
    data: bytes = field(repr=False)

    def to_api(self) -> JsonDict:
        """The Bot API `PhotoSize` object."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
            "width": self.width,
            "height": self.height,
        }


Photo = tuple[StoredFile, ...]


@dataclass(frozen=True)
class Animation:
    """A GIF sent with sendAnimation: its file, length and name (Telegram's `Animation`)."""

    file: StoredFile
    duration: int  # seconds, rounded
    file_name: str | None = None
    mime_type: str = "image/gif"

    def to_api(self) -> JsonDict:
        """The Bot API `Animation` object."""
        out: JsonDict = {
            "file_id": self.file.file_id,
            "file_unique_id": self.file.file_unique_id,
            "width": self.file.width,
            "height": self.file.height,
            "duration": self.duration,
            "mime_type": self.mime_type,
            "file_size": len(self.file.data),
        }
        if self.file_name:
            out["file_name"] = self.file_name
        return out

    def document_to_api(self) -> JsonDict:
        """The `Document` Telegram sends alongside an animation (for older clients)."""
        out = {k: v for k, v in self.to_api().items() if k not in ("width", "height", "duration")}
        return out


@dataclass(frozen=True)
class Content:
    """What a message shows; an edit replaces it and keeps the old one in the history."""

    text: str | None = None
    entities: tuple[JsonDict, ...] = ()
    caption: str | None = None
    caption_entities: tuple[JsonDict, ...] = ()
    photo: Photo | None = None
    animation: Animation | None = None
    reply_markup: JsonDict | None = None
    show_caption_above_media: bool = False
    raw_text: str | None = field(default=None, compare=False)
    raw_caption: str | None = field(default=None, compare=False)
    edit_date: int | None = field(default=None, compare=False)


@dataclass
class Message:
    """A stored message with its current content, edit history and deletion flag."""

    chat_id: int
    message_id: int
    sender_id: int
    date: int
    content: Content
    thread_id: int | None = None
    is_topic_message: bool = False
    reply_to_message_id: int | None = None
    service: JsonDict = field(default_factory=dict)
    deleted: bool = False
    history: list[Content] = field(default_factory=list)

    @property
    def text(self) -> str | None:
        """The plain text, entities removed."""
        return self.content.text

    @property
    def raw_text(self) -> str | None:
        """The text as the bot sent it (HTML included)."""
        return self.content.raw_text

    @property
    def caption(self) -> str | None:
        """The plain caption of a photo."""
        return self.content.caption

    @property
    def reply_markup(self) -> JsonDict | None:
        """The reply markup as the bot sent it."""
        return self.content.reply_markup

    @property
    def photo_file_id(self) -> str | None:
        """The file id of the largest size of the photo, if any."""
        return self.content.photo[-1].file_id if self.content.photo else None

    @property
    def animation_file_id(self) -> str | None:
        """The file id of the animation, if any."""
        return self.content.animation.file.file_id if self.content.animation else None

    @property
    def is_edited(self) -> bool:
        """Whether the message was edited at least once."""
        return bool(self.history)

    @property
    def buttons(self) -> list[JsonDict]:
        """The inline keyboard buttons, row by row."""
        return inline_buttons(self.content.reply_markup)

    def callback_data(self, button_text: str) -> str:
        """The callback data of the button labelled `button_text`."""
        for button in self.buttons:
            if button.get("text") == button_text and "callback_data" in button:
                return str(button["callback_data"])
        raise KeyError(f"no callback button {button_text!r} in message {self.message_id}")


@dataclass
class Chat:
    """A private chat, group or supergroup, with its members and messages."""

    id: int
    type: ChatType
    title: str | None = None
    user_id: int | None = None
    is_forum: bool = False
    creator_id: int | None = None
    members: set[int] = field(default_factory=set)
    admins: set[int] = field(default_factory=set)
    bot_status: MemberStatus = MemberStatus.MEMBER
    migrated_to: int | None = None
    messages: dict[int, Message] = field(default_factory=dict)
    topics: dict[int, str] = field(default_factory=dict)
    next_message_id: int = 1

    @property
    def is_group(self) -> bool:
        """Whether this is a group or a supergroup."""
        return self.type is not ChatType.PRIVATE

    @property
    def bot_is_present(self) -> bool:
        """Whether the bot can act in this chat at all."""
        return self.bot_status in (MemberStatus.MEMBER, MemberStatus.ADMINISTRATOR)

    def status_of(self, user_id: int) -> MemberStatus:
        """A human member's status in this chat."""
        if self.type is ChatType.PRIVATE:
            return MemberStatus.MEMBER if user_id == self.user_id else MemberStatus.LEFT
        if user_id == self.creator_id and user_id in self.members:
            return MemberStatus.CREATOR
        if user_id in self.admins and user_id in self.members:
            return MemberStatus.ADMINISTRATOR
        return MemberStatus.MEMBER if user_id in self.members else MemberStatus.LEFT


@dataclass
class CallbackQuery:
    """A button press and, once the bot answers it, the answer."""

    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created_at: float
    answered: bool = False
    text: str | None = None
    show_alert: bool = False
    url: str | None = None


@dataclass
class WebhookConfig:
    """What `setWebhook` set, and what the last delivery attempt reported."""

    url: str = ""
    secret_token: str | None = None
    max_connections: int = 40
    last_error_date: int | None = None
    last_error_message: str | None = None
