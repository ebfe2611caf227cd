"""Deadlines in Redis: a sorted set any bot process can serve, each deadline claimed once.

Members are `clocks.Deadline.member` names, scored by the Unix time they are due. A process
claims due members with one Lua script (ZRANGEBYSCORE, then each replaced by its claim, scored
at the end of a lease), so when several processes poll, each deadline is handled by one of them
at a time; the process ends the claim when done (`done`), and a claim it never ended (it died
serving it) is due again once the lease ends, for any process. Deadlines live in Redis and
survive restarts. The set is split into `keys.SHARDS` keys by game id, each in its own Cluster
slot, and every command (and the script) names one of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from .clocks import CLAIM_LEASE_SECONDS, CLAIMED, Deadline, parse_member
from .keys import SHARDS, Keys, shard_of
from .redis_client import RedisClient
from .trips import Trip, ride

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


def _shard(member: str) -> int:
    """The shard of a deadline's member (or of its claim's)."""
    name = member.removeprefix(CLAIMED)
    parsed = parse_member(name)
    return shard_of(parsed[0] if parsed is not None else name)


class DeadlineIndex:
    """The sorted set of pending deadlines (and claims being served), in shards."""

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

    async def replace(self, members: Iterable[str], deadlines: Iterable[Deadline]) -> None:
        """Forget `members` and schedule `deadlines` in one round trip (a turn's deadlines are
        one game's, in one shard), or with the next trip inside `trips.riding`."""
        gone: dict[int, list[str]] = {}
        for member in members:
            gone.setdefault(_shard(member), []).append(member)
        new: dict[int, dict[str, float]] = {}
        for d in deadlines:
            new.setdefault(shard_of(d.game), {})[d.member] = d.at
        if not gone and not new:
            return
        trip = Trip(self.redis)
        for shard, names in sorted(gone.items()):
            trip.add("zrem", self.keys.deadlines(shard), *names)
        for shard, mapping in sorted(new.items()):
            trip.add("zadd", self.keys.deadlines(shard), mapping)
        if not ride(trip):  # (inside `trips.riding`, it goes with the next trip)
            await trip.run()

    async def claim_due(self, now: float, *, limit: int = 20) -> list[str]:
        """Take the deadlines due at `now`, each to one caller, held for `CLAIM_LEASE_SECONDS`:
        one not `done` by then is due again.

        One round trip looks at every shard's earliest deadline (nothing is due in most
        sweeps); the shards with one due are claimed from, one script each, up to `limit`.
        """
        peek = Trip(self.redis)
        for shard in range(SHARDS):
            peek.add("zrangebyscore", self.keys.deadlines(shard), "-inf", now, start=0, num=1)
        due = [shard for shard, first in enumerate(await peek.run()) if first]
        out: list[str] = []
        for shard in due:
            if len(out) >= limit:
                break
            key = self.keys.deadlines(shard)
            args: list[float | str] = [now, limit - len(out), CLAIM_LEASE_SECONDS, CLAIMED]
            out.extend(_text(m) for m in await self._claim(keys=[key], args=args))
        return out

    async def done(self, member: str) -> None:
        """A claimed deadline was served: its claim ends (the deadline itself, if scheduled
        again meanwhile, stays)."""
        await self.redis.zrem(self.keys.deadlines(_shard(member)), CLAIMED + member)

    async def next_due(self) -> float | None:
        """When the earliest pending deadline is due, if any (one round trip)."""
        trip = Trip(self.redis)
        for shard in range(SHARDS):
            trip.add("zrange", self.keys.deadlines(shard), 0, 0, withscores=True)
        firsts = [float(first[0][1]) for first in await trip.run() if first]
        return min(firsts, default=None)

    async def pending(self) -> list[tuple[str, float]]:
        """Every pending deadline (for tests and /status), earliest first."""
        out: list[tuple[str, float]] = []
        for shard in range(SHARDS):
            items = await self.redis.zrange(self.keys.deadlines(shard), 0, -1, withscores=True)
            pairs = cast("list[tuple[str | bytes, float]]", items)
            out.extend((_text(m), float(s)) for m, s in pairs)
        return sorted(out, key=lambda item: (item[1], item[0]))
