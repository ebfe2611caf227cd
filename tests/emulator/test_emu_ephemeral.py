"""Ephemeral messages in the emulator: one member sees them, nobody's history holds them, a
non-admin bot answers a press within 15 s, edits and deletion, and offline receivers."""

from __future__ import annotations

import io
import json
from typing import Any

import aiohttp
import pytest
from PIL import Image

from emulator import EmulatorState, ManualClock, SimulationError
from emulator.ephemeral import ephemeral_message, press, replaced_for, set_offline, visible
from tests.emulator.support import People, RawCall


def png(colour: str = "brown") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (16, 16), colour).save(out, format="PNG")
    return out.getvalue()


def markup(*data: str) -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": d, "callback_data": d} for d in data]]}


async def tap(raw: RawCall, state: EmulatorState, people: People) -> tuple[int, str]:
    """Alice taps a button of a group post; the post's id and the query's id."""
    status, body = await raw(
        "sendMessage", chat_id=people.group.id, text="board", reply_markup=markup("hand")
    )
    assert status == 200
    post = body["result"]["message_id"]
    return post, state.press_button(people.alice.id, people.group.id, post, "hand")


async def send_to_alice(
    raw: RawCall, people: People, query: str | None, **options: Any
) -> tuple[int, dict[str, Any]]:
    params: dict[str, Any] = {"receiver_user_id": people.alice.id, **options}
    if query is not None:
        params["callback_query_id"] = query
    return await raw(
        "sendMessage",
        chat_id=people.group.id,
        text="<b>your hand</b>",
        parse_mode="HTML",
        reply_markup=markup("pick"),
        ephemeral_message_parameters=params,
    )


async def test_only_the_receiver_sees_it_and_no_history_holds_it(
    raw: RawCall, state: EmulatorState, people: People
) -> None:
    post, query = await tap(raw, state, people)
    status, body = await send_to_alice(raw, people, query)
    assert status == 200, body
    result = body["result"]
    assert result["receiver_user"]["id"] == people.alice.id
    number = result["ephemeral_message_id"]
    assert [m.ephemeral_message_id for m in visible(state, people.group.id, people.alice.id)] == [
        number
    ]
    assert visible(state, people.group.id, people.bob.id) == []
    history = state.messages(people.group.id, user_id=people.bob.id)
    assert history[-1].message_id == post  # nothing after the board post
    assert all("your hand" not in (m.text or "") for m in state.messages(people.group.id))


async def test_receiver_may_be_left_out_with_a_press(
    raw: RawCall, state: EmulatorState, people: People
) -> None:
    _, query = await tap(raw, state, people)
    status, body = await raw(
        "sendMessage",
        chat_id=people.group.id,
        text="hand",
        ephemeral_message_parameters={"callback_query_id": query},
    )
    assert status == 200, body
    assert body["result"]["receiver_user"]["id"] == people.alice.id


async def test_a_non_admin_bot_needs_a_fresh_press_of_the_receiver(
    raw: RawCall, state: EmulatorState, people: People, clock: ManualClock
) -> None:
    status, body = await send_to_alice(raw, people, None)
    assert (status, body["description"]) == (
        400,
        "Bad Request: not enough rights to send ephemeral messages without a callback query",
    )
    _, query = await tap(raw, state, people)
    status, body = await raw(
        "sendMessage",
        chat_id=people.group.id,
        text="hand",
        ephemeral_message_parameters={
            "receiver_user_id": people.bob.id,
            "callback_query_id": query,
        },
    )
    assert (status, body["description"]) == (
        400,
        "Bad Request: the callback query was sent by another user",
    )
    clock.advance(15.5)
    status, body = await send_to_alice(raw, people, query)
    assert status == 400 and "query is too old" in body["description"]
    assert visible(state, people.group.id, people.alice.id) == []


async def test_an_admin_bot_sends_without_a_press_but_not_to_strangers(
    raw: RawCall, state: EmulatorState, people: People
) -> None:
    state.make_admin(people.group.id, state.bot.id)
    status, body = await send_to_alice(raw, people, None)
    assert status == 200, body
    status, body = await raw(
        "sendMessage",
        chat_id=people.group.id,
        text="hand",
        ephemeral_message_parameters={"receiver_user_id": people.carol.id},
    )
    assert (status, body["description"]) == (400, "Bad Request: USER_NOT_PARTICIPANT")
    status, body = await raw(
        "sendMessage",
        chat_id=people.alice.id,
        text="hand",
        ephemeral_message_parameters={"receiver_user_id": people.alice.id},
    )
    assert status == 400 and "only to groups" in body["description"]


