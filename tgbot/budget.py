"""Flood control: one rolling per-chat budget in Redis shared by every bot process.

Telegram lets a bot post about 20 messages a minute in one group; past that it answers 429.
Every group send asks `take` first; when the budget is spent it says how long to wait, and the
caller keeps the announcement owed (board posts coalesce meanwhile, the newest board wins).
"""

from __future__ import annotations

import uuid

from .keys import Keys
from .redis_client import RedisClient

GROUP_MESSAGES_PER_MINUTE = 20
WINDOW_SECONDS = 60.0

# KEYS: the chat's budget. ARGV: now, window, limit, a unique member.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
  return '0'
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tostring(tonumber(oldest[2]) + tonumber(ARGV[2]) - tonumber(ARGV[1]))
"""


class ChatBudget:
    """The per-chat send budget."""

    def __init__(
        self,
        redis: RedisClient,
        *,
        prefix: str,
        limit: int = GROUP_MESSAGES_PER_MINUTE,
        window: float = WINDOW_SECONDS,
    ) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self.limit = limit
        self.window = window
        self._take = redis.register_script(_TAKE)

    def key(self, chat_id: int) -> str:
        """The budget's key for a chat."""
        return self.keys.budget(chat_id)

    async def take(self, chat_id: int, now: float) -> float:
        """Use one send of the chat's budget: 0 if allowed now, else seconds to wait."""
        raw = await self._take(
            keys=[self.key(chat_id)], args=[now, self.window, self.limit, uuid.uuid4().hex]
        )
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        return max(0.0, float(text))

    async def hold(self, chat_id: int, now: float, seconds: float) -> None:
        """Telegram said 429: treat the budget as spent for `seconds` (honour retry_after)."""
        members = {uuid.uuid4().hex: now + seconds - self.window for _ in range(self.limit)}
        await self.redis.zadd(self.key(chat_id), members)
        await self.redis.expire(self.key(chat_id), int(seconds + self.window) + 1)
