"""Exactly-once updates: Telegram may deliver a webhook update twice; handle its id once.

Telegram numbers a bot's updates in sequence, so the ledger is a bitmap per window of 65,536
ids (8 KB at most, one Redis key per window, kept a day after its last claim) instead of a key
per update: `SETBIT` answers the bit's old value, so the first claim of an id is the one that
sees 0, whichever process makes it.

Long polling claims an update as it takes it (`claim`). The webhook acknowledges an update only
once it is handled, so that a process dying in the middle leaves it to Telegram's redelivery:
it `begin`s (the bit still 0, and a short-lived hold on the id that no other process gets), then
marks it `done` after handling, or `release`s it when handling failed for a passing reason (Redis
away). The hold of a process that died expires after HOLD_MS, and the redelivery is handled.
Every command names one key, so it runs on a Redis Cluster as it does on one server.
"""

from __future__ import annotations

import enum
import os
import uuid

from .ahead import Reads
from .keys import Keys
from .redis_client import RedisClient
from .trips import Trip

KEEP_SECONDS = 24 * 3600  # Telegram keeps undelivered updates for 24 hours
WINDOW = 1 << 16  # update ids per bitmap
HOLD_MS = 5_000  # how long a process that began an update holds it before another may


class Begun(enum.Enum):
    """What `begin` found."""

    NEW = "new"  # this process holds it now: handle it, then `done` (or `release`)
    DONE = "done"  # some process handled it: answer it, do nothing
    HELD = "held"  # another process is handling it now: let Telegram deliver it again later


# KEYS: an update's hold. ARGV: its holder's token. Deletes it only for its holder.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: an update's hold. ARGV: its holder's token, the hold's length. Extends it only for its
# holder.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""

# KEYS: the window's bitmap. ARGV: the id's bit, the time to keep it.
_CLAIM = """
local old = redis.call('SETBIT', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
return old
"""


class UpdateLedger:
    """Remembers which update ids some bot process has taken."""

    def __init__(self, redis: RedisClient, *, prefix: str, hold_ms: int = HOLD_MS) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self.hold_ms = hold_ms
        self._claim = redis.register_script(_CLAIM)
        self._release = redis.register_script(_RELEASE)
        self._renew = redis.register_script(_RENEW)
        self.token = f"{os.getpid()}:{uuid.uuid4().hex}"  # this process's name on what it holds

    async def claim(self, update_id: int) -> bool:
        """True the first time an update id is claimed (by any process), False afterwards."""
        if update_id < 0:
            raise ValueError(f"update ids are not negative: {update_id}")
        window, bit = divmod(update_id, WINDOW)
        old = await self._claim(keys=[self.keys.updates(window)], args=[bit, KEEP_SECONDS])
        return int(old) == 0

    async def is_done(self, update_id: int) -> bool:
        """True once some process marked the update handled."""
        window, bit = divmod(update_id, WINDOW)
        return bool(await self.redis.getbit(self.keys.updates(window), bit))

    async def begin(self, update_id: int, reads: Reads | None = None) -> Begun:
        """Take an update to handle it (webhook): NEW if this process now holds it.

        One round trip: the hold, then the bit (an update finished before the hold was taken
        has its bit set by then: `done` sets the bit before it lets go of the hold), and the
        `reads` the handler will want, made ahead.
        """
        if update_id < 0:
            raise ValueError(f"update ids are not negative: {update_id}")
        window, bit = divmod(update_id, WINDOW)
        trip = Trip(self.redis)
        hold = self.keys.update_hold(update_id)
        taken = trip.add("set", hold, self.token, nx=True, px=self.hold_ms)
        handled = trip.add("getbit", self.keys.updates(window), bit)
        got = None if reads is None else reads(trip)
        answers = await trip.run()
        if answers[handled]:
            if answers[taken]:
                await self.release(update_id)
            return Begun.DONE
        if not answers[taken]:
            return Begun.HELD
        if got is not None:
            got(answers)
        return Begun.NEW

    async def done(self, update_id: int) -> None:
        """Mark an update this process began as handled, and let go of it (one round trip)."""
        window, bit = divmod(update_id, WINDOW)
        trip = Trip(self.redis)
        trip.script(self._claim, [self.keys.updates(window)], [bit, KEEP_SECONDS])
        trip.script(self._release, [self.keys.update_hold(update_id)], [self.token])
        await trip.run()

    async def renew(self, update_id: int) -> bool:
        """Hold an update this process is still handling for another `hold_ms` (False if the
        hold was lost: it expired and another process may have taken it)."""
        args: list[str | int] = [self.token, self.hold_ms]
        return bool(await self._renew(keys=[self.keys.update_hold(update_id)], args=args))

    async def release(self, update_id: int) -> None:
        """Let go of an update this process began without handling it (it may come again)."""
        await self._release(keys=[self.keys.update_hold(update_id)], args=[self.token])
