"""Load: the real bot (`saboteur-bot`, webhook mode, its own process) against the Bot API
emulator with Telegram-like latency and a real `redis-server`; K games of P players played at
once, each game with one tap in flight, as humans play (tap, wait for the answer, tap again).

Run: `python bench/load.py --games 10 --players 4 --latency 150 --moves 10`
(`--bot PATH` runs another checkout's `saboteur-bot`, to compare two versions; `--upload-kbps`
limits the upload bandwidth; the emulator takes photo sizes from the PNG header instead of
thumbnailing, unless `--full-photos`; Redis round trips are always counted, and `--trips` also
counts the commands clients send, by name). `--bot-rate N` lets the bot send N messages a
second in all, in the emulator and in the bot's own budget, instead of Telegram's 30: what the
bot would do where that limit did not bind.
`--processes N` runs N bot processes behind a real `haproxy` balancing round-robin (`--haproxy`
puts it in front of one process too); `--cluster` a local six-node Redis Cluster (three masters,
three replicas, no persistence) instead of one `redis-server`. CPU and Redis figures are
summed over the processes and the masters.

Prints moves per second for the whole process, tap → answer percentiles, the bot's CPU per
move, Redis commands per move and Redis bytes per game, and the boards in two parts: the moves
whose own board was posted (tap → that board), and the moves the group's budget (20 posts a
minute) folded into a later board (how many, and tap → the board that showed them). A board's
caption says which move it shows: its round and deck ("Round 1/3 · deck 33"), against the deck
the mover's hand showed before the discard (one card drawn after it). Targets (issue 13):
with 150 ms per call and 30 games, at least 20 turns a second, tap → answer p50 ≤ 250 ms and
p99 ≤ 600 ms, tap → new board p50 ≤ 700 ms where the group's own budget allows a post (the
moves whose own board was posted); with no latency and 50 games, at least 100 moves a second,
bot CPU ≤ 10 ms per move, ≤ 16 KB of Redis per game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis.asyncio import Redis

from emulator import EmulatorState, Faults, Message, RateLimits, User
from emulator.server import BotApiEmulator, update_chat
from tests.haproxy import haproxy
from tests.redis_cluster import LocalCluster
from tgbot.buttons import (
    Back,
    ConfirmDiscard,
    ConfirmSpot,
    PickCard,
    PickSpot,
    StartDiscard,
    StartGame,
    ToggleDiscard,
)
from tgbot.callback import decode
from tgbot.i18n import LANGUAGES, Texts, texts
from tgbot.keys import DEFAULT_PREFIX, shard_of
from tgbot.menu_types import BLOCKED
from tgbot.redis_client import RedisClient, open_redis
from tgbot.redis_store import RedisStore

ROOT = Path(__file__).resolve().parent.parent
SECRET = "bench-webhook-secret"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
OLD_WAIT = 5.0  # the CPU and Redis figures are read once each board came or this passed
BOARD_WAIT = 90.0  # a move not shown by any board by then is counted as never shown


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def redis_backend(cluster: bool) -> Iterator[tuple[str, list[str]]]:
    """A throwaway Redis without persistence: (the bot's REDIS_URL, a plain URL of each master)."""
    if not cluster:
        with redis_server() as url:
            yield url, [url]
        return
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as folder:
        nodes = LocalCluster(Path(folder), persistent=False)
        try:
            nodes.start()
            yield nodes.url, [f"redis://127.0.0.1:{p}/0" for p in nodes.masters()]
        finally:
            nodes.stop()


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway redis-server on a free port, without persistence; its URL."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix="bench-redis-")
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
                break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used so far."""
    user, system = cpu_split(pid)
    return user + system


def cpu_split(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


@dataclass(frozen=True)
class Bot:
    """A bot process and its webhook port (which serves GET /metrics too)."""

    proc: subprocess.Popen[bytes]
    port: int


async def bot_counters(bots: list[Bot]) -> dict[str, float]:
    """The bots' Prometheus counters that say where sends went (summed over processes):
    Bot API outcomes, 429s and sends held back by a spent budget."""
    wanted = (
        "saboteur_deliveries_total",
        "saboteur_telegram_429_total",
        "saboteur_budget_waits_total",
    )
    counts: dict[str, float] = {}
    for bot in bots:
        reader, writer = await asyncio.open_connection("127.0.0.1", bot.port)
        writer.write(b"GET /metrics HTTP/1.0\r\nHost: bench\r\n\r\n")
        await writer.drain()
        body = (await reader.read()).decode(errors="replace")
        writer.close()
        for line in body.splitlines():
            if line.startswith(wanted) and " " in line:
                name, value = line.rsplit(" ", 1)
                key = name.replace("_total", "")
                counts[key] = counts.get(key, 0.0) + float(value)
    return counts


@contextlib.asynccontextmanager
async def bot_processes(
    args: argparse.Namespace, emu: BotApiEmulator, redis_url: str, folder: Path
) -> AsyncIterator[list[Bot]]:
    """`--processes` bot processes, behind haproxy when more than one (or `--haproxy`)."""
    ports = [free_port() for _ in range(args.processes)]
    balanced = args.haproxy or args.processes > 1
    async with contextlib.AsyncExitStack() as stack:
        hook = None
        if balanced:
            hook = f"http://127.0.0.1:{stack.enter_context(haproxy(folder, ports))}/hook"
        procs = []
        for i, port in enumerate(ports):
            log = folder / f"bot{i}.log"
            procs.append(
                await stack.enter_async_context(
                    bot_process(args.bot, emu, redis_url, log, port, hook, args.bot_rate)
                )
            )
        yield [Bot(proc, port) for proc, port in zip(procs, ports, strict=True)]


@contextlib.asynccontextmanager
async def bot_process(
    bot: str,
    emu: BotApiEmulator,
    redis_url: str,
    log: Path,
    port: int,
    hook: str | None,
    rate: int | None = None,
) -> AsyncIterator[subprocess.Popen[bytes]]:
    """`saboteur-bot` in webhook mode against the emulator, until the block ends; Telegram
    posts to `hook` (a load balancer) or straight to the process's port. `rate`: the bot's
    own budget of messages a second (`--bot-rate`), else as the environment sets it."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        "TELEGRAM_BOT_TOKEN": emu.state.token,
        "TELEGRAM_API_URL": emu.url,
        "REDIS_URL": redis_url,
        "WEBHOOK_URL": hook or f"http://127.0.0.1:{port}/hook",
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": SECRET,
    }
    # as set for the benchmark (WEBHOOK_REPLIES=0: every tap answered by a call of its own)
    for name in ("BOT_SENDS_PER_SECOND", "COMPUTER_PAUSE_SECONDS", "WEBHOOK_REPLIES"):
        if name in os.environ:
            env[name] = os.environ[name]
    if rate is not None:
        env["BOT_SENDS_PER_SECOND"] = str(rate)
    with log.open("wb") as out:
        proc = subprocess.Popen([bot], env=env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 180  # three processes starting on a busy machine
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"the bot exited:\n{log.read_text()[-3000:]}")
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                if loop.time() > deadline:
                    raise SystemExit("the bot did not start serving") from None
                await asyncio.sleep(0.1)
        await emu.wait_for(lambda: bool(emu.state.webhook.url), timeout=30)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


