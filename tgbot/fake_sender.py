"""A sender that records what would be sent, for use-case tests: the `tgbot.ports.Sender` port.

Every message gets a new id; blocked users, moved groups, admins and a flood budget
can be set up to see how the use cases cope.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from .ports import Budget, Keyboard


@dataclass(slots=True)
class Sent:
    """One message as it stands: where, what kind, its text or caption, its keyboard."""

    chat_id: int
    message_id: int
    kind: str  # "text", "photo" or "animation"
    text: str
    keyboard: Keyboard | None = None
    thread_id: int | None = None
    deleted: bool = False
    edits: int = 0


@dataclass
class FakeSender:
    """Records every call; answers as Telegram would for the situation set up."""

    username: str = "saboteur_test_bot"
    admins: set[tuple[int, int]] = field(default_factory=set)  # (chat, user)
    blocked: set[int] = field(default_factory=set)  # chats that refuse the bot (blocked, kicked)
    moved: dict[int, int] = field(default_factory=dict)  # group -> supergroup, not followed yet
    budget: Budget | None = None
    clock: Callable[[], float] = lambda: 0.0
    migrations: dict[int, int] = field(default_factory=dict)
    messages: list[Sent] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    animations: dict[int, bytes] = field(default_factory=dict)  # message id -> the GIF sent
    _retry_after: float | None = None
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def take_retry_after(self) -> float | None:
        """The retry_after of the last refused group send, if any (then cleared)."""
        value, self._retry_after = self._retry_after, None
        return value

    def _new(
        self, chat_id: int, kind: str, text: str, keyboard: Keyboard | None, thread: int | None
    ) -> int:
        sent = Sent(chat_id, next(self._ids), kind, text, keyboard or None, thread)
        self.messages.append(sent)
        return sent.message_id

    async def _group_open(self, chat_id: int) -> bool:
        if chat_id in self.blocked:
            return False
        if chat_id in self.moved:
            self.migrations[chat_id] = self.moved[chat_id]
            return False
        if self.budget is not None:
            wait = await self.budget.take(chat_id, self.clock())
            if wait > 0:
                self._retry_after = wait
                return False
        return True

    async def group_text(
        self, chat_id: int, thread_id: int | None, text: str, keyboard: Keyboard | None = None
    ) -> int | None:
        """Post a text in a group, unless it moved or its budget is spent."""
        self.calls.append("group_text")
        if not await self._group_open(chat_id):
            return None
        return self._new(chat_id, "text", text, keyboard, thread_id)

    async def group_photo(
        self, chat_id: int, thread_id: int | None, png: bytes, caption: str
    ) -> int | None:
        """Post a photo in a group, unless it moved or its budget is spent."""
        self.calls.append("group_photo")
        if not await self._group_open(chat_id):
            return None
        return self._new(chat_id, "photo", caption, None, thread_id)

    async def group_animation(
        self,
        chat_id: int,
        thread_id: int | None,
        data: bytes,
        caption: str,
        keyboard: Keyboard | None = None,
    ) -> int | None:
        """Post an animation in a group, unless it moved or its budget is spent."""
        self.calls.append("group_animation")
        if not await self._group_open(chat_id):
            return None
        message_id = self._new(chat_id, "animation", caption, keyboard, thread_id)
        self.animations[message_id] = data
        return message_id

    async def private_text(self, user_id: int, text: str) -> int | None:
        """Send a text to a user, unless they blocked the bot."""
        self.calls.append("private_text")
        return None if user_id in self.blocked else self._new(user_id, "text", text, None, None)

    async def private_photo(
        self, user_id: int, png: bytes, caption: str, keyboard: Keyboard
    ) -> int | None:
        """Send a photo to a user, unless they blocked the bot."""
        self.calls.append("private_photo")
        if user_id in self.blocked:
            return None
        return self._new(user_id, "photo", caption, keyboard, None)

    def _live(self, chat_id: int, message_id: int, kind: str) -> Sent | None:
        for sent in self.messages:
            if sent.chat_id == chat_id and sent.message_id == message_id and not sent.deleted:
                return sent if sent.kind == kind else None
        return None

    async def edit_photo(
        self, chat_id: int, message_id: int, png: bytes, caption: str, keyboard: Keyboard
    ) -> bool:
        """Edit a live photo message; False if it is gone (or not a photo)."""
        self.calls.append("edit_photo")
        return self._edit(self._live(chat_id, message_id, "photo"), caption, keyboard)

    async def edit_text(
        self, chat_id: int, message_id: int, text: str, keyboard: Keyboard | None
    ) -> bool:
        """Edit a live text message; False if it is gone (or not a text)."""
        self.calls.append("edit_text")
        return self._edit(self._live(chat_id, message_id, "text"), text, keyboard)

    def _edit(self, sent: Sent | None, text: str, keyboard: Keyboard | None) -> bool:
        if sent is None:
            return False
        sent.text, sent.keyboard, sent.edits = text, keyboard or None, sent.edits + 1
        return True

    async def delete(self, chat_id: int, message_id: int) -> bool:
        """Delete a message; False if it is already gone."""
        self.calls.append("delete")
        for kind in ("text", "photo", "animation"):
            sent = self._live(chat_id, message_id, kind)
            if sent is not None:
                sent.deleted = True
                return True
        return False

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user was set up as an admin of the chat."""
        return (chat_id, user_id) in self.admins

    def live(self, chat_id: int, kind: str | None = None) -> list[Sent]:
        """The messages of a chat not deleted, oldest first (of one kind, if given)."""
        return [
            s
            for s in self.messages
            if s.chat_id == chat_id and not s.deleted and (kind is None or s.kind == kind)
        ]

    def texts_in(self, chat_id: int) -> list[str]:
        """The texts and captions of a chat's messages, deleted ones too, oldest first."""
        return [s.text for s in self.messages if s.chat_id == chat_id]
