"""What every use case shares: its dependencies (the ports), who asked and where, small helpers."""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from ..animations import Animations, Animator
from ..archives import Archives
from ..config import DEFAULT_COMPUTER_PAUSE, DEFAULT_LANGUAGE
from ..game_ids import GameId, new_game_id
from ..i18n import Language, Texts, parse_language, texts
from ..memory_archives import MemoryArchives
from ..pictures import Pictures
from ..ports import Deadlines, Lease, Ledger, Painter, Sender
from ..records import GameRecord, MessageIds
from ..store import ContentionError, Decision, Store

log = logging.getLogger(__name__)

FINISHED_TTL_SECONDS = 7 * 24 * 3600
TOAST_LIMIT = 200  # Telegram refuses a longer answerCallbackQuery text


@dataclass(frozen=True, slots=True)
class Person:
    """Who sent a request: id, display name, the language their app reports, their @username."""

    user_id: int
    name: str
    language_code: str | None = None
    username: str | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """Where a group request came from: the chat, its forum topic, its title."""

    chat_id: int
    thread_id: int | None
    title: str


@dataclass(frozen=True, slots=True)
class Toast:
    """The answer to a button tap: a toast, or a t.me link for Telegram to open."""

    text: str
    alert: bool = False
    url: str | None = None

    def __post_init__(self) -> None:
        # Every toast is made here, so clipping here covers every answer (names can be long).
        object.__setattr__(self, "text", fit(self.text, TOAST_LIMIT))


Answer = Callable[[Toast], Awaitable[None]]  # answers a tap (at most once)


def fit(text: str, limit: int) -> str:
    """The text within `limit` UTF-16 units (Telegram's count), cut between characters with "…"."""
    if _units(text) <= limit:
        return text
    kept: list[str] = []
    room = limit - 1  # for the "…"
    for char in text:
        room -= _units(char)
        if room < 0:
            break
        kept.append(char)
    return "".join(kept) + "…"


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True, slots=True)
class Context:
    """The use cases' dependencies; `deliver` sends what a saved game owes (see `delivery`)."""

    store: Store
    sender: Sender
    deadlines: Deadlines
    ledger: Ledger
    lease: Lease
    deliver: Callable[[GameId], Awaitable[None]]
    clock: Callable[[], float]
    seeds: Callable[[], int]
    ids: Callable[[], str] | None = None
    default_language: Language = DEFAULT_LANGUAGE
    painter: Painter = field(default_factory=Pictures)
    archives: Archives = field(default_factory=MemoryArchives)  # finished games, statistics
    animator: Animator = field(default_factory=Animations)  # round replays
    computer_pause: float = DEFAULT_COMPUTER_PAUSE  # seconds before a computer player's move
    # asks this process's sweeper to run again in so many seconds (a computer player's move
    # falls due before its next tick); does nothing where no sweeper runs
    wake: Callable[[float], None] = field(default=lambda _seconds: None)  # see app.Waker

    def now(self) -> int:
        """The clock's time, in whole seconds."""
        return int(self.clock())

    def new_id(self) -> GameId:
        """A fresh game id."""
        return self.ids() if self.ids is not None else new_game_id(random.Random(self.seeds()))

    async def group_language(self, chat_id: int) -> Language:
        """The group's language (set with /lang), else the bot's default."""
        return await self.store.group_language(chat_id) or self.default_language

    async def user_language(self, person: Person) -> Language:
        """A user's language: chosen with /lang, else their app's, else the default."""
        chosen = await self.store.user_language(person.user_id)
        return chosen or parse_language(person.language_code) or self.default_language

    async def active(self, place: Place) -> GameRecord | None:
        """The active game of a chat or topic, if any."""
        gid = await self.store.active_game(place.chat_id, place.thread_id)
        return None if gid is None else await self.store.load(gid)

    async def say(self, place: Place, text: str) -> None:
        """Post a text where the request came from."""
        await self.sender.group_text(place.chat_id, place.thread_id, text)

    async def change(
        self, gid: GameId, change: Callable[[GameRecord], GameRecord]
    ) -> GameRecord | None:
        """Save a change to an active game; the saved record (None: gone, inactive, contended)."""

        def decide(record: GameRecord | None) -> Decision[bool]:
            if record is None or not record.status.is_active:
                return Decision(False)
            return Decision(True, change(record))

        try:
            done = await self.store.update(gid, decide)
        except ContentionError:
            log.warning("could not change game %s", gid)
            return None
        return done.record if done.result else None

    async def strike(self, gid: GameId, change: Callable[[GameRecord], GameRecord]) -> None:
        """Save a delivery's change (message ids, what is owed) to the latest record, if any.

        Within `batched()` the change is kept and saved with the others at its end.
        """
        batch = _BATCH.get()
        if batch is not None:
            batch.append((gid, change))
            return

        await self._strike(gid, change)

    async def _strike(
        self, gid: GameId, change: Callable[[GameRecord], GameRecord]
    ) -> GameRecord | None:
        """Save a change now: the record as stored after it (None: gone, or not saved)."""

        def decide(record: GameRecord | None) -> Decision[None]:
            return Decision(None, None if record is None else change(record))

        try:
            return (await self.store.update(gid, decide)).record
        except ContentionError:
            log.warning("could not record a delivery of %s", gid)
            return None

    @contextlib.asynccontextmanager
    async def batched(self) -> AsyncIterator[dict[GameId, GameRecord]]:
        """Strikes made inside (by concurrent tasks too) are saved together at the end, one
        compare-and-set per game, in the order they were made, even if the block fails; the
        dict it gives is filled then with each game's record as saved."""
        batch: list[tuple[GameId, Callable[[GameRecord], GameRecord]]] = []
        saved: dict[GameId, GameRecord] = {}
        token = _BATCH.set(batch)
        try:
            yield saved
        finally:
            _BATCH.reset(token)
            for gid in dict.fromkeys(g for g, _ in batch):
                changes = [c for g, c in batch if g == gid]
                record = await self._strike(gid, functools.partial(_in_turn, changes))
                if record is not None:
                    saved[gid] = record

    async def remember(self, gid: GameId, change: Callable[[MessageIds], MessageIds]) -> None:
        """Store message ids of a game."""
        await self.strike(gid, lambda r: dataclasses.replace(r, messages=change(r.messages)))


_BATCH: contextvars.ContextVar[list[tuple[GameId, Callable[[GameRecord], GameRecord]]] | None] = (
    contextvars.ContextVar("strike_batch", default=None)
)


def _in_turn(changes: list[Callable[[GameRecord], GameRecord]], record: GameRecord) -> GameRecord:
    for change in changes:
        record = change(record)
    return record


def player_language(record: GameRecord, user_id: int) -> Language:
    """The language a player reads the game in (the group's, for others)."""
    player = record.lobby.player(user_id)
    return player.language if player is not None else record.language


def no_game(tr: Texts) -> str:
    """The answer when a chat has no game."""
    return tr.gettext("There is no game here. Open one with /new.")


def contended(tr: Texts) -> str:
    """The answer when other saves kept winning."""
    return tr.pgettext("toast", "Something else happened at the same moment. Please tap again.")


def invalid_button(tr: Texts) -> Toast:
    """The answer to a button that cannot be read or does not fit its game."""
    return Toast(tr.pgettext("toast", "This button is not valid."), alert=True)


def gone(tr: Texts) -> str:
    """The answer about a game that is over, cancelled or expired."""
    return tr.pgettext("toast", "This game no longer exists.")


def group_texts(record: GameRecord) -> Texts:
    """The texts of a game's group."""
    return texts(record.language)
