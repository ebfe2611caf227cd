"""A running world for end-to-end tests: the Bot API emulator, the real bot in webhook mode, Redis.

Users act only through the emulator (commands, deep links, button presses); the harness waits
until the bot has handled each update, and delivered what it owes (a webhook bot answers the
update's POST before its deliveries end: `tgbot.detached`), before the test looks at the chats.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis
from telegram.ext import Application

from emulator import EmulatorState, Faults, ManualClock, Message, RateLimits, User
from emulator.model import CallbackQuery
from emulator.server import BotApiEmulator
from tests.emulator.support import quick_request
from tgbot.app import ALLOWED_UPDATES, build_application
from tgbot.config import Config
from tgbot.http_client import AiohttpRequest
from tgbot.records import GameRecord
from tgbot.redis_client import CONNECTIONS, open_redis
from tgbot.redis_store import RedisStore
from tgbot.service import GameService
from tgbot.updates import ChatOrderedProcessor
from tgbot.webhook import WebhookServer, open_webhook

SECRET = "e2e-secret-token"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def buttons(message: Message) -> list[tuple[str, str]]:
    """(label, callback data) of a message's callback buttons, row by row."""
    markup = message.content.reply_markup or {}
    return [
        (b["text"], b["callback_data"])
        for row in markup.get("inline_keyboard", [])
        for b in row
        if "callback_data" in b
    ]


def url_buttons(message: Message) -> list[tuple[str, str]]:
    """(label, url) of a message's URL buttons."""
    markup = message.content.reply_markup or {}
    return [
        (b["text"], b["url"])
        for row in markup.get("inline_keyboard", [])
        for b in row
        if "url" in b
    ]


def shown(message: Message) -> str:
    """The text or caption a user sees (entities stripped)."""
    return message.content.text or message.content.caption or ""


