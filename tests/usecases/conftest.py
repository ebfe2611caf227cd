"""Use-case tests in memory: the real use cases over the in-memory store, ports and a fake sender.

No Redis, no emulator, no pictures (a stub painter): each test runs in milliseconds.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pytest

from ai import Level
from engine import Edition, GameState, PublicView, current_player
from tgbot.animations import Animator
from tgbot.buttons import (
    AddComputer,
    CancelGame,
    ConfirmDiscard,
    GameCommand,
    HistoryCommand,
    LeaveGame,
    StartGame,
)
from tgbot.fake_sender import FakeSender, Message
from tgbot.game_ids import GameId
from tgbot.i18n import Language
from tgbot.links import join_payload
from tgbot.memory_archives import MemoryArchives
from tgbot.memory_ports import MemoryDeadlines, MemoryLease, MemoryLedger
from tgbot.memory_store import MemoryStore
from tgbot.menus import Screen
from tgbot.records import CorruptRecordError, GameRecord
from tgbot.service import GameService, Person, Place, Toast
from tgbot.usecases.clocks import kick_from

EN = Language("en")
KO = Language("ko")
GROUP = -100
OTHER_GROUP = -200
ANN, BOB, CAT, DAN, EVE = 1, 2, 3, 4, 5
NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat", DAN: "Dan", EVE: "Eve"}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Let time pass."""
        self.now += seconds


def person(uid: int, code: str | None = "en") -> Person:
    """A Telegram user."""
    return Person(uid, NAMES.get(uid, f"U{uid}"), code)


def place(chat: int = GROUP, thread: int | None = None) -> Place:
    """A group (or one of its topics)."""
    return Place(chat, thread, "The Mine")


class StubPainter:
    """Pictures as a few bytes: the use cases only pass them on."""

    def board(self, state: GameState, names: Mapping[int, str]) -> bytes:
        """A board post's picture."""
        return b"board"

    def screen(
        self, state: GameState, player: int, screen: Screen, names: Mapping[int, str]
    ) -> bytes:
        """A private screen's picture."""
        return b"screen"

    def round_end(self, view: PublicView, names: Mapping[int, str]) -> bytes:
        """A round's final board."""
        return b"final"


class StubAnimator:
    """Replays as a few bytes, keeping the views each was drawn from."""

    def __init__(self) -> None:
        self.drawn: list[tuple[PublicView, ...]] = []

    def round_replay(self, views: Sequence[PublicView]) -> bytes | None:
        """A round's replay."""
        self.drawn.append(tuple(views))
        return b"GIF89a-replay"


class BrokenStore(MemoryStore):
    """A memory store in which some records cannot be read."""

    broken: set[GameId]

    async def load(self, game_id: GameId) -> GameRecord | None:
        """The record, unless it was broken."""
        if game_id in getattr(self, "broken", set()):
            raise CorruptRecordError(f"game {game_id}: broken on purpose")
        return await super().load(game_id)


