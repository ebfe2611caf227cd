"""Bot processes for end-to-end tests: `saboteur-bot` as shipped, in webhook mode, as subprocesses.

The Bot API emulator runs in the test's event loop (real clock: the subprocesses use real time);
each bot process serves a webhook port of its own. `RoundRobin` is a tiny webhook proxy that
hands consecutive updates to different processes, as a load balancer would. `Table` plays the
humans: it taps only buttons the bot sent and reads only what the chats show; the store is
read for assertions only.

Each test gives its processes a Redis key prefix of its own (`own_keys`, passed to the bot as
`REDIS_KEY_PREFIX`) on the session's Redis, and deletes only the keys under it afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from aiohttp import web
from redis.asyncio import Redis

from emulator import Message, User
from emulator.model import CallbackQuery
from emulator.server import SECRET_HEADER, BotApiEmulator
from engine import GameState, apply
from tests.catalog import texts
from tgbot import menus, presenter, time_texts
from tgbot.buttons import (
    Command,
    ConfirmDiscard,
    ConfirmGoal,
    ConfirmSpot,
    ConfirmTarget,
    LeaveGame,
    PickCard,
    PickGoal,
    PickSpot,
    PickTarget,
    PickTool,
    StartDiscard,
    StartGame,
    ToggleDiscard,
)
from tgbot.callback import decode
from tgbot.i18n import Language
from tgbot.records import GameRecord
from tgbot.redis_store import RedisStore

from .harness import buttons, free_port, url_buttons

SCRIPT = Path(sys.executable).with_name("saboteur-bot")
BUSY_TOASTS = {
    texts(Language(code)).pgettext("toast", "The bot is busy; please try again in a moment.")
    for code in ("en", "ko")
}
SECRET = "procs-webhook-secret_7"
EN = Language("en")  # the emulator's users run Telegram in English
PLAYED = texts(EN).pgettext("toast", "Done!")
MAP_MARK = "🗺"  # a map's result is an alert that starts so, instead of "Done!"


def was_played(text: str | None) -> bool:
    """Whether a confirm's answer says the move was made: "Done!", or a map's result (any
    language)."""
    done = {texts(Language(code)).pgettext("toast", "Done!") for code in ("en", "ko")}
    return text in done or (text or "").startswith(MAP_MARK)


ERROR_TOAST = texts(EN).pgettext(
    "toast", "Something went wrong. The game is safe; please try again."
)
PICKS = (PickSpot, PickTarget, PickTool, PickGoal)


# ------------------------------------------------------------------ a Redis database of one's own


@contextlib.asynccontextmanager
async def own_keys(redis_url: str) -> AsyncIterator[tuple[str, Redis, str]]:
    """(URL, client, key prefix) on the session's Redis; the prefix's keys are deleted after."""
    prefix = f"procs-{uuid.uuid4().hex[:10]}"
    client = Redis.from_url(redis_url)
    try:
        yield redis_url, client, prefix
    finally:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=500)]
        if keys:
            await client.delete(*keys)
        await client.aclose()


# ------------------------------------------------------------------ bot processes


@dataclass
class BotProcess:
    """One `saboteur-bot` process in webhook mode, listening on `port`."""

    name: str
    env: dict[str, str]
    port: int
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self) -> None:
        """Start (or restart) the process; its log goes to `log_path`."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "tgbot.main"]
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"\n===== start {self.starts} of {self.name} =====\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                command,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=Path(__file__).resolve().parents[2],
            )

    @property
    def pid(self) -> int:
        """The running process's id."""
        assert self.proc is not None
        return self.proc.pid

    def is_running(self) -> bool:
        """Whether the process is alive."""
        return self.proc is not None and self.proc.poll() is None

    async def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the webhook port accepts connections (the process has started serving)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if not self.is_running():
                raise AssertionError(f"{self.name} exited:\n{self.log()[-3000:]}")
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                if loop.time() > deadline:
                    tail = self.log()[-3000:]
                    raise TimeoutError(f"{self.name} did not listen:\n{tail}") from None
                await asyncio.sleep(0.05)
                continue
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
            return

    def freeze(self) -> None:
        """SIGSTOP: the process stops reading anything (its port still accepts connections)."""
        os.kill(self.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT: a frozen process goes on where it stopped."""
        os.kill(self.pid, signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL, and reap it: no cleanup of any kind runs in the process."""
        if self.proc is None or self.proc.poll() is not None:
            return
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        """End the process whatever its state (used by fixtures' finally)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGCONT)
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def log(self) -> str:
        """Everything the process (and its earlier runs) logged."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def bot_environment(
    emu: BotApiEmulator, redis_url: str, hook_url: str, port: int, prefix: str
) -> dict[str, str]:
    """The settings a container would get: token, API URL, Redis, webhook; nothing else."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "INFO",
        "TELEGRAM_BOT_TOKEN": emu.state.token,
        "TELEGRAM_API_URL": emu.url,
        "REDIS_URL": redis_url,
        "REDIS_KEY_PREFIX": prefix,
        "WEBHOOK_URL": hook_url,
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": SECRET,
    }


@dataclass
class Fleet:
    """Every bot process a test started; `stop_all` ends them (called from a finally)."""

    directory: Path
    processes: list[BotProcess] = field(default_factory=list)

    def add(self, name: str, env: dict[str, str], port: int) -> BotProcess:
        """A new (not yet started) process."""
        bot = BotProcess(name, env, port, self.directory / f"{name}.log")
        self.processes.append(bot)
        return bot

    def stop_all(self) -> None:
        """End every process, even frozen ones."""
        for bot in self.processes:
            bot.stop()

    def problems(self) -> list[str]:
        """Log lines of every process that report an error or a traceback."""
        out = []
        for bot in self.processes:
            for line in bot.log().splitlines():
                if " ERROR " in line or " CRITICAL " in line or "Traceback" in line:
                    out.append(f"{bot.name}: {line}")
        return out


@contextlib.contextmanager
def fleet(directory: Path) -> Iterator[Fleet]:
    """A fleet whose processes are always ended afterwards, even when the test fails."""
    f = Fleet(directory)
    try:
        yield f
    finally:
        f.stop_all()


# ------------------------------------------------------------------ a round-robin webhook proxy


class RoundRobin:
    """A webhook URL that forwards each POST to the next backend in turn (a load balancer)."""

    def __init__(self, backends: Sequence[str]) -> None:
        self.backends = list(backends)
        self.port = free_port()
        self.forwarded: list[tuple[int, int]] = []  # (backend index, HTTP status or 0)
        self.routes: dict[int, int] = {}  # update id -> backend index it was last sent to
        self._next = 0
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        """The webhook URL to give the bots (and so Telegram)."""
        return f"http://127.0.0.1:{self.port}/hook"

    async def __aenter__(self) -> RoundRobin:
        app = web.Application()
        app.router.add_post("/hook", self._forward)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        index = self._next
        self._next = (self._next + 1) % len(self.backends)
        body = await request.read()
        with contextlib.suppress(ValueError, KeyError, TypeError):
            self.routes[int(json.loads(body)["update_id"])] = index
        headers = {"Content-Type": request.content_type}
        if SECRET_HEADER in request.headers:
            headers[SECRET_HEADER] = request.headers[SECRET_HEADER]
        assert self._session is not None
        try:
            async with self._session.post(
                self.backends[index],
                data=body,
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=5),
            ) as response:
                self.forwarded.append((index, response.status))
                body = await response.read()  # (a tap's answer may ride in it, with its type)
                kind = response.headers.get("Content-Type")
                return web.Response(status=response.status, body=body, headers=_typed(kind))
        except (aiohttp.ClientError, TimeoutError):
            self.forwarded.append((index, 0))
            return web.Response(status=502)


def _typed(content_type: str | None) -> dict[str, str]:
    return {} if content_type is None else {"Content-Type": content_type}


# ------------------------------------------------------------------ the players


def data_of(message: Message, kind: type[Command] | tuple[type[Command], ...]) -> list[str]:
    """The callback data of a message's buttons whose command is of this kind."""
    return [d for _, d in buttons(message) if isinstance(decode(d), kind)]


