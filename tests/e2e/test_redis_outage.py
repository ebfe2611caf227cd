"""Redis away for a moment: a game in progress rides it out, and a bot started first waits.

Each test starts a redis-server of its own (free port, its own folder, every write synced to
its append-only file) and really kills it: SIGKILL, then the same server started again on the
same port over the same data. While it is away a tap is answered "busy" from what the update
itself says (the user's app language) and nothing else happens; a command gets no reply (the
group's language and its flood budget live in Redis). Once it is back the same tap works and
the game goes on from exactly where it was.
"""

from __future__ import annotations

import contextlib
import logging
import random
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from redis.asyncio import Redis

from emulator import EmulatorState, User
from emulator.model import Content
from emulator.server import BotApiEmulator
from tests.catalog import texts
from tgbot.buttons import PickCard
from tgbot.i18n import Language, parse_language

from .games import data_of, live_hand, reach_confirm, start_game, state_of, to_act
from .harness import World, buttons, free_port, shown, world_over
from .own_redis import OwnRedis, own_redis
from .procs import (
    BotProcess,
    Table,
    bot_environment,
    fleet,
    loaded,
    open_game,
    until,
    was_played,
)

BUSY = "The bot is busy; please try again in a moment."
KEY_PREFIX = "outage"


def busy(user: User) -> str:
    """The busy toast in the language the user's Telegram app reports."""
    lang = parse_language(user.language_code) or Language("ko")
    return texts(lang).pgettext("toast", BUSY)


async def lasting(client: Redis) -> dict[bytes, object]:
    """Every key that does not expire within the hour, with its value: games, their indexes,
    deadlines, the outbox, the update ledger. (Leases and flood budgets expire on their own and
    may do so while Redis is away.)"""
    out: dict[bytes, object] = {}
    async for key in client.scan_iter(count=500):
        ttl = await client.pttl(key)
        if ttl != -1 and ttl < 3_600_000:
            continue
        raw = await client.type(key)
        kind = raw.decode() if isinstance(raw, bytes) else raw
        if kind == "string":
            out[key] = await client.get(key)
        elif kind == "hash":
            out[key] = await client.hgetall(key)
        elif kind == "set":
            out[key] = await client.smembers(key)
        elif kind == "zset":
            out[key] = await client.zrange(key, 0, -1, withscores=True)
        else:
            raise AssertionError(f"{key!r} is a {kind}: teach this test to read it")
    return dict(sorted(out.items()))


Seen = list[tuple[int, int, Content, bool, int]]


def chats_as_seen(state: EmulatorState, chat_ids: Sequence[int]) -> Seen:
    """The bot's messages in these chats, deleted ones too, with content and number of edits."""
    return [
        (m.chat_id, m.message_id, m.content, m.deleted, len(m.history))
        for chat in chat_ids
        for m in state.messages(chat, include_deleted=True)
        if m.sender_id == state.bot.id
    ]


# ------------------------------------------------------------------ the bot in this process


@contextlib.asynccontextmanager
async def world_on(server: OwnRedis) -> AsyncIterator[World]:
    """The emulator and the bot over this server, with the bot's production Redis client."""
    async with world_over(server.url, KEY_PREFIX, 1.0) as world:
        yield world


