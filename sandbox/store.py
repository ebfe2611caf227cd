"""Where the sandbox keeps games: the Redis at REDIS_URL, or an embedded in-process store."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import fakeredis

from tgbot.config import DEFAULT_REDIS_TIMEOUT
from tgbot.keys import Keys
from tgbot.redis_client import RedisClient, open_redis


@dataclass(frozen=True, slots=True)
class SandboxStore:
    """A Redis client, the key prefix of this run, and the line that announces them."""

    client: RedisClient
    prefix: str
    is_embedded: bool
    announcement: str

    async def forget(self) -> None:
        """Delete this run's keys (the emulated chats they point to end with the process)."""
        if self.is_embedded:
            return
        keys = [
            key
            async for key in self.client.scan_iter(match=Keys(self.prefix).everything(), count=500)
        ]
        for key in keys:  # one at a time: on a Cluster they live in different slots
            await self.client.delete(key)


def open_store(url: str | None, timeout: float = DEFAULT_REDIS_TIMEOUT) -> SandboxStore:
    """The Redis at `url` (REDIS_URL, already checked; calls time out after `timeout` seconds)
    if given, otherwise fakeredis in-process."""
    if not url:
        return SandboxStore(
            client=fakeredis.FakeAsyncRedis(),
            prefix="sandbox",
            is_embedded=True,
            announcement=(
                "Store: embedded in-process (REDIS_URL is not set); "
                "games last only while this process runs."
            ),
        )
    # A prefix of its own per run: the emulator starts with no chats, so older games would
    # point at chats that no longer exist, and two sandboxes may share one Redis.
    prefix = f"sandbox-{secrets.token_hex(4)}"
    return SandboxStore(
        client=open_redis(url, timeout),
        prefix=prefix,
        is_embedded=False,
        announcement=(
            f"Store: Redis at {without_password(url)} "
            f"(keys under {prefix}:*, deleted when the sandbox stops)."
        ),
    )


def without_password(url: str) -> str:
    """The URL with any password masked, fit to print."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port is not None else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
