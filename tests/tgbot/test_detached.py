"""Deliveries detached from the webhook update that asked for them (`tgbot.detached`), over a
real Redis (one server and a Cluster): the update is answered and let go of while its delivery
still runs; asks coalesce; a stop leaves what was not sent owed, for the next run's sweep.

The use cases run for real over the Redis store, lease, deadlines and ledger; the sender is the
recording one of the use-case tests, whose group photos (the board) wait at a gate, as a slow
Bot API would make them wait.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field

import aiohttp
import pytest
from telegram import Update
from telegram.ext import ApplicationBuilder, TypeHandler

from emulator import EmulatorState, ManualClock
from emulator.server import BotApiEmulator
from engine import current_player
from tests.usecases.conftest import StubPainter
from tgbot.acks import HandleThenAnswer
from tgbot.buttons import ConfirmDiscard, StartGame
from tgbot.dedupe import Begun, UpdateLedger
from tgbot.detached import handling_update
from tgbot.fake_sender import FakeSender
from tgbot.game_ids import GameId
from tgbot.i18n import Language
from tgbot.keys import Keys
from tgbot.lease import RedisLease
from tgbot.links import join_payload
from tgbot.ports import Keyboard, Sent
from tgbot.redis_archives import RedisArchives
from tgbot.redis_client import RedisClient
from tgbot.redis_store import RedisStore
from tgbot.scheduler import DeadlineIndex
from tgbot.service import GameService, Person, Place
from tgbot.webhook import SECRET_HEADER, WebhookServer

GROUP = -100
OTHER_GROUP = -200
PLAYERS = (1, 2, 3)
SECRET = "detached-test-secret_1"
GUARD = 20.0  # seconds: only a guard against a hung test, never a measurement


def person(uid: int) -> Person:
    """A Telegram user."""
    return Person(uid, f"U{uid}", "en")


def place(chat: int = GROUP) -> Place:
    """A group."""
    return Place(chat, None, "The Mine")


@dataclass
class GatedSender(FakeSender):
    """A recording sender whose group photos wait while the gate is shut."""

    gate: asyncio.Event = field(default_factory=asyncio.Event)
    waiting: asyncio.Event = field(default_factory=asyncio.Event)  # a photo waits at the gate

    def __post_init__(self) -> None:
        self.gate.set()

    async def group_photo(
        self,
        chat_id: int,
        thread_id: int | None,
        png: bytes,
        caption: str,
        keyboard: Keyboard | None = None,
        *,
        above: bool = False,
    ) -> Sent:
        """Post a photo once the gate is open."""
        if not self.gate.is_set():
            self.waiting.set()
            await self.gate.wait()
        return await super().group_photo(chat_id, thread_id, png, caption, keyboard, above=above)

    def photos(self, chat: int) -> int:
        """Photos posted in a chat."""
        return sum(1 for m in self.messages if m.chat_id == chat and m.kind == "photo")


def bot(redis: RedisClient, prefix: str, sender: GatedSender | None = None) -> GameService:
    """The bot's use cases over Redis, as a webhook process wires them (`detach`)."""
    seeds = random.Random(7)
    ids = (f"Game{n:06d}" for n in itertools.count(1))
    store = RedisStore(redis, prefix=prefix)
    return GameService(
        store,
        sender or GatedSender(),
        deadlines=DeadlineIndex(redis, prefix=prefix),
        ledger=UpdateLedger(redis, prefix=prefix),
        lease=RedisLease(redis, prefix=prefix, reads=store.reads),
        clock=lambda: 1_000_000.0,
        seeds=lambda: seeds.randrange(2**62),
        ids=lambda: next(ids),
        default_language=Language("en"),
        painter=StubPainter(),
        archives=RedisArchives(redis, prefix=prefix),
        detach=True,
    )


def sender_of(service: GameService) -> GatedSender:
    sender = service.sender
    assert isinstance(sender, GatedSender)
    return sender