@dataclass
class Figures:
    """What the games measured."""

    answers: list[float] = field(default_factory=list)  # tap → answer, seconds
    own_boards: list[float] = field(default_factory=list)  # confirm tap → the move's own board
    folded: list[float] = field(default_factory=list)  # confirm tap → the later board showing it
    never_shown: int = 0  # moves no board showed within BOARD_WAIT
    untold: int = 0  # moves made with the deck empty: no board caption tells them apart
    moves: int = 0
    waiting: list[tuple[float, asyncio.Task[None]]] = field(default_factory=list)  # (tap, board)
    confirmed: Counter[str] = field(default_factory=Counter)  # the confirm taps' answers
    seen: dict[tuple[int, int], float] = field(default_factory=dict)  # board post → first seen


def callbacks(message: Message) -> list[str]:
    """The callback data of a message's buttons."""
    markup = message.content.reply_markup or {}
    return [
        b["callback_data"]
        for row in markup.get("inline_keyboard", [])
        for b in row
        if "callback_data" in b
    ]


def bot_photos(emu: BotApiEmulator, chat: int) -> list[Message]:
    """The bot's visible photos in a chat."""
    bot = emu.state.bot.id
    return [m for m in emu.state.messages(chat) if m.sender_id == bot and m.content.photo]


async def tap(emu: BotApiEmulator, user: User, message: Message, data: str, fig: Figures) -> str:
    """A tap, timed until its answer; the answer's text."""
    started = time.perf_counter()
    query = emu.state.press_button(user.id, message.chat_id, message.message_id, data)
    answered = await emu.wait_for_answer(query, timeout=60)
    fig.answers.append(time.perf_counter() - started)
    return answered.text or ""


async def live(emu: BotApiEmulator, user: User, wanted: type, before: tuple[int, int]) -> Message:
    """The user's newest hand message once it offers `wanted` and differs from `before`."""

    def ready() -> Message | None:
        photos = bot_photos(emu, user.id)
        if not photos:
            return None
        m = photos[-1]
        if (m.message_id, len(m.history)) == before:
            return None
        return m if any(isinstance(decode(d), wanted) for d in callbacks(m)) else None

    try:
        found: Message = await emu.wait_for(ready, timeout=60)
    except TimeoutError:
        name = wanted.__name__
        raise TimeoutError(f"{user.first_name}'s hand did not offer {name} within 60 s") from None
    return found


