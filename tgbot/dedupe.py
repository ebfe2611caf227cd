"""Exactly-once updates: Telegram may deliver a webhook update twice; handle its id once."""

from __future__ import annotations

from redis.asyncio import Redis

from .keys import Keys

KEEP_SECONDS = 24 * 3600  # Telegram keeps undelivered updates for 24 hours


class UpdateLedger:
    """Remembers which update ids some bot process has taken."""

    def __init__(self, redis: Redis, *, prefix: str) -> None:
        self.redis = redis
        self.keys = Keys(prefix)

    async def claim(self, update_id: int) -> bool:
        """True the first time an update id is claimed (by any process), False afterwards."""
        done = await self.redis.set(self.keys.update(update_id), 1, nx=True, ex=KEEP_SECONDS)
        return bool(done)
