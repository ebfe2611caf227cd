"""Fixtures of the bot's unit tests: the store's contract over Redis and over the in-memory fake."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from tgbot.memory_store import MemoryStore
from tgbot.redis_store import RedisStore
from tgbot.store import Store


@pytest.fixture
def redis_store(redis_client: Redis, key_prefix: str) -> RedisStore:
    """A Redis store under the test's own prefix."""
    return RedisStore(redis_client, prefix=key_prefix)


@pytest.fixture(params=["redis", "memory"])
def store(request: pytest.FixtureRequest) -> Store:
    """The same contract test over both stores (the memory one needs no Redis)."""
    if request.param == "memory":
        return MemoryStore()
    redis_store: RedisStore = request.getfixturevalue("redis_store")
    return redis_store