async def open_game(
    emu: BotApiEmulator, redis: RedisClient, users: list[User], chat: int, fig: Figures
) -> None:
    """A game's lobby, joins and start."""
    state = emu.state
    state.send_text(users[0].id, chat, "/new")
    lobby = await emu.wait_for(
        lambda: next((m for m in state.messages(chat) if m.sender_id == state.bot.id), None),
        timeout=60,
    )
    url = next(
        b["url"]
        for row in (lobby.content.reply_markup or {})["inline_keyboard"]
        for b in row
        if "url" in b
    )
    for user in users:
        state.open_link(user.id, url)
    store = RedisStore(redis, prefix=DEFAULT_PREFIX)
    for _ in range(600):  # every join saved (their "you joined" note may be lost to a 429)
        gid = await store.active_game(chat, None)
        record = None if gid is None else await store.load(gid)
        if record is not None and len(record.lobby.players) == len(users):
            break
        await asyncio.sleep(0.1)
    for _ in range(100):  # the lobby is redrawn after each join: tap its newest Start
        gid = await store.active_game(chat, None)
        record = None if gid is None else await store.load(gid)
        if record is None or record.messages.lobby is None:
            await asyncio.sleep(0.05)
            continue
        newest = state.message(chat, record.messages.lobby)
        starts = [d for d in callbacks(newest) if isinstance(decode(d), StartGame)]
        if not starts:
            await asyncio.sleep(0.05)
            continue
        start = starts[0]
        await tap(emu, users[0], newest, start, fig)
        with contextlib.suppress(TimeoutError):  # the hands come after the answer
            await emu.wait_for(lambda: all(bot_photos(emu, u.id) for u in users), timeout=3)
            break


def caption_patterns(make: Callable[[Texts], str]) -> list[re.Pattern[str]]:
    """A caption's text in each of the bot's languages (`make` writes it with each field given
    as `{name}`; HTML tags are left out, as a caption's plain text has none), each field a
    named group: a number for `round`, `deck` and `count`, anything for the others."""
    numbers = ("round", "deck", "count")
    patterns = []
    for language in LANGUAGES:
        written = re.sub(r"<[^>]+>", "", make(texts(language)))
        pattern = ""
        for piece in re.split(r"(\{\w+\})", written):
            name = piece[1:-1] if piece.startswith("{") and piece.endswith("}") else None
            if name is None:
                pattern += re.escape(piece)
            else:
                pattern += rf"(?P<{name}>\d+)" if name in numbers else ".*?"
        patterns.append(re.compile(pattern))
    return patterns


def found_in(patterns: list[re.Pattern[str]], text: str) -> dict[str, str] | None:
    """The fields of the first pattern found in `text`."""
    for pattern in patterns:
        found = pattern.search(text)
        if found is not None:
            return found.groupdict()
    return None


_FIELDS = {"round": "{round}", "deck": "{deck}", "count": "{count}", "name": "{name}"}
# A board's status line, a hand's first line and its deck line, as the bot writes them.
BOARD_STATUS = caption_patterns(
    lambda tr: tr.ngettext(
        "Round {round}/3 · deck {deck}\n{name}, your turn!",
        "Round {round}/3 · deck {deck}\n{name}, your turn!",
        2,
        **_FIELDS,
    ).split("\n")[0]
)
HAND_ROUND = caption_patterns(
    lambda tr: tr.gettext("🎴 <b>{chat}</b> · round {round}/3", chat="{chat}", round="{round}")
)
HAND_DECK = caption_patterns(
    lambda tr: tr.ngettext(
        "Cards left in the deck: {count}", "Cards left in the deck: {count}", 2, count="{count}"
    )
)


def board_shows(message: Message) -> tuple[int, int] | None:
    """The (round, deck) a group's board post shows, from its caption (None: not a board of
    play, such as a round's final board)."""
    found = found_in(BOARD_STATUS, message.content.caption or "")
    return None if found is None else (int(found["round"]), int(found["deck"]))


def hand_shows(message: Message) -> tuple[int, int] | None:
    """The (round, deck) a player's hand message shows, from its caption."""
    caption = message.content.caption or ""
    in_round, deck = found_in(HAND_ROUND, caption), found_in(HAND_DECK, caption)
    if in_round is None or deck is None:
        return None
    return int(in_round["round"]), int(deck["count"])


