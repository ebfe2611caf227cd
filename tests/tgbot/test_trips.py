"""One round trip for several commands and scripts (`tgbot.trips`), on a server and a Cluster."""

from __future__ import annotations

import pytest

from tgbot.redis_client import RedisClient
from tgbot.trips import Trip, ride, riding

_BUMP = "return redis.call('INCRBY', KEYS[1], ARGV[1])"


async def test_answers_come_in_the_order_added(redis_client: RedisClient, key_prefix: str) -> None:
    bump = redis_client.register_script(_BUMP)
    key = f"{key_prefix}:n"
    trip = Trip(redis_client)
    first = trip.add("set", key, 5)
    bumped = trip.script(bump, [key], [2])
    read = trip.add("get", key)
    assert len(trip) == 3
    answers = await trip.run()
    assert answers[first] is True and answers[bumped] == 7 and int(answers[read]) == 7
    assert await Trip(redis_client).run() == []


async def test_a_script_the_server_forgot_is_loaded_and_run_once(
    redis_client: RedisClient, key_prefix: str
) -> None:
    bump = redis_client.register_script(_BUMP)
    key = f"{key_prefix}:m"
    await bump(keys=[key], args=[1])  # loaded
    await redis_client.script_flush()  # as after a restart of Redis
    trip = Trip(redis_client)
    bumped = trip.script(bump, [key], [10])
    trip.add("get", key)
    answers = await trip.run()
    assert answers[bumped] == 11
    assert await redis_client.get(key) == b"11", "run once, not twice"


async def test_an_error_in_a_trip_is_raised_after_the_others_ran(
    redis_client: RedisClient, key_prefix: str
) -> None:
    key = f"{key_prefix}:s"
    await redis_client.set(key, "text")
    trip = Trip(redis_client)
    trip.add("incr", key)  # not a number
    trip.add("set", f"{key_prefix}:after", 1)
    with pytest.raises(Exception, match="not an integer"):
        await trip.run()
    assert await redis_client.get(f"{key_prefix}:after") == b"1"


async def test_writes_ride_first_with_the_next_trip_and_the_rest_at_the_end(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """Inside `riding`, a ridden trip waits for the next one and goes before its commands (the
    carrying trip's answers are its own); what found no trip is written when the block ends."""
    key = f"{key_prefix}:ride"
    early = Trip(redis_client)
    early.add("set", key, 1)
    assert not ride(early)  # outside a block: the caller runs it
    async with riding():
        ridden = Trip(redis_client)
        ridden.add("incr", key)
        assert ride(ridden) and len(ridden) == 0
        assert await redis_client.get(key) is None, "not sent yet"
        carrier = Trip(redis_client)
        read = carrier.add("get", key)
        assert await carrier.run() == [b"1"] and read == 0  # INCR went first, then GET
        later = Trip(redis_client)
        later.add("incrby", key, 10)
        assert ride(later)
    assert await redis_client.get(key) == b"11", "written when the block ended"