async def test_edits_with_a_new_upload_keyboard_and_deletion(
    emulator: Any, state: EmulatorState, people: People, raw: RawCall
) -> None:
    _, query = await tap(raw, state, people)
    form = aiohttp.FormData()
    form.add_field("chat_id", str(people.group.id))
    form.add_field("caption", "hand one")
    form.add_field("reply_markup", json.dumps(markup("pick")))
    form.add_field(
        "ephemeral_message_parameters",
        json.dumps({"receiver_user_id": people.alice.id, "callback_query_id": query}),
    )
    form.add_field("photo", png("brown"), filename="a.png")
    async with aiohttp.ClientSession() as session:
        url = f"{emulator.url}/bot{state.token}/sendPhoto"
        async with session.post(url, data=form) as response:
            body = await response.json()
        assert body["ok"], body
        number = body["result"]["ephemeral_message_id"]
        first_photo = ephemeral_message(state, people.group.id, number).content.photo
        edit = aiohttp.FormData()
        edit.add_field("chat_id", str(people.group.id))
        edit.add_field("receiver_user_id", str(people.alice.id))
        edit.add_field("ephemeral_message_id", str(number))
        edit.add_field(
            "media", json.dumps({"type": "photo", "media": "attach://new", "caption": "hand two"})
        )
        edit.add_field("reply_markup", json.dumps(markup("confirm")))
        edit.add_field("new", png("green"), filename="b.png")
        url = f"{emulator.url}/bot{state.token}/editEphemeralMessageMedia"
        async with session.post(url, data=edit) as response:
            body = await response.json()
        assert body == {"ok": True, "result": True}
    message = ephemeral_message(state, people.group.id, number)
    assert message.caption == "hand two" and message.content.photo != first_photo
    assert [b["callback_data"] for b in message.buttons] == ["confirm"]
    ids = {"chat_id": people.group.id, "receiver_user_id": people.alice.id}
    status, body = await raw(
        "editEphemeralMessageReplyMarkup",
        **ids,
        ephemeral_message_id=number,
        reply_markup=markup("confirm"),
    )
    assert status == 400 and "not modified" in body["description"]
    status, body = await raw(
        "editEphemeralMessageCaption", **ids, ephemeral_message_id=number, caption="three"
    )
    assert status == 200 and message.caption == "three"
    status, body = await raw(
        "editEphemeralMessageCaption",
        chat_id=people.group.id,
        receiver_user_id=people.bob.id,
        ephemeral_message_id=number,
        caption="four",
    )
    assert (status, body["description"]) == (
        400,
        "Bad Request: ephemeral message to edit not found",
    )
    status, body = await raw("deleteEphemeralMessage", **ids, ephemeral_message_id=number)
    assert (status, body) == (200, {"ok": True, "result": True})
    assert visible(state, people.group.id, people.alice.id) == []
    status, body = await raw("deleteEphemeralMessage", **ids, ephemeral_message_id=number)
    assert (status, body["description"]) == (
        400,
        "Bad Request: ephemeral message to delete not found",
    )


async def test_a_press_on_an_ephemeral_message_comes_as_a_callback_query(
    raw: RawCall, state: EmulatorState, people: People
) -> None:
    post, query = await tap(raw, state, people)
    _, body = await send_to_alice(raw, people, query, replace_callback_query_message=True)
    number = body["result"]["ephemeral_message_id"]
    assert replaced_for(state, people.group.id, people.alice.id) == {post}
    assert replaced_for(state, people.group.id, people.bob.id) == set()
    second = press(state, people.alice.id, people.group.id, number, "pick")
    update = state.update_log[-1] if state.update_log else state.pending_updates[-1]
    message = update["callback_query"]["message"]
    assert message["ephemeral_message_id"] == number and message["message_id"] == 0
    # A press on an ephemeral message may not replace it: those are edited.
    status, body = await send_to_alice(raw, people, second, replace_callback_query_message=True)
    assert status == 400 and "must be False" in body["description"]
    status, body = await send_to_alice(raw, people, second)
    assert status == 200
    with pytest.raises(SimulationError):
        press(state, people.bob.id, people.group.id, number, "pick")


async def test_an_offline_receiver_gets_nothing_though_telegram_says_ok(
    raw: RawCall, state: EmulatorState, people: People
) -> None:
    _, query = await tap(raw, state, people)
    set_offline(state, people.alice.id)
    status, body = await send_to_alice(raw, people, query)
    assert status == 200 and body["ok"]
    assert visible(state, people.group.id, people.alice.id) == []
    assert state.ephemeral.dropped == 1
    set_offline(state, people.alice.id, False)
    _, again = await tap(raw, state, people)
    status, body = await send_to_alice(raw, people, again)
    assert len(visible(state, people.group.id, people.alice.id)) == 1


async def test_disabled_buttons_are_kept_and_cannot_be_pressed(
    raw: RawCall, state: EmulatorState, people: People
) -> None:
    _, query = await tap(raw, state, people)
    keyboard = {
        "inline_keyboard": [
            [{"text": "🚫 Ladder", "disabled": {}}, {"text": "Back", "callback_data": "back"}]
        ]
    }
    status, body = await raw(
        "sendMessage",
        chat_id=people.group.id,
        text="hand",
        reply_markup=keyboard,
        ephemeral_message_parameters={"callback_query_id": query},
    )
    assert status == 200, body
    assert body["result"]["reply_markup"] == keyboard
    status, body = await raw(
        "sendMessage",
        chat_id=people.group.id,
        text="hand",
        reply_markup={"inline_keyboard": [[{"text": "x", "disabled": True}]]},
    )
    assert status == 400 and "disabled" in body["description"]
