"""A redis-server of a test's own, on a free port and in a folder of its own; SIGKILL-proof.

Every write is synced to its append-only file, so it can be killed and started again on the
same port with all its data.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from redis.asyncio import Redis
from redis.exceptions import RedisError

from .harness import free_port


@dataclass
class OwnRedis:
    """One redis-server process (restartable on the same port, over the same data)."""

    directory: Path
    port: int
    password: str | None = None
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        """Its URL (with the password, if any)."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server (again) on its port and folder; `ready` waits until it answers."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not installed (scripts/setup.sh --test)"
        self.starts += 1
        command = [
            binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.directory),
            "--appendonly", "yes",
            "--appendfsync", "always",  # an acknowledged write survives a SIGKILL
            "--save", "",
            "--logfile", str(self.directory / "redis.log"),
            "--daemonize", "no",
        ]  # fmt: skip
        if self.password:
            command += ["--requirepass", self.password]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    async def ready(self, timeout: float = 20.0) -> None:
        """Wait until it answers PING (with its data loaded)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            assert self.proc is not None and self.proc.poll() is None, self.log()[-2000:]
            client = self.client()
            try:
                if await client.ping():
                    return
            except RedisError:
                if loop.time() > deadline:
                    raise TimeoutError(f"redis-server did not answer:\n{self.log()}") from None
            finally:
                await client.aclose()
            await asyncio.sleep(0.02)

    def client(self) -> Redis:
        """A new client of this server (the caller closes it)."""
        return Redis.from_url(self.url, socket_timeout=5, socket_connect_timeout=5)

    def kill(self) -> None:
        """SIGKILL, and reap it: Redis gets no chance to do anything on its way out."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """End it whatever its state (used from a finally)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def log(self) -> str:
        """The server's own log."""
        path = self.directory / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""


@contextlib.contextmanager
def own_redis(directory: Path, *, password: str | None = None) -> Iterator[OwnRedis]:
    """A not yet started server on a free port in `directory`; always stopped afterwards."""
    directory.mkdir(parents=True, exist_ok=True)
    server = OwnRedis(directory, free_port(), password)
    try:
        yield server
    finally:
        server.stop()


async def everything(client: Redis) -> dict[bytes, bytes]:
    """Every key of the server with its DUMP (type and value, byte for byte)."""
    keys = sorted([k async for k in client.scan_iter(count=500)])
    dumps = [await client.dump(k) for k in keys]
    return {k: d for k, d in zip(keys, dumps, strict=True) if d is not None}
