"""Keys for a Redis Cluster: a slot per script, sharded indexes, owed marks, old keys moved."""

from __future__ import annotations

import binascii
from dataclasses import replace

from redis.asyncio import Redis

from engine import new_game
from tgbot.archives import ALL_TIME
from tgbot.clocks import Deadline, DeadlineKind
from tgbot.keys import SHARDS, Keys, shard_of
from tgbot.migrate import migrate_keys
from tgbot.outbox import Owed
from tgbot.records import GameRecord, Lobby, LobbyPlayer, Status
from tgbot.redis_client import RedisClient
from tgbot.redis_store import RedisStore
from tgbot.scheduler import DeadlineIndex

from .test_store import PLAYERS, _record

CHAT = -1001234567890


def _slot(key: str) -> int:
    """Redis Cluster's slot of a key (CRC16/XMODEM of its hash tag, or of the whole key)."""
    start = key.find("{")
    if start >= 0:
        end = key.find("}", start + 1)
        if end > start + 1:
            key = key[start + 1 : end]
    return binascii.crc_hqx(key.encode(), 0) % 16384


def test_the_keys_of_one_game_share_a_slot_and_a_group_s_keys_share_another() -> None:
    k = Keys("sab")
    assert len({_slot(k.game("G1")), _slot(k.lease("G1")), _slot(k.archive("G1"))}) == 1
    group = {_slot(k.history(CHAT)), _slot(k.stats(CHAT, "2025Q3")), _slot(k.stats(CHAT, ALL_TIME))}
    assert group == {_slot(k.counted(CHAT, "G1"))}


def test_the_cross_game_indexes_are_sharded_one_slot_each() -> None:
    k = Keys("sab")
    assert len({_slot(k.outbox(s)) for s in range(SHARDS)}) == SHARDS
    assert len({_slot(k.deadlines(s)) for s in range(SHARDS)}) == SHARDS
    shards = {shard_of(f"Game{n:06d}") for n in range(200)}
    assert shards == set(range(SHARDS))  # games spread over every shard


def _owing(record: GameRecord) -> GameRecord:
    return replace(record, owed=Owed(fresh=(1,)))


async def test_a_debt_is_listed_until_a_save_owes_nothing(
    redis_client: RedisClient, key_prefix: str
) -> None:
    store = RedisStore(redis_client, prefix=key_prefix)
    try:
        made = await store.create(_record("Owe0000001"))
        assert await store.owing_games() == ()
        assert await store.save(_owing(made), 1)
        assert await store.owing_games() == ("Owe0000001",)
        assert await store.owing_games() == ("Owe0000001",)  # still owed: listing changes nothing
        assert await store.save(made, 2)  # struck off
        assert await store.owing_games() == ()
        key = store.keys.outbox(shard_of("Owe0000001"))
        assert await redis_client.zcard(key) == 0  # the mark itself was dropped
    finally:
        await store.delete("Owe0000001")


