"""Moves the keys of the layout before Cluster support to today's names (`tgbot.keys`).

Before, the outbox was one SET (`<p>:outbox`), the deadlines one ZSET (`<p>:deadlines`), and a
group's history, statistics and counted marks were named without the chat's hash tag. On a
single Redis server these are renamed (RENAME keeps a key's expiry) or split into the shards, at
start, before anything else runs; a second run finds nothing to do. A Cluster deployment starts
with today's layout, so nothing is migrated there.
"""

from __future__ import annotations

import logging
from typing import cast

from redis.asyncio import Redis

from .archives import ArchivedGameError, game_from_json
from .clocks import CLAIMED, parse_member
from .keys import Keys, shard_of

log = logging.getLogger(__name__)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def migrate_keys(redis: Redis, prefix: str) -> int:
    """Bring a single server's keys under `prefix` to today's layout; the number of keys moved."""
    keys = Keys(prefix)
    moved = 0
    old_outbox = f"{prefix}:outbox"
    if await redis.type(old_outbox) in (b"set", "set"):
        for raw in await redis.smembers(old_outbox):
            gid = _text(raw)
            await redis.zadd(keys.outbox(shard_of(gid)), {gid: 0})  # 0: checked by the next sweep
        await redis.delete(old_outbox)
        moved += 1
    old_deadlines = f"{prefix}:deadlines"
    if await redis.type(old_deadlines) in (b"zset", "zset"):
        items = await redis.zrange(old_deadlines, 0, -1, withscores=True)
        for name, at in cast("list[tuple[bytes | str, float]]", items):
            member = _text(name)
            parsed = parse_member(member.removeprefix(CLAIMED))  # a claim goes with its deadline
            shard = shard_of(parsed[0] if parsed is not None else member)
            await redis.zadd(keys.deadlines(shard), {member: at})
        await redis.delete(old_deadlines)
        moved += 1
    for kind in ("history", "stats"):
        async for raw in redis.scan_iter(match=f"{prefix}:{kind}:*", count=500):
            old = _text(raw)
            new = _renamed(keys, kind, old[len(f"{prefix}:{kind}:") :])
            if new is not None:
                await redis.rename(old, new)
                moved += 1
    async for raw in redis.scan_iter(match=f"{prefix}:counted:{{*}}", count=500):
        old = _text(raw)
        gid = old[len(f"{prefix}:counted:{{") : -1]
        doc = await redis.get(keys.archive(gid))
        try:
            chat = None if doc is None else game_from_json(doc).chat_id
        except ArchivedGameError:
            chat = None
        if chat is None:
            await redis.delete(old)  # its archive is gone: nothing left to count twice
        else:
            await redis.rename(old, keys.counted(chat, gid))
        moved += 1
    if moved:
        log.info("moved %d Redis keys to the Cluster-ready layout (prefix %s)", moved, prefix)
    return moved


def _renamed(keys: Keys, kind: str, rest: str) -> str | None:
    """Today's name of an old key, from what followed `<p>:<kind>:`; None if it is not old."""
    chat, _, season = rest.partition(":")
    if not chat.lstrip("-").isdigit():
        return None  # today's names start with the chat's tag, `{<chat id>}`
    if kind == "history":
        return keys.history(int(chat)) if not season else None
    return keys.stats(int(chat), season) if season else None
