"""The ports the use cases need besides the store: sending (and how each call went), pictures,
the delivery lease, deadlines, the update ledger, the chat budget, the sent-message ledger.

Each has a Redis (or Telegram) implementation for production and an in-memory fake
(`tgbot.memory_ports`, `tgbot.fake_sender`) with the same contract, so a use case can run
entirely in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from engine import GameState, PublicView

from .clocks import Deadline
from .menus import Button, Screen

Keyboard = Sequence[Sequence[Button]]


class Fate(Enum):
    """How Telegram took one call, sorted by what the caller must do next."""

    DONE = "done"  # carried out (or there was nothing to change: "message is not modified")
    RETRY = "retry"  # not carried out, for now: a 5xx, a 429, the group's budget spent
    UNKNOWN = "unknown"  # timed out or cut off: Telegram may have carried it out; retry, reconcile
    BLOCKED = "blocked"  # a private chat refused (403): the user blocked the bot or never started
    GONE = "gone"  # the chat or message is not there any more (bot removed, deleted, too old)
    MOVED = "moved"  # the group became a supergroup (`Sent.new_chat`)
    REFUSED = "refused"  # a 400 retrying cannot fix (a bug: markup Telegram cannot parse)


@dataclass(frozen=True, slots=True)
class Sent:
    """The outcome of one call: its fate, the new message's id, and what Telegram asked."""

    fate: Fate
    message_id: int | None = None  # of a sent message, when DONE
    retry_after: float | None = None  # seconds Telegram (or the budget) asked to wait
    new_chat: int | None = None  # where a MOVED group went
    detail: str = ""  # Telegram's description, for the log
    # A probe that found the bot's own message in another forum topic (GONE): that topic (None:
    # the General topic, or a group without topics).
    elsewhere: bool = False
    topic: int | None = None

    @property
    def ok(self) -> bool:
        """True when carried out."""
        return self.fate is Fate.DONE

    @property
    def transient(self) -> bool:
        """True when trying again later may succeed."""
        return self.fate in (Fate.RETRY, Fate.UNKNOWN)


DONE = Sent(Fate.DONE)


@dataclass(frozen=True, slots=True)
class Ephemeral:
    """Where an ephemeral message goes (Bot API 10.2-10.4 `EphemeralMessageParameters`): a
    group, the one member who sees it, and the button press it answers (a bot that is not an
    admin may send one only within 15 s of the receiver's press)."""

    chat_id: int
    receiver_user_id: int
    callback_query_id: str | None = None
    replace_callback_query_message: bool = False
    thread_id: int | None = None


class Posts(Protocol):
    """The ids of messages the bot knows it sent, per chat (recent ones), shared by processes.

    A send that timed out may still have been carried out; such a message is the bot's own but
    not in this list, which is how delivery finds and deletes it (`usecases.delivery`).
    """

    async def confirm(self, chat_id: int, message_id: int) -> None:
        """Record a message the bot sent."""
        ...

    async def latest(self, chat_id: int) -> int:
        """The highest message id recorded in the chat (0 if none)."""
        ...

    async def confirmed(self, chat_id: int, above: int, below: int) -> set[int]:
        """The recorded ids strictly between `above` and `below`."""
        ...


class Sender(Protocol):
    """The bot's outgoing calls; each returns how Telegram took it (`Sent`), never raising.

    Every message Telegram confirms is recorded in `posts`.
    """

    posts: Posts

    @property
    def username(self) -> str:
        """The bot's @username (for deep links)."""
        ...

    async def group_text(
        self, chat_id: int, thread_id: int | None, text: str, keyboard: Keyboard | None = None
    ) -> Sent:
        """Send an HTML text to a group (in its topic), within the group's budget."""
        ...

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
        """Send a photo with an HTML caption to a group, within the group's budget (`above`:
        the caption shown above the picture)."""
        ...

    async def group_animation(
        self,
        chat_id: int,
        thread_id: int | None,
        data: bytes,
        caption: str,
        keyboard: Keyboard | None = None,
    ) -> Sent:
        """Send a GIF with an HTML caption to a group, within the group's budget."""
        ...

    async def private_text(self, user_id: int, text: str, keyboard: Keyboard | None = None) -> Sent:
        """Send an HTML text to a user's private chat."""
        ...

    async def private_photo(
        self, user_id: int, png: bytes, caption: str, keyboard: Keyboard
    ) -> Sent:
        """Send a photo with caption and keyboard to a user's private chat."""
        ...

    async def edit_photo(
        self, chat_id: int, message_id: int, png: bytes, caption: str, keyboard: Keyboard
    ) -> Sent:
        """Replace a photo message's picture, caption and keyboard."""
        ...

    async def edit_text(
        self, chat_id: int, message_id: int, text: str, keyboard: Keyboard | None
    ) -> Sent:
        """Replace a text message's text and keyboard."""
        ...

    async def edit_keyboard(self, chat_id: int, message_id: int, keyboard: Keyboard) -> Sent:
        """Set a message's keyboard, nothing else (DONE when it was so already)."""
        ...

    async def delete(self, chat_id: int, message_id: int) -> Sent:
        """Delete a message (GONE when it is gone already or too old to delete)."""
        ...

    async def probe(self, chat_id: int, message_id: int, thread_id: int | None) -> Sent:
        """Whether a message is the bot's own, still there and in forum topic `thread_id` (None:
        not in a topic) (DONE), without changing what it shows unless it carries a keyboard
        (which is removed): reconciles unknown sends."""
        ...

    async def answer(self, query_id: str, text: str, *, alert: bool, url: str | None) -> Sent:
        """Answer a button tap (a toast, an alert, or a t.me link to open)."""
        ...

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether a user is an administrator (or the creator) of a group."""
        ...

    async def ephemeral_photo(
        self, to: Ephemeral, png: bytes, caption: str, keyboard: Keyboard
    ) -> Sent:
        """Send a photo only `to.receiver_user_id` sees in the group; `Sent.message_id` is its
        ephemeral message id. A button with neither command nor URL is a `DisabledButton`."""
        ...

    async def edit_ephemeral_photo(
        self,
        chat_id: int,
        receiver_user_id: int,
        ephemeral_message_id: int,
        png: bytes,
        caption: str,
        keyboard: Keyboard,
    ) -> Sent:
        """Replace an ephemeral photo's picture (a new upload), caption and keyboard."""
        ...

    async def delete_ephemeral(
        self, chat_id: int, receiver_user_id: int, ephemeral_message_id: int
    ) -> Sent:
        """Delete an ephemeral message."""
        ...


