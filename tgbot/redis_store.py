"""The store in Redis: one key per game, compare-and-set saves, and the indexes handlers need.

Key names are in `tgbot.keys`. `rev` is the record's revision: 1 after `create`, bumped by
every successful `save` (a Lua compare-and-set), unrelated to the engine state's `version`.
Every script touches one key (one Cluster slot); what spans keys is done in an order whose every
prefix is harmless, so a crash between two steps loses nothing:

- `create` writes the record (if the id is free) to expire in `CLAIMING_SECONDS`, lists it under
  its players, claims the chat with a compare-and-set on the chat's key, then makes the record
  last. A chat names only a game whose record was written first, so a holder found missing or no
  longer active is over for good, and the chat free: two creators cannot both win, however their
  steps interleave. A crash before the claim leaves a record nothing names, which expires; one
  after it a chat naming a record that expires, which the next creator then takes over.
- `create` of a record that owes messages (a rematch lobby's invitations, the creator's "you
  joined") marks it in its outbox shard first, as `save` does, so that a crash before its first
  delivery leaves the debt for the sweeper; `owing_games` passes over a record still claiming
  its chat (its create may yet fail and delete it: nothing is sent for it until it holds the
  chat) and drops the mark of one that expired unclaimed.
- `save` marks the game in its outbox shard (scored by the new rev) before a save that owes
  announcements, and writes `owes` beside the record; `owing_games` drops a mark once the game's
  record at that rev or later owes nothing, so a mark is never dropped for a newer debt.
- `finish` and `delete` retire the record, then free the chat (if it still points at the game)
  and the players' sets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from . import ahead
from .ahead import Reads
from .game_ids import GameId
from .i18n import Language
from .keys import DEFAULT_PREFIX, SHARDS, Keys, shard_of
from .records import CorruptRecordError, GameRecord, StoreError, record_from_json, record_to_json
from .redis_client import RedisClient
from .store import ChatBusyError, GameExistsError, Updating
from .trips import Trip

_RETRIES = 8
# How long a new record lasts unless its create claims the chat: longer than any stall of a
# process between the two steps, short enough that a crash between them blocks a chat briefly.
CLAIMING_SECONDS = 60

# KEYS: game. ARGV: rev, doc, seconds, "1" if it owes messages. Writes a new record only if the
# id is free, marked `claiming` and expiring until its create has claimed the chat.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[1], 'doc', ARGV[2], 'owes', ARGV[4], 'claiming', '1')
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# KEYS: game. The create claimed the chat: the record lasts (unless it was retired meanwhile,
# whose expiry stays). 0 if it expired before.
_CLAIMED = """
if redis.call('HDEL', KEYS[1], 'claiming') == 1 then
  redis.call('PERSIST', KEYS[1])
  return 1
