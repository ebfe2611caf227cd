"""The bot's sender against the emulator: each of Telegram's answers, and each fault, becomes the
outcome delivery acts on (`tgbot.ports.Fate`), with nothing shared between calls."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from emulator import Faults
from emulator.faults import (
    ERROR_500,
    ERROR_502,
    RESET,
    RESET_AFTER,
    STORM_429,
    TIMEOUT_AFTER,
    TIMEOUT_BEFORE,
)
from emulator.server import BotApiEmulator
from tests.emulator.support import People, quick_request
from tgbot.callback import Noop, encode
from tgbot.memory_ports import MemoryBudget, MemoryPosts
from tgbot.menus import Button, Style
from tgbot.ports import Fate
from tgbot.telegram_io import Sender


@pytest.fixture
async def sender(emulator: BotApiEmulator) -> AsyncIterator[Sender]:
    """The bot's sender over a PTB bot that gives up on an answer after 0.3 s."""
    bot = Bot(**emulator.bot_kwargs, request=quick_request(read_timeout=0.3))
    async with bot:
        yield Sender(bot, MemoryBudget(), emulator.state.now, MemoryPosts())


@pytest.mark.parametrize(
    ("kind", "fate", "carried_out"),
    [
        (ERROR_500, Fate.RETRY, False),
        (ERROR_502, Fate.RETRY, False),
        (RESET, Fate.UNKNOWN, False),
        (TIMEOUT_BEFORE, Fate.UNKNOWN, False),
        (TIMEOUT_AFTER, Fate.UNKNOWN, True),
        (RESET_AFTER, Fate.UNKNOWN, True),
    ],
)
async def test_each_fault_is_an_outcome_delivery_can_act_on(
    emulator: BotApiEmulator,
    sender: Sender,
    people: People,
    kind: str,
    fate: Fate,
    carried_out: bool,
) -> None:
    emulator.faults = Faults(hang_seconds=2.0)
    emulator.force_fault(kind, method="sendMessage", chat_id=people.group.id)
    sent = await sender.group_text(people.group.id, None, "<b>hi</b>")
    assert sent.fate is fate and sent.transient and sent.message_id is None
    shown = [m for m in emulator.state.messages(people.group.id) if m.content.text == "hi"]
    assert len(shown) == (1 if carried_out else 0)
    assert await sender.posts.latest(people.group.id) == 0  # nothing confirmed
    again = await sender.group_text(people.group.id, None, "<b>hi</b>")
    assert again.ok and again.message_id is not None
    assert await sender.posts.latest(people.group.id) == again.message_id


async def test_a_429_storm_holds_the_groups_budget(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    emulator.faults = Faults(storm_seconds=12)
    emulator.force_fault(STORM_429, method="sendPhoto", chat_id=people.group.id)
    sent = await sender.group_photo(people.group.id, None, _png(), "board")
    assert sent.fate is Fate.RETRY and sent.retry_after == 12
    spent = await sender.group_text(people.group.id, None, "next")  # held: not even tried
    assert spent.fate is Fate.RETRY and spent.retry_after is not None and spent.retry_after > 0
    assert not [m for m in emulator.state.messages(people.group.id) if m.content.text == "next"]


async def test_telegram_refusals_are_told_apart(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    assert (await sender.private_text(people.carol.id, "hi")).fate is Fate.BLOCKED  # never started
    emulator.state.block_bot(people.bob.id)
    assert (await sender.private_text(people.bob.id, "hi")).fate is Fate.BLOCKED
    photo = await sender.private_photo(people.alice.id, _png(), "hand", [[Button("x", Noop())]])
    assert photo.ok and photo.message_id is not None
    same = await sender.edit_text(people.group.id, 999, "x", None)
    assert same.fate is Fate.GONE  # message to edit not found
    assert (await sender.delete(people.alice.id, photo.message_id)).ok
    assert (await sender.delete(people.alice.id, photo.message_id)).fate is Fate.GONE
    bad = await sender.group_text(people.group.id, None, "<b>unclosed")
    assert bad.fate is Fate.REFUSED and "parse" in bad.detail.lower()
    emulator.state.migrate_to_supergroup(people.group.id, by=people.alice.id)
    moved = await sender.group_text(people.group.id, None, "hello")
    assert moved.fate is Fate.MOVED and moved.new_chat is not None


async def test_a_probe_tells_the_bots_own_messages_from_others(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    own = await sender.group_text(people.group.id, None, "mine")
    theirs = emulator.state.send_text(people.alice.id, people.group.id, "hers")
    assert own.message_id is not None
    assert (await sender.probe(people.group.id, own.message_id)).ok
    assert emulator.state.message(people.group.id, own.message_id).content.text == "mine"
    assert not (await sender.probe(people.group.id, theirs.message_id)).ok
    assert not (await sender.probe(people.group.id, 10_000)).ok


async def test_concurrent_calls_each_get_their_own_outcome(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    emulator.faults = Faults(hang_seconds=2.0)
    emulator.force_fault(ERROR_500, method="sendMessage", chat_id=people.alice.id)
    bad, good = await asyncio.gather(
        sender.private_text(people.alice.id, "to Alice"),
        sender.private_text(people.bob.id, "to Bob"),
    )
    assert bad.fate is Fate.RETRY and good.ok


async def test_a_failed_tap_answer_says_so_and_can_be_tried_again(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    message = await sender.private_text(people.alice.id, "tap", [[Button("x", Noop())]])
    assert message.ok
    emulator.faults = Faults(hang_seconds=2.0)
    emulator.force_fault(ERROR_500, method="answerCallbackQuery")
    assert message.message_id is not None
    query = emulator.state.press_button(
        people.alice.id, people.alice.id, message.message_id, encode(Noop())
    )
    failed = await sender.answer(query, "Done!", alert=False, url=None)
    assert failed.fate is Fate.RETRY
    answered = await sender.answer(query, "Done!", alert=False, url=None)
    assert answered.ok and emulator.state.callback_query(query).text == "Done!"


def _png() -> bytes:
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (8, 8), "white").save(out, "PNG")
    return out.getvalue()


async def test_button_styles_reach_telegram(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    keyboard = [
        [
            Button("✅ Confirm", Noop(), style=Style.SUCCESS),
            Button("🗑", Noop(), style=Style.DANGER),
        ],
        [Button("↩️ Back", Noop())],
    ]
    message = await sender.private_text(people.alice.id, "confirm?", keyboard)
    assert message.ok and message.message_id is not None
    stored = emulator.state.message(people.alice.id, message.message_id)
    assert stored.reply_markup is not None
    rows = stored.reply_markup["inline_keyboard"]
    assert [[b.get("style") for b in row] for row in rows] == [["success", "danger"], [None]]
