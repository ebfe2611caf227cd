"""The store's port: what the use cases need from wherever games are kept.

Two implementations keep the same contract: `tgbot.redis_store.RedisStore` (production) and
`tgbot.memory_store.MemoryStore` (an in-memory fake for fast use-case tests); the contract tests
in tests/tgbot/test_store.py run against both.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Generic, Protocol, TypeVar, cast

from . import ahead
from .game_ids import GameId
from .i18n import Language
from .records import GameRecord, StoreError

R = TypeVar("R")
# A save loses only to another writer that won, so N writers at once all succeed within N tries.
UPDATE_ATTEMPTS = 16


class GameExistsError(StoreError):
    """`create` found a game with the same id."""


class ChatBusyError(StoreError):
    """`create` found another active game in the same chat or topic."""

    def __init__(self, active: GameId) -> None:
        super().__init__(f"game {active} is active in this chat")
        self.active = active


class ContentionError(StoreError):
    """`update` lost the compare-and-set every time (other writers kept winning)."""


@dataclass(frozen=True, slots=True)
class Decision(Generic[R]):
    """What a change decided about a record: its answer, and the record to save (None: none)."""

    result: R
    record: GameRecord | None = None


@dataclass(frozen=True, slots=True)
class Updated(Generic[R]):
    """What `update` did: the change's answer and the record as stored after it (None: gone)."""

    result: R
    record: GameRecord | None
    saved: bool


class Store(Protocol):
    """Games with compare-and-set saves, their chat and player indexes, and language settings."""

    async def create(self, record: GameRecord) -> GameRecord:
        """Store a new active game and claim its chat; GameExistsError, ChatBusyError."""
        ...

    async def load(self, game_id: GameId) -> GameRecord | None:
        """The stored game, or None; CorruptRecordError if it cannot be read."""
        ...

    async def save(self, record: GameRecord, expected_rev: int) -> bool:
        """Write the record if the stored rev is still `expected_rev` (it becomes +1)."""
        ...

    async def update(
        self, game_id: GameId, decide: Callable[[GameRecord | None], Decision[R]]
    ) -> Updated[R]:
        """Load, decide, compare-and-set, and decide again on the fresh record if someone won."""
        ...

    async def finish(self, game_id: GameId, ttl_seconds: int) -> bool:
        """Free the game's chat and players; the record expires after `ttl_seconds`."""
        ...

    async def delete(self, game_id: GameId) -> bool:
        """Remove a game now, with its index entries; False if it did not exist."""
        ...

    async def owing_games(self) -> tuple[GameId, ...]:
        """The ids of games with announcements not delivered yet, sorted."""
        ...

    async def active_game(self, chat_id: int, thread_id: int | None) -> GameId | None:
        """The id of the chat's (or topic's) active game, if any."""
        ...

    async def chat_games(self, chat_id: int) -> tuple[GameId, ...]:
        """The active games of a chat, in any of its forum topics, sorted."""
        ...

    async def move_chat(self, game_id: GameId, old: int, new: int, thread_id: int | None) -> None:
        """A group became a supergroup: its active game now lives under the new chat id."""
        ...

    async def user_games(self, user_id: int) -> tuple[GameId, ...]:
        """The ids of a user's active games, sorted."""
        ...

    async def add_user_game(self, user_id: int, game_id: GameId) -> None:
        """Record that a user plays in a game."""
        ...

    async def remove_user_game(self, user_id: int, game_id: GameId) -> None:
        """Forget that a user plays in a game."""
        ...

    async def user_language(self, user_id: int) -> Language | None:
        """The language a user chose for private chats, if any."""
        ...

    async def set_user_language(self, user_id: int, language: Language) -> None:
        """Remember a user's language."""
        ...

    async def reachable(self, user_id: int) -> bool:
        """Whether the user started the bot in private (so it may write to them)."""
        ...

    async def set_reachable(self, user_id: int) -> None:
        """Remember that the user started the bot in private."""
        ...

    async def group_language(self, chat_id: int) -> Language | None:
        """The language a group chose, if any."""
        ...

    async def set_group_language(self, chat_id: int, language: Language) -> None:
        """Remember a group's language."""
        ...


