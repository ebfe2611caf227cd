"""Fixtures of the bot's unit tests: the store's contract over Redis (one server and a Cluster)
and over the in-memory fake."""

from __future__ import annotations

import pytest

from tests.profiles import CLUSTER
from tgbot.memory_store import MemoryStore
from tgbot.redis_client import RedisClient
from tgbot.redis_store import RedisStore
from tgbot.store import Store


@pytest.fixture(params=["server", CLUSTER])
def redis_client(request: pytest.FixtureRequest) -> RedisClient:
    """A client of the session's Redis server, and the same tests again over a Redis Cluster."""
    client: RedisClient = request.getfixturevalue(f"{request.param}_client")
    return client


@pytest.fixture
def redis_store(redis_client: RedisClient, key_prefix: str) -> RedisStore:
    """A Redis store under the test's own prefix."""
    return RedisStore(redis_client, prefix=key_prefix)


@pytest.fixture(params=["redis", CLUSTER, "memory"])
def store(request: pytest.FixtureRequest, key_prefix: str) -> Store:
    """The same contract test over both stores (the memory one needs no Redis), the Redis one
    on a single server and on a Cluster."""
    if request.param == "memory":
        return MemoryStore()
    client: RedisClient = request.getfixturevalue(
        "server_client" if request.param == "redis" else "cluster_client"
    )
    return RedisStore(client, prefix=key_prefix)
