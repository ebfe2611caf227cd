"""The delivery lease, in Redis and in memory: one holder at a time, renewed and released only by
its holder, expiring when not renewed."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from tests.profiles import CLUSTER
from tgbot.lease import LEASE_MS, RedisLease
from tgbot.memory_ports import MemoryLease
from tgbot.ports import Lease


@pytest.fixture
def lease_ms() -> int:
    """How long a lease lasts unless renewed."""
    return LEASE_MS


@pytest.fixture(params=["redis", CLUSTER, "memory"])
def lease(request: pytest.FixtureRequest, lease_ms: int) -> Lease:
    """The same contract over both leases (Redis on one server and on a Cluster)."""
    if request.param == "memory":
        return MemoryLease(ms=lease_ms)
    name = "server_client" if request.param == "redis" else "cluster_client"
    client: Redis = request.getfixturevalue(name)
    return RedisLease(client, prefix=request.getfixturevalue("key_prefix"), ms=lease_ms)


async def test_a_lease_has_one_holder_at_a_time(lease: Lease) -> None:
    token = await lease.acquire("g")
    assert token is not None and await lease.acquire("g") is None
    assert await lease.acquire("h") is not None


async def test_only_the_holder_renews_and_releases(lease: Lease) -> None:
    token = await lease.acquire("g")
    assert token is not None
    assert not await lease.renew("g", "someone else")
    await lease.release("g", "someone else")
    assert await lease.acquire("g") is None
    assert await lease.renew("g", token)
    await lease.release("g", token)
    assert await lease.acquire("g") is not None


@pytest.mark.parametrize("lease_ms", [50])
async def test_a_lease_expires(lease: Lease) -> None:
    token = await lease.acquire("g")
    assert token is not None
    await asyncio.sleep(0.1)
    assert not await lease.renew("g", token)
    assert await lease.acquire("g") is not None
