"""The bot's sender against the emulator: each of Telegram's answers, and each fault, becomes the
outcome delivery acts on (`tgbot.ports.Fate`), with nothing shared between calls."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest

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
from tests.emulator.conftest import bot_sender
from tests.emulator.support import People
from tgbot.bot_calls import topic_of
from tgbot.buttons import Noop
from tgbot.callback import encode
from tgbot.menus import Button, Style
from tgbot.ports import Fate
from tgbot.telegram_io import Sender


@pytest.fixture
async def impatient(emulator: BotApiEmulator) -> AsyncIterator[Sender]:
    """The bot's sender over a PTB bot that gives up on an answer after 1 s, for the faults
    that hang (the emulator hangs 6 s, well past it)."""
    async for made in bot_sender(emulator, read_timeout=1.0):
        yield made


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
    impatient: Sender,
    people: People,
    kind: str,
    fate: Fate,
    carried_out: bool,
) -> None:
    sender = impatient
    emulator.faults = Faults(hang_seconds=6.0)
    emulator.force_fault(kind, method="sendMessage", chat_id=people.group.id)
    sent = await sender.group_text(people.group.id, None, "<b>hi</b>")
    assert sent.fate is fate and sent.transient and sent.message_id is None

    def shown() -> int:
        return sum(1 for m in emulator.state.messages(people.group.id) if m.content.text == "hi")

    if carried_out:  # the client gave up after 1 s: on a loaded machine, maybe before it ran
        await emulator.wait_for(lambda: shown() == 1, timeout=5)
    assert shown() == (1 if carried_out else 0)
    assert await sender.posts.latest(people.group.id) == 0  # nothing confirmed
    again = await sender.group_text(people.group.id, None, "<b>hi</b>")
    assert again.ok and again.message_id is not None
    assert await sender.posts.latest(people.group.id) == again.message_id


async def test_a_photo_s_caption_can_be_shown_above_it(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    above = await sender.group_photo(people.group.id, None, _png(), "Round 1/3", above=True)
    below = await sender.group_photo(people.group.id, None, _png(), "a replay")
    assert above.message_id is not None and below.message_id is not None
    shown = {m.message_id: m for m in emulator.state.messages(people.group.id)}
    assert shown[above.message_id].content.show_caption_above_media
    assert not shown[below.message_id].content.show_caption_above_media
    api = emulator.state.message_to_api(shown[above.message_id])
    assert api["show_caption_above_media"] is True and api["caption"] == "Round 1/3"
    assert "show_caption_above_media" not in emulator.state.message_to_api(shown[below.message_id])


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
    assert (await sender.probe(people.group.id, own.message_id, None)).ok
    assert emulator.state.message(people.group.id, own.message_id).content.text == "mine"
    assert not (await sender.probe(people.group.id, theirs.message_id, None)).ok
    assert not (await sender.probe(people.group.id, 10_000, None)).ok


async def test_a_probe_finds_a_copy_only_in_its_own_forum_topic(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    """Another topic's message of the bot is another game's (maybe not recorded yet): never
    taken for a copy, so never deleted; the General topic's messages have no topic. (Only a
    message with a keyboard tells its topic: removing nothing, Telegram answers "message is
    not modified" and no message, so a message without one is taken as before.)"""
    state = emulator.state
    forum = state.create_group("Forum", creator=people.alice.id, supergroup=True, forum=True)
    one = state.create_topic(forum.id, people.alice.id, "One")
    two = state.create_topic(forum.id, people.alice.id, "Two")
    keys = [[Button("My hand", Noop())]]
    sent = [
        await sender.group_text(forum.id, thread, text, keys)
        for thread, text in ((one, "one"), (two, "two"), (None, "general"), (one, "again"))
    ]
    in_one, in_two, general, again = (s.message_id for s in sent)
    assert in_one and in_two and general and again
    assert (await sender.probe(forum.id, in_one, one)).ok
    other = await sender.probe(forum.id, in_two, one)
    assert other.fate is Fate.GONE and "topic" in other.detail
    assert not (await sender.probe(forum.id, general, one)).ok
    assert (await sender.probe(forum.id, again, None)).fate is Fate.GONE
    assert state.message(forum.id, in_two).content.text == "two"  # its keyboard is gone
    assert (await sender.probe(forum.id, in_two, one)).ok  # now it tells nothing
    assert (await sender.edit_keyboard(forum.id, in_two, keys)).ok  # set again
    assert state.message(forum.id, in_two).content.reply_markup is not None
    assert (await sender.edit_keyboard(forum.id, in_two, keys)).ok  # "not modified"
    gone = await sender.edit_keyboard(forum.id, 10_000, keys)
    assert gone.fate is Fate.GONE


