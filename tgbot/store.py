"""Games in Redis: one key per game, compare-and-set saves, and the indexes handlers need.

Keys (`<p>` is the store's prefix, `sab` by default):

| key | type | holds |
|---|---|---|
| `<p>:game:{<gid>}` | HASH | `rev` (decimal) and `doc` (the JSON below) |
| `<p>:chat:<chat id>:<thread id or ->` | STRING | the active game of a chat or forum topic |
| `<p>:user:<user id>:games` | SET | the ids of a user's active games |
| `<p>:user:<user id>` | HASH | a user's settings: `lang` |
| `<p>:group:<chat id>` | HASH | a group's settings: `lang` |
| `<p>:outbox` | SET | games whose record owes announcements (kept by the save script) |
| `<p>:deadlines` | ZSET | turn deadlines (`tgbot.scheduler`) |
| `<p>:budget:<chat id>` | ZSET | recent group sends (`tgbot.budget`) |
| `<p>:update:<update id>` | STRING | a handled update id, for a day (`tgbot.dedupe`) |
| `<p>:lease:{<gid>}` | STRING | which process is delivering a game's announcements |

The braces in the game key are a Redis Cluster hash tag. `rev` is the record's revision: 1
after `create`, bumped by every successful `save` (a Lua compare-and-set), unrelated to the
engine state's `version`. Scripts that touch a game and its indexes at once (`create`, `finish`,
`delete`) need one Redis server (the deployment's); on a Redis Cluster only the per-game
operations would stay on one slot.

`doc`, schema 1 (no pickle; times are whatever integer clock the caller passes, e.g. Unix
seconds):

    {"schema": 1, "game": "Ab3dE9xYz0", "status": "lobby|playing|finished|cancelled",
     "chat": -1001234567890, "title": "Friday dwarves", "thread": 42 | null,
     "lang": "ko|en", "creator": 111, "creator_name": "Ann",
     "created_at": 1700000000, "updated_at": 1700000000,
     "lobby": {"edition": "base|deluxe", "gold": "official|per_miner", "greedy_dwarf": false,
               "turn_limit_hours": 24 | null,
               "players": [{"id": 111, "name": "Ann", "lang": "ko"}, ...]},
     "state": null | {the engine's state JSON, engine.codec schema},
     "messages": {"lobby": 10 | null, "board": 11 | null, "hands": [[111, 55], ...]}}

`thread` is a forum topic's `message_thread_id` (only for topic messages: in other supergroups
replies carry a thread id too, and must not make a second "chat"). `hands` pairs a player with
their live private message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from redis.asyncio import Redis

from engine import Edition, GameState, GoldRule, Options, from_json, to_json

from .callback import GameId, is_game_id
from .i18n import Language
from .outbox import Owed

SCHEMA = 1
DEFAULT_PREFIX = "sab"
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


class StoreError(Exception):
    """The store could not do what was asked."""


class GameExistsError(StoreError):
    """`create` found a game with the same id."""


class ChatBusyError(StoreError):
    """`create` found another active game in the same chat or topic."""

    def __init__(self, active: GameId) -> None:
        super().__init__(f"game {active} is active in this chat")
        self.active = active


class CorruptRecordError(StoreError):
    """A stored record could not be read."""


class Status(Enum):
    """Where a game is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_active(self) -> bool:
        """True while the game holds its chat (lobby or playing)."""
        return self in (Status.LOBBY, Status.PLAYING)


@dataclass(frozen=True, slots=True)
class LobbyPlayer:
    """A player who joined, with the name shown to others and their private-chat language."""

    user_id: int
    name: str
    language: Language