async def test_taps_while_redis_is_away_are_answered_busy_and_change_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="tgbot")
    with own_redis(tmp_path / "redis") as server:
        server.start()
        await server.ready()
        async with world_on(server) as world:
            ann = world.user("Ann", language_code="ko")
            bob = world.user("Bob", language_code="en")
            cho = world.user("Cho", language_code="ko")
            players = [ann, bob, cho]
            chat = world.group("Dwarves", ann, [bob, cho])
            gid = await start_game(world, players, chat)
            actor = await to_act(world, gid, players)  # part of a game: one move
            message, confirm = await reach_confirm(world, gid, actor)
            text = (await world.press(actor, message, confirm))[0]
            assert was_played(text), text

            actor = await to_act(world, gid, players)
            hand = await live_hand(world, gid, actor)
            card = data_of(hand, PickCard)[0]
            other = next(p for p in players if p.language_code != actor.language_code)
            theirs = await live_hand(world, gid, other)
            version = (await state_of(world, gid)).version
            chats = [chat, *(p.id for p in players)]
            async with server.client() as probe:
                before = await lasting(probe)
            seen = chats_as_seen(world.state, chats)

            server.kill()
            caplog.clear()
            assert await world.press(actor, hand, card) == (busy(actor), False)
            answered = await world.forge(other, other.id, theirs.message_id, card)
            assert (answered.text, answered.show_alert) == (busy(other), False)
            await world.say(ann, chat, "/status")
            await world.say(bob, bob.id, "/help")
            assert chats_as_seen(world.state, chats) == seen, "nothing sent, edited or deleted"
            away = [r for r in caplog.records if "the store is away" in r.getMessage()]
            assert len(away) == 4, [r.getMessage() for r in caplog.records]
            assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

            server.start()
            await server.ready()
            async with server.client() as probe:  # the old one's connection died with it
                assert await lasting(probe) == before, "Redis came back with everything"
            text, _ = await world.press(actor, hand, card)
            assert text != busy(actor)
            assert chats_as_seen(world.state, chats) != seen, "the tap did something"
            picked = await live_hand(world, gid, actor)
            await world.press(actor, picked, buttons(picked)[-1][1])  # Back, to the hand
            message, confirm = await reach_confirm(world, gid, actor)
            text = (await world.press(actor, message, confirm))[0]
            assert was_played(text), text
            assert (await state_of(world, gid)).version == version + 1, "one move, not two"
            assert await to_act(world, gid, players) != actor, "the game goes on"
            assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ------------------------------------------------------------------ the bot as shipped


@dataclass
class Stage:
    """The emulator, one bot process over the test's own Redis, the players' table."""

    emu: BotApiEmulator
    redis: OwnRedis
    bot: BotProcess
    table: Table


@contextlib.asynccontextmanager
async def stage(directory: Path, *, password: str | None = None) -> AsyncIterator[Stage]:
    """A not yet started Redis and bot process, always ended afterwards."""
    with own_redis(directory / "redis", password=password) as server:
        async with BotApiEmulator(EmulatorState(), webhook_retry_delay=0.05) as emu:
            with fleet(directory) as bots:
                port = free_port()
                hook = f"http://127.0.0.1:{port}/hook"
                env = bot_environment(emu, server.url, hook, port, KEY_PREFIX)
                env["REDIS_TIMEOUT_SECONDS"] = "1"
                bot = bots.add("bot", env, port)
                probe = server.client()
                try:
                    yield Stage(emu, server, bot, Table(emu, probe, KEY_PREFIX))
                finally:
                    await probe.aclose()


async def fresh_probe(stage: Stage) -> None:
    """A new client for the table (the old one's connections died with the server)."""
    await stage.table.redis.aclose()
    stage.table.redis = stage.redis.client()


def lines(bot: BotProcess, pattern: str) -> list[str]:
    """The bot's log lines that match."""
    return [line for line in bot.log().splitlines() if re.search(pattern, line)]


