"""The store in Redis: one key per game, compare-and-set saves, and the indexes handlers need.

Key names are in `tgbot.keys`. `rev` is the record's revision: 1 after `create`, bumped by
every successful `save` (a Lua compare-and-set), unrelated to the engine state's `version`.
Scripts that touch a game and its indexes at once (`create`, `finish`, `delete`) need one Redis
server (the deployment's); on a Redis Cluster only the per-game operations would stay on one
slot.
"""

from __future__ import annotations

from dataclasses import replace

from redis.asyncio import Redis

from .callback import GameId
from .i18n import Language
from .keys import DEFAULT_PREFIX, Keys
from .records import CorruptRecordError, GameRecord, StoreError, record_from_json, record_to_json
from .store import ChatBusyError, GameExistsError, Updating

_RETRIES = 8

# KEYS: game, chat index, game key of the chat's current holder (or the new game's), user sets.
# ARGV: game id, rev, doc, the holder seen before the call ("" for none).
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return {0, ''} end
local holder = redis.call('GET', KEYS[2]) or ''
if holder ~= ARGV[4] then return {-1, holder} end
if holder ~= '' and redis.call('EXISTS', KEYS[3]) == 1 then return {2, holder} end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'doc', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1])
for i = 4, #KEYS do redis.call('SADD', KEYS[i], ARGV[1]) end
return {1, ''}
"""

# KEYS: game, outbox index. ARGV: expected rev, new rev, doc, game id, "1" if it owes messages.
_SAVE = """
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'doc', ARGV[3])
if ARGV[5] == '1' then redis.call('SADD', KEYS[2], ARGV[4])
else redis.call('SREM', KEYS[2], ARGV[4]) end
return 1
"""

# KEYS: game, chat index, user sets. ARGV: game id, expected rev, ttl seconds (0: delete now).
_RETIRE = """
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return 0 end
if rev ~= ARGV[2] then return -1 end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
for i = 3, #KEYS do redis.call('SREM', KEYS[i], ARGV[1]) end
if ARGV[3] == '0' then redis.call('DEL', KEYS[1]) else redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return 1
"""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisStore(Updating):
    """Games, their indexes and user settings in Redis (works with or without decode_responses)."""

    def __init__(self, redis: Redis, *, prefix: str = DEFAULT_PREFIX) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self._create = redis.register_script(_CREATE)
        self._save = redis.register_script(_SAVE)
        self._retire = redis.register_script(_RETIRE)

    @property
    def prefix(self) -> str:
        """The prefix of every key of this store."""
        return self.keys.prefix

    async def owing_games(self) -> tuple[GameId, ...]:
        """The ids of games with announcements not delivered yet."""
        members = await self.redis.smembers(self.keys.outbox())
        return tuple(sorted(_text(m) for m in members))

    # games

    async def create(self, record: GameRecord) -> GameRecord:
        """Store a new active game, claim its chat, list it under its players; returns it at rev 1.

        Raises GameExistsError if the id is taken, ChatBusyError if the chat or topic already
        has an active game (checked and claimed in one script, so two creators cannot both win).
        """
        if not record.status.is_active:
            raise ValueError(f"a new game must be active, not {record.status.value}")
        stored = replace(record, rev=1)
        doc = record_to_json(stored)
        chat = self.keys.chat(record.chat_id, record.thread_id)
        users = [self.keys.user_games(u) for u in record.player_ids]
        for _ in range(_RETRIES):
            raw = await self.redis.get(chat)
            holder = "" if raw is None else _text(raw)
            holder_key = self.keys.game(holder) if holder else self.keys.game(record.game_id)
            keys = [self.keys.game(record.game_id), chat, holder_key, *users]
            code, seen = await self._create(keys=keys, args=[record.game_id, 1, doc, holder])
            if code == 1:
                return stored
            if code == 0:
                raise GameExistsError(f"game {record.game_id} exists")
            if code == 2:
                raise ChatBusyError(_text(seen))
        raise StoreError(f"chat index of game {record.game_id} kept changing")

    async def load(self, game_id: GameId) -> GameRecord | None:
        """The stored game, or None if there is none (or it expired)."""
        raw = await self.redis.hgetall(self.keys.game(game_id))
        if not raw:
            return None
        values = {_text(k): v for k, v in raw.items()}
        try:
            rev = int(_text(values["rev"]))
            doc = values["doc"]
        except (KeyError, ValueError) as exc:
            raise CorruptRecordError(f"game {game_id}: no rev or doc") from exc
        record = record_from_json(doc, rev)
        if record.game_id != game_id:
            raise CorruptRecordError(f"key of game {game_id} holds game {record.game_id}")
        return record

    async def save(self, record: GameRecord, expected_rev: int) -> bool:
        """Write the record if the stored rev is still `expected_rev` (then it becomes +1).

        Returns False and writes nothing when someone saved in between or the game is gone;
        the caller reloads and decides again. The record's own `rev` field is not used.
        """
        doc = record_to_json(replace(record, rev=expected_rev + 1))
        keys = [self.keys.game(record.game_id), self.keys.outbox()]
        owes = "0" if record.owed.is_empty else "1"
        args: list[str | int] = [expected_rev, expected_rev + 1, doc, record.game_id, owes]
        done = await self._save(keys=keys, args=args)
        return bool(done == 1)

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
            keys = [
                self.keys.game(game_id),
                self.keys.chat(record.chat_id, record.thread_id),
                *(self.keys.user_games(u) for u in record.player_ids),
            ]
            done = await self._retire(keys=keys, args=[game_id, record.rev, ttl_seconds])
            if done == 1:
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
        return await self._language(self.keys.user(user_id))

    async def set_user_language(self, user_id: int, language: Language) -> None:
        """Remember a user's language."""
        await self.redis.hset(self.keys.user(user_id), "lang", language.code)

    async def group_language(self, chat_id: int) -> Language | None:
        """The language a group chose with /lang, if any."""
        return await self._language(self.keys.group(chat_id))

    async def set_group_language(self, chat_id: int, language: Language) -> None:
        """Remember a group's language."""
        await self.redis.hset(self.keys.group(chat_id), "lang", language.code)

    async def _language(self, key: str) -> Language | None:
        raw = await self.redis.hget(key, "lang")
        if raw is None:
            return None
        try:
            return Language(_text(raw))
        except ValueError:
            return None