KNOWN_RECORDS = 512  # games whose latest record this process saw, kept to decide on first


class Updating:
    """`update` written once over `load` and `save`, for every implementation of Store.

    The record this process last loaded or saved of a game is kept: a change decided on it is
    saved by one compare-and-set, without loading first; the compare-and-set fails if anyone
    saved since, and then the change is decided again on the record loaded afresh. A decision
    that writes nothing is always made on a fresh load.
    """

    _known: OrderedDict[GameId, GameRecord]

    async def load(self, game_id: GameId) -> GameRecord | None:
        """The stored game, or None."""
        raise NotImplementedError

    async def save(self, record: GameRecord, expected_rev: int) -> bool:
        """Compare-and-set."""
        raise NotImplementedError

    def known(self, game_id: GameId) -> GameRecord | None:
        """The record of the game this process saw last, if it kept it."""
        known: OrderedDict[GameId, GameRecord] | None = self.__dict__.get("_known")
        return None if known is None else known.get(game_id)

    def _ahead(self, game_id: GameId) -> GameRecord | None:
        """The game's record read ahead (`tgbot.ahead`), unless this process has seen a newer
        one since; else ahead.MISSING."""
        early = ahead.take_record(game_id)
        if early is ahead.MISSING:
            return cast("GameRecord | None", early)
        known = self.known(game_id)
        if known is not None and early is not None and early.rev < known.rev:
            stale: GameRecord | None = ahead.MISSING  # older than what this process saw
            return stale
        self._remember(game_id, early)
        return early

    def _remember(self, game_id: GameId, record: GameRecord | None) -> None:
        known = self.__dict__.setdefault("_known", OrderedDict())
        if record is None:
            known.pop(game_id, None)
            return
        known[game_id] = record
        known.move_to_end(game_id)
        if len(known) > KNOWN_RECORDS:
            known.popitem(last=False)

    async def update(
        self, game_id: GameId, decide: Callable[[GameRecord | None], Decision[R]]
    ) -> Updated[R]:
        """Load, decide, compare-and-set, and decide again on the fresh record if someone won.

        `decide` must be pure (it may run several times). A decision whose record is None, or
        equal to the loaded one, writes nothing. Raises ContentionError after UPDATE_ATTEMPTS.
        A record read ahead in this update's first trip counts as loaded.
        """
        current = self.known(game_id)
        early = self._ahead(game_id)
        fresh = early is not ahead.MISSING
        if fresh:
            current = early
        for _ in range(UPDATE_ATTEMPTS):
            if current is not None and not fresh:  # the record last seen: only a write
                decision = decide(current)
                new = decision.record
                if new is not None and new != current:
                    saved = await self._save_over(game_id, current, new)
                    if saved is not None:
                        return Updated(decision.result, saved, saved=True)
            if not fresh:
                current = await self.load(game_id)
                self._remember(game_id, current)
            fresh = False
            decision = decide(current)
            new = decision.record
            if new is None or current is None or new == current:
                return Updated(decision.result, current, saved=False)
            saved = await self._save_over(game_id, current, new)
            if saved is not None:
                return Updated(decision.result, saved, saved=True)
            current = None  # someone saved in between: load again
        raise ContentionError(f"game {game_id} kept changing under {UPDATE_ATTEMPTS} attempts")

    async def _save_over(
        self, game_id: GameId, current: GameRecord, new: GameRecord
    ) -> GameRecord | None:
        """Save `new` over `current` (compare-and-set): the record as stored, or None."""
        if not await self.save(new, current.rev):
            self._remember(game_id, None)
            return None
        saved = replace(new, rev=current.rev + 1)
        self._remember(game_id, saved)
        return saved