async def board_after(
    emu: BotApiEmulator, chat: int, own: tuple[int, int], started: float, fig: Figures
) -> None:
    """Time the group's board that shows a move: `own` is the (round, deck) of the move's own
    board; a board of a later round or a smaller deck shows it folded in with later moves (the
    group's budget let no post go between them). Each board post is timed when first seen."""

    def showing() -> tuple[int, float] | None:
        now = time.perf_counter()
        found = None
        for m in emu.state.messages(chat, include_deleted=True):
            if m.sender_id != emu.state.bot.id or not m.content.photo:
                continue
            shows = board_shows(m)
            if shows is None or shows[0] < own[0] or (shows[0] == own[0] and shows[1] > own[1]):
                continue  # older than the move
            at = fig.seen.setdefault((chat, m.message_id), now)
            if found is None or at < found[1]:
                found = (m.message_id, at)
        return found

    try:
        message_id, at = await emu.wait_for(showing, timeout=BOARD_WAIT)
    except TimeoutError:
        fig.never_shown += 1
        return
    shown = emu.state.message(chat, message_id)
    (fig.own_boards if board_shows(shown) == own else fig.folded).append(at - started)


async def play(
    emu: BotApiEmulator,
    redis_url: str,
    users: list[User],
    chat: int,
    moves: int,
    fig: Figures,
    dig: bool = False,
) -> None:
    """`moves` discards of one game (`dig`: tunnels where a card can go), one tap in flight; a
    wait that times out prints what the game's players and group were last sent and what its
    record says (`diagnose`)."""
    try:
        await _play(emu, users, chat, moves, fig, dig)
    except TimeoutError as exc:
        print(await diagnose(emu, redis_url, users, chat, str(exc) or "a wait timed out"))
        raise


async def changed(emu: BotApiEmulator, user: User, before: tuple[int, int]) -> Message:
    """The user's newest hand message once it differs from `before` (a new screen)."""

    def ready() -> Message | None:
        photos = bot_photos(emu, user.id)
        if not photos or (photos[-1].message_id, len(photos[-1].history)) == before:
            return None
        return photos[-1]

    try:
        found: Message = await emu.wait_for(ready, timeout=60)
    except TimeoutError:
        raise TimeoutError(f"{user.first_name}'s hand did not change within 60 s") from None
    return found


def _state(message: Message) -> tuple[int, int]:
    return message.message_id, len(message.history)


def _labelled(message: Message) -> list[tuple[object, str, str]]:
    """(command, data, label) of a message's callback buttons."""
    markup = message.content.reply_markup or {}
    return [
        (decode(b["callback_data"]), b["callback_data"], b.get("text", ""))
        for row in markup.get("inline_keyboard", [])
        for b in row
        if "callback_data" in b
    ]


async def dig_tap(
    emu: BotApiEmulator, user: User, hand: Message, fig: Figures, rng: random.Random
) -> tuple[Message, str] | None:
    """Play a tunnel card at one of its spots, as a player picks from the previews: each card
    not marked unplayable is tried in turn (an action card's menu is left by Back); the hand
    before the confirm tap and its data, or None (the hand shown again) when no card has a spot."""
    cards = [d for c, d, label in _labelled(hand) if isinstance(c, PickCard)]
    cards = [
        d
        for c, d, label in _labelled(hand)
        if isinstance(c, PickCard) and not label.startswith(BLOCKED)
    ]
    for data in cards:
        before = _state(hand)
        await tap(emu, user, hand, data, fig)
        hand = await changed(emu, user, before)
        spots = [d for c, d, _ in _labelled(hand) if isinstance(c, PickSpot)]
        if spots:
            before = _state(hand)
            await tap(emu, user, hand, rng.choice(spots), fig)
            hand = await changed(emu, user, before)
        confirm = [d for c, d, _ in _labelled(hand) if isinstance(c, ConfirmSpot)]
        if confirm:
            return hand, confirm[0]
        back = [d for c, d, _ in _labelled(hand) if isinstance(c, Back)]
        if not back:
            return None
        before = _state(hand)
        await tap(emu, user, hand, back[0], fig)
        hand = await live(emu, user, StartDiscard, before)
    return None


