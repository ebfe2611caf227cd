"""The sent-message ledger in Redis: the ids of messages the bot knows it sent, per chat.

Every call Telegram confirmed adds its message id (the `ports.Posts` port). A send that timed
out may have been carried out all the same: its message is the bot's own but missing here, and
delivery deletes it once the retried send is confirmed (see `usecases.delivery`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .keys import Keys
from .redis_client import RedisClient
from .trips import Trip

KEPT = 200  # ids kept per chat (the newest)
TTL_SECONDS = 3 * 24 * 3600  # past 48 h Telegram no longer lets a bot delete its messages

# KEYS: the chat's ledger. ARGV: message id, kept, ttl.
_CONFIRM = """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -1 - tonumber(ARGV[2]))
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


class RedisPosts:
    """Sent message ids in one sorted set per chat (score = id), trimmed and expiring."""

    def __init__(self, redis: RedisClient, *, prefix: str) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self._confirm = redis.register_script(_CONFIRM)

    async def confirm(self, chat_id: int, message_id: int) -> None:
        """Record a message the bot sent."""
        await self._confirm(keys=[self.keys.posts(chat_id)], args=[message_id, KEPT, TTL_SECONDS])

    async def latest(self, chat_id: int) -> int:
        """The highest message id recorded in the chat (0 if none)."""
        trip = Trip(self.redis)
        latest = self.latest_in(trip, chat_id)
        return latest(await trip.run())

    def latest_in(self, trip: Trip, chat_id: int) -> Callable[[list[Any]], int]:
        """`latest`, added to a trip: what it gives reads it from the trip's answers."""
        index = trip.add("zrange", self.keys.posts(chat_id), -1, -1)

        def top(answers: list[Any]) -> int:
            ids = cast("list[bytes]", answers[index])
            return int(ids[0]) if ids else 0

        return top

    async def confirmed(self, chat_id: int, above: int, below: int) -> set[int]:
        """The recorded ids strictly between `above` and `below`."""
        key = self.keys.posts(chat_id)
        ids = cast("list[bytes]", await self.redis.zrangebyscore(key, f"({above}", f"({below}"))
        return {int(x) for x in ids}
