"""The sent-message ledger in Redis: the ids of messages the bot knows it sent, per chat.

Every call Telegram confirmed adds its message id (the `ports.Posts` port). A send that timed
out may have been carried out all the same: its message is the bot's own but missing here, and
delivery deletes it once the retried send is confirmed (see `usecases.delivery`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from . import ahead
from .ahead import Reads
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
        top = cast("list[bytes]", await self.redis.zrange(self.keys.posts(chat_id), -1, -1))
        return int(top[0]) if top else 0

    def floors(self, chat_ids: Iterable[int]) -> Reads:
        """Reads to make ahead in another trip: each chat's `latest` id (`ahead.take_floors`)."""
        chats = tuple(dict.fromkeys(chat_ids))

        def add(trip: Trip) -> Callable[[list[Any]], None]:
            asked = [(c, trip.add("zrange", self.keys.posts(c), -1, -1)) for c in chats]

            def got(answers: list[Any]) -> None:
                floors = ahead.current().floors
                for chat, index in asked:
                    top = cast("list[bytes]", answers[index])
                    floors[chat] = int(top[0]) if top else 0

            return got

        return add

    async def confirmed(self, chat_id: int, above: int, below: int) -> set[int]:
        """The recorded ids strictly between `above` and `below`."""
        key = self.keys.posts(chat_id)
        ids = cast("list[bytes]", await self.redis.zrangebyscore(key, f"({above}", f"({below}"))
        return {int(x) for x in ids}
