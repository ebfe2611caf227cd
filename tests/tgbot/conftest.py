"""Fixtures of the bot's unit tests: a store under the test's own key prefix."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from tgbot.store import GameStore


@pytest.fixture
def store(redis_client: Redis, key_prefix: str) -> GameStore:
    """A game store under the test's own prefix."""
    return GameStore(redis_client, prefix=key_prefix)
