"""The sender within the bot-wide budget (issue 18), against the emulator and a real Redis: a
spent budget is the usual retry outcome and nothing reaches Telegram; private chats go first."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from emulator.model import Content
from emulator.server import BotApiEmulator
from tests.emulator.support import People, quick_request
from tests.emulator.test_emu_ephemeral_sender import png, pressed
from tgbot.bot_budget import BotBudget, replying, urgency
from tgbot.http_client import AiohttpRequest
from tgbot.memory_ports import MemoryBudget, MemoryPosts
from tgbot.ports import Ephemeral, Fate
from tgbot.redis_client import RedisClient
from tgbot.telegram_io import Sender


@pytest.fixture
async def bot(emulator: BotApiEmulator) -> AsyncIterator[Bot]:
    """A PTB bot on the emulator."""
    bot = Bot(
        **emulator.bot_kwargs,
        request=AiohttpRequest(read_timeout=15.0),  # patient: CI is loaded
        get_updates_request=quick_request(),
    )
    async with bot:
        yield bot


async def test_a_spent_bot_budget_is_a_retry_and_the_player_goes_first(
    emulator: BotApiEmulator, bot: Bot, people: People, server_client: RedisClient, key_prefix: str
) -> None:
    """Three tokens, one reserved: two group posts go (the second only as the reserve's owner
    could not), a private message takes the reserve, then every send waits, unsent."""
    budget = BotBudget(server_client, prefix=key_prefix, rate=1.0, size=3, reserve=1)
    frozen = emulator.state.now()
    sender = Sender(bot, MemoryBudget(), lambda: frozen, MemoryPosts(), budget)
    group = people.group.id
    assert (await sender.group_text(group, None, "one")).ok
    assert (await sender.group_text(group, None, "two")).ok
    held = await sender.group_text(group, None, "three")
    assert held.fate is Fate.RETRY and held.retry_after is not None and held.retry_after > 0
    mine = await sender.private_text(people.alice.id, "your turn")
    assert mine.ok and mine.message_id is not None
    late = await sender.private_text(people.bob.id, "later")
    assert late.fate is Fate.RETRY and late.retry_after == pytest.approx(1.0)
    edit = await sender.edit_text(people.alice.id, mine.message_id, "changed", None)
    assert edit.fate is Fate.RETRY
    texts = [m.content.text for m in emulator.state.messages(group)]
    assert "three" not in texts and {"one", "two"} <= set(texts)
    bot_id = bot.id

    def from_bot(chat: int) -> list[str | None]:
        return [m.content.text for m in emulator.state.messages(chat) if m.sender_id == bot_id]

    assert from_bot(people.bob.id) == []
    assert from_bot(people.alice.id) == ["your turn"]


async def test_private_messages_marked_not_urgent_leave_the_reserve(
    emulator: BotApiEmulator, bot: Bot, people: People, server_client: RedisClient, key_prefix: str
) -> None:
    """Delivery marks the live messages of players not to move as not urgent: with only the
    reserve left, Bob's redraw waits while Alice's turn goes out."""
    budget = BotBudget(server_client, prefix=key_prefix, rate=1.0, size=2, reserve=1)
    frozen = emulator.state.now()
    sender = Sender(bot, None, lambda: frozen, MemoryPosts(), budget)
    assert (await sender.group_text(people.group.id, None, "board")).ok  # one token left
    with urgency(False):
        waiting = await sender.private_text(people.bob.id, "not your turn")
    assert waiting.fate is Fate.RETRY
    with urgency(True):
        assert (await sender.private_text(people.alice.id, "your turn")).ok
    assert not [m for m in emulator.state.messages(people.bob.id) if m.sender_id == bot.id]


async def test_the_next_screen_of_a_tap_is_not_held_by_a_spent_budget(
    emulator: BotApiEmulator, bot: Bot, people: People, server_client: RedisClient, key_prefix: str
) -> None:
    """A person's own menu step answers their tap: it goes out with the budget spent, while
    other private sends (and group posts) still wait."""
    budget = BotBudget(server_client, prefix=key_prefix, rate=1.0, size=1, reserve=0)
    frozen = emulator.state.now()
    sender = Sender(bot, None, lambda: frozen, MemoryPosts(), budget)
    hand = await sender.private_text(people.alice.id, "your hand")  # the last token
    assert hand.ok and hand.message_id is not None
    assert (await sender.private_text(people.bob.id, "later")).fate is Fate.RETRY
    with replying():
        step = await sender.edit_text(people.alice.id, hand.message_id, "pick a spot", None)
        held = await sender.group_text(people.group.id, None, "board")
    assert step.ok
    assert held.fate is Fate.RETRY
    assert emulator.state.message(people.alice.id, hand.message_id).content.text == "pick a spot"


async def test_messages_count_and_tap_answers_and_deletions_do_not(
    emulator: BotApiEmulator, bot: Bot, people: People, server_client: RedisClient, key_prefix: str
) -> None:
    """Telegram's 30 a second counts messages: a tap's answer (a toast) and a deletion take
    nothing; an ephemeral panel and its edit, like a person's next screen, are counted but go
    out even with the budget spent, and the sends after them wait for what they used."""
    budget = BotBudget(server_client, prefix=key_prefix, rate=1.0, size=3, reserve=0)
    frozen = emulator.state.now()
    sender = Sender(bot, None, lambda: frozen, MemoryPosts(), budget)
    state, group, alice = emulator.state, people.group.id, people.alice.id
    post = state.send_as_bot(state.chat(group), Content(text="old board"))
    for _ in range(5):
        query = pressed(state, people)
        assert (await sender.answer(query, "Done!", alert=False, url=None)).ok
    assert (await sender.delete(group, post.message_id)).ok
    panel = Ephemeral(group, alice, callback_query_id=pressed(state, people))
    shown = await sender.ephemeral_photo(panel, png("brown"), "Your hand", ())
    assert shown.ok and shown.message_id is not None  # two tokens left
    edited = await sender.edit_ephemeral_photo(
        group, alice, shown.message_id, png("green"), "2", ()
    )
    assert edited.ok  # one left
    assert (await sender.private_text(alice, "your turn")).ok  # the last one
    assert (await sender.private_text(people.bob.id, "later")).fate is Fate.RETRY
    again = await sender.edit_ephemeral_photo(group, alice, shown.message_id, png("red"), "3", ())
    assert again.ok, "a panel answering its receiver's tap is never held back"
    late = await sender.private_text(people.bob.id, "later")
    assert late.fate is Fate.RETRY and late.retry_after == pytest.approx(2.0)  # 1 owed + 1
    assert (await sender.delete_ephemeral(group, alice, shown.message_id)).ok  # takes nothing
    after = await sender.private_text(people.bob.id, "later")
    assert after.retry_after == pytest.approx(2.0)
