"""Connection pools that wait for a free connection instead of failing at their limit.

redis-py's pool raises "Too many connections" (MaxConnectionsError, a ConnectionError: the
handlers take it for Redis being away and tell a tapper the bot is busy) at its limit, 100 by
default; under load a process has that many calls in flight. Its BlockingConnectionPool waits,
but every call then takes a lock, a condition and a timer, even when a connection is free: a
few percent of the bot's CPU. `WaitingPool` takes redis-py's own path while a connection is
free and waits only at the limit, for a connection given back, within `wait_timeout` (the
call's timeout: a call that cannot get one in time fails as a call to a Redis that is away).

A call takes an idle connection and gives it back without redis-py's lock, connection-count
hooks and release event (the bot uses neither observability nor credential providers). Their
connections write a command without redis-py's `asyncio.wait_for` (`_LeanWrites`): on Python
3.11 it makes a task for every write, about 40% of a small command's CPU in the bot. A write
the kernel takes whole (almost all of them) needs no timeout; one that must wait for the socket
to drain waits within the socket timeout, as before. Like redis-py's task, a write first lets
the callbacks already ready run (`asyncio.sleep(0)`), so that its answer's read timeout does
not start before a long step of another task (drawing, on a loaded machine) and expire behind
it: without it, end-to-end tests on this machine took a drawing's seconds for Redis away.

They also pack commands with hiredis's C packer (redis-py's asyncio connections pack in Python,
its synchronous ones already use hiredis): the same bytes for every str, bytes, int and float
argument; anything else (a bool, an enum, a str subclass), or a non-UTF-8 encoding, goes to
redis-py's own packer, which packs or refuses it as before.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable
from typing import Any, cast

import hiredis
from redis.asyncio import ConnectionPool
from redis.asyncio.connection import (
    AbstractConnection,
    Connection,
    SSLConnection,
    UnixDomainSocketConnection,
)
from redis.asyncio.sentinel import (
    SentinelConnectionPool,
    SentinelManagedConnection,
    SentinelManagedSSLConnection,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import MaxConnectionsError
from redis.exceptions import TimeoutError as RedisTimeoutError


class NoConnection(RedisConnectionError):
    """No connection of the pool came free within the wait."""


class _LeanWrites:
    """A connection's writes without a task each (mixed in before a redis-py connection class);
    what fails fails as in redis-py (the connection dropped, a redis-py error raised)."""

    def pack_command(self, *args: Any) -> list[bytes]:
        """One command in the Redis protocol, by hiredis when it takes every argument."""
        conn = cast("AbstractConnection", self)
        if conn.encoder.encoding == "utf-8" and conn.encoder.encoding_errors == "strict":
            first = args[0]
            if isinstance(first, str):  # a name such as "CONFIG GET" is sent as two words
                parts = tuple(first.encode().split()) + args[1:]
            elif isinstance(first, bytes) and b" " in first:
                parts = tuple(first.split()) + args[1:]
            else:
                parts = args
            try:
                return [hiredis.pack_command(parts)]
            except TypeError:  # an argument hiredis does not take
                pass
        return super().pack_command(*args)  # type: ignore[misc,no-any-return]

    def pack_commands(self, commands: Iterable[Iterable[Any]]) -> list[bytes]:
        """Several commands in one buffer (a pipeline)."""
        return [b"".join(chunk for cmd in commands for chunk in self.pack_command(*cmd))]

    async def send_packed_command(
        self, command: bytes | str | Iterable[bytes], check_health: bool = True
    ) -> None:
        """Write a packed command (as redis-py does, see the module's docstring)."""
        # Let the callbacks already ready run first, as redis-py's task for the write did: the
        # answer's read timeout then starts after them (a step that draws a picture holds the
        # loop for a while on a loaded machine; a read started before it could time out).
        await asyncio.sleep(0)
        conn = cast("AbstractConnection", self)
        timeout = conn.socket_timeout
        writer = conn._writer
        if not conn.is_connected or writer is None or not timeout:
            await super().send_packed_command(command, check_health)  # type: ignore[misc]
            return
        if check_health:
            await conn.check_health()  # type: ignore[no-untyped-call]
        if isinstance(command, str):
            command = command.encode()
        if isinstance(command, bytes):
            command = [command]
        try:
            writer.writelines(command)
            if writer.transport.get_write_buffer_size():  # the kernel did not take it all
                async with asyncio.timeout(timeout):
                    await writer.drain()
            else:
                await writer.drain()  # never waits; raises if the connection was lost
        except TimeoutError:
            await conn.disconnect(nowait=True)
            raise RedisTimeoutError("Timeout writing to socket") from None
        except OSError as err:
            await conn.disconnect(nowait=True)
            number, text = ("UNKNOWN", err.args[0]) if len(err.args) == 1 else err.args[:2]
            raise RedisConnectionError(f"Error {number} while writing to socket. {text}.") from err
        except BaseException:  # cancelled mid-write: the connection cannot be trusted
            await conn.disconnect(nowait=True)
            raise


class LeanConnection(_LeanWrites, Connection):
    """A TCP connection that writes without a task (`_LeanWrites`)."""


class LeanSSLConnection(_LeanWrites, SSLConnection):
    """A TLS connection that writes without a task (`_LeanWrites`)."""


class LeanUnixConnection(_LeanWrites, UnixDomainSocketConnection):
    """A Unix socket connection that writes without a task (`_LeanWrites`)."""


class LeanSentinelConnection(_LeanWrites, SentinelManagedConnection):
    """A connection to the master Sentinel names that writes without a task (`_LeanWrites`)."""


class LeanSentinelSSLConnection(_LeanWrites, SentinelManagedSSLConnection):
    """A TLS connection to the master Sentinel names that writes without a task."""


_LEAN: dict[type[Any], type[Any]] = {
    Connection: LeanConnection,
    SSLConnection: LeanSSLConnection,
    UnixDomainSocketConnection: LeanUnixConnection,
    SentinelManagedConnection: LeanSentinelConnection,
    SentinelManagedSSLConnection: LeanSentinelSSLConnection,
}


def _lean(options: dict[str, Any], default: type[Any]) -> None:
    """Make the pool's connection class (redis-py's, by the URL's scheme) its lean one."""
    chosen = options.get("connection_class", default)
    options["connection_class"] = _LEAN.get(chosen, chosen)


class _Waits:
    """The waiting, mixed into a redis-py pool class (before it, so that it comes first)."""

    wait_timeout: float
    _waiting: deque[asyncio.Future[None]]

    def _start_waits(self, wait_timeout: float) -> None:
        self.wait_timeout = wait_timeout
        self._waiting = deque()

    async def get_connection(self, *args: Any, **options: Any) -> Any:
        """A connection: at once while the pool has one to give, else the first one given
        back (NoConnection after `wait_timeout`)."""
        pool = cast("ConnectionPool", self)
        idle = pool._available_connections
        if idle and not args and not options:  # redis-py's path, without its bookkeeping
            connection = idle.pop()
            pool._in_use_connections.add(connection)
            try:
                await pool.ensure_connection(connection)
            except BaseException:
                await self.release(connection)
                raise
            return connection
        loop = asyncio.get_running_loop()
        deadline: float | None = None
        while True:
            try:
                return await super().get_connection(*args, **options)  # type: ignore[misc]
            except MaxConnectionsError:
                now = loop.time()
                deadline = now + self.wait_timeout if deadline is None else deadline
                if now >= deadline:
                    raise NoConnection("no Redis connection came free in time") from None
                freed: asyncio.Future[None] = loop.create_future()
                self._waiting.append(freed)
                try:
                    await asyncio.wait_for(freed, deadline - now)
                except TimeoutError:
                    raise NoConnection("no Redis connection came free in time") from None
                except BaseException:  # cancelled: a wake it was given goes to the next one
                    if freed.done() and not freed.cancelled():
                        self._wake()
                    raise
                finally:
                    if not freed.done():
                        freed.cancel()

    async def release(self, connection: Any) -> None:
        """Give a connection back, and wake the longest waiting call, if any."""
        pool = cast("ConnectionPool", self)
        pool._in_use_connections.remove(connection)
        if connection.should_reconnect():
            await connection.disconnect()
        pool._available_connections.append(connection)
        self._wake()

    def _wake(self) -> None:
        while self._waiting:
            freed = self._waiting.popleft()
            if not freed.done():
                freed.set_result(None)
                return


class WaitingPool(_Waits, ConnectionPool):
    """A single server's pool that waits at its limit (see the module's docstring)."""

    def __init__(self, *, wait_timeout: float, **kwargs: Any) -> None:
        _lean(kwargs, Connection)
        super().__init__(**kwargs)
        self._start_waits(wait_timeout)


class WaitingSentinelPool(_Waits, SentinelConnectionPool):
    """The pool of the master Sentinel names, waiting at its limit like `WaitingPool`."""

    def __init__(self, service_name: str, sentinel_manager: Any, **kwargs: Any) -> None:
        wait_timeout = float(kwargs.pop("wait_timeout"))
        tls = bool(kwargs.pop("ssl", False))  # (redis-py's pool reads it to choose its class)
        _lean(kwargs, SentinelManagedSSLConnection if tls else SentinelManagedConnection)
        super().__init__(service_name, sentinel_manager, **kwargs)  # type: ignore[no-untyped-call]
        self._start_waits(wait_timeout)