def offered_version(message: Message, gid: str) -> int | None:
    """The state version of a hand message that offers cards to play in game `gid`, if any."""
    for _, data in buttons(message):
        command = decode(data)
        if isinstance(command, PickCard | StartDiscard) and command.game == gid:
            return command.version
    return None


@dataclass(frozen=True)
class Move:
    """A Confirm tap the bot answered "done": who, and the command (for replaying the game)."""

    user: int
    command: Command


@dataclass
class Table:
    """The humans at a real (subprocess) bot: they tap buttons and read the chats."""

    emu: BotApiEmulator
    redis: Redis
    prefix: str
    answer_timeout: float = 20.0
    retry_busy: bool = False  # tap again, as a person would, while the bot says it is busy

    @property
    def store(self) -> RedisStore:
        """The bot's store, for assertions only."""
        return RedisStore(self.redis, prefix=self.prefix)

    def bot_messages(self, chat_id: int, *, include_deleted: bool = False) -> list[Message]:
        """The bot's messages in a chat, oldest first."""
        state = self.emu.state
        return [
            m
            for m in state.messages(chat_id, include_deleted=include_deleted)
            if m.sender_id == state.bot.id
        ]

    def live(self, user: User) -> Message:
        """A player's newest hand message (the one they look at)."""
        photos = [m for m in self.bot_messages(user.id) if m.content.photo]
        assert photos, f"{user.first_name} has no hand message"
        return photos[-1]

    async def tap(self, user: User, message: Message, data: str) -> CallbackQuery:
        """Tap a button and wait for the bot's answer."""
        for _ in range(40):
            query_id = self.emu.state.press_button(
                user.id, message.chat_id, message.message_id, data
            )
            answer = await self.emu.wait_for_answer(query_id, timeout=self.answer_timeout)
            if not self.retry_busy or answer.text not in BUSY_TOASTS:
                return answer
            await asyncio.sleep(0.5)
        raise AssertionError("the bot stayed busy")

    async def step(self, user: User, message: Message, data: str) -> Message:
        """Tap a menu button and wait for its screen: the bot answers the tap first, then draws
        the new screen (an edit of the live message, or a new one); the live message then."""
        before = (message.message_id, len(message.history))
        await self.tap(user, message, data)

        def redrawn() -> Message | None:
            live = self.live(user)
            return live if (live.message_id, len(live.history)) != before else None

        drawn: Message = await self.emu.wait_for(redrawn, timeout=self.answer_timeout)
        return drawn

    async def open_links(self, users: Sequence[User], url: str) -> None:
        """Everyone opens the same deep link at once."""
        for user in users:
            self.emu.state.open_link(user.id, url)

    def to_act(self, players: Sequence[User], gid: str, after: int) -> tuple[User, Message] | None:
        """The player offered a move of `gid` at a version above `after`, with that message."""
        found = []
        for p in players:
            photos = [m for m in self.bot_messages(p.id) if m.content.photo]
            if photos:
                version = offered_version(photos[-1], gid)
                if version is not None and version > after:
                    found.append((p, photos[-1]))
        assert len(found) <= 1, "only one player may be offered a move"
        return found[0] if found else None

    async def wait_turn(
        self, players: Sequence[User], gid: str, after: int, timeout: float = 20.0
    ) -> tuple[User, Message, int]:
        """Wait until someone is offered a move above version `after`: (user, message, version)."""
        user, message = await self.emu.wait_for(
            lambda: self.to_act(players, gid, after), timeout=timeout
        )
        version = offered_version(message, gid)
        assert version is not None
        return user, message, version

    async def reach_confirm(
        self, user: User, message: Message, rng: random.Random
    ) -> tuple[Message, str]:
        """Tap through a hand to a Confirm button (a card's spot or target, else a discard)."""
        cards = data_of(message, PickCard)
        if cards and rng.random() < 0.7:
            message = await self.step(user, message, rng.choice(cards))
            for _ in range(3):
                confirms = data_of(message, (ConfirmSpot, ConfirmTarget, ConfirmGoal))
                if confirms:
                    return message, confirms[0]
                picks = data_of(message, PICKS)
                if not picks:
                    break
                message = await self.step(user, message, rng.choice(picks))
        for _ in range(3):  # back to the hand (from a spot's or a target's screen, twice)
            if data_of(message, StartDiscard):
                break
            message = await self.step(user, message, buttons(message)[-1][1])
        starts = data_of(message, StartDiscard)
        assert len(starts) == 1, [label for label, _ in buttons(message)]
        (start,) = starts
        message = await self.step(user, message, start)
        message = await self.step(user, message, rng.choice(data_of(message, ToggleDiscard)))
        (confirm,) = data_of(message, ConfirmDiscard)
        return message, confirm

    async def quiet(self, *, seconds: float = 0.4, timeout: float = 30.0) -> None:
        """Wait until no update is pending, nothing is owed and the chats stop changing."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        state = self.emu.state
        last, since = -1, loop.time()
        while True:
            owing = await self.store.owing_games()
            busy = bool(state.pending_updates) or bool(owing)
            if busy or state.version != last:
                last, since = state.version, loop.time()
            elif loop.time() - since >= seconds:
                return
            if loop.time() > deadline:
                raise TimeoutError(f"the bots did not settle (owing: {owing})")
            await asyncio.sleep(0.02)


async def play_turn(table: Table, players: list[User], gid: str, last: int, rng: random.Random,
                    moves: list[Move]) -> int:  # fmt: skip
    """One turn: the player to move taps through to Confirm and confirms; the new version."""
    user, message, version = await table.wait_turn(players, gid, last, timeout=60)
    message, confirm = await table.reach_confirm(user, message, rng)
    answer = await table.tap(user, message, confirm)
    assert was_played(answer.text), answer.text
    moves.append(Move(user.id, decode(confirm)))  # type: ignore[arg-type]
    return version


async def open_game(table: Table, players: list[User], title: str) -> tuple[int, str]:
    """The first player opens a lobby, all join through its deep link at once, the creator
    starts; (chat id, game id)."""
    state = table.emu.state
    creator = players[0]
    chat = state.create_group(title, creator=creator.id, members=[p.id for p in players[1:]]).id
    state.send_text(creator.id, chat, "/new")
    lobby = await table.emu.wait_for_bot_message(chat, timeout=20)
    gid = next(c.game for c in (decode(d) for _, d in buttons(lobby)) if isinstance(c, LeaveGame))
    ((_, url),) = url_buttons(lobby)
    await table.open_links(players, url)

    async def joined() -> bool:
        record = await table.store.load(gid)
        return record is not None and len(record.lobby.players) == len(players)

    await until(joined, timeout=20)
    await table.quiet()
    # The lobby message the record points to: a send that timed out under load may have been
    # sent again (its copy deleted), so it need not be the first one seen.
    lobby_id = (await loaded(table.store, gid)).messages.lobby or 0
    lobby = state.message(chat, lobby_id)
    (start,) = data_of(lobby, StartGame)
    query = await table.tap(creator, lobby, start)
    stale = {
        texts(Language(code)).pgettext(
            "toast", "That button was out of date; the lobby has been updated."
        )
        for code in ("en", "ko")
    }
    if query.text in stale:
        # The lobby's edit for the last join had not reached the chat yet (seen under heavy
        # load): the bot says it redraws the lobby, so its buttons change; then the creator
        # taps Start again, as a person would.
        def redrawn() -> Message | None:
            shown = state.message(chat, lobby_id)
            return shown if data_of(shown, StartGame) not in ([start], []) else None

        lobby = await table.emu.wait_for(redrawn, timeout=30)
        (start,) = data_of(lobby, StartGame)
        query = await table.tap(creator, lobby, start)
    record = await loaded(table.store, gid)
    done = {texts(Language(code)).pgettext("toast", "Done!") for code in ("en", "ko")}
    assert query.text in done, query.text  # in the tapper's language
    assert record.state is not None
    return chat, gid


async def until(check: Callable[[], Awaitable[bool]], timeout: float, step: float = 0.01) -> None:
    """Poll an async condition until it holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise TimeoutError(f"condition not met within {timeout} s")
        await asyncio.sleep(step)


