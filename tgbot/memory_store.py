"""The store in process memory: the same contract as the Redis store, for fast use-case tests.

Records are kept as their JSON text, as Redis keeps them, so whatever does not survive the codec
fails here too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from .game_ids import GameId
from .i18n import Language
from .records import GameRecord, record_from_json, record_to_json
from .store import ChatBusyError, GameExistsError, Updating


@dataclass(slots=True)
class _Stored:
    rev: int
    doc: str
    expires_at: float | None = None


class MemoryStore(Updating):
    """Games, their indexes and language settings in dicts; one event loop, no I/O."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._games: dict[GameId, _Stored] = {}
        self._chats: dict[tuple[int, int | None], GameId] = {}
        self._user_games: dict[int, set[GameId]] = {}
        self._outbox: set[GameId] = set()
        self._user_languages: dict[int, Language] = {}
        self._group_languages: dict[int, Language] = {}
        self._reachable: set[int] = set()

    def _live(self, game_id: GameId) -> _Stored | None:
        stored = self._games.get(game_id)
        expires_at = None if stored is None else stored.expires_at
        if expires_at is not None and expires_at <= self.clock():
            del self._games[game_id]
            return None
        return stored

    async def create(self, record: GameRecord) -> GameRecord:
        """Store a new active game and claim its chat; GameExistsError, ChatBusyError."""
        if not record.status.is_active:
            raise ValueError(f"a new game must be active, not {record.status.value}")
        if self._live(record.game_id) is not None:
            raise GameExistsError(f"game {record.game_id} exists")
        chat = (record.chat_id, record.thread_id)
        holder = self._chats.get(chat)
        if holder is not None and self._live(holder) is not None:
            raise ChatBusyError(holder)
        stored = replace(record, rev=1)
        self._games[record.game_id] = _Stored(1, record_to_json(stored))
        self._chats[chat] = record.game_id
        if not record.owed.is_empty:
            self._outbox.add(record.game_id)
        for user_id in record.player_ids:
            self._user_games.setdefault(user_id, set()).add(record.game_id)
        return stored

    async def load(self, game_id: GameId) -> GameRecord | None:
        """The stored game, or None; CorruptRecordError if it cannot be read."""
        stored = self._live(game_id)
        return None if stored is None else record_from_json(stored.doc, stored.rev)

    async def save(self, record: GameRecord, expected_rev: int) -> bool:
        """Write the record if the stored rev is still `expected_rev` (it becomes +1)."""
        stored = self._live(record.game_id)
        if stored is None or stored.rev != expected_rev:
            return False
        stored.rev = expected_rev + 1
        stored.doc = record_to_json(replace(record, rev=stored.rev))
        if record.owed.is_empty:
            self._outbox.discard(record.game_id)
        else:
            self._outbox.add(record.game_id)
        return True

    async def finish(self, game_id: GameId, ttl_seconds: int) -> bool:
        """Free the game's chat and players; the record expires after `ttl_seconds`."""
        if ttl_seconds < 1:
            raise ValueError("ttl_seconds must be at least 1")
        return await self._retire(game_id, ttl_seconds)

    async def delete(self, game_id: GameId) -> bool:
        """Remove a game now, with its index entries; False if it did not exist."""
        return await self._retire(game_id, 0)

    async def _retire(self, game_id: GameId, ttl_seconds: int) -> bool:
        record = await self.load(game_id)
        if record is None:
            return False
        chat = (record.chat_id, record.thread_id)
        if self._chats.get(chat) == game_id:
            del self._chats[chat]
        for user_id in record.player_ids:
            self._user_games.get(user_id, set()).discard(game_id)
        if ttl_seconds == 0:
            del self._games[game_id]
        else:
            self._games[game_id].expires_at = self.clock() + ttl_seconds
        return True

    async def owing_games(self) -> tuple[GameId, ...]:
        """The ids of games with announcements not delivered yet, sorted."""
        return tuple(sorted(self._outbox))

    async def active_game(self, chat_id: int, thread_id: int | None) -> GameId | None:
        """The id of the chat's (or topic's) active game, if any."""
        return self._chats.get((chat_id, thread_id))

    async def chat_games(self, chat_id: int) -> tuple[GameId, ...]:
        """The active games of a chat, in any of its forum topics, sorted."""
        return tuple(sorted(gid for (chat, _), gid in self._chats.items() if chat == chat_id))

    async def move_chat(self, game_id: GameId, old: int, new: int, thread_id: int | None) -> None:
        """A group became a supergroup: its active game now lives under the new chat id."""
        self._chats[(new, thread_id)] = game_id
        if self._chats.get((old, thread_id)) == game_id:
            del self._chats[(old, thread_id)]

    async def user_games(self, user_id: int) -> tuple[GameId, ...]:
        """The ids of a user's active games, sorted."""
        return tuple(sorted(self._user_games.get(user_id, ())))

    async def add_user_game(self, user_id: int, game_id: GameId) -> None:
        """Record that a user plays in a game."""
        self._user_games.setdefault(user_id, set()).add(game_id)

    async def remove_user_game(self, user_id: int, game_id: GameId) -> None:
        """Forget that a user plays in a game."""
        self._user_games.get(user_id, set()).discard(game_id)

    async def user_language(self, user_id: int) -> Language | None:
        """The language a user chose for private chats, if any."""
        return self._user_languages.get(user_id)

    async def set_user_language(self, user_id: int, language: Language) -> None:
        """Remember a user's language."""
        self._user_languages[user_id] = language

    async def reachable(self, user_id: int) -> bool:
        """Whether the user started the bot in private."""
        return user_id in self._reachable

    async def set_reachable(self, user_id: int) -> None:
        """Remember that the user started the bot in private."""
        self._reachable.add(user_id)

    async def group_language(self, chat_id: int) -> Language | None:
        """The language a group chose, if any."""
        return self._group_languages.get(chat_id)

    async def set_group_language(self, chat_id: int, language: Language) -> None:
        """Remember a group's language."""
        self._group_languages[chat_id] = language