async def _play(
    emu: BotApiEmulator, users: list[User], chat: int, moves: int, fig: Figures, dig: bool
) -> None:
    rng = random.Random(chat)
    for _ in range(moves):

        def to_act() -> tuple[User, Message] | None:
            for u in users:
                photos = bot_photos(emu, u.id)
                if photos and any(
                    isinstance(decode(d), StartDiscard) for d in callbacks(photos[-1])
                ):
                    return u, photos[-1]
            return None

        try:
            user, hand = await emu.wait_for(to_act, timeout=60)
        except TimeoutError:
            raise TimeoutError(f"chat {chat}: no hand offered a move within 60 s") from None
        dug = await dig_tap(emu, user, hand, fig, rng) if dig else None
        if dug is not None:
            hand, confirm = dug
        else:
            if dig:  # no card had a spot: the hand, shown again, offers the discard
                hand = bot_photos(emu, user.id)[-1]
            (start_discard,) = [d for d in callbacks(hand) if isinstance(decode(d), StartDiscard)]
            before = (hand.message_id, len(hand.history))
            await tap(emu, user, hand, start_discard, fig)
            hand = await live(emu, user, ToggleDiscard, before)  # (its timeout names the user)
            toggle = next(d for d in callbacks(hand) if isinstance(decode(d), ToggleDiscard))
            before = (hand.message_id, len(hand.history))
            await tap(emu, user, hand, toggle, fig)
            hand = await live(emu, user, ConfirmDiscard, before)
            confirm = next(d for d in callbacks(hand) if isinstance(decode(d), ConfirmDiscard))
        before = (hand.message_id, len(hand.history))
        shows = hand_shows(hand)  # the deck before the discard; one card is drawn after it
        started = time.perf_counter()
        said = await tap(emu, user, hand, confirm, fig)
        fig.confirmed[said] += 1
        fig.moves += 1

        # The board is awaited alongside: a group's posts are limited to 20 a minute, so a fast
        # game's boards are folded into later ones, and the game goes on meanwhile, as people
        # would. With the deck empty a move's board cannot be told from the next one's.
        if shows is None or shows[1] == 0:
            fig.untold += 1
        else:
            own = (shows[0], shows[1] - 1)
            task = asyncio.create_task(board_after(emu, chat, own, started, fig))
            fig.waiting.append((started, task))

        # The mover's hand must be redrawn without the discard's buttons (its menu keeps
        # ConfirmDiscard until the move is shown), at most a turn's worth.
        def shown_moved(u: User = user, seen: tuple[int, int] = before) -> bool:
            m = bot_photos(emu, u.id)[-1]
            return (m.message_id, len(m.history)) != seen and not any(
                isinstance(
                    decode(d),
                    StartDiscard | ConfirmDiscard | ToggleDiscard | ConfirmSpot | PickSpot,
                )
                for d in callbacks(m)
            )

        try:
            await emu.wait_for(shown_moved, timeout=60)
        except TimeoutError:
            raise TimeoutError(
                f"chat {chat}: the move of {user.first_name} was not shown within 60 s "
                f"(its confirm was answered {said!r})"
            ) from None


def _described(message: Message) -> str:
    """One line of what a message shows: id, edits, kind, buttons, the text's first line."""
    content = message.content
    kind = "photo" if content.photo else "animation" if content.animation else "text"
    shown = (content.caption if content.photo or content.animation else content.text) or ""
    buttons = Counter(type(decode(d)).__name__ for d in callbacks(message))
    keys = ", ".join(f"{k} {n}" if n > 1 else k for k, n in sorted(buttons.items()))
    gone = " deleted" if message.deleted else ""
    first = shown.split("\n", 1)[0][:90]
    return f"#{message.message_id}{gone} {kind}, {len(message.history)} edits [{keys}] {first!r}"


async def diagnose(
    emu: BotApiEmulator, redis_url: str, users: list[User], chat: int, what: str
) -> str:
    """What a stalled game looks like: each player's and the group's last messages as the
    emulator holds them, unanswered taps and updates not yet delivered, and the record's state
    (whose turn, what it owes, whether its outbox mark and turn deadline are there)."""
    state = emu.state
    bot = state.bot.id
    out = [f"--- stalled: {what}"]
    ids = {u.id for u in users}
    for where, name in [(u.id, u.first_name) for u in users] + [(chat, "group")]:
        sent = [m for m in state.messages(where, include_deleted=True) if m.sender_id == bot]
        out.append(f"{name} ({where}): {len(sent)} messages from the bot, the last:")
        out += [f"    {_described(m)}" for m in sent[-3:]]
    open_taps = [q for q in state.callback_queries.values() if q.user_id in ids and not q.answered]
    out.append(f"taps not answered: {[(q.user_id, q.data) for q in open_taps]}")
    pending = [u for u in state.pending_updates if update_chat(u) in (ids | {chat})]
    out.append(f"updates not delivered yet: {len(pending)} ({len(state.pending_updates)} in all)")
    hook = state.webhook
    out.append(
        f"webhook: {emu.webhook_attempts} POSTs for {len(state.update_log)} updates, last error "
        f"{hook.last_error_message!r} at {hook.last_error_date}"
    )
    client = open_redis(redis_url, 5.0)
    try:
        store = RedisStore(client, prefix=DEFAULT_PREFIX)
        gid = await store.active_game(chat, None)
        record = None if gid is None else await store.load(gid)
        if gid is None or record is None:
            out.append(f"record: none (the chat names {gid!r})")
            return "\n".join(out)
        game = record.state
        turn = "-" if game is None else f"{game.players[game.turn]} (version {game.version})"
        names = {p.user_id: p.name for p in record.lobby.players}
        mover = "-" if game is None else names.get(game.players[game.turn], "?")
        out.append(
            f"record {gid}: rev {record.rev}, {record.status.value}, turn of {mover} {turn}, "
            f"turn started {record.turn_started_at}, misses {record.misses}, "
            f"automatic {record.automatic}, hands {record.messages.hands}"
        )
        owed = record.owed
        owing = {
            f.name: getattr(owed, f.name)
            for f in dataclasses.fields(owed)
            if getattr(owed, f.name) not in ((), None, False, 0)
        }
        out.append(f"owed: {owing or 'nothing'}")
        marked = await client.zscore(store.keys.outbox(shard_of(gid)), gid)
        out.append(f"outbox mark: {marked} (games owing: {len(await store.owing_games())})")
        deadline = store.keys.deadlines(shard_of(gid))
        raw = await client.zrange(deadline, 0, -1, withscores=True)
        entries = cast("list[tuple[bytes | str, float]]", raw)
        mine = [(_text(k), v) for k, v in entries if gid in _text(k)]
        out.append(f"deadlines: {mine} (now {time.time():.0f})")
    finally:
        await client.aclose()
    return "\n".join(out)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index] * 1000