async def started(service: GameService, chat: int = GROUP) -> GameId:
    """A started game of three players (made outside any update: delivered inline)."""
    await service.new_lobby(place(chat), person(PLAYERS[0]))
    gid = await service.store.active_game(chat, None)
    assert gid is not None
    for uid in PLAYERS:
        await service.open_link(person(uid), join_payload(gid))
    record = await service.store.load(gid)
    assert record is not None
    toast = await service.tap(person(PLAYERS[0]), StartGame(gid, record.lobby.revision), chat, None)
    assert toast.text == "Done!", toast
    return gid


async def discard(service: GameService, gid: GameId) -> None:
    """The player to act discards their first card (a move)."""
    record = await service.store.load(gid)
    assert record is not None and record.state is not None
    uid = current_player(record.state)
    assert uid is not None
    command = ConfirmDiscard(gid, record.state.version, frozenset({0}))
    toast = await service.tap(person(uid), command, uid, None)
    assert toast.text == "Done!", toast


async def owed_board(service: GameService, gid: GameId) -> int | None:
    """The board version the game still owes the group, if any."""
    record = await service.store.load(gid)
    assert record is not None
    return record.owed.board_version


async def handling(work: Awaitable[object]) -> None:
    """`work` done as a webhook update's handling does it (`acks.HandleThenAnswer`)."""
    with handling_update():
        await work


@pytest.fixture
async def service(redis_client: RedisClient, key_prefix: str) -> AsyncIterator[GameService]:
    """A webhook bot's use cases; its deliveries stopped afterwards."""
    found = bot(redis_client, key_prefix)
    try:
        yield found
    finally:
        sender_of(found).gate.set()
        await found.detacher.stop()


async def test_a_slow_delivery_neither_keeps_the_update_held_nor_its_post_open(
    service: GameService, redis_client: RedisClient, key_prefix: str
) -> None:
    """A webhook POST whose update asks for a delivery is answered 200, and the update marked
    handled and let go of, while the delivery still waits for the Bot API; it ends later."""
    gid = await started(service)
    sender = sender_of(service)
    photos = sender.photos(GROUP)

    async def board(update: Update, _: object) -> None:
        await service.repost_board(place())  # /board: the board owed, then delivered

    ledger = UpdateLedger(redis_client, prefix=key_prefix, hold_ms=1200)
    other = UpdateLedger(redis_client, prefix=key_prefix, hold_ms=1200)
    async with BotApiEmulator(EmulatorState(clock=ManualClock())) as emu:
        kwargs = emu.bot_kwargs
        builder = ApplicationBuilder().token(kwargs["token"]).base_url(kwargs["base_url"])
        app = builder.updater(None).concurrent_updates(True).build()
        app.add_handler(TypeHandler(Update, board))
        accept = HandleThenAnswer(
            app, ledger, unavailable=lambda _err: False, busy=_never, passing=set()
        )
        server = WebhookServer(
            bot=app.bot, accept=accept, secret=SECRET, path="hook", host="127.0.0.1", port=0
        )
        async with app:
            await server.start()
            try:
                sender.gate.clear()
                async with aiohttp.ClientSession() as http:
                    post = http.post(
                        f"http://127.0.0.1:{server.port}/hook",
                        json={"update_id": 41},
                        headers={SECRET_HEADER: SECRET},
                    )
                    async with asyncio.timeout(GUARD):
                        async with post as response:
                            status = response.status
                await asyncio.wait_for(sender.waiting.wait(), GUARD)
                assert status == 200
                assert service.detacher.running == 1, "the delivery still runs"
                assert sender.photos(GROUP) == photos, "the board waits at the gate"
                assert await owed_board(service, gid) is not None
                assert await other.begin(41) is Begun.DONE, "handled, not held"
                assert await redis_client.exists(Keys(key_prefix).update_hold(41)) == 0
            finally:
                await server.stop()
        sender.gate.set()
        await asyncio.wait_for(service.detacher.idle(), GUARD)
    assert sender.photos(GROUP) == photos + 1
    assert await owed_board(service, gid) is None