async def loaded(store: RedisStore, gid: str) -> GameRecord:
    """A stored game that must exist."""
    record = await store.load(gid)
    assert record is not None, gid
    return record


def replay(gid: str, start: GameState, moves: Sequence[Move]) -> GameState:
    """The state the answered moves lead to from `start`, through the bot's own menus."""
    state = start
    for move in moves:
        seat = menus.Seat(gid, state, move.user, {}, EN)
        assert getattr(move.command, "version", None) == state.version, (move, state.version)
        outcome = menus.respond(seat, move.command)
        assert isinstance(outcome, menus.Play), (move, outcome)
        state = apply(state, move.user, outcome.action).state
    return state


def board_photos(table: Table, chat_id: int) -> list[Message]:
    """Every board post the bot ever made in a group, deleted ones too."""
    return [m for m in table.bot_messages(chat_id, include_deleted=True) if m.content.photo]


def caption_tail(record: GameRecord, state: GameState) -> str:
    """The part of a board caption that names the state it shows (round, deck, who is next):
    its first lines (with the turn's deadline when it has one)."""
    ends_at = time_texts.turn_ends_at(record) if state is record.state else None
    names = presenter.names_of(record)
    return presenter.board_caption(state, names, record.language, ends_at=ends_at)


def assert_one_board_per_state(table: Table, record: GameRecord) -> None:
    """The group's live board shows the current state, and no state was posted twice."""
    assert record.state is not None
    photos = board_photos(table, record.chat_id)
    visible = [m for m in photos if not m.deleted]
    assert [m.message_id for m in visible] == [record.messages.board], (
        "one visible board post, the one the record points to",
        [(m.message_id, m.content.raw_caption) for m in visible],
        record.messages.board,
    )
    tail = caption_tail(record, record.state)
    width = tail.count("\n") + 1
    raw = visible[0].content.raw_caption or ""
    assert raw.startswith(tail), (raw, tail)
    tails = ["\n".join((m.content.raw_caption or "").split("\n")[:width]) for m in photos]
    doubled = sorted({x for x in tails if tails.count(x) > 1})
    assert not doubled, f"a state got two board posts: {doubled}"
