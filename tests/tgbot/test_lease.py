"""The delivery lease in Redis: one holder at a time, renewed and released only by its holder."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from tgbot.lease import RedisLease


async def test_a_lease_has_one_holder_at_a_time(redis_client: Redis, key_prefix: str) -> None:
    lease = RedisLease(redis_client, prefix=key_prefix)
    token = await lease.acquire("g")
    assert token is not None and await lease.acquire("g") is None
    assert await lease.acquire("h") is not None


async def test_only_the_holder_renews_and_releases(redis_client: Redis, key_prefix: str) -> None:
    lease = RedisLease(redis_client, prefix=key_prefix)
    token = await lease.acquire("g")
    assert token is not None
    assert not await lease.renew("g", "someone else")
    await lease.release("g", "someone else")
    assert await lease.acquire("g") is None
    assert await lease.renew("g", token)
    await lease.release("g", token)
    assert await lease.acquire("g") is not None


async def test_a_lease_expires(redis_client: Redis, key_prefix: str) -> None:
    lease = RedisLease(redis_client, prefix=key_prefix, ms=50)
    token = await lease.acquire("g")
    assert token is not None
    await asyncio.sleep(0.1)
    assert not await lease.renew("g", token)
    assert await lease.acquire("g") is not None
