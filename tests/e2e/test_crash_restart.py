"""A bot process killed with SIGKILL in the middle of a game, and started again: nothing lost or
doubled.

The bot runs as shipped (`saboteur-bot`, webhook mode) in a subprocess against the emulator in
this test's event loop, with Telegram's real limits and the real clock. The kills:

1. the process is frozen (SIGSTOP) before it reads a Confirm tap, then killed: the update was
   never acknowledged, so the emulator redelivers it to the next process, which makes the move;
2. the process saved a Confirm tap's move and dies as it sends the first announcement (its
   board post): the move stays made, the player's retry changes nothing, and what the move owed
   (board post, the next player's prompt) is delivered by the next process, once, and soon;
3. (second test) the process posted the move's board and noted it, and dies before deleting
   the previous board post: the next process must not leave that stale post in the group.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from emulator import EmulatorState, botapi
from emulator.errors import bad_request
from emulator.params import Params
from emulator.server import BotApiEmulator
from tgbot.callback import decode

from .harness import buttons, free_port
from .procs import (
    ERROR_TOAST,
    BotProcess,
    Fleet,
    Move,
    Table,
    assert_one_board_per_state,
    bot_environment,
    fleet,
    loaded,
    open_game,
    own_keys,
    replay,
    until,
    was_played,
)

pytestmark = pytest.mark.slow  # real bot processes: the whole-suite lane

RECOVERY_SECONDS = 20.0  # a restarted bot should deliver what a dead one owed within this


def dies_at(
    monkeypatch: pytest.MonkeyPatch,
    bot: BotProcess,
    method: str,
    *,
    chat: int,
    message_id: int | None = None,
) -> list[int]:
    """From now on, the bot process is SIGKILLed as it makes this Bot API call (once): the call
    is not carried out, as if the process had died just before sending it. The returned list
    gets the killed process's id."""
    killed: list[int] = []
    real_call = botapi.call

    def call(state: EmulatorState, name: str, params: Params) -> object:
        if (
            not killed
            and name.lower() == method.lower()
            and params.integer("chat_id") == chat
            and (message_id is None or params.integer("message_id") == message_id)
        ):
            killed.append(bot.pid)
            bot.kill()
            raise bad_request("the process died before sending this")
        return real_call(state, name, params)

    monkeypatch.setattr(botapi, "call", call)
    return killed


@dataclass
class Stage:
    """The emulator, one bot process (restartable) and the players' table."""

    emu: BotApiEmulator
    bots: Fleet
    bot: BotProcess
    table: Table


@contextlib.asynccontextmanager
async def stage(redis_url: str, directory: Path) -> AsyncIterator[Stage]:
    """A started bot process against the emulator (always ended afterwards)."""
    async with (
        own_keys(redis_url) as (db_url, redis, prefix),
        BotApiEmulator(EmulatorState(), webhook_retry_delay=0.05, webhook_timeout=2.0) as emu,
    ):
        with fleet(directory) as bots:
            port = free_port()
            hook = f"http://127.0.0.1:{port}/hook"
            bot = bots.add("bot", bot_environment(emu, db_url, hook, port, prefix), port)
            bot.start()
            await bot.wait_ready()
            await emu.wait_for(lambda: emu.state.webhook.url == hook, timeout=20)
            yield Stage(emu, bots, bot, Table(emu, redis, prefix))


