"""The bot's sender speaks ephemeral messages (Bot API 10.2-10.4, newer than PTB 22.8) to the
emulator: typed parameters in, the same `Sent` fates out as for every other call."""

from __future__ import annotations

import io
import warnings

from PIL import Image

from emulator import EmulatorState, ManualClock
from emulator.ephemeral import ephemeral_message, visible
from emulator.faults import ERROR_500
from emulator.model import Content
from emulator.server import BotApiEmulator
from tests.emulator.support import People
from tgbot.buttons import Noop
from tgbot.callback import encode
from tgbot.menus import Button
from tgbot.ports import Ephemeral, Fate
from tgbot.telegram_io import Sender


def png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (20, 20), colour).save(out, format="PNG")
    return out.getvalue()


def pressed(state: EmulatorState, people: People) -> str:
    """Alice taps a button of a bot post in the group; the query id."""
    post = state.send_as_bot(
        state.chat(people.group.id),
        Content(
            text="board",
            reply_markup={"inline_keyboard": [[{"text": "hand", "callback_data": "h"}]]},
        ),
    )
    return state.press_button(people.alice.id, people.group.id, post.message_id, "h")


KEYBOARD = ((Button("1. Ladder", Noop()), Button("🚫 2. Map")),)


async def test_send_edit_and_delete_an_ephemeral_photo(
    sender: Sender, state: EmulatorState, people: People
) -> None:
    query = pressed(state, people)
    to = Ephemeral(people.group.id, people.alice.id, callback_query_id=query)
    with warnings.catch_warnings(record=True) as caught:
        sent = await sender.ephemeral_photo(to, png("brown"), "<b>Your hand</b>", KEYBOARD)
    assert caught == []  # PTB's warning about the deliberate do_api_request is silenced
    assert sent.fate is Fate.DONE and sent.message_id is not None
    message = ephemeral_message(state, people.group.id, sent.message_id)
    assert message.receiver_id == people.alice.id and message.caption == "Your hand"
    assert message.buttons == [
        {"text": "1. Ladder", "callback_data": encode(Noop())},
        {"text": "🚫 2. Map", "disabled": {}},
    ]
    assert await sender.posts.latest(people.group.id) == 0  # not a message of the chat
    assert visible(state, people.group.id, people.bob.id) == []
    first = message.content.photo
    edited = await sender.edit_ephemeral_photo(
        people.group.id, people.alice.id, sent.message_id, png("green"), "Step two", ()
    )
    assert edited.fate is Fate.DONE
    assert message.caption == "Step two" and message.content.photo != first
    assert message.buttons == []
    deleted = await sender.delete_ephemeral(people.group.id, people.alice.id, sent.message_id)
    assert deleted.fate is Fate.DONE
    again = await sender.delete_ephemeral(people.group.id, people.alice.id, sent.message_id)
    assert again.fate is Fate.GONE
    gone = await sender.edit_ephemeral_photo(
        people.group.id, people.alice.id, sent.message_id, png("red"), "x", ()
    )
    assert gone.fate is Fate.GONE


async def test_a_late_or_missing_press_is_refused_and_a_500_is_retried(
    sender: Sender,
    state: EmulatorState,
    people: People,
    clock: ManualClock,
    emulator: BotApiEmulator,
) -> None:
    alone = await sender.ephemeral_photo(
        Ephemeral(people.group.id, people.alice.id), png("brown"), "x", ()
    )
    assert alone.fate is Fate.GONE and "not enough rights" in alone.detail.lower()
    query = pressed(state, people)
    emulator.force_fault(ERROR_500, method="sendPhoto")
    failed = await sender.ephemeral_photo(
        Ephemeral(people.group.id, people.alice.id, query), png("brown"), "x", ()
    )
    assert failed.fate is Fate.RETRY
    clock.advance(16)
    late = await sender.ephemeral_photo(
        Ephemeral(people.group.id, people.alice.id, query), png("brown"), "x", ()
    )
    assert late.fate is Fate.REFUSED and "query is too old" in late.detail.lower()
    assert visible(state, people.group.id, people.alice.id) == []
