"""Flood control through the HTTP API: 20 messages a minute per group, 30 a second overall."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from telegram import Bot
from telegram.error import RetryAfter

from emulator import EmulatorState, ManualClock, RateLimits
from emulator.server import BotApiEmulator
from tests.emulator.support import People, RawCall


def tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "green").save(out, format="PNG")
    return out.getvalue()


async def test_the_twenty_first_group_message_in_a_minute_is_refused(
    bot: Bot, raw: RawCall, people: People, clock: ManualClock
) -> None:
    group = people.group.id
    first = await bot.send_message(group, "0")
    for n in range(1, 19):
        clock.advance(1)
        await bot.send_message(group, str(n))
    clock.advance(1)
    await bot.send_photo(group, tiny_png())
    clock.advance(1)
    status, body = await raw("sendMessage", chat_id=group, text="one too many")
    assert (status, body) == (
        429,
        {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 40",
            "parameters": {"retry_after": 40},
        },
    )
    with pytest.raises(RetryAfter):
        await bot.send_photo(group, tiny_png())
    assert await bot.edit_message_text("edited", group, first.message_id)
    assert await bot.send_message(people.alice.id, "private chats have their own rule")
    clock.advance(39)
    with pytest.raises(RetryAfter):
        await bot.send_message(group, "still too early")
    clock.advance(1)
    assert (await bot.send_message(group, "ok again")).text == "ok again"


async def test_thirty_messages_a_second_across_all_chats(
    bot: Bot, state: EmulatorState, clock: ManualClock
) -> None:
    users = [state.create_user(f"P{n}") for n in range(31)]
    for user in users:
        state.start_bot(user.id)
    for user in users[:30]:
        await bot.send_message(user.id, "your hand")
    with pytest.raises(RetryAfter):
        await bot.send_message(users[30].id, "your hand")
    clock.advance(1)
    assert await bot.send_message(users[30].id, "your hand")


async def test_limits_are_configurable(clock: ManualClock) -> None:
    state = EmulatorState(clock=clock, rate_limits=RateLimits(group_messages=2))
    alice = state.create_user("Alice")
    group = state.create_group("G", creator=alice.id)
    async with BotApiEmulator(state) as emulator, Bot(**emulator.bot_kwargs) as bot:
        await bot.send_message(group.id, "1")
        await bot.send_message(group.id, "2")
        with pytest.raises(RetryAfter):
            await bot.send_message(group.id, "3")
