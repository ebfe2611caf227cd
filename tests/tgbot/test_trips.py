"""One round trip for several commands and scripts (`tgbot.trips`), on a server and a Cluster."""

from __future__ import annotations

import pytest

from tgbot.redis_client import RedisClient
from tgbot.trips import Trip

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
