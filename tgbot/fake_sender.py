"""A sender that records what would be sent, for use-case tests: the `tgbot.ports.Sender` port.

Every message gets a new id; blocked users, moved groups, admins, a flood budget and failures
of any kind (`fail`) can be set up to see how the use cases cope.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from .memory_ports import MemoryPosts
from .ports import DONE, Budget, Ephemeral, Fate, Keyboard, Posts, Sent
from .spending import Spending


@dataclass(slots=True)
class Message:
    """One message as it stands: where, what kind, its text or caption, its keyboard."""

    chat_id: int
    message_id: int
    kind: str  # "text", "photo" or "animation"
    text: str
    keyboard: Keyboard | None = None
    thread_id: int | None = None
    deleted: bool = False
    edits: int = 0
    receiver: int | None = None  # of an ephemeral message (its id counts apart)
    above: bool = False  # a photo's caption shown above it


@dataclass(frozen=True, slots=True)
class Failure:
    """A failure set up for the next calls of one kind ("group_photo", "delete", ...).

    `carried_out`: Telegram did it all the same (a timeout after the fact: Fate.UNKNOWN).
    """

    call: str
    fate: Fate
    carried_out: bool = False
    retry_after: float | None = None


@dataclass
class FakeSender:
    """Records every call; answers as Telegram would for the situation set up."""

    username: str = "saboteur_test_bot"
    admins: set[tuple[int, int]] = field(default_factory=set)  # (chat, user)
    blocked: set[int] = field(default_factory=set)  # chats that refuse the bot (blocked, kicked)
    moved: dict[int, int] = field(default_factory=dict)  # group -> supergroup, not followed yet
    budget: Budget | None = None
    spending: Spending | None = None  # the bot-wide budget, as the real sender spends it
    posts: Posts = field(default_factory=MemoryPosts)
    clock: Callable[[], float] = lambda: 0.0
    messages: list[Message] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    answers: list[tuple[str, str, bool, str | None]] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    animations: dict[int, bytes] = field(default_factory=dict)  # message id -> the GIF sent
    shown: list[tuple[int, str]] = field(default_factory=list)  # (chat, text) sent or edited
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def fail(
        self,
        call: str,
        fate: Fate,
        *,
        times: int = 1,
        carried_out: bool = False,
        retry_after: float | None = None,
    ) -> None:
        """Let the next `times` calls of this kind fail so."""
        self.failures += [Failure(call, fate, carried_out, retry_after)] * times

    def _failure(self, call: str) -> Failure | None:
        self.calls.append(call)
        for i, failure in enumerate(self.failures):
            if failure.call == call:
                del self.failures[i]
                return failure
        return None

    async def _new(
        self, chat_id: int, kind: str, text: str, keyboard: Keyboard | None, thread: int | None
    ) -> Sent:
        sent = Message(chat_id, next(self._ids), kind, text, keyboard or None, thread)
        self.messages.append(sent)
        self.shown.append((chat_id, text))
        await self.posts.confirm(chat_id, sent.message_id)
        return Sent(Fate.DONE, message_id=sent.message_id)

    async def _send(
        self,
        call: str,
        chat_id: int,
        kind: str,
        text: str,
        keyboard: Keyboard | None,
        thread: int | None,
    ) -> Sent:
        failure = self._failure(call)
        if failure is not None:
            if failure.carried_out:  # done, but the answer was lost
                self.messages.append(
                    Message(chat_id, next(self._ids), kind, text, keyboard or None, thread)
                )
            return Sent(failure.fate, retry_after=failure.retry_after, detail="set up to fail")
        if chat_id in self.blocked:
            return Sent(Fate.BLOCKED if chat_id > 0 else Fate.GONE, detail="blocked")
        if chat_id in self.moved:
            return Sent(Fate.MOVED, new_chat=self.moved[chat_id])
        spent = await self._bot_budget(chat_id)
        if spent is not None:
            return spent
        if chat_id < 0 and self.budget is not None:
            wait = await self.budget.take(chat_id, self.clock())
            if wait > 0:
                return Sent(Fate.RETRY, retry_after=wait, detail="budget")
        return await self._new(chat_id, kind, text, keyboard, thread)

    async def _bot_budget(self, chat_id: int) -> Sent | None:
        """A message (a send or an edit) takes from the bot-wide budget first, if one is set up
        (a RETRY outcome when it is spent, as `Spending.bot`)."""
        return None if self.spending is None else await self.spending.bot(chat_id)

    async def group_text(
        self, chat_id: int, thread_id: int | None, text: str, keyboard: Keyboard | None = None
    ) -> Sent:
        """Post a text in a group, unless it moved or its budget is spent."""
        return await self._send("group_text", chat_id, "text", text, keyboard, thread_id)

    async def group_photo(
        self,
        chat_id: int,
        thread_id: int | None,
        png: bytes,
        caption: str,
        keyboard: Keyboard | None = None,
        *,
        above: bool = False,
    ) -> Sent:
        """Post a photo in a group, unless it moved or its budget is spent."""
        sent = await self._send("group_photo", chat_id, "photo", caption, keyboard, thread_id)
        if sent.ok and above:
            for m in reversed(self.messages):
                if (m.chat_id, m.message_id) == (chat_id, sent.message_id):
                    m.above = True
                    break
        return sent

    async def group_animation(
        self,
        chat_id: int,
        thread_id: int | None,
        data: bytes,
        caption: str,
        keyboard: Keyboard | None = None,
    ) -> Sent:
        """Post an animation in a group, unless it moved or its budget is spent."""
        sent = await self._send(
            "group_animation", chat_id, "animation", caption, keyboard, thread_id
        )
        if sent.ok and sent.message_id is not None:
            self.animations[sent.message_id] = data
        return sent

    async def private_text(self, user_id: int, text: str, keyboard: Keyboard | None = None) -> Sent:
        """Send a text to a user, unless they blocked the bot."""
        return await self._send("private_text", user_id, "text", text, keyboard, None)

    async def private_photo(
        self, user_id: int, png: bytes, caption: str, keyboard: Keyboard
    ) -> Sent:
        """Send a photo to a user, unless they blocked the bot."""
        return await self._send("private_photo", user_id, "photo", caption, keyboard, None)

    def _live(self, chat_id: int, message_id: int, kind: str | None = None) -> Message | None:
        for sent in self.messages:
            if sent.chat_id == chat_id and sent.message_id == message_id and not sent.deleted:
                return sent if kind is None or sent.kind == kind else None
        return None

    async def edit_photo(
        self, chat_id: int, message_id: int, png: bytes, caption: str, keyboard: Keyboard
    ) -> Sent:
        """Edit a live photo message; GONE if it is gone (or not a photo)."""
        spent = await self._bot_budget(chat_id)
        if spent is not None:
            return spent
        return self._edit("edit_photo", self._live(chat_id, message_id, "photo"), caption, keyboard)

    async def edit_text(
        self, chat_id: int, message_id: int, text: str, keyboard: Keyboard | None
    ) -> Sent:
        """Edit a live text message; GONE if it is gone (or not a text)."""
        spent = await self._bot_budget(chat_id)
        if spent is not None:
            return spent
        return self._edit("edit_text", self._live(chat_id, message_id, "text"), text, keyboard)

    def _edit(self, call: str, sent: Message | None, text: str, keyboard: Keyboard | None) -> Sent:
        failure = self._failure(call)
        if failure is not None:
            if failure.carried_out and sent is not None:
                sent.text, sent.keyboard, sent.edits = text, keyboard or None, sent.edits + 1
            return Sent(failure.fate, retry_after=failure.retry_after, detail="set up to fail")
        if sent is None:
            return Sent(Fate.GONE, detail="message to edit not found")
        if sent.chat_id in self.blocked:
            return Sent(Fate.BLOCKED if sent.chat_id > 0 else Fate.GONE, detail="blocked")
        sent.text, sent.keyboard, sent.edits = text, keyboard or None, sent.edits + 1
        self.shown.append((sent.chat_id, text))
        return DONE

    async def delete(self, chat_id: int, message_id: int) -> Sent:
        """Delete a message; GONE if it is already gone."""
        failure = self._failure("delete")
        sent = self._live(chat_id, message_id)
        if failure is not None:
            if failure.carried_out and sent is not None:
                sent.deleted = True
            return Sent(failure.fate, retry_after=failure.retry_after, detail="set up to fail")
        if sent is None:
            return Sent(Fate.GONE, detail="message to delete not found")
        sent.deleted = True
        return DONE

    async def probe(self, chat_id: int, message_id: int, thread_id: int | None) -> Sent:
        """DONE for a live message of the bot's in topic `thread_id` (its keyboard removed,
        whatever its topic), else GONE. As on Telegram, a message without a keyboard tells no
        topic ("message is not modified"): DONE."""
        self.calls.append("probe")
        sent = self._live(chat_id, message_id)
        if sent is None:
            return Sent(Fate.GONE, detail="message to edit not found")
        if sent.keyboard is None:
            return DONE
        sent.keyboard = None
        if sent.thread_id != thread_id:
            return Sent(Fate.GONE, detail="in another topic", elsewhere=True, topic=sent.thread_id)
        return DONE

    async def edit_keyboard(self, chat_id: int, message_id: int, keyboard: Keyboard) -> Sent:
        """Set a message's keyboard (GONE if it is not there)."""
        failure = self._failure("edit_keyboard")
        if failure is not None:
            return Sent(failure.fate, retry_after=failure.retry_after, detail="set up to fail")
        sent = self._live(chat_id, message_id)
        if sent is None:
            return Sent(Fate.GONE, detail="message to edit not found")
        sent.keyboard = keyboard or None
        return DONE

    async def answer(self, query_id: str, text: str, *, alert: bool, url: str | None) -> Sent:
        """Record the answer to a tap."""
        failure = self._failure("answer")
        if failure is not None:
            return Sent(failure.fate, retry_after=failure.retry_after, detail="set up to fail")
        self.answers.append((query_id, text, alert, url))
        return DONE

    async def ephemeral_photo(
        self, to: Ephemeral, png: bytes, caption: str, keyboard: Keyboard
    ) -> Sent:
        """Show a photo to one member of a group; its id is an ephemeral message id."""
        failure = self._failure("ephemeral_photo")
        if failure is not None:
            return Sent(failure.fate, retry_after=failure.retry_after, detail="set up to fail")
        if to.chat_id in self.blocked:
            return Sent(Fate.GONE, detail="blocked")
        sent = Message(
            to.chat_id,
            next(self._ids),
            "ephemeral",
            caption,
            keyboard or None,
            to.thread_id,
            receiver=to.receiver_user_id,
        )
        self.messages.append(sent)
        return Sent(Fate.DONE, message_id=sent.message_id)

    async def edit_ephemeral_photo(
        self,
        chat_id: int,
        receiver_user_id: int,
        ephemeral_message_id: int,
        png: bytes,
        caption: str,
        keyboard: Keyboard,
    ) -> Sent:
        """Edit a live ephemeral message of that receiver; GONE if there is none."""
        sent = self._live(chat_id, ephemeral_message_id, "ephemeral")
        if sent is not None and sent.receiver != receiver_user_id:
            sent = None
        return self._edit("edit_ephemeral_photo", sent, caption, keyboard)

    async def delete_ephemeral(
        self, chat_id: int, receiver_user_id: int, ephemeral_message_id: int
    ) -> Sent:
        """Delete a live ephemeral message; GONE if there is none."""
        self.calls.append("delete_ephemeral")
        sent = self._live(chat_id, ephemeral_message_id, "ephemeral")
        if sent is None or sent.receiver != receiver_user_id:
            return Sent(Fate.GONE, detail="ephemeral message to delete not found")
        sent.deleted = True
        return DONE

    def ephemeral(self, chat_id: int, receiver: int) -> list[Message]:
        """The live ephemeral messages one member sees in a group, oldest first."""
        return [m for m in self.live(chat_id, "ephemeral") if m.receiver == receiver]

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user was set up as an admin of the chat."""
        return (chat_id, user_id) in self.admins

    def live(self, chat_id: int, kind: str | None = None) -> list[Message]:
        """The messages of a chat not deleted, oldest first (of one kind, if given)."""
        return [
            s
            for s in self.messages
            if s.chat_id == chat_id and not s.deleted and (kind is None or s.kind == kind)
        ]

    def ever_shown(self, chat_id: int) -> list[str]:
        """Every text and caption a chat was ever shown, edits included, oldest first."""
        return [text for chat, text in self.shown if chat == chat_id]

    def texts_in(self, chat_id: int) -> list[str]:
        """The texts and captions of a chat's messages, deleted ones too, oldest first."""
        return [s.text for s in self.messages if s.chat_id == chat_id]