async def _never(update: Update, err: BaseException) -> None:
    raise AssertionError("Redis is here")


async def test_outside_an_update_a_delivery_runs_inline(service: GameService) -> None:
    """The sweeper, the clock and long polling wait for their deliveries, as before."""
    gid = await started(service)
    sender = sender_of(service)
    sender.gate.clear()
    task = asyncio.create_task(service.repost_board(place()))
    await asyncio.wait_for(sender.waiting.wait(), GUARD)
    assert not task.done(), "it waits for its delivery"
    assert service.detacher.running == 0
    sender.gate.set()
    await asyncio.wait_for(task, GUARD)
    assert await owed_board(service, gid) is None


async def test_asks_while_a_games_delivery_runs_make_one_more_run(service: GameService) -> None:
    """One delivery per game at a time: asked twice more while it runs, it runs once more
    after it, and delivers everything; another game's delivery runs alongside."""
    first = await started(service)
    second = await started(service, OTHER_GROUP)
    sender = sender_of(service)
    runs: list[GameId] = []
    real = service.deliver

    async def counted(gid: GameId) -> None:
        runs.append(gid)
        await real(gid)

    service.deliver = counted  # type: ignore[method-assign]
    sender.gate.clear()
    async with asyncio.timeout(GUARD):  # (inline, the first discard would wait at the gate)
        await handling(discard(service, first))  # its board waits at the gate
        await sender.waiting.wait()
        await handling(service.repost_board(place()))  # asked again while it runs
        await handling(discard(service, first))  # and again
        await handling(discard(service, second))  # another game: a delivery of its own
    assert service.detacher.running == 2
    assert runs.count(first) == 1, "asked again while it runs: not started again yet"
    sender.gate.set()
    await asyncio.wait_for(service.detacher.idle(), GUARD)
    assert runs.count(first) == 2, runs
    assert runs.count(second) == 1, runs
    assert await owed_board(service, first) is None
    assert await owed_board(service, second) is None


async def test_a_stop_leaves_what_was_not_sent_owed_for_the_next_run(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """Stopping cancels the deliveries that run: the board they had not posted stays owed, and
    the next process's sweep posts it."""
    one = bot(redis_client, key_prefix)
    gid = await started(one)
    sender = sender_of(one)
    sender.gate.clear()
    async with asyncio.timeout(GUARD):  # (inline, the discard would wait at the gate)
        await handling(discard(one, gid))
    await asyncio.wait_for(sender.waiting.wait(), GUARD)
    await one.detacher.stop()
    assert one.detacher.running == 0
    owed = await owed_board(one, gid)
    assert owed is not None, "the board is still owed"
    sender.gate.set()
    await asyncio.sleep(0)
    assert sender.photos(GROUP) == 1, "only the first board was posted"
    # The next run: another process over the same Redis.
    two = bot(redis_client, key_prefix)
    await two.sweep()
    assert await owed_board(two, gid) is None
    posted = [m for m in sender_of(two).messages if m.chat_id == GROUP and m.kind == "photo"]
    assert len(posted) == 1, "the next run posted the owed board"


async def test_a_failed_delivery_is_logged_and_the_next_ask_runs(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    """A delivery that raises is logged with its game; the game's next ask delivers."""
    gid = await started(service)
    real = service.deliver
    calls = 0

    async def broken_once(gid: GameId) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the Bot API went away")
        await real(gid)

    service.deliver = broken_once  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="tgbot.detached"):
        await handling(service.repost_board(place()))
    await asyncio.wait_for(service.detacher.idle(), GUARD)
    failed = [r for r in caplog.records if r.name == "tgbot.detached"]
    assert len(failed) == 1 and gid in failed[0].getMessage(), caplog.records
    assert failed[0].exc_info is not None and "went away" in str(failed[0].exc_info[1])
    assert await owed_board(service, gid) is not None, "still owed"
    await handling(service.repost_board(place()))
    await asyncio.wait_for(service.detacher.idle(), GUARD)
    assert await owed_board(service, gid) is None