class Lease(Protocol):
    """Per-game leases with expiry: one process at a time delivers a game's announcements."""

    async def acquire(self, name: str) -> str | None:
        """Take the lease if nobody holds it: the holder's token, or None."""
        ...

    async def renew(self, name: str, token: str) -> bool:
        """Extend the lease if `token` still holds it."""
        ...

    async def release(self, name: str, token: str) -> None:
        """Give the lease up if `token` still holds it."""
        ...


class Deadlines(Protocol):
    """Pending turn deadlines any process can serve, each claimed by one process at a time."""

    async def add(self, deadlines: Iterable[Deadline]) -> None:
        """Schedule deadlines (a deadline scheduled twice is kept once)."""
        ...

    async def drop(self, members: Iterable[str]) -> None:
        """Forget deadlines that no longer apply."""
        ...

    async def replace(self, members: Iterable[str], deadlines: Iterable[Deadline]) -> None:
        """Forget `members` and schedule `deadlines`, at once (a turn's for the next turn's)."""
        ...

    async def claim_due(self, now: float, *, limit: int = 20) -> list[str]:
        """Take the deadlines due at `now`, each to one caller, held for `CLAIM_LEASE_SECONDS`:
        one not `done` by then (its process died) is due again."""
        ...

    async def done(self, member: str) -> None:
        """A claimed deadline was served: its claim ends (if scheduled again, it stays)."""
        ...


class Ledger(Protocol):
    """Which update ids some bot process has taken."""

    async def claim(self, update_id: int) -> bool:
        """True the first time an update id is claimed, False afterwards."""
        ...


class Budget(Protocol):
    """A rolling per-chat send budget shared by every bot process."""

    async def take(self, chat_id: int, now: float) -> float:
        """Use one send of the chat's budget: 0 if allowed now, else seconds to wait."""
        ...

    async def hold(self, chat_id: int, now: float, seconds: float) -> None:
        """Treat the chat's budget as spent for `seconds`."""
        ...


class BotBudget(Protocol):
    """The bot-wide send budget (messages a second) shared by every bot process."""

    async def take(self, now: float, *, urgent: bool) -> float:
        """Use one send: 0 if allowed now, else seconds to wait (urgent sends may use the
        reserve)."""
        ...

    async def book(self, now: float, *, urgent: bool, ahead: float) -> tuple[bool, float]:
        """Use one send now or within `ahead` seconds: (True, the wait before sending), or
        (False, the wait before it could go) with nothing used."""
        ...

    async def charge(self, now: float) -> None:
        """Count one send that is never held back (it answers a person's own tap)."""
        ...

    async def hold(self, now: float, seconds: float) -> None:
        """Treat the bot's budget as spent for `seconds`."""
        ...


class Painter(Protocol):
    """The pictures of the bot's messages, as PNG bytes."""

    def board(self, state: GameState, names: Mapping[int, str]) -> bytes:
        """The group's board post."""
        ...

    def screen(
        self, state: GameState, player: int, screen: Screen, names: Mapping[int, str]
    ) -> bytes:
        """A player's private screen."""
        ...

    def round_end(self, view: PublicView, names: Mapping[int, str]) -> bytes:
        """A round's final board (every goal turned up), as the group is shown it."""
        ...