async def test_a_mark_newer_than_the_settled_rev_is_kept(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """A save that owes marks first: a sweep reading the older, settled record keeps the mark."""
    store = RedisStore(redis_client, prefix=key_prefix)
    try:
        await store.create(_record("Owe0000002"))
        key = store.keys.outbox(shard_of("Owe0000002"))
        await redis_client.zadd(key, {"Owe0000002": 2})  # a save to rev 2 is on its way
        assert await store.owing_games() == ("Owe0000002",)
        assert await redis_client.zscore(key, "Owe0000002") == 2.0
    finally:
        await store.delete("Owe0000002")


async def test_a_mark_of_a_vanished_game_is_dropped(
    redis_client: RedisClient, key_prefix: str
) -> None:
    store = RedisStore(redis_client, prefix=key_prefix)
    key = store.keys.outbox(shard_of("Gone000001"))
    await redis_client.zadd(key, {"Gone000001": 5})
    assert await store.owing_games() == ()
    assert await redis_client.zcard(key) == 0


async def test_deadlines_of_many_games_are_claimed_once_across_shards(
    redis_client: RedisClient, key_prefix: str
) -> None:
    index = DeadlineIndex(redis_client, prefix=key_prefix)
    games = [f"Dl{n:08d}" for n in range(30)]
    await index.add(Deadline(g, 3, DeadlineKind.TIMEOUT, 100.0 + n) for n, g in enumerate(games))
    assert await index.next_due() == 100.0
    assert [m for m, _ in await index.pending()] == [f"{g}:3:timeout" for g in games]
    first = await index.claim_due(110.0, limit=5)
    for member in first:  # served: each claim ends
        await index.done(member)
    rest = await index.claim_due(1000.0, limit=100)
    for member in rest:
        await index.done(member)
    assert len(first) == 5 and sorted(first + rest) == sorted(f"{g}:3:timeout" for g in games)
    assert await index.claim_due(1000.0) == [] and await index.next_due() is None
    await index.add([Deadline("Dl00000001", 4, DeadlineKind.TIMEOUT, 5.0)])
    await index.drop(["Dl00000001:4:timeout"])
    assert await index.pending() == []


async def test_a_migrated_chat_s_game_is_retired_and_the_chat_freed(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """The chat's key and the game's key live in different slots; finishing frees both."""
    store = RedisStore(redis_client, prefix=key_prefix)
    made = await store.create(_record("Mv00000001", chat=-5))
    await store.move_chat("Mv00000001", -5, -1009, None)
    moved = replace(made, chat_id=-1009, status=Status.PLAYING, state=new_game([1, 2, 3], seed=1))
    assert await store.save(moved, 1)
    assert await store.finish("Mv00000001", 60)
    assert await store.active_game(-1009, None) is None
    assert all([await store.user_games(p.user_id) == () for p in PLAYERS])
    again = await store.create(_record("Mv00000002", chat=-1009))
    assert again.rev == 1 and await store.active_game(-1009, None) == "Mv00000002"


async def test_old_keys_are_moved_to_the_cluster_layout(
    server_client: Redis, key_prefix: str
) -> None:
    """A single server's keys from before: the outbox set, the deadlines, history and stats."""
    p, k = key_prefix, Keys(key_prefix)
    store = RedisStore(server_client, prefix=p)
    record = await store.create(
        _record("Old0000001", lobby=Lobby(players=(LobbyPlayer(1, "Ann", PLAYERS[0].language),)))
    )
    await store.save(_owing(record), 1)
    await server_client.delete(k.outbox(shard_of("Old0000001")))
    await server_client.sadd(f"{p}:outbox", "Old0000001")
    await server_client.zadd(f"{p}:deadlines", {"Old0000001:4:timeout": 50.0})
    await server_client.zadd(f"{p}:history:{CHAT}", {"Old0000001": 10.0})
    await server_client.hset(f"{p}:stats:{CHAT}:all", mapping={"1:games": 3, "title": "Pit"})
    await server_client.expire(f"{p}:stats:{CHAT}:all", 1000)
    await server_client.set(f"{p}:counted:{{Gone000009}}", "1")  # its archive expired
    assert await migrate_keys(server_client, p) == 5
    assert await store.owing_games() == ("Old0000001",)
    assert await DeadlineIndex(server_client, prefix=p).pending() == [
        ("Old0000001:4:timeout", 50.0)
    ]
    assert await server_client.zrange(k.history(CHAT), 0, -1) == [b"Old0000001"]
    assert await server_client.hget(k.stats(CHAT, ALL_TIME), "1:games") == b"3"
    assert 0 < await server_client.ttl(k.stats(CHAT, ALL_TIME)) <= 1000
    left = {key async for key in server_client.scan_iter(match=f"{p}:*")}
    assert left == {
        k.game("Old0000001").encode(),
        k.chat(CHAT, None).encode(),
        k.user_games(1).encode(),
        k.outbox(shard_of("Old0000001")).encode(),
        k.deadlines(shard_of("Old0000001")).encode(),
        k.history(CHAT).encode(),
        k.stats(CHAT, ALL_TIME).encode(),
    }
    assert await migrate_keys(server_client, p) == 0  # a second run finds nothing to do