end
return redis.call('EXISTS', KEYS[1])
"""

# KEYS: a chat's index. ARGV: the holder seen before ("" for none), the new holder ("": free it).
_CLAIM = """
local holder = redis.call('GET', KEYS[1]) or ''
if holder ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
"""

# KEYS: game. ARGV: expected rev, new rev, doc, "1" if it owes messages.
_SAVE = """
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'doc', ARGV[3], 'owes', ARGV[4])
return 1
"""

# KEYS: game. ARGV: the rev this process knows (-1: none). The record's rev, and its doc when
# the rev is another; 0 when there is no record.
_PEEK = """
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return 0 end
if rev == ARGV[1] then return {rev} end
return {rev, redis.call('HGET', KEYS[1], 'doc')}
"""

# KEYS: game. ARGV: expected rev, ttl seconds (0: delete now).
_RETIRE = """
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return 0 end
if rev ~= ARGV[1] then return -1 end
if ARGV[2] == '0' then redis.call('DEL', KEYS[1]) return 1 end
redis.call('HDEL', KEYS[1], 'claiming')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: an outbox shard. ARGV: game id, the rev at which its record owes nothing (0: it is gone).
_SETTLE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and (ARGV[2] == '0' or tonumber(score) <= tonumber(ARGV[2])) then
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 1
"""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisStore(Updating):
    """Games, their indexes and user settings in Redis (works with or without decode_responses)."""

    def __init__(self, redis: RedisClient, *, prefix: str = DEFAULT_PREFIX) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self._create = redis.register_script(_CREATE)
        self._claimed = redis.register_script(_CLAIMED)
        self._claim = redis.register_script(_CLAIM)
        self._save = redis.register_script(_SAVE)
        self._retire = redis.register_script(_RETIRE)
        self._settle = redis.register_script(_SETTLE)
        self._peek = redis.register_script(_PEEK)

    @property
    def prefix(self) -> str:
        """The prefix of every key of this store."""
        return self.keys.prefix

    async def owing_games(self) -> tuple[GameId, ...]:
        """The ids of games with announcements not delivered yet (dropping settled marks).

        One round trip reads every shard's marks, one more every marked game's rev and debt,
        and one more drops the settled marks (each mark's drop checks its score again).
        """
        shards = Trip(self.redis)
        for shard in range(SHARDS):
            shards.add("zrange", self.keys.outbox(shard), 0, -1, withscores=True)
        marked: list[tuple[str, str, float]] = []  # (shard's key, game id, score)
        for shard, marks in enumerate(await shards.run()):
            listed = cast("list[tuple[bytes | str, float]]", marks)
            marked.extend((self.keys.outbox(shard), _text(raw), score) for raw, score in listed)
        if not marked:
            return ()
        games = Trip(self.redis)
        for _, gid, _ in marked:
            games.add("hmget", self.keys.game(gid), ["rev", "owes", "claiming"])
        owing: list[GameId] = []
        settles = Trip(self.redis)
        for (key, gid, score), (rev, owes, claiming) in zip(marked, await games.run(), strict=True):
            if rev is None:
                settles.script(self._settle, [key], [gid, 0])
            elif claiming is not None:
                continue  # being created: its mark waits for the claim (or its expiry)
            elif owes is not None and _text(owes) == "0" and int(_text(rev)) >= score:
                settles.script(self._settle, [key], [gid, int(_text(rev))])
            else:
                owing.append(gid)
        await settles.run()
        return tuple(sorted(owing))

    # games

    async def create(self, record: GameRecord) -> GameRecord:
        """Store a new active game, claim its chat, list it under its players; returns it at rev 1.

        Raises GameExistsError if the id is taken, ChatBusyError if the chat or topic already
        has an active game (the chat is claimed by compare-and-set, so two creators cannot both
        win). The record is written before the chat is claimed (they are in different slots),
        so a chat never names a game still being created: a holder whose record is missing is
        over. Until the claim the record expires, so a crash in between leaves nothing lasting.
        """
        if not record.status.is_active:
            raise ValueError(f"a new game must be active, not {record.status.value}")
        stored = replace(record, rev=1)
        gid = record.game_id
        game = self.keys.game(gid)
        if not await self._write_new(stored):
            raise GameExistsError(f"game {gid} exists")
        users = [self.keys.user_games(u) for u in record.player_ids]
        for key in users:
            await self.redis.sadd(key, gid)
        chat = self.keys.chat(record.chat_id, record.thread_id)
        try:
            await self._claim_chat(chat, gid)
        except StoreError:
            await self.redis.delete(game)  # nothing named it
            await self._unlist(users, gid)
            raise
        if not await self._claimed(keys=[game]):  # this process stalled past its expiry
            await self._claim(keys=[chat], args=[gid, ""])
            await self._unlist(users, gid)
            raise StoreError(f"game {gid} expired before its chat was claimed")
        return stored

    async def _write_new(self, record: GameRecord) -> bool:
        """Write a new record to expire unless claimed, if its id is free (False if taken); one
        that owes messages marked in its outbox shard first (a round trip more: a game is
        created once)."""
        gid = record.game_id
        owes = "0" if record.owed.is_empty else "1"
        if owes == "1":  # marked first, as `save` does
            await self.redis.zadd(self.keys.outbox(shard_of(gid)), {gid: record.rev})
        args: list[str | int] = [record.rev, record_to_json(record), CLAIMING_SECONDS, owes]
        return bool(await self._create(keys=[self.keys.game(gid)], args=args) == 1)

    async def _claim_chat(self, chat: str, gid: GameId) -> None:
        for _ in range(_RETRIES):
            raw = await self.redis.get(chat)
            holder = "" if raw is None else _text(raw)
            if holder and holder != gid and await self._is_active(holder):
                raise ChatBusyError(holder)
            if await self._claim(keys=[chat], args=[holder, gid]):
                return
        raise StoreError(f"chat index of game {gid} kept changing")

    async def _unlist(self, users: list[str], gid: GameId) -> None:
        for key in users:
            await self.redis.srem(key, gid)

    async def _is_active(self, game_id: GameId) -> bool:
        try:
            held = await self.load(game_id)
        except CorruptRecordError:
            return True  # never take a chat over from a record nobody can read
        return held is not None and held.status.is_active

    async def load(self, game_id: GameId) -> GameRecord | None:
        """The stored game, or None if there is none (or it expired)."""
        early = self._ahead(game_id)
        if early is not ahead.MISSING:
            return early
        raw = await self.redis.hgetall(self.keys.game(game_id))
        if not raw:
            return None
        values = {_text(k): v for k, v in raw.items()}
        try:
            rev = int(_text(values["rev"]))
            doc = values["doc"]
        except (KeyError, ValueError) as exc:
            raise CorruptRecordError(f"game {game_id}: no rev or doc") from exc
        return self._read(game_id, doc, rev)

    def _read(self, game_id: GameId, doc: str | bytes, rev: int) -> GameRecord:
        record = record_from_json(doc, rev)
        if record.game_id != game_id:
            raise CorruptRecordError(f"key of game {game_id} holds game {record.game_id}")
        return record

    def reads(self, *, user_id: int | None = None, game_id: GameId | None = None) -> Reads:
        """Reads to make ahead in another trip: a user's language, a game's record (its doc only
        if this process does not know its rev). `load`, `update` and `user_language` take them."""

        def add(trip: Trip) -> Callable[[list[Any]], None]:
            lang = None if user_id is None else trip.add("hget", self.keys.user(user_id), "lang")
            known = None if game_id is None else self.known(game_id)
            peek = None
            if game_id is not None:
                rev = -1 if known is None else known.rev
                peek = trip.script(self._peek, [self.keys.game(game_id)], [rev])

            def got(answers: list[Any]) -> None:
                found = ahead.current()
                if user_id is not None and lang is not None:
                    found.languages[user_id] = _language_of(answers[lang])
                if game_id is not None and peek is not None:
                    found.records[game_id] = self._peeked(game_id, known, answers[peek])

            return got

        return add

    def _peeked(self, game_id: GameId, known: GameRecord | None, answer: Any) -> GameRecord | None:
        if not answer:
            return None
        rev = int(_text(answer[0]))
        if known is not None and len(answer) == 1 and known.rev == rev:
            return known
        if len(answer) < 2 or answer[1] is None:
            raise CorruptRecordError(f"game {game_id}: no doc")
        return self._read(game_id, answer[1], rev)

    async def save(self, record: GameRecord, expected_rev: int) -> bool:
        """Write the record if the stored rev is still `expected_rev` (then it becomes +1).

        Returns False and writes nothing when someone saved in between or the game is gone;
        the caller reloads and decides again. The record's own `rev` field is not used.
        """
        ahead.forget(record.game_id)
        doc = record_to_json(replace(record, rev=expected_rev + 1))
        owes = "0" if record.owed.is_empty else "1"
        trip = Trip(self.redis)
        if owes == "1":  # marked first: after a crash between the two, the debt is still found
            outbox = self.keys.outbox(shard_of(record.game_id))
            trip.add("zadd", outbox, {record.game_id: expected_rev + 1})
        args: list[str | int] = [expected_rev, expected_rev + 1, doc, owes]
        saved = trip.script(self._save, [self.keys.game(record.game_id)], args)
        answers = await trip.run()  # one round trip on one server: the mark, then the save
        return bool(answers[saved] == 1)

    async def finish(self, game_id: GameId, ttl_seconds: int) -> bool:
        """Free the game's chat and players, and let the record expire after `ttl_seconds`.

        Used once a game is over or cancelled (save its final status first). Returns False if
        the game does not exist.
        """
        if ttl_seconds < 1:
            raise ValueError("ttl_seconds must be at least 1")
        return await self._retire_game(game_id, ttl_seconds)

    async def delete(self, game_id: GameId) -> bool:
        """Remove a game now, with its index entries; False if it did not exist."""
        return await self._retire_game(game_id, 0)

    async def _retire_game(self, game_id: GameId, ttl_seconds: int) -> bool:
        for _ in range(_RETRIES):
            record = await self.load(game_id)
            if record is None:
                return False
            game = self.keys.game(game_id)
            done = await self._retire(keys=[game], args=[record.rev, ttl_seconds])
            if done == 1:
                chat = self.keys.chat(record.chat_id, record.thread_id)
                await self._claim(keys=[chat], args=[game_id, ""])
                for user in record.player_ids:
                    await self.redis.srem(self.keys.user_games(user), game_id)
                return True
            if done == 0:
                return False
        raise StoreError(f"game {game_id} kept changing while being retired")

    # indexes

    async def active_game(self, chat_id: int, thread_id: int | None) -> GameId | None:
        """The id of the chat's (or topic's) active game, if any."""
        raw = await self.redis.get(self.keys.chat(chat_id, thread_id))
        return None if raw is None else _text(raw)

    async def chat_games(self, chat_id: int) -> tuple[GameId, ...]:
        """The active games of a chat, in any of its forum topics."""
        pattern = self.keys.chat_topics(chat_id)
        keys = [k async for k in self.redis.scan_iter(match=pattern, count=200)]
        values = [await self.redis.get(k) for k in keys]
        return tuple(sorted(_text(v) for v in values if v is not None))

    async def move_chat(self, game_id: GameId, old: int, new: int, thread_id: int | None) -> None:
        """A group became a supergroup: its active game now lives under the new chat id."""
        await self.redis.set(self.keys.chat(new, thread_id), game_id)
        old_key = self.keys.chat(old, thread_id)
        if await self.redis.get(old_key) in (game_id, game_id.encode()):
            await self.redis.delete(old_key)

    async def user_games(self, user_id: int) -> tuple[GameId, ...]:
        """The ids of a user's active games, sorted."""
        members = await self.redis.smembers(self.keys.user_games(user_id))
        return tuple(sorted(_text(m) for m in members))

    async def add_user_game(self, user_id: int, game_id: GameId) -> None:
        """Record that a user plays in a game (on join)."""
        await self.redis.sadd(self.keys.user_games(user_id), game_id)

    async def remove_user_game(self, user_id: int, game_id: GameId) -> None:
        """Forget that a user plays in a game (on leave)."""
        await self.redis.srem(self.keys.user_games(user_id), game_id)

    # settings

    async def user_language(self, user_id: int) -> Language | None:
        """The language a user chose for private chats, if any."""
        early = ahead.take_language(user_id)
        if early is not ahead.MISSING:
            return early
        return await self._language(self.keys.user(user_id))

    async def set_user_language(self, user_id: int, language: Language) -> None:
        """Remember a user's language."""
        ahead.take_language(user_id)
        await self.redis.hset(self.keys.user(user_id), "lang", language.code)

    async def reachable(self, user_id: int) -> bool:
        """Whether the user started the bot in private (the field `started` of their settings)."""
        return bool(await self.redis.hexists(self.keys.user(user_id), "started"))

    async def set_reachable(self, user_id: int) -> None:
        """Remember that the user started the bot in private."""
        await self.redis.hset(self.keys.user(user_id), "started", "1")

    async def group_language(self, chat_id: int) -> Language | None:
        """The language a group chose with /lang, if any."""
        return await self._language(self.keys.group(chat_id))

    async def set_group_language(self, chat_id: int, language: Language) -> None:
        """Remember a group's language."""
        await self.redis.hset(self.keys.group(chat_id), "lang", language.code)

    async def _language(self, key: str) -> Language | None:
        return _language_of(await self.redis.hget(key, "lang"))


def _language_of(raw: str | bytes | None) -> Language | None:
    if raw is None:
        return None
    try:
        return Language(_text(raw))
    except ValueError:
        return None
