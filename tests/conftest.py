"""Options, hooks and fixtures shared by every test folder: --regen-golden, Hypothesis's profiles,
a throwaway Redis.

The Redis fixtures start a redis-server on a free port for the session (or use `REDIS_URL` when
set); each test works under its own key prefix and deletes only the keys under it.
"""

from __future__ import annotations

import gc
import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from redis.asyncio import Redis

import tgbot  # noqa: F401  (its opt-in to PTB's timedelta durations covers every test folder)
from tgbot.redis_client import RedisClient, open_redis

from . import profiles
from .processes import stop
from .redis_cluster import LocalCluster

settings.load_profile(profiles.FULL)


def pytest_configure(config: pytest.Config) -> None:
    """The fast lane (`-m "not slow"`) takes Hypothesis's fast profile: fewer examples."""
    if profiles.excludes_slow(config.option.markexpr or ""):
        settings.load_profile(profiles.FAST)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (modules, tests) lives to the end: frozen out of the garbage
    collector's sight, its full collections skip it, and so do the ones pytest runs as a worker
    ends (the last worker's end took 2 to 4 s before, about 1 s now)."""
    gc.collect()
    gc.freeze()


def pytest_addoption(parser: pytest.Parser) -> None:
    """--regen-golden rewrites golden files (transcripts, PNGs) instead of comparing."""
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite golden files instead of comparing with them",
    )


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite golden files."""
    return bool(request.config.getoption("--regen-golden"))


_START_ATTEMPTS = 5
_READY_SECONDS = 10.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _start(binary: str, workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    for _ in range(_START_ATTEMPTS):
        port = _free_port()
        proc = subprocess.Popen(
            [
                binary,
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--dir", str(workdir),
                "--logfile", str(workdir / f"redis-{port}.log"),
                "--daemonize", "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + _READY_SECONDS
        while time.monotonic() < deadline and proc.poll() is None:
            if _answers_ping(port):
                return proc, port
            time.sleep(0.05)
        stop(proc)  # the port was taken in between, or the server would not start
    raise RuntimeError(f"redis-server did not start; see the logs in {workdir}")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a Redis server for this test session."""
    given = os.environ.get("REDIS_URL")
    if given:
        yield given
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail(
            "redis-server is not installed (scripts/setup.sh installs it); or set REDIS_URL"
        )
    proc, port = _start(binary, tmp_path_factory.mktemp("redis"))
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(proc)


@pytest.fixture
def key_prefix() -> str:
    """A key prefix no other test uses."""
    return f"sabtest-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def redis_client(server_client: Redis) -> Redis:
    """A client of the session's server (tests/tgbot runs its tests over a Cluster too)."""
    return server_client


@pytest.fixture
async def server_client(redis_url: str, key_prefix: str) -> AsyncIterator[Redis]:
    """A client of the session's server; the test's keys are deleted afterwards."""
    client = Redis.from_url(redis_url)
    try:
        yield client
    finally:
        keys = [k async for k in client.scan_iter(match=f"{key_prefix}:*", count=500)]
        if keys:
            await client.delete(*keys)
        await client.aclose()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A real local Redis Cluster (three masters, three replicas) for this test session."""
    # In memory: no test of the session's cluster restarts a node, and an fsync on every write
    # made each write wait for the disk (tests/e2e/test_cluster_fleet starts its own, durable).
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster"), persistent=False)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
async def cluster_client(
    redis_cluster: LocalCluster, key_prefix: str
) -> AsyncIterator[RedisClient]:
    """A Cluster client of the session's cluster; the test's keys are deleted afterwards."""
    client = open_redis(redis_cluster.url, 5.0)
    await client.ping()  # redis-py's first concurrent calls on a Cluster can race
    try:
        yield client
    finally:
        async for key in client.scan_iter(match=f"{key_prefix}:*", count=500):
            await client.delete(key)  # one at a time: they live in different slots
        await client.aclose()