@dataclass
class World:
    """The emulator, the bot application and the store, started together."""

    redis: Redis
    prefix: str
    clock: ManualClock = field(default_factory=ManualClock)
    seed: int = 1
    rate_limits: RateLimits | None = None  # Telegram's limits as the emulator applies them
    faults: Faults | None = None  # Telegram's bad moments, as the emulator stages them
    timeout: float | None = None  # the bot's Bot API timeouts (seconds), if not PTB's
    emu: BotApiEmulator | None = None
    app: Application | None = None  # type: ignore[type-arg]
    hook: WebhookServer | None = None
    _forged: int = 0

    @property
    def state(self) -> EmulatorState:
        """The emulator's state (users, chats, messages)."""
        assert self.emu is not None
        return self.emu.state

    @property
    def service(self) -> GameService:
        """The bot's use cases (for its deliveries running on their own)."""
        assert self.app is not None
        found: GameService = self.app.bot_data["service"]
        return found

    @property
    def store(self) -> RedisStore:
        """A store over the same keys the bot uses."""
        return RedisStore(self.redis, prefix=self.prefix)

    async def start(self) -> None:
        """Start the emulator, then the bot in webhook mode against it."""
        state = EmulatorState(clock=self.clock, rate_limits=self.rate_limits)
        self.emu = BotApiEmulator(state, webhook_retry_delay=0.05, faults=self.faults)
        await self.emu.start()
        port = free_port()
        config = Config(
            token=self.emu.state.token,
            api_url=self.emu.url,
            redis_url="redis://unused",
            webhook_url=f"http://127.0.0.1:{port}/hook",
            webhook_listen="127.0.0.1",
            webhook_port=port,
            webhook_secret=SECRET,
            computer_pause=0.0,  # computer players move at the next sweep
            # no bot-wide budget: on this frozen clock it would never refill (it is tested on
            # its own, tests/tgbot/test_bot_budget.py and tests/emulator/test_emu_bot_budget.py)
            sends_per_second=0.0,
        )
        seeds = random.Random(self.seed)
        self.processor = ChatOrderedProcessor()
        # The webhook bot never calls getUpdates, but PTB would build that request with a CA
        # bundle of its own (~40 ms of the ~55 ms start); quick_request shares one context.
        builder = (
            Application.builder()
            .concurrent_updates(self.processor)
            .get_updates_request(quick_request())
        )
        request = None
        if self.timeout is not None:
            t = self.timeout
            request = AiohttpRequest(
                read_timeout=t,
                write_timeout=t,
                connect_timeout=t,
                pool_timeout=t,
                media_write_timeout=t,
            )
        self.app = build_application(
            config,
            redis=self.redis,
            prefix=self.prefix,
            clock=self.clock,
            seeds=lambda: seeds.randrange(2**62),
            builder=builder,
            request=request,
        )
        await self.app.initialize()
        await self.app.start()
        self.hook = await open_webhook(self.app, config, ALLOWED_UPDATES)

    async def stop(self) -> None:
        """Stop the bot and the emulator."""
        if self.hook is not None:
            await self.hook.stop()
        if self.app is not None:
            await self.app.stop()
            assert self.app.post_stop is not None
            await self.app.post_stop(self.app)  # the deliveries running on their own, cancelled
            await self.app.shutdown()
        if self.emu is not None:
            await self.emu.stop()

    async def settle(self, timeout: float = 20.0) -> None:
        """Wait until every delivered update has been handled and nothing changes any more."""
        assert self.emu is not None and self.app is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet = 0
        last = -1
        while quiet < 3:
            if loop.time() > deadline:
                raise TimeoutError("the bot did not settle")
            await asyncio.sleep(0.01)
            busy = (
                not self.app.update_queue.empty()
                or bool(self.emu.state.pending_updates)
                or self.processor.active > 0
                or self.service.detacher.running > 0
            )
            version = self.emu.state.version
            quiet = 0 if busy or version != last else quiet + 1
            last = version

    # ---------------------------------------------------------------- acting as users

    def user(self, name: str, **kwargs: Any) -> User:
        """A new Telegram user who has not started the bot yet."""
        return self.state.create_user(name, **kwargs)

    def group(self, title: str, creator: User, members: Sequence[User], **kwargs: Any) -> int:
        """A new group with the bot in it; its chat id."""
        return self.state.create_group(
            title, creator=creator.id, members=[m.id for m in members], **kwargs
        ).id

    async def say(self, user: User, chat_id: int, text: str, **kwargs: Any) -> None:
        """A user sends a text or a command, and the bot handles it."""
        self.state.send_text(user.id, chat_id, text, **kwargs)
        await self.settle()

    async def open(self, user: User, url: str) -> None:
        """A user opens a t.me deep link."""
        self.state.open_link(user.id, url)
        await self.settle()

    async def press(self, user: User, message: Message, data: str) -> tuple[str | None, bool]:
        """A user taps a button; the bot's answer (toast text, alert)."""
        assert self.emu is not None
        query_id = self.state.press_button(user.id, message.chat_id, message.message_id, data)
        query = await self.emu.wait_for_answer(query_id, timeout=20)
        await self.handled()
        return query.text, query.show_alert

    async def handled(self) -> None:
        """Until the updates taken are handled and the deliveries they asked for have ended
        (the tap's answer comes before them)."""
        assert self.app is not None
        while True:
            while self.processor.active or not self.app.update_queue.empty():
                await asyncio.sleep(0.002)
            await self.service.detacher.idle()
            if not self.processor.active and self.app.update_queue.empty():
                return

    async def forge(self, user: User, chat_id: int, message_id: int, data: str) -> CallbackQuery:
        """A tap with any callback data, as a modified client could send it; the answered query.

        `press` only taps buttons the bot really sent; this builds the same `callback_query`
        update by hand (the emulator has no call for it), for data no keyboard ever carried.
        """
        assert self.emu is not None
        state = self.state
        self._forged += 1
        query = CallbackQuery(
            id=f"9{self._forged:018d}",
            user_id=user.id,
            chat_id=chat_id,
            message_id=message_id,
            data=data,
            created_at=state.now(),
        )
        state.callback_queries[query.id] = query
        message = state.message(chat_id, message_id)
        state.emit(
            "callback_query",
            {
                "id": query.id,
                "from": user.to_api(),
                "message": state.message_to_api(message),
                "chat_instance": str(abs(chat_id) * 7919 % 10**12),
                "data": data,
            },
        )
        state.changed()
        answered = await self.emu.wait_for_answer(query.id, timeout=20)
        await self.settle()
        return answered

    async def snapshot(self, game_id: str) -> dict[bytes | str, bytes | str]:
        """The game's stored Redis hash, byte for byte (to show a tap changed nothing)."""
        return await self.redis.hgetall(self.store.keys.game(game_id))

    def bot_messages(self, chat_id: int) -> list[Message]:
        """The bot's visible messages in a chat, oldest first."""
        return [m for m in self.state.messages(chat_id) if m.sender_id == self.state.bot.id]

    def last(self, chat_id: int) -> Message:
        """The bot's newest visible message in a chat."""
        messages = self.bot_messages(chat_id)
        assert messages, f"no bot message in {chat_id}"
        return messages[-1]

    async def record(self, chat_id: int) -> GameRecord | None:
        """The active game of a chat, as stored (for assertions only, never for acting)."""
        gid = await self.store.active_game(chat_id, None)
        return None if gid is None else await self.store.load(gid)


@contextlib.asynccontextmanager
async def world_over(
    url: str, key_prefix: str, timeout: float, connections: int = CONNECTIONS
) -> AsyncIterator[World]:
    """The emulator and the bot over the Redis at `url` with the bot's production client (calls
    timing out after `timeout`, at most `connections` at once), until the block ends."""
    client = open_redis(url, timeout, connections=connections)
    assert isinstance(client, Redis)
    world = World(client, key_prefix)
    await world.start()
    try:
        yield world
    finally:
        await world.stop()
        await client.aclose()
