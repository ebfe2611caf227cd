"""The Redis connection the bot and the sandbox use: timeouts, waiting for Redis, its absences.

Every call gives up after the configured timeout (REDIS_TIMEOUT_SECONDS) instead of hanging a
handler; a call that finds its pooled connection dropped (a restarted Redis) reconnects once,
and a timeout is never retried (a write may have been carried out). `unavailable` tells
"Redis is away for a moment" apart from other errors, for the handlers' and the sweeper's
benefit; `wait_for_redis` is the start-up loop that waits for it.

With `cluster` (REDIS_URL `redis+cluster://host:port`, or REDIS_CLUSTER=1) the client is redis-py's
RedisCluster: it learns the other nodes from the one named, sends each command to the master of
its key's slot and follows a failover (MOVED) to the promoted replica. Every key layout and script
of the bot touches one slot per command (`tgbot.keys`), so the rest of the code is the same.
A Cluster client must answer one command (a ping) before it is used concurrently: redis-py's
first concurrent calls can race while it learns the cluster's nodes. (Commands that open new
connections to one node at once can still fail in the handshake when the node closes one, as
a cluster's masters did while their replicas made their first sync: an AttributeError redis-py
8.1 does not retry; see the README's "not done yet".)

With a `redis+sentinel://` URL the client is the master's that Redis Sentinel names
(`tgbot.sentinel`): a single server to the rest of the code, which moves to the promoted replica
after a failover.

Connections: a process keeps at most CONNECTIONS open to a server (to each node of a Cluster). A
call that finds them all busy waits for one to come free, within the call's timeout, instead of
failing at once (`tgbot.redis_pool`: redis-py's default pool raised "Too many connections" at
its 100th concurrent call, and taps were told the bot is busy with 50 games at once). A Cluster
client cannot wait (redis-py's Cluster pools cannot be replaced): past CONNECTIONS calls in
flight to one node it raises.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeAlias
from urllib.parse import urlsplit

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ClusterDownError, RedisError, SlotNotCoveredError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .config import CLUSTER_SUFFIX, ConfigError, redacted_url
from .redis_pool import WaitingPool
from .sentinel import is_sentinel_url, open_sentinel, parse_sentinel_url, server_retry

log = logging.getLogger(__name__)

FIRST_DELAY = 0.5  # seconds before the second attempt to reach Redis at start
MAX_DELAY = 5.0  # the longest wait between two attempts
# refused, reset, loading, timed out; a Cluster between a master's death and its replica's promotion
_AWAY = (RedisConnectionError, RedisTimeoutError, ClusterDownError, TryAgainError)
CLUSTER_ATTEMPTS = 20  # a Cluster client's tries of one command across a failover (~4 s)
CONNECTIONS = 256  # per process and server; Redis takes 10,000 clients by default


class _Cluster(RedisCluster):
    """RedisCluster that, like the single-server client, never retries a timed-out command (a
    write may have been carried out); a refused connection or a cluster between masters is."""

    ERRORS_ALLOW_RETRY = (  # type: ignore[assignment]
        RedisConnectionError,
        ClusterDownError,
        SlotNotCoveredError,
    )


RedisClient: TypeAlias = Redis | RedisCluster  # what every Redis-backed part of the bot takes


def is_cluster_url(url: str) -> bool:
    """True for `redis+cluster://` and `rediss+cluster://` URLs."""
    return urlsplit(url).scheme.endswith(CLUSTER_SUFFIX)


def open_redis(
    url: str, timeout: float, *, cluster: bool = False, connections: int = CONNECTIONS
) -> RedisClient:
    """A client of the Redis at `url` (checked by `load_config`) whose calls time out; of a
    Redis Cluster when `cluster` is true or the URL's scheme says so; of the master Redis
    Sentinel names for a `redis+sentinel://` URL. At most `connections` per server: a call
    waits for a free one (not a Cluster's, see the module's docstring).

    A URL that passes the settings' checks but that redis-py still refuses (an option in its
    query it cannot read) is a ConfigError naming REDIS_URL.
    """
    try:
        if is_sentinel_url(url):
            return open_sentinel(parse_sentinel_url(url), timeout, connections=connections)
        if cluster or is_cluster_url(url):
            plain = url.replace(CLUSTER_SUFFIX + "://", "://", 1)
            return _Cluster.from_url(
                plain,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), retries=CLUSTER_ATTEMPTS),
                max_connections=connections,
            )
        pool = WaitingPool.from_url(
            url,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=server_retry(),
            max_connections=connections,
            wait_timeout=timeout,  # waiting for a free connection is part of the call's time
        )
        return Redis.from_pool(pool)
    except (ValueError, TypeError) as err:
        problem = _hide_password(str(err), url)
        raise ConfigError(
            "REDIS_URL", f"cannot be used: {problem} ({redacted_url(url)!r})"
        ) from None


def unavailable(error: BaseException) -> bool:
    """True when the error (or what caused it) means Redis did not answer in time or at all."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, _AWAY):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def retry_delays(first: float = FIRST_DELAY, cap: float = MAX_DELAY) -> Iterator[float]:
    """The waits between attempts: doubling from `first`, never above `cap`."""
    delay = first
    while True:
        yield min(delay, cap)
        delay = min(delay * 2, cap)


async def wait_for_redis(
    url: str,
    timeout: float,
    *,
    cluster: bool = False,
    delays: Iterator[float] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> int:
    """Ping the Redis at `url` until it answers, logging one line per failed attempt (with the
    URL, password masked, and the error); returns the number of attempts it took."""
    waits = retry_delays() if delays is None else delays
    shown = redacted_url(url)
    attempt = 0
    while True:
        attempt += 1
        client: RedisClient | None = None
        try:
            client = open_redis(url, timeout, cluster=cluster)
            await client.ping()
        except RedisError as err:
            delay = next(waits)
            problem = _hide_password(" ".join(str(err).split()) or type(err).__name__, url)
            log.warning(
                "Redis at %s does not answer (attempt %d: %s); trying again in %.1f s",
                shown,
                attempt,
                problem,
                delay,
            )
        else:
            if attempt > 1:
                log.info("Redis at %s answers (attempt %d)", shown, attempt)
            return attempt
        finally:
            if client is not None:
                await client.aclose()
        await sleep(delay)


def _hide_password(text: str, url: str) -> str:
    try:
        password = urlsplit(url).password
    except ValueError:
        return text
    return text.replace(password, "***") if password else text
