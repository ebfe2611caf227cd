"""Deadlines in Redis: a sorted set any bot process can serve, each deadline claimed once.

Members are `clocks.Deadline.member` names, scored by the Unix time they are due. A process
claims due members with one Lua script (ZRANGEBYSCORE, then each replaced by its claim, scored
at the end of a lease), so when several processes poll, each deadline is handled by one of them
at a time; the process ends the claim when done (`done`), and a claim it never ended (it died
serving it) is due again once the lease ends, for any process. Deadlines live in Redis and
survive restarts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from redis.asyncio import Redis

from .clocks import CLAIM_LEASE_SECONDS, CLAIMED, Deadline
from .keys import Keys

# A claim is the member `claimed|<name>` scored at the lease's end, beside the deadline's own
# member (which may be scheduled again meanwhile, a retry, without touching the claim).
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local held = tonumber(ARGV[1]) + tonumber(ARGV[3])
local mark = ARGV[4]
local out, seen = {}, {}
for _, member in ipairs(due) do
  redis.call('ZREM', KEYS[1], member)
  local name = member
  if string.sub(member, 1, #mark) == mark then name = string.sub(member, #mark + 1) end
  if not seen[name] then
    seen[name] = true
    redis.call('ZADD', KEYS[1], held, mark .. name)
    table.insert(out, name)
  end
end
return out
"""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class DeadlineIndex:
    """The sorted set of pending deadlines."""

    def __init__(self, redis: Redis, *, prefix: str) -> None:
        self.redis = redis
        self.key = Keys(prefix).deadlines()
        self._claim = redis.register_script(_CLAIM)

    async def add(self, deadlines: Iterable[Deadline]) -> None:
        """Schedule deadlines (a deadline scheduled twice is kept once)."""
        mapping = {d.member: d.at for d in deadlines}
        if mapping:
            await self.redis.zadd(self.key, mapping)

    async def drop(self, members: Iterable[str]) -> None:
        """Forget deadlines that no longer apply."""
        names = list(members)
        if names:
            await self.redis.zrem(self.key, *names)

    async def replace(self, members: Iterable[str], deadlines: Iterable[Deadline]) -> None:
        """Forget `members` and schedule `deadlines` in one pipeline (one round trip)."""
        names = list(members)
        mapping = {d.member: d.at for d in deadlines}
        async with self.redis.pipeline(transaction=False) as pipe:
            if names:
                pipe.zrem(self.key, *names)
            if mapping:
                pipe.zadd(self.key, mapping)
            await pipe.execute()

    async def claim_due(self, now: float, *, limit: int = 20) -> list[str]:
        """Take the deadlines due at `now`, each to one caller, held for `CLAIM_LEASE_SECONDS`:
        one not `done` by then is due again."""
        args: list[float | str] = [now, limit, CLAIM_LEASE_SECONDS, CLAIMED]
        return [_text(m) for m in await self._claim(keys=[self.key], args=args)]

    async def done(self, member: str) -> None:
        """A claimed deadline was served: its claim ends (the deadline itself, if scheduled
        again meanwhile, stays)."""
        await self.redis.zrem(self.key, CLAIMED + member)

    async def next_due(self) -> float | None:
        """When the earliest pending deadline is due, if any."""
        first = await self.redis.zrange(self.key, 0, 0, withscores=True)
        return float(first[0][1]) if first else None

    async def pending(self) -> list[tuple[str, float]]:
        """Every pending deadline (for tests and /status)."""
        items = await self.redis.zrange(self.key, 0, -1, withscores=True)
        return [(_text(m), float(s)) for m, s in cast("list[tuple[str | bytes, float]]", items)]
