"""A tap's reads in one round trip: `load_with_language`, and `update` deciding on the record
it gave (`Loaded`) without loading again; both stores, and the Redis one's round trips."""

from __future__ import annotations

from dataclasses import replace

from redis.asyncio import Redis

from tgbot.i18n import Language
from tgbot.records import GameRecord
from tgbot.redis_store import RedisStore
from tgbot.store import Decision, Loaded, Store

from .test_store import T0, _record, _touch


async def test_load_with_language_reads_the_game_and_the_users_choice(store: Store) -> None:
    created = await store.create(_record())
    loaded, chosen = await store.load_with_language(created.game_id, 5)
    assert (loaded, chosen) == (Loaded(created), None)
    await store.set_user_language(5, Language("en"))
    loaded, chosen = await store.load_with_language("Nothing000", 5)
    assert (loaded, chosen) == (Loaded(None), Language("en"))


async def test_update_decides_on_the_loaded_record_and_saves_it(store: Store) -> None:
    created = await store.create(_record())
    loaded, _ = await store.load_with_language(created.game_id, 5)
    done = await store.update(created.game_id, _touch(T0 + 5), loaded=loaded)
    assert (done.result, done.saved) == (1, True)
    assert await store.load(created.game_id) == done.record
    assert done.record is not None and (done.record.rev, done.record.updated_at) == (2, T0 + 5)


async def test_a_loaded_record_that_went_stale_is_decided_again_on_a_fresh_load(
    store: Store,
) -> None:
    created = await store.create(_record())
    loaded, _ = await store.load_with_language(created.game_id, 5)
    # another writer saves after the read: the compare-and-set on the loaded record loses
    assert await store.save(replace(created, title="other"), 1)
    seen: list[int] = []

    def decide(record: GameRecord | None) -> Decision[None]:
        assert record is not None
        seen.append(record.rev)
        return Decision(None, replace(record, updated_at=T0 + 9))

    done = await store.update(created.game_id, decide, loaded=loaded)
    assert done.saved and seen == [1, 2]
    stored = await store.load(created.game_id)
    assert stored is not None and (stored.title, stored.updated_at, stored.rev) == (
        "other",
        T0 + 9,
        3,
    )


async def test_a_loaded_decision_that_writes_nothing_reads_nothing_more(store: Store) -> None:
    created = await store.create(_record())
    loaded, _ = await store.load_with_language(created.game_id, 5)
    seen = await store.update(created.game_id, lambda r: Decision(r and r.rev, None), loaded=loaded)
    assert (seen.result, seen.saved, seen.record) == (1, False, created)
    missing = await store.update("Nothing000", _touch(T0), loaded=Loaded(None))
    assert (missing.result, missing.saved, missing.record) == (None, False, None)


class _Counting(RedisStore):
    """A Redis store that counts its separate reads (each is a round trip of its own)."""

    reads = 0

    async def load(self, game_id: str) -> GameRecord | None:
        self.reads += 1
        return await super().load(game_id)

    async def user_language(self, user_id: int) -> Language | None:
        self.reads += 1
        return await super().user_language(user_id)


async def _calls(redis: Redis, *commands: str) -> list[int]:
    stats = await redis.info("commandstats")
    return [int(stats.get(f"cmdstat_{c}", {}).get("calls", 0)) for c in commands]


async def test_in_redis_a_tap_reads_in_one_pipeline_then_one_compare_and_set(
    redis_client: Redis, key_prefix: str
) -> None:
    store = _Counting(redis_client, prefix=key_prefix)
    created = await store.create(_record())
    await store.set_user_language(5, Language("en"))
    before = await _calls(redis_client, "hgetall", "evalsha")
    loaded, chosen = await store.load_with_language(created.game_id, 5)
    done = await store.update(created.game_id, _touch(T0 + 1), loaded=loaded)
    after = await _calls(redis_client, "hgetall", "evalsha")
    assert chosen == Language("en") and done.saved
    assert done.record is not None and done.record.rev == 2
    assert store.reads == 0  # neither a load nor a language lookup of their own
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1]


async def test_in_redis_a_record_seen_at_the_stored_rev_is_not_fetched_again(
    redis_client: Redis, key_prefix: str
) -> None:
    store = _Counting(redis_client, prefix=key_prefix)
    other = RedisStore(redis_client, prefix=key_prefix)
    created = await store.create(_record())
    saved = (await store.update(created.game_id, _touch(T0 + 1))).record
    store.reads = 0
    before = await _calls(redis_client, "hgetall", "hget")
    loaded, chosen = await store.load_with_language(created.game_id, 5)
    after = await _calls(redis_client, "hgetall", "hget")
    assert (loaded, chosen, store.reads) == (Loaded(saved), None, 0)
    assert [a - b for a, b in zip(after, before, strict=True)] == [0, 2]  # the rev, the language
    # Another process saved since: the rev moved, and the game is loaded afresh.
    await other.update(created.game_id, lambda r: Decision(None, r and replace(r, title="other")))
    loaded, _ = await store.load_with_language(created.game_id, 5)
    assert loaded.record is not None and (loaded.record.title, loaded.record.rev) == ("other", 3)
    assert store.reads == 1
    # Gone meanwhile: None, and nothing kept.
    assert await other.delete(created.game_id)
    assert (await store.load_with_language(created.game_id, 5))[0] == Loaded(None)