@pytest.mark.slow
async def test_a_bot_process_rides_out_a_redis_kill_and_a_restart(tmp_path: Path) -> None:
    """`saboteur-bot` in webhook mode, its Redis SIGKILLed mid-game and started again."""
    rng = random.Random(12)
    async with stage(tmp_path) as s:
        state, table, bot = s.emu.state, s.table, s.bot
        s.redis.start()
        await s.redis.ready()
        bot.start()
        await bot.wait_ready()
        players = [state.create_user(n) for n in ("Ann", "Bob", "Cho")]
        chat, gid = await open_game(table, players, "Dwarves")
        user, message, last = await table.wait_turn(players, gid, -1)
        message, confirm = await table.reach_confirm(user, message, rng)
        assert was_played((await table.tap(user, message, confirm)).text)

        user, hand, last = await table.wait_turn(players, gid, last)
        card = data_of(hand, PickCard)[0]
        await table.quiet()
        chats = [chat, *(p.id for p in players)]
        before = await lasting(table.redis)
        seen = chats_as_seen(state, chats)

        s.redis.kill()
        answer = await table.tap(user, hand, card)
        assert (answer.text, answer.show_alert) == (busy(user), False)
        state.send_text(players[0].id, chat, "/status")
        answer = await table.tap(user, hand, card)  # another chat: /status may still run
        assert answer.text == busy(user)
        assert chats_as_seen(state, chats) == seen, "nothing sent, edited or deleted"

        async def three_refused() -> bool:  # the group's /status may end after the private tap
            return len(lines(bot, r"WARNING .*not handled, the store is away")) >= 3

        await until(three_refused, timeout=20)
        assert len(lines(bot, r"WARNING .*not handled, the store is away")) == 3

        async def sweep_paused() -> bool:
            return bool(lines(bot, r"WARNING .*sweep paused: Redis is away"))

        await until(sweep_paused, timeout=20)

        s.redis.start()
        await s.redis.ready()
        await fresh_probe(s)
        assert await lasting(table.redis) == before, "Redis came back with everything"
        answer = await table.tap(user, hand, card)
        assert answer.text != busy(user)
        message = table.live(user)
        message, confirm = await table.reach_confirm(user, message, rng)
        assert was_played((await table.tap(user, message, confirm)).text)
        record = await loaded(table.store, gid)
        assert record.state is not None and record.state.version == last + 1
        after, _, _ = await table.wait_turn(players, gid, last)
        assert after.id == record.state.players[record.state.turn]

        async def sweep_resumed() -> bool:
            return bool(lines(bot, r"INFO .*sweep resumed"))

        await until(sweep_resumed, timeout=20)
        assert len(lines(bot, r"sweep paused")) == 1, "said once, not every two seconds"
        assert not [line for line in bot.log().splitlines() if "Traceback" in line]
        assert not lines(bot, r" (ERROR|CRITICAL) ")


@pytest.mark.slow
async def test_a_bot_started_before_its_redis_waits_for_it(tmp_path: Path) -> None:
    """No Redis yet: one log line per attempt (URL without its password, the error), no exit;
    then Redis starts and the bot serves."""
    async with stage(tmp_path, password="hunter2") as s:
        state, bot = s.emu.state, s.bot
        bot.start()

        async def retried() -> bool:
            assert bot.is_running(), bot.log()
            return len(lines(bot, r"does not answer")) >= 3

        await until(retried, timeout=60, step=0.05)
        tries = lines(bot, r"does not answer")
        shown_url = s.redis.url.replace("hunter2", "***")
        for n, line in enumerate(tries[:3], start=1):
            assert " WARNING " in line and f"Redis at {shown_url} does not answer" in line
            assert f"(attempt {n}: " in line and "trying again in" in line
        assert "hunter2" not in bot.log()
        waits = [float(re.findall(r"again in ([0-9.]+) s", line)[0]) for line in tries]
        assert waits == sorted(waits) and waits[0] < waits[-1] and max(waits) <= 5.0
        assert state.webhook.url == "", "nothing served before Redis answers"

        s.redis.start()
        await s.redis.ready()
        await bot.wait_ready()
        await s.emu.wait_for(lambda: state.webhook.url != "", timeout=30)
        ann = state.create_user("Ann")
        group = state.create_group("Dwarves", creator=ann.id).id
        state.send_text(ann.id, group, "/new")
        lobby = await s.emu.wait_for_bot_message(group, timeout=20)
        assert "Ann" in shown(lobby)
        assert lines(bot, rf"INFO .*Redis at {re.escape(shown_url)} answers \(attempt")
        assert not lines(bot, r"configuration error|Traceback| (ERROR|CRITICAL) ")
