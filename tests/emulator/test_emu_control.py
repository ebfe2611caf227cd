"""The `/_emu/...` HTTP control API that a browser sandbox uses to play the humans."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from PIL import Image
from telegram import Bot

from emulator import EmulatorState
from emulator.server import BotApiEmulator
from tests.emulator.support import keyboard

Control = Callable[..., Awaitable[tuple[int, Any]]]


@pytest.fixture
async def control(emulator: BotApiEmulator) -> AsyncIterator[Control]:
    async with aiohttp.ClientSession() as session:

        async def call(method: str, path: str, body: object = None) -> tuple[int, Any]:
            async with session.request(method, f"{emulator.url}/_emu{path}", json=body) as reply:
                if reply.content_type == "application/json":
                    return reply.status, await reply.json()
                return reply.status, (reply.content_type, await reply.read())

        yield call


async def ok(control: Control, method: str, path: str, body: object = None) -> Any:
    status, reply = await control(method, path, body)
    assert status == 200, reply
    assert reply["ok"] is True
    return reply["result"]


async def test_a_lobby_round_trip_over_http(bot: Bot, control: Control) -> None:
    alice = await ok(control, "POST", "/users", {"first_name": "Alice", "username": "alice"})
    bob = await ok(control, "POST", "/users", {"first_name": "Bob", "language_code": "ko"})
    start = await ok(control, "POST", f"/users/{bob['id']}/start", {"payload": "join_1"})
    assert start["text"] == "/start join_1"
    group = await ok(
        control,
        "POST",
        "/groups",
        {"title": "Miners", "creator": alice["id"], "members": [bob["id"]]},
    )
    assert [m["first_name"] for m in group["members"]] == ["Alice", "Bob"]
    assert group["bot_status"] == "member"
    said = await ok(
        control, "POST", f"/chats/{group['id']}/messages", {"user_id": bob["id"], "text": "/new"}
    )
    assert said["entities"] == [{"type": "bot_command", "offset": 0, "length": 4}]

    lobby = await bot.send_message(
        group["id"], "<b>Lobby</b>", parse_mode="HTML", reply_markup=keyboard("join")
    )
    last = await ok(control, "GET", f"/chats/{group['id']}/messages/last?user_id={bob['id']}")
    assert last["message_id"] == lobby.message_id
    assert last["text"] == "Lobby"
    assert last["emulator"]["raw_text"] == "<b>Lobby</b>"
    assert last["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "join"

    pressed = await ok(
        control,
        "POST",
        f"/chats/{group['id']}/messages/{lobby.message_id}/press",
        {"user_id": bob["id"], "callback_data": "join"},
    )
    query_id = pressed["callback_query_id"]
    assert (await ok(control, "GET", f"/callback_queries/{query_id}"))["answered"] is False
    await bot.answer_callback_query(query_id, text="Joined")
    answer = await ok(control, "GET", f"/callback_queries/{query_id}")
    assert (answer["answered"], answer["text"], answer["data"]) == (True, "Joined", "join")


async def test_refusals_come_back_as_errors(
    bot: Bot, control: Control, state: EmulatorState
) -> None:
    alice = state.create_user("Alice")
    stranger = state.create_user("Stranger")
    group = state.create_group("G", creator=alice.id)
    lobby = await bot.send_message(group.id, "lobby", reply_markup=keyboard("join"))
    status, reply = await control(
        "POST",
        f"/chats/{group.id}/messages/{lobby.message_id}/press",
        {"user_id": stranger.id, "callback_data": "join"},
    )
    assert status == 400
    assert reply == {"ok": False, "error": f"user {stranger.id} is not a member of chat {group.id}"}
    status, reply = await control("POST", "/users", {"username": "nameless"})
    assert (status, reply["error"]) == (400, "first_name must be a string")
    status, _ = await control("GET", "/chats/-5")
    assert status == 400


async def test_photos_and_files_are_served(
    bot: Bot, control: Control, state: EmulatorState
) -> None:
    alice = state.create_user("Alice")
    state.start_bot(alice.id)
    out = io.BytesIO()
    Image.new("RGB", (200, 100), "brown").save(out, format="PNG")
    sent = await bot.send_photo(alice.id, out.getvalue(), caption="board")
    status, (content_type, data) = await control(
        "GET", f"/chats/{alice.id}/messages/{sent.message_id}/photo"
    )
    assert (status, content_type, data) == (200, "image/png", out.getvalue())
    view = await ok(control, "GET", f"/chats/{alice.id}/messages/last")
    assert view["emulator"]["photo_url"] == f"/_emu/files/{sent.photo[-1].file_id}"
    status, (content_type, thumb) = await control("GET", f"/files/{sent.photo[0].file_id}")
    assert (status, content_type) == (200, "image/jpeg")
    assert thumb[:2] == b"\xff\xd8"


async def test_edits_and_deletions_are_visible(
    bot: Bot, control: Control, state: EmulatorState
) -> None:
    alice = state.create_user("Alice")
    state.start_bot(alice.id)
    sent = await bot.send_message(alice.id, "v1")
    await bot.edit_message_text("v2", alice.id, sent.message_id)
    gone = await bot.send_message(alice.id, "gone")
    await bot.delete_message(alice.id, gone.message_id)
    visible = await ok(control, "GET", f"/chats/{alice.id}/messages")
    assert [m.get("text") for m in visible] == ["/start", "v2"]
    assert visible[1]["emulator"]["edit_history"][0]["text"] == "v1"
    assert "edit_date" in visible[1]
    everything = await ok(control, "GET", f"/chats/{alice.id}/messages?include_deleted=true")
    assert [m["emulator"]["deleted"] for m in everything] == [False, False, True]


async def test_membership_endpoints(bot: Bot, control: Control, state: EmulatorState) -> None:
    alice = state.create_user("Alice")
    bob = state.create_user("Bob")
    state.start_bot(bob.id)
    group = state.create_group("G", creator=alice.id)
    await ok(control, "POST", f"/chats/{group.id}/members", {"user_id": bob.id})
    await ok(control, "POST", f"/chats/{group.id}/admins", {"user_id": bob.id})
    assert state.chat(group.id).status_of(bob.id).value == "administrator"
    await ok(control, "DELETE", f"/chats/{group.id}/members/{bob.id}")
    assert bob.id not in state.chat(group.id).members
    new = await ok(control, "POST", f"/chats/{group.id}/migrate", {"by": alice.id})
    assert (new["type"], state.chat(group.id).migrated_to) == ("supergroup", new["id"])
    await ok(control, "POST", f"/chats/{new['id']}/remove_bot", {"by": alice.id})
    assert state.chat(new["id"]).bot_status.value == "kicked"
    await ok(control, "POST", f"/chats/{new['id']}/add_bot", {"by": alice.id})
    await ok(control, "POST", f"/users/{bob.id}/block")
    assert state.chat(bob.id).bot_status.value == "kicked"
    link = "https://t.me/saboteur_emu_bot?start=back"
    assert (await ok(control, "POST", f"/users/{bob.id}/open_link", {"url": link}))["text"] == (
        "/start back"
    )
    forum = state.create_group("F", creator=alice.id, supergroup=True, forum=True)
    topic = await ok(
        control, "POST", f"/chats/{forum.id}/topics", {"user_id": alice.id, "name": "T"}
    )
    chat = await ok(control, "GET", f"/chats/{forum.id}")
    assert chat["topics"] == [{"message_thread_id": topic["message_thread_id"], "name": "T"}]
    snapshot = await ok(control, "GET", "/state")
    assert {c["id"] for c in snapshot["chats"]} >= {group.id, new["id"], forum.id, bob.id}
    assert len(await ok(control, "GET", "/updates")) == len(state.update_log)


async def test_wait_returns_when_the_world_changes(control: Control, state: EmulatorState) -> None:
    version = state.version
    unchanged = await ok(control, "GET", f"/wait?after={version}&timeout=0.1")
    assert unchanged["version"] == version
    waiting = asyncio.create_task(ok(control, "GET", f"/wait?after={version}&timeout=40"))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    state.create_user("Dana")
    # well before the wait's 40 s, however loaded the machine
    assert (await asyncio.wait_for(waiting, 20))["version"] > version


async def test_settings(control: Control, emulator: BotApiEmulator) -> None:
    settings = await ok(
        control, "POST", "/settings", {"duplicate_webhook_deliveries": True, "privacy_mode": False}
    )
    assert settings == {"duplicate_webhook_deliveries": True, "privacy_mode": False}
    assert emulator.duplicate_webhook_deliveries
    assert not emulator.state.privacy_mode
