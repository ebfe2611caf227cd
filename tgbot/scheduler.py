"""Deadlines in Redis: a sorted set any bot process can serve, each deadline claimed once.

Members are `clocks.Deadline.member` names, scored by the Unix time they are due. A process
claims due members with one Lua script (ZRANGEBYSCORE then ZREM, keeping only what it removed),
so when several processes poll, each deadline is handled by exactly one of them; deadlines live
in Redis and survive restarts. The set is split into `keys.SHARDS` keys by game id, each in its
own Cluster slot, and every command names one of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from .clocks import Deadline, parse_member
from .keys import SHARDS, Keys, shard_of
from .redis_client import RedisClient

_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local out = {}
for _, member in ipairs(due) do
  if redis.call('ZREM', KEYS[1], member) == 1 then table.insert(out, member) end
end
return out
"""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _shard(member: str) -> int:
    parsed = parse_member(member)
    return shard_of(parsed[0] if parsed is not None else member)


class DeadlineIndex:
    """The sorted set of pending deadlines, in shards."""

    def __init__(self, redis: RedisClient, *, prefix: str) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self._claim = redis.register_script(_CLAIM)

    async def add(self, deadlines: Iterable[Deadline]) -> None:
        """Schedule deadlines (a deadline scheduled twice is kept once)."""
        shards: dict[int, dict[str, float]] = {}
        for d in deadlines:
            shards.setdefault(shard_of(d.game), {})[d.member] = d.at
        for shard, mapping in sorted(shards.items()):
            await self.redis.zadd(self.keys.deadlines(shard), mapping)

    async def drop(self, members: Iterable[str]) -> None:
        """Forget deadlines that no longer apply."""
        shards: dict[int, list[str]] = {}
        for member in members:
            shards.setdefault(_shard(member), []).append(member)
        for shard, names in sorted(shards.items()):
            await self.redis.zrem(self.keys.deadlines(shard), *names)

    async def claim_due(self, now: float, *, limit: int = 20) -> list[str]:
        """Take the deadlines due at `now`; each is returned to exactly one caller."""
        out: list[str] = []
        for shard in range(SHARDS):
            if len(out) >= limit:
                break
            key = self.keys.deadlines(shard)
            claimed = await self._claim(keys=[key], args=[now, limit - len(out)])
            out.extend(_text(m) for m in claimed)
        return out

    async def next_due(self) -> float | None:
        """When the earliest pending deadline is due, if any."""
        firsts: list[float] = []
        for shard in range(SHARDS):
            first = await self.redis.zrange(self.keys.deadlines(shard), 0, 0, withscores=True)
            if first:
                firsts.append(float(first[0][1]))
        return min(firsts, default=None)

    async def pending(self) -> list[tuple[str, float]]:
        """Every pending deadline (for tests and /status), earliest first."""
        out: list[tuple[str, float]] = []
        for shard in range(SHARDS):
            items = await self.redis.zrange(self.keys.deadlines(shard), 0, -1, withscores=True)
            pairs = cast("list[tuple[str | bytes, float]]", items)
            out.extend((_text(m), float(s)) for m, s in pairs)
        return sorted(out, key=lambda item: (item[1], item[0]))