async def test_a_bot_killed_mid_game_and_restarted_loses_and_doubles_nothing(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two SIGKILLs during Confirm taps; every move counted once, every announcement made once."""
    rng = random.Random(20240611)
    async with stage(redis_url, tmp_path) as s:
        emu, bots, bot, table = s.emu, s.bots, s.bot, s.table
        state = emu.state
        store = table.store
        players = [state.create_user(n) for n in ("Ann", "Bob", "Cho")]
        chat, gid = await open_game(table, players, "Dwarves")
        start = await loaded(store, gid)
        assert start.state is not None
        initial = start.state
        moves: list[Move] = []
        last = -1

        async def turn() -> None:
            nonlocal last
            user, message, last = await table.wait_turn(players, gid, last)
            message, confirm = await table.reach_confirm(user, message, rng)
            query = await table.tap(user, message, confirm)
            assert was_played(query.text), query.text
            moves.append(Move(user.id, decode(confirm)))  # type: ignore[arg-type]

        for _ in range(2):
            await turn()

        # Kill 1: the process never reads the tap; the emulator keeps the update.
        user, message, last = await table.wait_turn(players, gid, last)
        message, confirm = await table.reach_confirm(user, message, rng)
        await table.quiet()
        attempts = emu.webhook_attempts
        bot.freeze()
        first = state.press_button(user.id, user.id, message.message_id, confirm)

        async def posted() -> bool:
            return emu.webhook_attempts > attempts

        await until(posted, timeout=20)
        await asyncio.sleep(0.3)  # the POST sits unread in the frozen process's socket
        bot.kill()
        assert any(u.get("callback_query", {}).get("id") == first for u in state.pending_updates), (
            "the update was never acknowledged, so Telegram keeps it"
        )
        record = await loaded(store, gid)
        assert record.state is not None and record.state.version == last, "nothing saved"
        bot.start()
        await bot.wait_ready()
        redelivered = await emu.wait_for_answer(first, timeout=14)
        assert was_played(redelivered.text), redelivered.text
        moves.append(Move(user.id, decode(confirm)))  # type: ignore[arg-type]
        record = await loaded(store, gid)
        assert record.state is not None and record.state.version == last + 1

        await turn()

        # Kill 2: the move is saved; the process dies as it sends the first announcement.
        user, message, last = await table.wait_turn(players, gid, last)
        message, confirm = await table.reach_confirm(user, message, rng)
        await table.quiet()
        boards_before = len([m for m in table.bot_messages(chat) if m.content.photo])
        killed = dies_at(monkeypatch, bot, "sendPhoto", chat=chat)
        second = state.press_button(user.id, user.id, message.message_id, confirm)

        async def died() -> bool:
            return bool(killed)

        await until(died, timeout=20)
        monkeypatch.undo()
        assert killed, "the bot died as it sent the move's board post"
        # The tap was answered as soon as the move was saved, before the announcements.
        assert was_played(state.callback_query(second).text), "answered right after the save"
        record = await loaded(store, gid)
        assert record.state is not None and record.state.version == last + 1, "saved"
        assert not record.owed.is_empty, "killed before the move was announced"
        assert len([m for m in table.bot_messages(chat) if m.content.photo]) == boards_before
        moves.append(Move(user.id, decode(confirm)))  # type: ignore[arg-type]

        # If the player's hand was not redrawn before the kill (delivery sends each chat's item
        # at once, so it may have been), they tap Confirm again while no process runs: the tap
        # waits at Telegram, and the restarted process does not make the move twice.
        still = confirm in [d for _, d in buttons(state.message(user.id, message.message_id))]
        again = state.press_button(user.id, user.id, message.message_id, confirm) if still else None
        bot.start()
        await bot.wait_ready()
        loop = asyncio.get_running_loop()
        restarted = loop.time()
        if again is not None:
            retry = await emu.wait_for_answer(again, timeout=table.answer_timeout)
            assert not was_played(retry.text) and retry.text != ERROR_TOAST, retry.text
        record = await loaded(store, gid)
        assert record.state is not None and record.state.version == last + 1

        async def delivered() -> bool:
            record = await store.load(gid)
            return record is not None and record.owed.is_empty

        await until(delivered, timeout=90, step=0.1)
        recovery = loop.time() - restarted

        for _ in range(2):
            await turn()
        await table.quiet()

        record = await loaded(store, gid)
        assert record.state is not None
        assert record.state.version == initial.version + len(moves), "no move lost or doubled"
        assert replay(gid, initial, moves) == record.state
        assert record.owed.is_empty and not await store.owing_games()
        assert_one_board_per_state(table, record)
        # The player to act was told, with buttons of the current state.
        actor = record.state.players[record.state.turn]
        found = table.to_act(players, gid, record.state.version - 1)
        assert found is not None and found[0].id == actor
        queries = list(state.callback_queries.values())
        assert [q.id for q in queries if not q.answered] == []
        assert not [q.text for q in queries if q.text == ERROR_TOAST]
        assert not bots.problems(), "\n".join(bots.problems())
        assert recovery < RECOVERY_SECONDS, (
            f"the restarted bot delivered what the dead one owed only after {recovery:.0f} s "
            f"(the dead process's delivery lease in Redis outlives it)"
        )


async def test_a_bot_killed_before_deleting_the_old_board_leaves_one_board_post(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after posting a move's board and noting it, before deleting the previous post.

    The next process must still delete the previous post: the group keeps one board post, not
    a stale one above the live one forever. (The dead process's delivery lease is released by
    the test instead of waiting out its 15 seconds: the first test covers that wait.)
    """
    rng = random.Random(7)
    async with stage(redis_url, tmp_path) as s:
        state, table, bot = s.emu.state, s.table, s.bot
        players = [state.create_user(n) for n in ("Ann", "Bob", "Cho")]
        chat, gid = await open_game(table, players, "Dwarves")
        user, message, last = await table.wait_turn(players, gid, -1)
        message, confirm = await table.reach_confirm(user, message, rng)
        await table.quiet()
        old_board = (await loaded(table.store, gid)).messages.board
        assert old_board is not None
        killed = dies_at(monkeypatch, bot, "deleteMessage", chat=chat, message_id=old_board)
        query = state.press_button(user.id, user.id, message.message_id, confirm)

        async def was_killed() -> bool:
            return bool(killed)

        await until(was_killed, timeout=20)
        monkeypatch.undo()
        record = await loaded(table.store, gid)
        assert record.state is not None and record.state.version == last + 1
        assert record.messages.board != old_board, "the new post was noted"
        assert not state.message(chat, old_board).deleted
        leases = [k async for k in table.redis.scan_iter(match=f"{table.prefix}:lease:*")]
        if leases:
            await table.redis.delete(*leases)

        bot.start()
        await bot.wait_ready()
        await table.quiet()
        assert was_played(state.callback_query(query).text)  # answered once saved, before the kill
        record = await loaded(table.store, gid)
        assert record.owed.is_empty
        visible = [m.message_id for m in table.bot_messages(chat) if m.content.photo]
        assert visible == [record.messages.board], (
            f"the board post {old_board} of the state before the move is still in the group"
        )