@dataclass
class Table:
    """One bot over in-memory ports, with helpers to play through it."""

    clock: Clock = field(default_factory=Clock)
    sender: FakeSender = field(default_factory=FakeSender)
    deadlines: MemoryDeadlines = field(default_factory=MemoryDeadlines)
    ledger: MemoryLedger = field(default_factory=MemoryLedger)
    seed: int = 7
    store_class: type[MemoryStore] = MemoryStore
    animator: Animator = field(default_factory=StubAnimator)
    pause: float = 0.0  # before a computer player's move
    wakes: list[float] = field(default_factory=list)  # the sweeper's wake-ups asked for

    def __post_init__(self) -> None:
        self.store = self.store_class(clock=self.clock)
        self.archives = MemoryArchives(clock=self.clock)
        self.lease = MemoryLease(clock=self.clock)
        seeds = random.Random(self.seed)
        ids = (f"Game{n:06d}" for n in itertools.count(1))
        self.service = GameService(
            self.store,
            self.sender,
            deadlines=self.deadlines,
            ledger=self.ledger,
            lease=self.lease,
            clock=self.clock,
            seeds=lambda: seeds.randrange(2**62),
            ids=lambda: next(ids),
            default_language=EN,
            painter=StubPainter(),
            archives=self.archives,
            animator=self.animator,
            computer_pause=self.pause,
            wake=self.wakes.append,
        )
        self.ctx = self.service.ctx

    async def record(self, gid: str) -> GameRecord:
        """The stored record of a game that exists."""
        record = await self.store.load(gid)
        assert record is not None, gid
        return record

    async def state(self, gid: str) -> GameState:
        """The engine state of a started game."""
        record = await self.record(gid)
        assert record.state is not None
        return record.state

    async def open(self, creator: int = ANN, where: Place | None = None) -> str:
        """/new: the id of the lobby opened."""
        where = where or place()
        await self.service.new_lobby(where, person(creator))
        gid = await self.store.active_game(where.chat_id, where.thread_id)
        assert gid is not None
        return gid

    async def join(self, gid: str, *uids: int) -> None:
        """Players join through the deep link."""
        for uid in uids:
            await self.service.open_link(person(uid), join_payload(gid))

    async def lobby_tap(
        self, uid: int, command: GameCommand | HistoryCommand, chat: int = GROUP
    ) -> Toast:
        """A lobby (or history, or rematch) button tapped in the group."""
        return await self.service.tap(person(uid), command, chat, None)

    async def start(
        self, players: tuple[int, ...] = (ANN, BOB, CAT), where: Place | None = None
    ) -> str:
        """A started game with these players (the first opens it); its id."""
        gid = await self.open(players[0], where)
        await self.join(gid, *players)
        revision = (await self.record(gid)).lobby.revision
        toast = await self.lobby_tap(players[0], StartGame(gid, revision))
        assert toast.text == "Done!", toast
        return gid

    async def add_computers(self, gid: str, count: int, uid: int = ANN) -> None:
        """The lobby's creator taps "Add: strong" `count` times."""
        for _ in range(count):
            lobby = (await self.record(gid)).lobby
            toast = await self.lobby_tap(uid, AddComputer(gid, lobby.revision, Level.SEARCH))
            added = (await self.record(gid)).lobby.computers
            assert len(added) == len(lobby.computers) + 1, toast

    async def lobby_with_computers(
        self, people: tuple[int, ...] = (ANN,), computers: int = 2, level: Level | None = None
    ) -> str:
        """A lobby of these people (the first opens it) and computer players, at the computers'
        default level or this one, not started yet; its id."""
        gid = await self.open(people[0])
        await self.join(gid, *people)
        await self.add_computers(gid, computers)
        if level is not None:
            await self.set_level(gid, level)
        return gid

    async def start_with_computers(
        self, people: tuple[int, ...] = (ANN,), computers: int = 2, level: Level | None = None
    ) -> str:
        """A started game of these people (the first opens it) and computer players, at the
        computers' default level or this one; its id."""
        gid = await self.lobby_with_computers(people, computers, level)
        revision = (await self.record(gid)).lobby.revision
        toast = await self.lobby_tap(people[0], StartGame(gid, revision))
        assert toast.text == "Done!", toast
        return gid

    async def set_level(self, gid: str, level: Level) -> None:
        """Every computer player of a game thinks at this level (tests play fast ones)."""

        def change(record: GameRecord) -> GameRecord:
            players = tuple(
                dataclasses.replace(p, computer=level) if p.is_computer else p
                for p in record.lobby.players
            )
            return dataclasses.replace(
                record, lobby=dataclasses.replace(record.lobby, players=players)
            )

        assert await self.ctx.change(gid, change) is not None

    async def computers_play(self, gid: str, limit: int = 100) -> int:
        """Sweep until the game waits for a person (or is over): the computer moves made."""
        for made in range(limit):
            record = await self.record(gid)
            player = current_player(record.state) if record.state is not None else None
            if not record.status.is_active or player is None or player >= 0:
                return made
            await self.service.sweep()
        raise AssertionError("the computer players did not stop")

    async def to_act(self, gid: str) -> int:
        """The player the game waits for."""
        player = current_player(await self.state(gid))
        assert player is not None
        return player

    async def hand_tap(self, uid: int, command: object, message: int | None = None) -> Toast:
        """A button of a player's private hand."""
        return await self.service.tap(person(uid), command, uid, message)  # type: ignore[arg-type]

    async def discard(self, gid: str, uid: int | None = None) -> Toast:
        """The player to act (or `uid`) discards their first card."""
        uid = uid if uid is not None else await self.to_act(gid)
        version = (await self.state(gid)).version
        return await self.hand_tap(uid, ConfirmDiscard(gid, version, frozenset({0})))

    def group(self, chat: int = GROUP) -> list[Message]:
        """The group's live messages."""
        return self.sender.live(chat)

    def said(self, chat: int) -> list[str]:
        """Every text and caption sent to a chat, deleted ones too."""
        return self.sender.texts_in(chat)

    async def cancel_command(self, where: Place, who: Person, is_admin: bool) -> None:
        """/cancel in the group, answered Yes when it asks (a game in play)."""
        before = len(self.sender.messages)
        await self.service.cancel_command(where, who, is_admin)
        for m in self.sender.messages[before:]:
            for row in m.keyboard or ():
                for b in row:
                    if isinstance(b.command, CancelGame):
                        await self.service.tap(who, b.command, where.chat_id, m.message_id)
                        return

    async def overdue(self, gid: str) -> None:
        """Let time pass until /kick works for the current turn."""
        self.clock.now = max(self.clock.now, float(kick_from(await self.record(gid))))

    async def leave(self, gid: str, uid: int) -> Toast:
        """A player taps Leave on the lobby."""
        revision = (await self.record(gid)).lobby.revision
        return await self.lobby_tap(uid, LeaveGame(gid, revision))


@pytest.fixture
def table() -> Table:
    """A fresh bot in memory."""
    return Table()


__all__ = ["EN", "KO", "Edition", "Table", "person", "place"]


class BusyStore(MemoryStore):
    """A memory store where every compare-and-set loses (others always saved first)."""

    busy: bool = False

    async def save(self, record: GameRecord, expected_rev: int) -> bool:
        """Lose while busy."""
        return False if self.busy else await super().save(record, expected_rev)