async def redis_figures(urls: list[str]) -> tuple[Counter[str], int]:
    """(commands processed so far by name, bytes of every key), over every master."""
    counts: Counter[str] = Counter()
    total = 0
    for url in urls:
        client = Redis.from_url(url)
        try:
            stats = await client.info("commandstats")
            async for key in client.scan_iter(count=1000):
                total += int(await client.memory_usage(key) or 0)
            counts += Counter(
                {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}
            )
        finally:
            await client.aclose()
    return counts, total


@dataclass
class Measured:
    """What a run measured over the moves (counts since the games were open)."""

    fig: Figures
    elapsed: float  # seconds the moves took
    cpu: float  # the bot processes' CPU seconds, and the kernel's part of it
    kernel: float
    redis: Counter[str]  # commands by name
    reads: int  # read events Redis processed: about one per round trip
    here: float  # CPU seconds of this process (the emulator and the players)
    redis_cpu: float  # CPU seconds of the Redis servers
    memory: int  # bytes of every key at the end
    sent: Counter[str]  # commands clients sent (--trips)
    calls: Counter[str]  # Bot API calls by method
    replies: Counter[str]  # requests made in webhook answers, by method
    uploads: int
    counters: dict[str, float]  # the bots' own counters
    posts: int  # webhook POSTs over the whole run (a redelivery is one more)
    updates: int  # updates over the whole run


async def run(args: argparse.Namespace) -> None:
    faults = Faults(latency_ms=args.latency, jitter_ms=args.jitter, upload_kbps=args.upload_kbps)
    # Telegram's: 20 messages a minute per group, 30 a second in all (or --bot-rate)
    limits = RateLimits() if args.bot_rate is None else RateLimits(global_messages=args.bot_rate)
    with redis_backend(args.cluster) as (redis_url, nodes), tempfile.TemporaryDirectory() as tmp:
        logs = Path(args.logs or tmp)
        logs.mkdir(parents=True, exist_ok=True)
        # Cheap photo sizes (no thumbnails), so that the emulator spends little of the machine.
        state = EmulatorState(rate_limits=limits, cheap_photos=not args.full_photos)
        emulator = BotApiEmulator(state, faults=faults)
        try:
            measured = await measure(args, emulator, redis_url, nodes, logs)
        except BaseException:
            keep_logs(args, logs)
            raise
    report(args, measured)


def keep_logs(args: argparse.Namespace, logs: Path) -> None:
    """After a failure: where the bot's logs are (kept, even without `--logs`), with the count
    of warnings, errors and lost update holds in each."""
    if not args.logs:
        kept = Path(tempfile.mkdtemp(prefix="load-logs-"))
        shutil.copytree(logs, kept, dirs_exist_ok=True)
        logs = kept
    for log in sorted(logs.glob("*.log")):
        lines = log.read_text(errors="replace").splitlines()
        kinds = Counter(k for line in lines for k in ("WARNING", "ERROR") if f" {k} " in line)
        lost = sum("hold was lost" in line for line in lines)
        print(f"bot log kept: {log} ({len(lines)} lines, {dict(kinds)}, {lost} holds lost)")