@pytest.mark.parametrize(
    ("answer", "topic"),
    [
        ({"message_id": 5, "message_thread_id": 3, "is_topic_message": True}, 3),
        ({"message_id": 5, "message_thread_id": 3}, None),  # a reply's thread, not a topic
        ({"message_id": 5}, None),
        (True, None),  # an edit of an inline message answers True
    ],
)
def test_the_topic_of_an_answer(answer: object, topic: int | None) -> None:
    assert topic_of(answer) == topic


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


def _picture(colour: str) -> bytes:
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (16, 16), colour).save(out, "PNG")
    return out.getvalue()


async def test_a_picture_is_uploaded_once_and_sent_again_by_its_file_id(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    board = _picture("white")
    first = await sender.group_photo(people.group.id, None, board, "board")
    again = await sender.private_photo(people.alice.id, board, "your board", [])
    other = await sender.private_photo(people.bob.id, _picture("black"), "hand", [])
    assert first.ok and again.ok and other.ok
    assert emulator.state.photo_uploads == 2  # the same bytes went up once
    assert first.message_id is not None and again.message_id is not None
    group = emulator.state.message(people.group.id, first.message_id).content.photo
    alice = emulator.state.message(people.alice.id, again.message_id).content.photo
    assert group is not None and alice is not None
    assert group[-1].file_unique_id == alice[-1].file_unique_id


async def test_an_edit_that_keeps_the_picture_edits_only_the_keyboard(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    hand = _picture("white")
    sent = await sender.private_photo(people.alice.id, hand, "hand", [[Button("a", Noop())]])
    assert sent.ok and sent.message_id is not None
    emulator.calls.clear()
    keys = await sender.edit_photo(
        people.alice.id, sent.message_id, hand, "hand", [[Button("b", Noop())]]
    )
    assert keys.ok and dict(emulator.calls) == {"editMessageReplyMarkup": 1}
    text = await sender.edit_photo(people.alice.id, sent.message_id, hand, "<b>pick</b>", [])
    assert text.ok and emulator.calls["editMessageCaption"] == 1
    message = emulator.state.message(people.alice.id, sent.message_id)
    assert message.content.caption == "pick" and not message.content.reply_markup
    new = await sender.edit_photo(people.alice.id, sent.message_id, _picture("red"), "pick", [])
    assert new.ok and emulator.calls["editMessageMedia"] == 1
    assert emulator.state.photo_uploads == 2


async def test_a_picture_changed_by_another_process_is_sent_again(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    hand = _picture("white")
    sent = await sender.private_photo(people.alice.id, hand, "hand", [])
    assert sent.ok and sent.message_id is not None
    other = Sender(sender.bot)  # another process: it does not know what this one showed
    assert (await other.edit_photo(people.alice.id, sent.message_id, _picture("red"), "x", [])).ok
    emulator.calls.clear()
    back = await sender.edit_photo(people.alice.id, sent.message_id, hand, "hand", [])
    assert back.ok and emulator.calls["editMessageMedia"] == 1
    message = emulator.state.message(people.alice.id, sent.message_id)
    photo = message.content.photo
    assert photo is not None and photo[-1].data == hand
    assert message.content.caption == "hand"


@pytest.mark.rule("privacy.map")
async def test_a_private_board_with_a_peeked_goal_is_never_sent_as_the_groups_photo(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    """Bob peeked at nothing: his board is the group's photo, sent by its file id; Alice looked
    at a goal with a map: her board is uploaded on its own and shows what she saw."""
    from tests.render import boards as b
    from tests.tgbot.test_pictures import EN, GAME, _peeked_without_hands
    from tgbot import menus
    from tgbot.pictures import Pictures

    alice, bob = people.alice.id, people.bob.id
    base = b.dug(b.base(seed=3), 12, seed=3)
    ids = dict(zip(base.players, (alice, bob, 3, 4, 5), strict=True))
    state = _peeked_without_hands(dataclasses.replace(base, players=tuple(ids.values())), alice)
    names = {ids[p]: n for p, n in b.NAMES.items()}
    pictures = Pictures()
    group = await sender.group_photo(people.group.id, None, pictures.board(state, names), "b")
    sent = {}
    for user in (bob, alice):
        home = menus.home(menus.Seat(GAME, state, user, names, EN))
        sent[user] = await sender.private_photo(
            user, pictures.screen(state, user, home, names), "", []
        )
    assert emulator.state.photo_uploads == 2
    assert group.message_id is not None

    def photo(chat: int, message: int | None) -> tuple[str, bytes]:
        assert message is not None
        sizes = emulator.state.message(chat, message).content.photo
        assert sizes is not None
        return sizes[-1].file_unique_id, sizes[-1].data

    shown = photo(people.group.id, group.message_id)
    assert photo(bob, sent[bob].message_id) == shown
    mine = photo(alice, sent[alice].message_id)
    assert mine[0] != shown[0] and mine[1] != shown[1]
