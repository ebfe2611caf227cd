"""A started world per test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from .harness import World


@pytest.fixture
async def world(redis_client: Redis, key_prefix: str) -> AsyncIterator[World]:
    """The emulator and the bot (webhook mode) over a throwaway Redis, stopped afterwards."""
    w = World(redis_client, key_prefix)
    await w.start()
    try:
        yield w
    finally:
        await w.stop()