async def measure(
    args: argparse.Namespace, emulator: BotApiEmulator, redis_url: str, nodes: list[str], logs: Path
) -> Measured:
    """Open the games, then play their moves, measuring the moves."""
    state = emulator.state
    async with emulator as emu, bot_processes(args, emu, redis_url, logs) as bots:
        procs = [bot.proc for bot in bots]
        games = []
        for g in range(args.games):
            users = [state.create_user(f"P{g}-{i}") for i in range(args.players)]
            for u in users:
                state.start_bot(u.id)
            chat = state.create_group(
                f"G{g}", creator=users[0].id, members=[u.id for u in users[1:]]
            ).id
            games.append((users, chat))
        fig = Figures()
        client = open_redis(redis_url, 5.0)
        await client.ping()  # a Cluster client learns the nodes before concurrent calls
        await asyncio.gather(*(open_game(emu, client, users, chat, fig) for users, chat in games))
        await client.aclose()
        fig = Figures()  # the moves only, from here
        cpu0 = sum(cpu_seconds(proc.pid) for proc in procs)
        sys0 = sum(cpu_split(proc.pid)[1] for proc in procs)
        commands0, _ = await redis_figures(nodes)
        reads0 = await redis_reads(nodes)
        here0, redis_cpu0 = time.process_time(), await redis_cpu(nodes)
        calls0, uploads0 = emu.calls.copy(), state.photo_uploads
        replies0 = emu.webhook_replies.copy()
        counters0 = await bot_counters(bots)
        sent: Counter[str] = Counter()
        watching = [asyncio.create_task(watch_redis(n, sent)) for n in nodes if args.trips]
        started = time.perf_counter()
        await asyncio.gather(
            *(play(emu, redis_url, users, chat, args.moves, fig, args.dig) for users, chat in games)
        )
        for watcher in watching:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        elapsed = time.perf_counter() - started
        # The figures below are read where they always were: once each move's board came or
        # 5 s passed since its tap (the boards folded for longer are awaited after).
        tasks = [task for _, task in fig.waiting]
        last = max((at for at, _ in fig.waiting), default=time.perf_counter())
        with contextlib.suppress(ValueError):  # (no boards awaited)
            await asyncio.wait(tasks, timeout=max(0.0, last + OLD_WAIT - time.perf_counter()))
        reads = await redis_reads(nodes) - reads0
        here, spent_by_redis = time.process_time() - here0, await redis_cpu(nodes) - redis_cpu0
        cpu = sum(cpu_seconds(proc.pid) for proc in procs) - cpu0
        kernel = sum(cpu_split(proc.pid)[1] for proc in procs) - sys0
        commands, memory = await redis_figures(nodes)
        counters = {k: v - counters0.get(k, 0.0) for k, v in (await bot_counters(bots)).items()}
        await asyncio.gather(*tasks)  # the boards folded into later ones, up to BOARD_WAIT
        return Measured(
            fig=fig,
            elapsed=elapsed,
            cpu=cpu,
            kernel=kernel,
            redis=commands - commands0,
            reads=reads,
            here=here,
            redis_cpu=spent_by_redis,
            memory=memory,
            sent=sent,
            calls=emu.calls - calls0,
            replies=emu.webhook_replies - replies0,
            uploads=state.photo_uploads - uploads0,
            counters=counters,
            posts=emu.webhook_attempts,
            updates=len(state.update_log),
        )


def report(args: argparse.Namespace, m: Measured) -> None:
    """Print the figures."""
    fig = m.fig
    moves = max(fig.moves, 1)
    a, b, f = fig.answers, fig.own_boards, fig.folded
    print(f"games {args.games} x {args.players} players, {args.moves} moves each, ", end="")
    print(f"latency {args.latency:.0f} ms (± {args.jitter:.0f})", end="")
    print(f", upload {args.upload_kbps:.0f} kbit/s" if args.upload_kbps else "")
    front = "behind haproxy" if args.haproxy or args.processes > 1 else "no load balancer"
    where = "a 3-master Redis Cluster" if args.cluster else "one redis-server"
    rate = "30 (Telegram's)" if args.bot_rate is None else str(args.bot_rate)
    print(f"{args.processes} bot process(es), {front}, {where}; {rate} messages a second in all")
    print(f"moves/s (all processes)        {fig.moves / m.elapsed:8.2f}  ({m.elapsed:.1f} s)")
    print(f"tap -> answer p50/p95/p99 (ms) {_ms(a, 50)} {_ms(a, 95)} {_ms(a, 99)}  ({len(a)} taps)")
    print(f"tap -> own board p50/p95/p99   {_ms(b, 50)} {_ms(b, 95)} {_ms(b, 99)}", end="")
    print(f"  ({len(b)} moves whose own board was posted)")
    print(f"folded: tap -> later board     {_ms(f, 50)} {_ms(f, 95)} {_ms(f, 99)}", end="")
    print(f"  ({len(f)} moves folded into a later board by the group's 20 posts a minute", end="")
    print(f"; {fig.never_shown} not shown within {BOARD_WAIT:.0f} s", end="")
    print(f", {fig.untold} made with the deck empty)")
    print(f"bot CPU per move (ms)          {1000 * m.cpu / moves:8.1f}  (all processes", end="")
    print(f"; {1000 * m.kernel / moves:.1f} of it in the kernel)")
    share = (m.cpu + m.here + m.redis_cpu) / moves
    print(
        f"machine CPU per move (ms)      {1000 * share:8.1f}  (the bot {1000 * m.cpu / moves:.1f}",
        end="",
    )
    print(f", the emulator and players {1000 * m.here / moves:.1f}", end="")
    print(f", Redis {1000 * m.redis_cpu / moves:.1f}: {os.cpu_count()} cores", end="")
    print(f" hold {(os.cpu_count() or 1) / share:.0f} moves/s at most)")
    redis = m.redis
    redis -= Counter({"info": 1, "scan": redis["scan"], "memory|usage": redis["memory|usage"]})
    print(f"Redis commands per move        {redis.total() / moves:8.1f}  ", end="")
    print(", ".join(f"{c} {n / moves:.1f}" for c, n in redis.most_common(12)))
    print(f"Redis round trips per move     {m.reads / moves:8.1f}  (read events Redis processed)")
    if args.trips:
        print(f"Redis commands sent per move   {m.sent.total() / moves:8.1f}  ", end="")
        print(", ".join(f"{c} {n / moves:.1f}" for c, n in m.sent.most_common(12)))
    print(f"Redis bytes per game           {m.memory / args.games:8.0f}")
    print(f"Bot API calls per move         {m.calls.total() / moves:8.1f}  ", end="")
    print(", ".join(f"{c} {n / moves:.1f}" for c, n in m.calls.most_common()))
    print(f"in webhook answers per move    {m.replies.total() / moves:8.1f}  ", end="")
    print(", ".join(f"{c} {n / moves:.1f}" for c, n in m.replies.most_common()))
    print(f"photo uploads per move         {m.uploads / moves:8.1f}")
    print(f"webhook POSTs, updates         {m.posts:8d} {m.updates}  (the whole run)")
    print("confirm taps answered          ", end="")
    print(", ".join(f"{text!r} {n}" for text, n in fig.confirmed.most_common()))
    print("bot counters per move          ", end="")
    counted = m.counters.items()
    print(", ".join(f"{k.removeprefix('saboteur_')} {v / moves:.2f}" for k, v in counted))


