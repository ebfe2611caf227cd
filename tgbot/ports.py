"""The ports the use cases need besides the store: sending, pictures, the delivery lease,
deadlines, the update ledger, the chat budget.

Each has a Redis (or Telegram) implementation for production and an in-memory fake
(`tgbot.memory_ports`, `tgbot.fake_sender`) with the same contract, so a use case can run
entirely in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from engine import GameState

from .clocks import Deadline
from .menus import Button, Screen

Keyboard = Sequence[Sequence[Button]]


class Sender(Protocol):
    """The bot's outgoing calls; each returns None/False instead of raising on Telegram errors."""

    migrations: dict[int, int]  # group id -> its supergroup's id, as Telegram said

    @property
    def username(self) -> str:
        """The bot's @username (for deep links)."""
        ...

    def take_retry_after(self) -> float | None:
        """The retry_after of the last refused group send, if any (then cleared)."""
        ...

    async def group_text(
        self, chat_id: int, thread_id: int | None, text: str, keyboard: Keyboard | None = None
    ) -> int | None:
        """Send an HTML text to a group (in its topic); the new message id, or None."""
        ...

    async def group_photo(
        self, chat_id: int, thread_id: int | None, png: bytes, caption: str
    ) -> int | None:
        """Send a photo with an HTML caption to a group; the new message id, or None."""
        ...

    async def group_animation(
        self,
        chat_id: int,
        thread_id: int | None,
        data: bytes,
        caption: str,
        keyboard: Keyboard | None = None,
    ) -> int | None:
        """Send a GIF with an HTML caption to a group; the new message id, or None."""
        ...

    async def private_text(self, user_id: int, text: str) -> int | None:
        """Send an HTML text to a user's private chat."""
        ...

    async def private_photo(
        self, user_id: int, png: bytes, caption: str, keyboard: Keyboard
    ) -> int | None:
        """Send a photo with caption and keyboard to a user's private chat."""
        ...

    async def edit_photo(
        self, chat_id: int, message_id: int, png: bytes, caption: str, keyboard: Keyboard
    ) -> bool:
        """Replace a photo message's picture, caption and keyboard; False if it cannot be."""
        ...

    async def edit_text(
        self, chat_id: int, message_id: int, text: str, keyboard: Keyboard | None
    ) -> bool:
        """Replace a text message's text and keyboard; False if it cannot be edited."""
        ...

    async def delete(self, chat_id: int, message_id: int) -> bool:
        """Delete a message; False if Telegram refuses (too old, already gone)."""
        ...

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether a user is an administrator (or the creator) of a group."""
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
    """Pending turn deadlines any process can serve, each claimed once."""

    async def add(self, deadlines: Iterable[Deadline]) -> None:
        """Schedule deadlines (a deadline scheduled twice is kept once)."""
        ...

    async def drop(self, members: Iterable[str]) -> None:
        """Forget deadlines that no longer apply."""
        ...

    async def claim_due(self, now: float, *, limit: int = 20) -> list[str]:
        """Take the deadlines due at `now`; each is returned to exactly one caller."""
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
