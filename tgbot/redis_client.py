"""The Redis connection the bot and the sandbox use: timeouts, waiting for Redis, its absences.

Every call gives up after the configured timeout (REDIS_TIMEOUT_SECONDS) instead of hanging a
handler; a call that finds its pooled connection dropped (a restarted Redis) reconnects once,
and a timeout is never retried (a write may have been carried out). `unavailable` tells
"Redis is away for a moment" apart from other errors, for the handlers' and the sweeper's
benefit; `wait_for_redis` is the start-up loop that waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from urllib.parse import urlsplit

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .config import ConfigError, redacted_url

log = logging.getLogger(__name__)

FIRST_DELAY = 0.5  # seconds before the second attempt to reach Redis at start
MAX_DELAY = 5.0  # the longest wait between two attempts
_AWAY = (RedisConnectionError, RedisTimeoutError)  # refused, reset, loading, timed out


def open_redis(url: str, timeout: float) -> Redis:
    """A client of the Redis at `url` (checked by `load_config`) whose calls time out.

    A URL that passes the settings' checks but that redis-py still refuses (an option in its
    query it cannot read) is a ConfigError naming REDIS_URL.
    """
    try:
        return Redis.from_url(
            url,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(
                ExponentialBackoff(cap=0.2, base=0.05),
                retries=1,
                supported_errors=(RedisConnectionError,),
            ),
        )
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
        client = open_redis(url, timeout)
        try:
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
            await client.aclose()
        await sleep(delay)


def _hide_password(text: str, url: str) -> str:
    try:
        password = urlsplit(url).password
    except ValueError:
        return text
    return text.replace(password, "***") if password else text
