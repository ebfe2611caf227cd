"""Archived games and statistics in Redis: the `tgbot.archives.Archives` port (keys in tgbot.keys).

`keep` stores the archive (under the game's hash tag), then runs one script on the group's slot:
it marks the game counted (or stops, if it was), adds it to the group's history (trimmed to its
latest games) and the figures to the group's season and all-time hashes; then the group goes
to each player's recent groups (one key each). Everything expires 180 days after it was last
written. Archives trimmed off a history are deleted after the script, one key at a time. A crash
after the archive and before the script leaves an archive no history lists (it expires). A
second `keep` of a game (the delivery that called the first died before striking it off, so it
runs again) counts nothing but adds the group to the players' lists again (the same entry), so
one that died between the script and those lists leaves nothing missing once it is retried; one
that died before deleting trimmed archives leaves them listed nowhere (they expire).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from .archives import (
    ALL_TIME,
    COUNT_NAMES,
    COUNTED_SECONDS,
    GAMES_PER_GROUP,
    GROUPS_PER_PLAYER,
    KEEP_SECONDS,
    ArchivedGame,
    ArchivedGameError,
    Figures,
    GroupFigures,
    PlayerFigures,
    game_from_json,
    game_to_json,
    kept_seasons,
    rehomed,
    season_of,
)
from .game_ids import GameId
from .keys import DEFAULT_PREFIX, Keys
from .redis_client import RedisClient

# KEYS: counted mark, history, season stats, all-time stats (one slot: the group's tag).
# ARGV: game id, keep seconds, ended at, games kept, title, counted seconds, then n and n
#       (field, increment) pairs, then m and m (field, name) pairs.
_KEEP = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[6]) then return {0} end
local ttl = ARGV[2]
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local dropped = redis.call('ZRANGE', KEYS[2], 0, -(tonumber(ARGV[4]) + 1))
if #dropped > 0 then redis.call('ZREM', KEYS[2], unpack(dropped)) end
redis.call('EXPIRE', KEYS[2], ttl)
local i = 7
local n = tonumber(ARGV[i])
if n > 0 then
  for k = 1, n do
    redis.call('HINCRBY', KEYS[3], ARGV[i + 2 * k - 1], ARGV[i + 2 * k])
    redis.call('HINCRBY', KEYS[4], ARGV[i + 2 * k - 1], ARGV[i + 2 * k])
  end
  i = i + 2 * n + 1
  local m = tonumber(ARGV[i])
  for k = 1, m do
    redis.call('HSET', KEYS[3], ARGV[i + 2 * k - 1], ARGV[i + 2 * k])
    redis.call('HSET', KEYS[4], ARGV[i + 2 * k - 1], ARGV[i + 2 * k])
  end
  redis.call('HSET', KEYS[4], 'title', ARGV[5])
  redis.call('EXPIRE', KEYS[3], ttl)
  redis.call('EXPIRE', KEYS[4], ttl)
end
local out = {1}
for _, gid in ipairs(dropped) do out[#out + 1] = gid end
return out
"""

# KEYS: a player's recent groups. ARGV: ended at, chat id, groups kept, keep seconds.
_GROUP = """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""


# A group's move to its supergroup, in the new chat's slot. KEYS: the move's mark, the new
# history, then the new statistics hashes. ARGV: keep seconds, games kept, n and n (game, end
# time) pairs, then for each statistics hash m and m (field, "+" to add or "=" to set if
# unset, value) triples. Nothing happens (0) if the mark was set before.
_MERGE = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return {0} end
local ttl = ARGV[1]
local i = 3
local n = tonumber(ARGV[i])
for k = 1, n do
  redis.call('ZADD', KEYS[2], ARGV[i + 2 * k], ARGV[i + 2 * k - 1])
end
i = i + 2 * n + 1
local out = {1}
if n > 0 then
  local dropped = redis.call('ZRANGE', KEYS[2], 0, -(tonumber(ARGV[2]) + 1))
  if #dropped > 0 then redis.call('ZREM', KEYS[2], unpack(dropped)) end
  for _, gid in ipairs(dropped) do out[#out + 1] = gid end
  redis.call('EXPIRE', KEYS[2], ttl)
end
for key = 3, #KEYS do
  local m = tonumber(ARGV[i])
  for k = 1, m do
    local field, how, value = ARGV[i + 3 * k - 2], ARGV[i + 3 * k - 1], ARGV[i + 3 * k]
    if how == '+' then
      redis.call('HINCRBY', KEYS[key], field, value)
    else
      redis.call('HSETNX', KEYS[key], field, value)
    end
  end
  if m > 0 then redis.call('EXPIRE', KEYS[key], ttl) end
  i = i + 3 * m + 1
end
return out
"""

