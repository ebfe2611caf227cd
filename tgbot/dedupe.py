"""Exactly-once updates: Telegram may deliver a webhook update twice; handle its id once.

Telegram numbers a bot's updates in sequence, so the ledger is a bitmap per window of 65,536
ids (8 KB at most, one Redis key per window, kept a day after its last claim) instead of a key
per update: `SETBIT` answers the bit's old value, so the first claim of an id is the one that
sees 0, whichever process makes it.
"""

from __future__ import annotations

from redis.asyncio import Redis

from .keys import Keys

KEEP_SECONDS = 24 * 3600  # Telegram keeps undelivered updates for 24 hours
WINDOW = 1 << 16  # update ids per bitmap

# KEYS: the window's bitmap. ARGV: the id's bit, the time to keep it.
_CLAIM = """
local old = redis.call('SETBIT', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
return old
"""


class UpdateLedger:
    """Remembers which update ids some bot process has taken."""

    def __init__(self, redis: Redis, *, prefix: str) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self._claim = redis.register_script(_CLAIM)

    async def claim(self, update_id: int) -> bool:
        """True the first time an update id is claimed (by any process), False afterwards."""
        if update_id < 0:
            raise ValueError(f"update ids are not negative: {update_id}")
        window, bit = divmod(update_id, WINDOW)
        old = await self._claim(keys=[self.keys.updates(window)], args=[bit, KEEP_SECONDS])
        return int(old) == 0
