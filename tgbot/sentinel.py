"""Redis Sentinel: `redis+sentinel://` URLs read, and a client of the master the sentinels name.

`redis+sentinel://[[user]:password@]host[:port][,host[:port]...]/service[/db]` lists the
sentinels (port 26379 by default) and the name they monitor the master under (`sentinel monitor
<service> ...`). The client asks the sentinels for the master's address each time it connects,
so after a failover its next connection goes to the promoted replica; a connection still open to
a demoted master is dropped at its first READONLY answer. The password (and user) are the
master's; the sentinels are reached without one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from .redis_pool import WaitingSentinelPool

SENTINEL_SCHEME = "redis+sentinel"
SENTINEL_PORT = 26379
_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]{1,253})(:[0-9]{1,5})?")
_SERVICE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_DB = re.compile(r"[0-9]{1,5}")


@dataclass(frozen=True, slots=True, repr=False)
class SentinelTarget:
    """What a `redis+sentinel://` URL names: the sentinels, the service, the database."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None


def is_sentinel_url(url: str) -> bool:
    """True for `redis+sentinel://` URLs."""
    return urlsplit(url).scheme == SENTINEL_SCHEME


def parse_sentinel_url(url: str) -> SentinelTarget:
    """The sentinels, service and database of a `redis+sentinel://` URL; ValueError (saying what
    is wrong, never the password) for one that does not name them."""
    parts = urlsplit(url)
    if parts.scheme != SENTINEL_SCHEME:
        raise ValueError(f"does not start with {SENTINEL_SCHEME}://")
    if parts.query or parts.fragment:
        raise ValueError("a Sentinel URL takes no query or fragment")
    users, _, hosts = parts.netloc.rpartition("@")
    sentinels = tuple(_sentinel(host) for host in hosts.split(","))
    path = parts.path.strip("/").split("/") if parts.path.strip("/") else []
    if not path or not _SERVICE.fullmatch(path[0]):
        raise ValueError("needs the master's service name after the sentinels (…:26379/mymaster)")
    if len(path) > 2 or (len(path) == 2 and not _DB.fullmatch(path[1])):
        raise ValueError("the database after the service name must be a number (…/mymaster/0)")
    username, _, password = users.partition(":")
    return SentinelTarget(
        sentinels=sentinels,
        service=path[0],
        db=int(path[1]) if len(path) == 2 else 0,
        username=unquote(username) or None,
        password=unquote(password) or None,
    )


def _sentinel(text: str) -> tuple[str, int]:
    found = _HOST.fullmatch(text)
    if found is None:
        raise ValueError("needs sentinels as host:port, separated by commas")
    port = int(found.group(2)[1:]) if found.group(2) else SENTINEL_PORT
    if not 1 <= port <= 65535:
        raise ValueError("has a bad sentinel port")
    return found.group(1).strip("[]"), port


class SentinelMaster(Redis):
    """The master's client; closing it closes its connections to the sentinels too."""

    manager: Sentinel | None = None

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        """Close the master's pool and the sentinels' clients."""
        await super().aclose(close_connection_pool)
        if self.manager is not None:
            await self.manager.aclose()


def server_retry() -> Retry:
    """A single server's retry policy (also the master's behind Sentinel): one more try, soon,
    when the connection dropped."""
    return Retry(
        ExponentialBackoff(cap=0.2, base=0.05), retries=1, supported_errors=(RedisConnectionError,)
    )


def open_sentinel(
    target: SentinelTarget, timeout: float, *, connections: int = 256
) -> SentinelMaster:
    """A client of the master `target`'s sentinels name now (and after each failover), whose
    calls time out after `timeout`; like the single-server client it reconnects once on a
    dropped connection (asking the sentinels again), never retries a timeout, and waits for one
    of its `connections` to come free."""
    ask: dict[str, Any] = {  # a sentinel that is down is skipped at once, never retried
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "retry": Retry(NoBackoff(), 0),
    }
    sentinel = Sentinel(list(target.sentinels), sentinel_kwargs=ask)  # type: ignore[no-untyped-call]
    client: SentinelMaster = sentinel.master_for(
        target.service,
        redis_class=SentinelMaster,
        db=target.db,
        username=target.username,
        password=target.password,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=server_retry(),
        connection_pool_class=WaitingSentinelPool,
        max_connections=connections,
        wait_timeout=timeout,  # the wait for a free connection
    )
    client.manager = sentinel
    return client