@dataclass(frozen=True, slots=True)
class Lobby:
    """The game's set-up: edition, variants, time per turn, players in join order."""

    edition: Edition = Edition.BASE
    options: Options = Options()
    turn_limit_hours: int | None = 24
    players: tuple[LobbyPlayer, ...] = ()
    revision: int = 0  # bumped by every change of the set-up; the lobby's buttons carry it

    def changed(self, **changes: object) -> Lobby:
        """A copy with these fields changed and the revision bumped."""
        return replace(self, revision=self.revision + 1, **changes)  # type: ignore[arg-type]

    def has_player(self, user_id: int) -> bool:
        """True when this user has joined."""
        return any(p.user_id == user_id for p in self.players)

    def player(self, user_id: int) -> LobbyPlayer | None:
        """The joined player with this user id, if any."""
        return next((p for p in self.players if p.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class MessageIds:
    """Messages the bot edits or deletes later."""

    lobby: int | None = None
    board: int | None = None
    hands: tuple[tuple[int, int], ...] = ()  # (user id, message id in their private chat)

    def hand_of(self, user_id: int) -> int | None:
        """The id of this user's live hand message, if any."""
        return next((m for u, m in self.hands if u == user_id), None)

    def with_hand(self, user_id: int, message_id: int | None) -> MessageIds:
        """A copy with this user's hand message set (or forgotten with None)."""
        hands = tuple((u, m) for u, m in self.hands if u != user_id)
        if message_id is not None:
            hands = (*hands, (user_id, message_id))
        return replace(self, hands=hands)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything the bot keeps about one game, stored as one Redis key."""

    game_id: GameId
    chat_id: int
    thread_id: int | None
    language: Language
    creator_id: int
    created_at: int
    updated_at: int
    status: Status = Status.LOBBY
    lobby: Lobby = field(default_factory=Lobby)
    state: GameState | None = None
    messages: MessageIds = field(default_factory=MessageIds)
    title: str = ""  # the group's title, shown in private messages
    creator_name: str = ""  # shown in the lobby even if the creator does not join
    owed: Owed = field(default_factory=Owed)  # announcements not delivered yet (outbox)
    turn_started_at: int = 0  # when the current turn began (turn clocks)
    misses: tuple[tuple[int, int], ...] = ()  # (user, timeouts in a row)
    automatic: tuple[int, ...] = ()  # players the game plays for until they act again
    kick_votes: tuple[int, ...] = ()  # voters to play for the current player now
    rev: int = 0

    @property
    def player_ids(self) -> tuple[int, ...]:
        """Everyone who plays or joined, in seat or join order, without repeats."""
        ids = [p.user_id for p in self.lobby.players]
        if self.state is not None:
            ids += [p for p in self.state.players if p not in ids]
        return tuple(ids)


# ------------------------------------------------------------------ JSON


def record_to_json(record: GameRecord) -> str:
    """The record's `doc` (everything but `rev`), as compact JSON."""
    lobby = record.lobby
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "game": record.game_id,
        "status": record.status.value,
        "chat": record.chat_id,
        "title": record.title,
        "thread": record.thread_id,
        "lang": record.language.code,
        "creator": record.creator_id,
        "creator_name": record.creator_name,
        "owed": {
            "texts": list(record.owed.texts),
            "board_lines": list(record.owed.board_lines),
            "board_version": record.owed.board_version,
            "fresh": list(record.owed.fresh),
            "edits": list(record.owed.edits),
            "deletions": [[c, m] for c, m in record.owed.deletions],
            "notes": [[u, text] for u, text in record.owed.notes],
        },
        "turn_started_at": record.turn_started_at,
        "misses": [[u, n] for u, n in record.misses],
        "automatic": list(record.automatic),
        "kick_votes": list(record.kick_votes),
        "created_at": record.created_at,
        "updated_at": record.updated_at,
        "lobby": {
            "edition": lobby.edition.value,
            "gold": lobby.options.gold.value,
            "greedy_dwarf": lobby.options.greedy_dwarf,
            "turn_limit_hours": lobby.turn_limit_hours,
            "revision": lobby.revision,
            "players": [
                {"id": p.user_id, "name": p.name, "lang": p.language.code} for p in lobby.players
            ],
        },
        "state": None if record.state is None else json.loads(to_json(record.state)),
        "messages": {
            "lobby": record.messages.lobby,
            "board": record.messages.board,
            "hands": [[u, m] for u, m in record.messages.hands],
        },
    }
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def _int(value: object, what: str) -> int:
    if type(value) is not int:
        raise CorruptRecordError(f"{what}: expected an integer, got {value!r}")
    return value


def _opt_int(value: object, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise CorruptRecordError(f"{what}: expected a string, got {value!r}")
    return value


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise CorruptRecordError(f"{what}: expected true or false, got {value!r}")
    return value


def _obj(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CorruptRecordError(f"{what}: expected an object")
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise CorruptRecordError(f"{what}: expected a list")
    return value


def _hand(pair: object) -> tuple[int, int]:
    items = _list(pair, "messages.hands[]")
    if len(items) != 2:
        raise CorruptRecordError(f"messages.hands[]: expected [user, message], got {items!r}")
    return _int(items[0], "hand user"), _int(items[1], "hand message")


def _owed(value: object) -> Owed:
    if value is None:
        return Owed()
    doc = _obj(value, "owed")
    return Owed(
        texts=tuple(_str(x, "owed.texts[]") for x in _list(doc["texts"], "owed.texts")),
        board_lines=tuple(_str(x, "owed.lines[]") for x in _list(doc["board_lines"], "lines")),
        board_version=_opt_int(doc["board_version"], "owed.board_version"),
        fresh=tuple(_int(x, "owed.fresh[]") for x in _list(doc["fresh"], "owed.fresh")),
        edits=tuple(_int(x, "owed.edits[]") for x in _list(doc["edits"], "owed.edits")),
        deletions=tuple(
            (_int(c, "owed.deletions chat"), _int(m, "owed.deletions message"))
            for c, m in _list(doc.get("deletions", []), "owed.deletions")
        ),
        notes=tuple(
            (_int(u, "owed.notes user"), _str(text, "owed.notes text"))
            for u, text in _list(doc.get("notes", []), "owed.notes")
        ),
    )


def record_from_json(text: str | bytes, rev: int) -> GameRecord:
    """Read a `doc` written by `record_to_json`; raises CorruptRecordError on anything else."""
    try:
        doc = _obj(json.loads(text), "doc")
        if doc.get("schema") != SCHEMA:
            raise CorruptRecordError(f"unknown record schema {doc.get('schema')!r}")
        lobby = _obj(doc["lobby"], "lobby")
        messages = _obj(doc["messages"], "messages")
        state = doc["state"]
        game_id = _str(doc["game"], "game")
        if not is_game_id(game_id):
            raise CorruptRecordError(f"game: not a game id: {game_id!r}")
        return GameRecord(
            game_id=game_id,
            chat_id=_int(doc["chat"], "chat"),
            title=_str(doc.get("title", ""), "title"),
            thread_id=_opt_int(doc["thread"], "thread"),
            language=Language(_str(doc["lang"], "lang")),
            creator_id=_int(doc["creator"], "creator"),
            creator_name=_str(doc.get("creator_name", ""), "creator_name"),
            owed=_owed(doc.get("owed")),
            turn_started_at=_int(doc.get("turn_started_at", 0), "turn_started_at"),
            misses=tuple(
                (_int(u, "misses user"), _int(n, "misses count"))
                for u, n in _list(doc.get("misses", []), "misses")
            ),
            automatic=tuple(_int(u, "automatic") for u in _list(doc.get("automatic", []), "a")),
            kick_votes=tuple(_int(u, "kick_votes") for u in _list(doc.get("kick_votes", []), "k")),
            created_at=_int(doc["created_at"], "created_at"),
            updated_at=_int(doc["updated_at"], "updated_at"),
            status=Status(_str(doc["status"], "status")),
            lobby=Lobby(
                edition=Edition(_str(lobby["edition"], "lobby.edition")),
                options=Options(
                    gold=GoldRule(_str(lobby["gold"], "lobby.gold")),
                    greedy_dwarf=_bool(lobby["greedy_dwarf"], "lobby.greedy_dwarf"),
                ),
                turn_limit_hours=_opt_int(lobby["turn_limit_hours"], "lobby.turn_limit_hours"),
                revision=_int(lobby.get("revision", 0), "lobby.revision"),
                players=tuple(
                    LobbyPlayer(
                        user_id=_int(p["id"], "player.id"),
                        name=_str(p["name"], "player.name"),
                        language=Language(_str(p["lang"], "player.lang")),
                    )
                    for p in (_obj(x, "player") for x in _list(lobby["players"], "players"))
                ),
            ),
            state=None if state is None else from_json(json.dumps(_obj(state, "state"))),
            messages=MessageIds(
                lobby=_opt_int(messages["lobby"], "messages.lobby"),
                board=_opt_int(messages["board"], "messages.board"),
                hands=tuple(_hand(pair) for pair in _list(messages["hands"], "messages.hands")),
            ),
            rev=rev,
        )
    except CorruptRecordError:
        raise
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise CorruptRecordError(f"not a game record: {exc!r}") from exc


# ------------------------------------------------------------------ the store


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class GameStore:
    """Games, their indexes and user settings in Redis (works with or without decode_responses)."""

    def __init__(self, redis: Redis, *, prefix: str = DEFAULT_PREFIX) -> None:
        if not prefix or any(ch in prefix for ch in "{}* \t\n"):
            raise ValueError(f"bad key prefix {prefix!r}")
        self.redis = redis
        self.prefix = prefix
        self._create = redis.register_script(_CREATE)
        self._save = redis.register_script(_SAVE)
        self._retire = redis.register_script(_RETIRE)

    # keys

    def game_key(self, game_id: GameId) -> str:
        """The key of a game's record."""
        return f"{self.prefix}:game:{{{game_id}}}"

    def chat_key(self, chat_id: int, thread_id: int | None) -> str:
        """The key holding the active game of a chat or forum topic."""
        return f"{self.prefix}:chat:{chat_id}:{'-' if thread_id is None else thread_id}"

    def outbox_key(self) -> str:
        """The key of the set of games that owe announcements (see tgbot.outbox)."""
        return f"{self.prefix}:outbox"

    async def owing_games(self) -> tuple[GameId, ...]:
        """The ids of games with announcements not delivered yet."""
        members = await self.redis.smembers(self.outbox_key())
        return tuple(sorted(_text(m) for m in members))

    def user_games_key(self, user_id: int) -> str:
        """The key of the set of a user's active games."""
        return f"{self.prefix}:user:{user_id}:games"

    def user_key(self, user_id: int) -> str:
        """The key of a user's settings."""
        return f"{self.prefix}:user:{user_id}"

    def group_key(self, chat_id: int) -> str:
        """The key of a group's settings."""
        return f"{self.prefix}:group:{chat_id}"

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
        chat = self.chat_key(record.chat_id, record.thread_id)
        users = [self.user_games_key(u) for u in record.player_ids]
        for _ in range(_RETRIES):
            raw = await self.redis.get(chat)
            holder = "" if raw is None else _text(raw)
            holder_key = self.game_key(holder) if holder else self.game_key(record.game_id)
            keys = [self.game_key(record.game_id), chat, holder_key, *users]
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
        raw = await self.redis.hgetall(self.game_key(game_id))
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
        keys = [self.game_key(record.game_id), self.outbox_key()]
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
                self.game_key(game_id),
                self.chat_key(record.chat_id, record.thread_id),
                *(self.user_games_key(u) for u in record.player_ids),
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
        raw = await self.redis.get(self.chat_key(chat_id, thread_id))
        return None if raw is None else _text(raw)

    async def chat_games(self, chat_id: int) -> tuple[GameId, ...]:
        """The active games of a chat, in any of its forum topics."""
        pattern = f"{self.prefix}:chat:{chat_id}:*"
        keys = [k async for k in self.redis.scan_iter(match=pattern, count=200)]
        values = [await self.redis.get(k) for k in keys]
        return tuple(sorted(_text(v) for v in values if v is not None))

    async def move_chat(self, game_id: GameId, old: int, new: int, thread_id: int | None) -> None:
        """A group became a supergroup: its active game now lives under the new chat id."""
        await self.redis.set(self.chat_key(new, thread_id), game_id)
        old_key = self.chat_key(old, thread_id)
        if await self.redis.get(old_key) in (game_id, game_id.encode()):
            await self.redis.delete(old_key)

    async def user_games(self, user_id: int) -> tuple[GameId, ...]:
        """The ids of a user's active games, sorted."""
        members = await self.redis.smembers(self.user_games_key(user_id))
        return tuple(sorted(_text(m) for m in members))

    async def add_user_game(self, user_id: int, game_id: GameId) -> None:
        """Record that a user plays in a game (on join)."""
        await self.redis.sadd(self.user_games_key(user_id), game_id)

    async def remove_user_game(self, user_id: int, game_id: GameId) -> None:
        """Forget that a user plays in a game (on leave)."""
        await self.redis.srem(self.user_games_key(user_id), game_id)

    # settings

    async def user_language(self, user_id: int) -> Language | None:
        """The language a user chose for private chats, if any."""
        return await self._language(self.user_key(user_id))

    async def set_user_language(self, user_id: int, language: Language) -> None:
        """Remember a user's language."""
        await self.redis.hset(self.user_key(user_id), "lang", language.code)

    async def group_language(self, chat_id: int) -> Language | None:
        """The language a group chose with /lang, if any."""
        return await self._language(self.group_key(chat_id))

    async def set_group_language(self, chat_id: int, language: Language) -> None:
        """Remember a group's language."""
        await self.redis.hset(self.group_key(chat_id), "lang", language.code)

    async def _language(self, key: str) -> Language | None:
        raw = await self.redis.hget(key, "lang")
        if raw is None:
            return None
        try:
            return Language(_text(raw))
        except ValueError:
            return None
