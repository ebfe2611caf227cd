"""The Redis client's timeouts, what counts as Redis being away, and the wait for it at start."""

from __future__ import annotations

import asyncio
import itertools
import logging
import socket

import pytest
from redis.asyncio import Redis
from redis.exceptions import (
    BusyLoadingError,
    ConnectionError,
    DataError,
    ResponseError,
    TimeoutError,
)

from tgbot.config import ConfigError
from tgbot.redis_client import open_redis, retry_delays, unavailable, wait_for_redis
from tgbot.redis_pool import LeanConnection, LeanSSLConnection, LeanUnixConnection


async def test_every_call_and_every_connection_has_the_timeout() -> None:
    client = open_redis("redis://127.0.0.1:6390/2", 1.5)
    assert isinstance(client, Redis)
    try:
        kwargs = client.connection_pool.connection_kwargs
        assert (kwargs["socket_timeout"], kwargs["socket_connect_timeout"]) == (1.5, 1.5)
        assert (kwargs["port"], kwargs["db"]) == (6390, 2)
    finally:
        await client.aclose()


async def test_more_concurrent_calls_than_connections_wait_for_one(redis_url: str) -> None:
    """Calls beyond the pool's size wait for a free connection instead of failing ("Too many
    connections" was redis-py's answer, and a tap was told the bot is busy)."""
    client = open_redis(redis_url, 5.0, connections=2)
    assert isinstance(client, Redis)
    key = f"sabtest-pool-{free_port()}"
    try:
        # Each call holds its connection for a moment (BLPOP on an empty list): 8 calls, 2
        # connections, so 6 of them must wait their turn.
        answers = await asyncio.gather(*(client.blpop([key], timeout=0.05) for _ in range(8)))
        assert answers == [None] * 8
        assert len(await asyncio.gather(*(client.ping() for _ in range(100)))) == 100
        assert client.connection_pool.max_connections == 2
    finally:
        await client.aclose()


async def test_a_call_waits_for_a_connection_no_longer_than_its_timeout(redis_url: str) -> None:
    """The one connection taken and kept: the waiting call gives up after its timeout as a
    call to a Redis that is away does (the handlers tell the tapper the bot is busy)."""
    client = open_redis(
        redis_url, 2.0, connections=1
    )  # (0.2 s: a loaded machine's pings timed out)
    assert isinstance(client, Redis)
    try:
        assert await client.ping()
        pool = client.connection_pool
        taken = await pool.get_connection()  # type: ignore[no-untyped-call]
        with pytest.raises(ConnectionError) as caught:
            await client.ping()
        assert unavailable(caught.value)
        await pool.release(taken)
        assert await client.ping()  # free again: the next call goes through
    finally:
        await client.aclose()


async def test_a_connection_dropped_by_redis_is_found_and_the_call_made_again(
    redis_url: str,
) -> None:
    """The pool's connections write without a task each (`redis_pool._LeanWrites`); one that
    Redis closed (CLIENT KILL, as at a restart) is reconnected, and the call goes through."""
    client = open_redis(redis_url, 2.0, connections=1)
    other = Redis.from_url(redis_url)
    assert isinstance(client, Redis)
    try:
        pool = client.connection_pool
        assert pool.connection_class is LeanConnection
        assert await client.client_setname("lean-writes")
        await other.client_kill_filter(_id=str(await client.client_id()))
        assert await client.client_getname() is None  # a new connection: its name is gone
        assert len(pool._available_connections) == 1
        assert await asyncio.gather(*(client.ping() for _ in range(20))) == [True] * 20
    finally:
        await client.aclose()
        await other.aclose()


async def test_unix_socket_and_tls_urls_get_their_lean_connections() -> None:
    for url, kind in (
        ("unix:///tmp/none.sock", LeanUnixConnection),
        ("rediss://127.0.0.1:6390/0", LeanSSLConnection),
    ):
        client = open_redis(url, 1.0)
        assert isinstance(client, Redis)
        assert client.connection_pool.connection_class is kind
        await client.aclose()


def test_a_url_that_redis_py_cannot_read_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError) as caught:
        open_redis("redis://:hunter2@127.0.0.1:6390/0?socket_timeout=soon", 1.0)
    assert caught.value.variable == "REDIS_URL"
    assert "hunter2" not in str(caught.value) and "\n" not in str(caught.value)


def test_redis_away_is_told_apart_from_other_errors() -> None:
    for away in (ConnectionError("refused"), TimeoutError("slow"), BusyLoadingError("loading")):
        assert unavailable(away)
    for other in (ResponseError("WRONGTYPE"), DataError("bad"), ValueError("x"), KeyError(1)):
        assert not unavailable(other)
    try:
        try:
            raise ConnectionError("reset")
        except ConnectionError as inner:
            raise RuntimeError("while saving") from inner
    except RuntimeError as wrapped:
        assert unavailable(wrapped)


def test_the_waits_between_attempts_grow_and_stop_at_a_few_seconds() -> None:
    assert list(itertools.islice(retry_delays(), 7)) == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0]
    assert list(itertools.islice(retry_delays(0.1, 0.3), 4)) == [0.1, 0.2, 0.3, 0.3]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Enough(Exception):
    """Ends a wait that would otherwise go on for ever."""


async def test_the_wait_logs_one_line_per_attempt_with_the_url_and_the_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Nobody listens: a warning per attempt, password masked, each wait as the line says."""
    url = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            raise Enough

    caplog.set_level(logging.INFO, logger="tgbot.redis_client")
    with pytest.raises(Enough):
        await wait_for_redis(url, 1.0, sleep=sleep)
    lines = [r.getMessage() for r in caplog.records if r.name == "tgbot.redis_client"]
    assert slept == [0.5, 1.0, 2.0]
    assert len(lines) == 3, lines
    for attempt, (line, wait) in enumerate(zip(lines, slept, strict=True), start=1):
        assert f"attempt {attempt}:" in line and f"trying again in {wait:.1f} s" in line
        assert url.replace("hunter2", "***") in line and "hunter2" not in line
        assert "onnect" in line  # the error itself: the connection was refused


async def test_a_redis_that_answers_is_not_waited_for(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="tgbot.redis_client")

    async def never(seconds: float) -> None:
        raise AssertionError("no wait")

    assert await wait_for_redis(redis_url, 1.0, sleep=never) == 1
    assert not [r for r in caplog.records if r.name == "tgbot.redis_client"]
