"""In-memory fakes of the lease, the deadline index, the update ledger, the chat budget and the
sent-message ledger.

They keep the contracts of `tgbot.lease`, `tgbot.scheduler`, `tgbot.dedupe`, `tgbot.budget` and
`tgbot.posts` within one event loop, so use cases run without Redis.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable

from .budget import GROUP_MESSAGES_PER_MINUTE, WINDOW_SECONDS
from .clocks import CLAIM_LEASE_SECONDS, CLAIMED, Deadline
from .lease import LEASE_MS


class MemoryLease:
    """Leases in a dict, each with an expiry on the given clock."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, ms: int = LEASE_MS) -> None:
        self.clock = clock
        self.seconds = ms / 1000
        self.held: dict[str, tuple[str, float]] = {}
        self._tokens = itertools.count(1)

    def _holder(self, name: str) -> str | None:
        held = self.held.get(name)
        if held is None or held[1] <= self.clock():
            self.held.pop(name, None)
            return None
        return held[0]

    async def acquire(self, name: str) -> str | None:
        """Take the lease if nobody holds it: the holder's token, or None."""
        if self._holder(name) is not None:
            return None
        token = f"t{next(self._tokens)}"
        self.held[name] = (token, self.clock() + self.seconds)
        return token

    async def renew(self, name: str, token: str) -> bool:
        """Extend the lease if `token` still holds it."""
        if self._holder(name) != token:
            return False
        self.held[name] = (token, self.clock() + self.seconds)
        return True

    async def release(self, name: str, token: str) -> None:
        """Give the lease up if `token` still holds it."""
        if self._holder(name) == token:
            del self.held[name]


class MemoryDeadlines:
    """Pending deadlines in a dict of member -> due time."""

    def __init__(self) -> None:
        self.due: dict[str, float] = {}

    async def add(self, deadlines: Iterable[Deadline]) -> None:
        """Schedule deadlines (a deadline scheduled twice is kept once)."""
        self.due.update((d.member, d.at) for d in deadlines)

    async def drop(self, members: Iterable[str]) -> None:
        """Forget deadlines that no longer apply."""
        for member in members:
            self.due.pop(member, None)

    async def replace(self, members: Iterable[str], deadlines: Iterable[Deadline]) -> None:
        """Forget `members` and schedule `deadlines`, at once."""
        await self.drop(members)
        await self.add(deadlines)

    async def claim_due(self, now: float, *, limit: int = 20) -> list[str]:
        """Take the deadlines due at `now`, earliest first, each held for the claim's lease:
        one not `done` by then is due again."""
        ready = sorted((at, m) for m, at in self.due.items() if at <= now)[:limit]
        out: list[str] = []
        for _, member in ready:
            del self.due[member]
            name = member.removeprefix(CLAIMED)
            if name not in out:
                self.due[CLAIMED + name] = now + CLAIM_LEASE_SECONDS
                out.append(name)
        return out

    async def done(self, member: str) -> None:
        """A claimed deadline was served: its claim ends."""
        self.due.pop(CLAIMED + member, None)

    async def pending(self) -> list[tuple[str, float]]:
        """Every pending deadline, earliest first."""
        return sorted(self.due.items(), key=lambda item: (item[1], item[0]))


class MemoryLedger:
    """Claimed update ids in a set."""

    def __init__(self) -> None:
        self.claimed: set[int] = set()

    async def claim(self, update_id: int) -> bool:
        """True the first time an update id is claimed, False afterwards."""
        if update_id in self.claimed:
            return False
        self.claimed.add(update_id)
        return True


class MemoryBudget:
    """Per-chat send times in lists, over a rolling window."""

    def __init__(
        self, *, limit: int = GROUP_MESSAGES_PER_MINUTE, window: float = WINDOW_SECONDS
    ) -> None:
        self.limit = limit
        self.window = window
        self.sends: dict[int, list[float]] = {}

    async def take(self, chat_id: int, now: float) -> float:
        """Use one send of the chat's budget: 0 if allowed now, else seconds to wait."""
        recent = [t for t in self.sends.get(chat_id, []) if t > now - self.window]
        self.sends[chat_id] = recent
        if len(recent) < self.limit:
            recent.append(now)
            return 0.0
        return max(0.0, min(recent) + self.window - now)

    async def hold(self, chat_id: int, now: float, seconds: float) -> None:
        """Treat the chat's budget as spent for `seconds`."""
        self.sends[chat_id] = [now + seconds - self.window] * self.limit


class MemoryPosts:
    """The sent-message ledger in a dict of chat -> ids."""

    def __init__(self) -> None:
        self.ids: dict[int, set[int]] = {}

    async def confirm(self, chat_id: int, message_id: int) -> None:
        """Record a message the bot sent."""
        self.ids.setdefault(chat_id, set()).add(message_id)

    async def latest(self, chat_id: int) -> int:
        """The highest message id recorded in the chat (0 if none)."""
        return max(self.ids.get(chat_id, ()), default=0)

    async def confirmed(self, chat_id: int, above: int, below: int) -> set[int]:
        """The recorded ids strictly between `above` and `below`."""
        return {m for m in self.ids.get(chat_id, ()) if above < m < below}
