"""Delivery leases in Redis: one key per game with an expiry, renewed and released by its holder."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from .ahead import Reads
from .keys import Keys
from .redis_client import RedisClient
from .trips import Trip, ride

LEASE_MS = 15_000  # a game's delivery lease, renewed after each item; a dead holder's expires

# KEYS: a lease. ARGV: the holder's token, milliseconds. Extends it only for its holder.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""

# KEYS: a lease. ARGV: the holder's token. Deletes it only for its holder.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisLease:
    """Leases named by game id, under `<prefix>:lease:{<gid>}`."""

    def __init__(
        self,
        redis: RedisClient,
        *,
        prefix: str,
        ms: int = LEASE_MS,
        reads: Callable[..., Reads] | None = None,
    ) -> None:
        self.redis = redis
        self.reads = reads  # the store's reads ahead: the game's record comes with its lease
        self.keys = Keys(prefix)
        self.ms = ms
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    async def acquire(self, name: str) -> str | None:
        """Take the lease if nobody holds it: the holder's token, or None.

        With `reads`, the game named by the lease is read in the same trip, after the lease is
        taken (its key shares the lease's slot, so the two run in order on a Cluster too).
        """
        token = uuid.uuid4().hex
        trip = Trip(self.redis)
        taken = trip.add("set", self.keys.lease(name), token, nx=True, px=self.ms)
        got = None if self.reads is None else self.reads(game_id=name)(trip)
        answers = await trip.run()
        if not answers[taken]:
            return None
        if got is not None:
            got(answers)
        return token

    async def renew(self, name: str, token: str) -> bool:
        """Extend the lease if `token` still holds it."""
        return bool(await self._renew(keys=[self.keys.lease(name)], args=[token, self.ms]))

    async def release(self, name: str, token: str) -> None:
        """Give the lease up if `token` still holds it (with the next trip, inside
        `trips.riding`: the update marked handled, once a tap's delivery is done)."""
        trip = Trip(self.redis)
        trip.script(self._release, [self.keys.lease(name)], [token])
        if not ride(trip):
            await trip.run()