# KEYS: a player's recent groups. ARGV: the old chat, the new chat. The new one takes the old
# one's place (with the later of their times).
_REGROUP = """
local old = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not old then return 0 end
local new = redis.call('ZSCORE', KEYS[1], ARGV[2])
if (not new) or tonumber(new) < tonumber(old) then
  redis.call('ZADD', KEYS[1], old, ARGV[2])
end
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
"""


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisArchives:
    """Archives, histories and statistics under one key prefix."""

    def __init__(
        self,
        redis: RedisClient,
        *,
        prefix: str = DEFAULT_PREFIX,
        games_per_group: int = GAMES_PER_GROUP,
        groups_per_player: int = GROUPS_PER_PLAYER,
    ) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self.games_per_group = games_per_group
        self.groups_per_player = groups_per_player
        self._keep = redis.register_script(_KEEP)
        self._group = redis.register_script(_GROUP)
        self._merge = redis.register_script(_MERGE)
        self._regroup = redis.register_script(_REGROUP)

    async def keep(self, game: ArchivedGame, counted: Mapping[int, Figures] | None) -> bool:
        """Store a game at its end, and count its figures, once."""
        k = self.keys
        chat = game.chat_id
        players = list(counted or {})
        await self.redis.set(k.archive(game.game_id), game_to_json(game), ex=KEEP_SECONDS)
        keys = [
            k.counted(chat, game.game_id),
            k.history(chat),
            k.stats(chat, season_of(game.ended_at)),
            k.stats(chat, ALL_TIME),
        ]
        increments: list[str | int] = []
        for user, figures in (counted or {}).items():
            for name, value in figures.counts().items():
                increments += [f"{user}:{name}", value]
        names: list[str | int] = []
        for user in players:
            names += [f"{user}:name", game.name_of(user)]
        args: list[str | int] = [
            game.game_id,
            KEEP_SECONDS,
            game.ended_at,
            self.games_per_group,
            game.title,
            COUNTED_SECONDS,
            len(increments) // 2,
            *increments,
            len(names) // 2,
            *names,
        ]
        result = await self._keep(keys=keys, args=args)
        first = bool(result) and int(result[0]) == 1
        if counted:  # again when it was counted before: the first keep may have died here
            for user in players:
                group_args = [game.ended_at, chat, self.groups_per_player, KEEP_SECONDS]
                await self._group(keys=[k.user_groups(user)], args=group_args)
        if not first:
            return False
        for dropped in (_text(g) for g in result[1:]):
            if dropped != game.game_id:
                await self.redis.delete(k.archive(dropped))
        return True

    async def recent(self, chat_id: int, limit: int = 10) -> tuple[ArchivedGame, ...]:
        """A group's latest archived games, newest first."""
        ids = await self.redis.zrevrange(self.keys.history(chat_id), 0, max(0, limit - 1))
        if not ids:
            return ()
        docs = [await self.redis.get(self.keys.archive(_text(g))) for g in ids]
        out = []
        for doc in docs:
            if doc is None:
                continue
            try:
                out.append(game_from_json(doc))
            except ArchivedGameError:
                continue
        return tuple(out)

    async def game(self, game_id: GameId) -> ArchivedGame | None:
        """One archived game, if kept and readable."""
        doc = await self.redis.get(self.keys.archive(game_id))
        if doc is None:
            return None
        try:
            return game_from_json(doc)
        except ArchivedGameError:
            return None

    async def group_stats(self, chat_id: int, season: str) -> tuple[PlayerFigures, ...]:
        """Every player's figures in a group for a season (or ALL_TIME), by user id."""
        raw = await self.redis.hgetall(self.keys.stats(chat_id, season))
        counts: dict[int, dict[str, int]] = {}
        names: dict[int, str] = {}
        for key, value in raw.items():
            user, _, name = _text(key).partition(":")
            if not user.lstrip("-").isdigit() or not name:
                continue
            if name == "name":
                names[int(user)] = _text(value)
            else:
                counts.setdefault(int(user), {})[name] = int(_text(value))
        return tuple(
            PlayerFigures(u, names.get(u, str(u)), Figures.from_counts(c))
            for u, c in sorted(counts.items())
        )

    async def player_stats(self, user_id: int) -> tuple[GroupFigures, ...]:
        """A player's all-time figures in each group they played in lately, latest first."""
        chats = await self.redis.zrevrange(self.keys.user_groups(user_id), 0, -1)
        out = []
        fields = ["title", f"{user_id}:name", *(f"{user_id}:{n}" for n in COUNT_NAMES)]
        for raw_chat in chats:
            chat = int(_text(raw_chat))
            values = await self.redis.hmget(self.keys.stats(chat, ALL_TIME), fields)
            title, name, *numbers = values
            counts = {
                n: int(_text(v)) for n, v in zip(COUNT_NAMES, numbers, strict=True) if v is not None
            }
            if not counts:
                continue
            out.append(
                GroupFigures(
                    chat,
                    "" if title is None else _text(title),
                    str(user_id) if name is None else _text(name),
                    Figures.from_counts(counts),
                )
            )
        return tuple(out)

    async def move_group(self, old_chat: int, new_chat: int, now: int) -> None:
        """A group became a supergroup: its history, statistics and place in its players'
        lists follow it, step by step in an order that a repeat completes (see below)."""
        k = self.keys
        scored = await self.redis.zrange(k.history(old_chat), 0, -1, withscores=True)
        history = cast(list[tuple[bytes, float]], scored)  # (game id, end time) pairs
        # 1. Its archived games name the new chat (each rewritten in place: a repeat finds it
        # done), so their replay buttons work there.
        for raw_gid, _ in history:
            key = k.archive(_text(raw_gid))
            doc = await self.redis.get(key)
            moved = None if doc is None else rehomed(doc, new_chat)
            if moved is not None:
                await self.redis.set(key, moved, keepttl=True, xx=True)
        # 2. The history and statistics added to the new chat's in one script of its slot,
        # once: a mark in that slot says it was done.
        seasons = (*kept_seasons(now), ALL_TIME)
        tables = [await self.redis.hgetall(k.stats(old_chat, season)) for season in seasons]
        args: list[str | int | float] = [KEEP_SECONDS, self.games_per_group, len(history)]
        for raw_gid, score in history:
            args += [_text(raw_gid), int(score)]
        users: set[int] = set()
        for table in tables:
            triples: list[str] = []
            for raw_field, raw_value in table.items():
                field, value = _text(raw_field), _text(raw_value)
                who, _, name = field.partition(":")
                counted = name not in ("", "name") and value.lstrip("-").isdigit()
                triples += [field, "+" if counted else "=", value]
                if name == "name" and who.lstrip("-").isdigit():
                    users.add(int(who))
            args += [len(triples) // 3, *triples]
        keys = [k.moved(new_chat, old_chat), k.history(new_chat)]
        keys += [k.stats(new_chat, season) for season in seasons]
        result = await self._merge(keys=keys, args=args)
        if result and int(result[0]) == 1:
            for dropped in (_text(g) for g in result[1:]):
                await self.redis.delete(k.archive(dropped))
        # 3. Each player's list names the new chat instead of the old one.
        for user in sorted(users):
            await self._regroup(keys=[k.user_groups(user)], args=[old_chat, new_chat])
        # 4. The old chat's keys go last: a repeat after a crash before here reads them again
        # (and adds nothing, the mark being set).
        await self.redis.delete(k.history(old_chat))
        for season in seasons:
            await self.redis.delete(k.stats(old_chat, season))