async def redis_cpu(urls: list[str]) -> float:
    """CPU seconds (user and system) every master has used so far."""
    total = 0.0
    for url in urls:
        client = Redis.from_url(url)
        try:
            info = await client.info("cpu")
            total += float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        finally:
            await client.aclose()
    return total


async def redis_reads(urls: list[str]) -> int:
    """The read events every master processed so far: about one per round trip (a pipeline's
    commands arrive in one read unless they are larger than Redis's 16 KB read buffer)."""
    total = 0
    for url in urls:
        client = Redis.from_url(url)
        try:
            total += int((await client.info("stats"))["total_reads_processed"])
        finally:
            await client.aclose()
    return total


async def watch_redis(url: str, seen: Counter[str]) -> None:
    """Count the commands clients send (MONITOR; those run inside scripts left out)."""
    client = Redis.from_url(url)
    try:
        async with client.monitor() as monitor:
            async for command in monitor.listen():
                if command["client_type"] != "lua":
                    seen[str(command["command"]).split(" ", 1)[0].lower()] += 1
    finally:
        await client.aclose()


def _ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q):8.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help="the event loop of the emulator and the players (the bot's is its EVENT_LOOP)",
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=10, help="discards per game")
    parser.add_argument("--latency", type=float, default=150.0, help="ms per Bot API call")
    parser.add_argument("--jitter", type=float, default=0.0, help="± ms")
    parser.add_argument(
        "--upload-kbps", type=float, default=0.0, help="upload bandwidth (0: unlimited)"
    )
    parser.add_argument(
        "--full-photos", action="store_true", help="the emulator thumbnails every photo"
    )
    parser.add_argument(
        "--trips",
        action="store_true",
        help="count the commands clients send, by name (MONITOR: slower)",
    )
    parser.add_argument(
        "--dig",
        action="store_true",
        help="players lay tunnel cards where one can go (a preview, a spot, a confirm), else "
        "discard",
    )
    parser.add_argument(
        "--bot-rate",
        type=int,
        help="messages a second the emulator lets the bot send in all, and the bot's own "
        "budget (BOT_SENDS_PER_SECOND): what the bot does where Telegram's 30 do not bind",
    )
    parser.add_argument("--bot", default=str(ROOT / ".venv" / "bin" / "saboteur-bot"))
    parser.add_argument("--processes", type=int, default=1, help="bot processes (haproxy)")
    parser.add_argument("--haproxy", action="store_true", help="haproxy even for one process")
    parser.add_argument("--cluster", action="store_true", help="a local Redis Cluster")
    parser.add_argument("--logs", help="keep the bot processes' logs in this folder")
    args = parser.parse_args()
    factory = None
    if args.loop == "uvloop":
        import uvloop  # the bot's own default loop (EVENT_LOOP)

        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(run(args))


if __name__ == "__main__":
    main()
