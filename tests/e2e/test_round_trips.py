"""Redis round trips of a move's path, counted on the wire against a real redis-server.

Every write of a command (or of a pipeline's commands, together) to the bot's Redis connection
is one round trip. A tap is answered once its move is saved: up to then at most two trips (the
update's claim with the tapper's language and the game, then the owed outbox's mark with the
compare-and-set save), no full load, one save. The sweeper's own trips (every 2 s) are left
out: they are not the tap's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import Connection

from emulator import User
from tgbot import redis_store, webhook_reply
from tgbot.buttons import ToggleDiscard

from .games import data_of, reach_discard_confirm, start_game, to_act
from .harness import World

SAVE = hashlib.sha1(redis_store._SAVE.encode()).hexdigest().encode()


def command_names(packed: Any) -> list[tuple[bytes, ...]]:
    """The commands in what a connection writes (RESP arrays), each as its first two words."""
    data = b"".join(packed) if isinstance(packed, list | tuple) else packed
    out: list[tuple[bytes, ...]] = []
    i = 0
    while i < len(data):
        end = data.index(b"\r\n", i)
        count, i = int(data[i + 1 : end]), end + 2
        words: list[bytes] = []
        for _ in range(count):
            end = data.index(b"\r\n", i)
            size, i = int(data[i + 1 : end]), end + 2
            words.append(data[i : i + size])
            i += size + 2
        out.append((words[0].upper(), *words[1:2]))
    return out


@dataclass
class Trip:
    """One write to Redis: its commands, and whether the tap was answered before it."""

    commands: list[tuple[bytes, ...]]
    after_answer: bool


@dataclass
class Wire:
    """The bot's round trips, while `counting`."""

    trips: list[Trip] = field(default_factory=list)
    answered: Callable[[], bool] = lambda: False
    counting: bool = False


WIRE = Wire()


class CountingConnection(Connection):
    """A connection that notes each write (a round trip) of the bot's tasks."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        task = asyncio.current_task()
        sweeper = task is not None and task.get_coro().__qualname__ == "_sweep_forever"  # type: ignore[union-attr]
        if WIRE.counting and not sweeper:
            WIRE.trips.append(Trip(command_names(command), WIRE.answered()))
        await super().send_packed_command(command, check_health)


async def counted_tap(world: World, user: User, chat: int, message_id: int, data: str) -> Wire:
    """Tap a button and wait until the bot is done; the trips it made.

    The tap counts as answered once its answer is made: put in the webhook's answer (which
    goes once the update is marked handled, `tgbot.webhook_reply`), or sent by a call."""
    WIRE.trips = []
    query = world.state.press_button(user.id, chat, message_id, data)
    offered: list[str] = []
    offer = webhook_reply.offer

    def noted(query_id: str, parameters: Mapping[str, object]) -> bool:
        taken = offer(query_id, parameters)
        if taken:
            offered.append(query_id)
        return taken

    WIRE.answered = lambda: query in offered or world.state.callback_queries[query].answered
    WIRE.counting = True
    webhook_reply.offer = noted
    try:
        await world.emu.wait_for_answer(query, timeout=20)  # type: ignore[union-attr]
        await world.settle()
    finally:
        WIRE.counting = False
        webhook_reply.offer = offer
    assert offered == [query], "the tap's answer rode in the webhook's answer"
    return Wire(list(WIRE.trips))


def before_answer(wire: Wire) -> list[Trip]:
    return [t for t in wire.trips if not t.after_answer]


def saves(trips: list[Trip]) -> int:
    return sum(1 for t in trips for c in t.commands if c == (b"EVALSHA", SAVE))


def loads(trips: list[Trip]) -> int:
    return sum(1 for t in trips for c in t.commands if c[0] == b"HGETALL")


@contextlib.asynccontextmanager
async def counted_game(
    redis_url: str, key_prefix: str, count: int
) -> AsyncIterator[tuple[World, list[User], str]]:
    """A started game of `count` players whose bot talks to Redis through counting connections."""
    client = Redis.from_url(redis_url, connection_class=CountingConnection)
    world = World(client, key_prefix)
    await world.start()
    try:
        players = [world.user(f"P{i}") for i in range(count)]
        for p in players:
            world.state.start_bot(p.id)
        chat = world.group("Trips", players[0], players[1:])
        yield world, players, await start_game(world, players, chat)
    finally:
        await world.stop()
        await client.aclose()


async def test_a_move_is_saved_and_answered_within_two_round_trips(
    redis_url: str, key_prefix: str
) -> None:
    async with counted_game(redis_url, key_prefix, 4) as (world, players, gid):
        other = redis_store.RedisStore(Redis.from_url(redis_url), prefix=key_prefix)
        for turn in range(3):
            user = await to_act(world, gid, players)
            hand, confirm = await reach_discard_confirm(world, gid, user)
            if turn == 2:  # another process saved since this one last saw the game
                record = await other.load(gid)
                assert record is not None
                changed = dataclasses.replace(record, updated_at=record.updated_at + 1)
                assert await other.save(changed, record.rev)
            before = await other.load(gid)
            assert before is not None and before.state is not None
            wire = await counted_tap(world, user, user.id, hand.message_id, confirm)
            after = await other.load(gid)
            assert after is not None and after.state is not None
            assert after.state.version == before.state.version + 1, "the move was made"
            first = before_answer(wire)
            assert len(first) <= 2, [t.commands for t in first]
            assert saves(first) == 1 and loads(first) == 0, [t.commands for t in first]
            # delivery included: the turn's deadlines ride with the update's mark; the delivery
            # runs on its own (`tgbot.detached`), its lease taken (with the floors of the
            # board's and the next hand's chats) and given back in trips of their own
            assert len(wire.trips) <= 10, [t.commands for t in wire.trips]
            alone = [t.commands for t in wire.trips if t.commands[0][0] == b"ZRANGE"]
            assert not alone, alone
        await other.redis.aclose()


async def test_a_menu_step_takes_two_round_trips(redis_url: str, key_prefix: str) -> None:
    async with counted_game(redis_url, key_prefix, 3) as (world, players, gid):
        user = await to_act(world, gid, players)
        hand, confirm = await reach_discard_confirm(world, gid, user)
        assert confirm
        # a toggle of the discard menu: its claim (with the language and the game), then the
        # keyboard's edit (no Redis), then the update marked handled
        toggle = data_of(hand, ToggleDiscard)[-1]
        wire = await counted_tap(world, user, user.id, hand.message_id, toggle)
        assert len(wire.trips) <= 2, [t.commands for t in wire.trips]
        assert loads(wire.trips) == 0
