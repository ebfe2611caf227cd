"""A started world per test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from .harness import World


@pytest.fixture
def world_seed() -> int:
    """The seed of the world's deals (and game ids); a test may give its own with
    `@pytest.mark.parametrize("world_seed", [n])`."""
    return 1


@pytest.fixture
async def world(redis_client: Redis, key_prefix: str, world_seed: int) -> AsyncIterator[World]:
    """The emulator and the bot (webhook mode) over a throwaway Redis, stopped afterwards."""
    w = World(redis_client, key_prefix, seed=world_seed)
    await w.start()
    try:
        yield w
    finally:
        await w.stop()
