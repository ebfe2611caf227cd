"""Connection pools that wait for a free connection instead of failing at their limit.

redis-py's pool raises "Too many connections" (MaxConnectionsError, a ConnectionError: the
handlers take it for Redis being away and tell a tapper the bot is busy) at its limit, 100 by
default; under load a process has that many calls in flight. Its BlockingConnectionPool waits,
but every call then takes a lock, a condition and a timer, even when a connection is free: a
few percent of the bot's CPU. `WaitingPool` takes redis-py's own path while a connection is
free and waits only at the limit, for a connection given back, within `wait_timeout` (the
call's timeout: a call that cannot get one in time fails as a call to a Redis that is away).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from redis.asyncio import ConnectionPool
from redis.asyncio.sentinel import SentinelConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import MaxConnectionsError


class NoConnection(RedisConnectionError):
    """No connection of the pool came free within the wait."""


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
        await super().release(connection)  # type: ignore[misc]
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
        super().__init__(**kwargs)
        self._start_waits(wait_timeout)


class WaitingSentinelPool(_Waits, SentinelConnectionPool):
    """The pool of the master Sentinel names, waiting at its limit like `WaitingPool`."""

    def __init__(self, service_name: str, sentinel_manager: Any, **kwargs: Any) -> None:
        wait_timeout = float(kwargs.pop("wait_timeout"))
        super().__init__(service_name, sentinel_manager, **kwargs)  # type: ignore[no-untyped-call]
        self._start_waits(wait_timeout)
