"""The bot's Bot API client on aiohttp (`tgbot.http_client`): texts, keyboards, uploads and
file ids, errors and timeouts, through a real PTB `Bot` against the emulator."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from telegram.error import BadRequest, NetworkError, TelegramError, TimedOut
from telegram.request import BaseRequest

from emulator import EmulatorState
from emulator.faults import RESET, TIMEOUT_BEFORE
from emulator.server import BotApiEmulator
from tests.emulator.support import People
from tgbot.bot_calls import BotCalls, Upload, encode, field
from tgbot.fates import fate_of
from tgbot.http_client import AiohttpRequest
from tgbot.ports import Fate


def png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (200, 100), color).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
async def aio_bot(emulator: BotApiEmulator) -> AsyncIterator[Bot]:
    client = Bot(
        **emulator.bot_kwargs, request=AiohttpRequest(read_timeout=15.0)
    )  # patient: CI is loaded
    async with client:
        yield client


async def test_text_with_keyboard_and_entities(
    aio_bot: Bot, state: EmulatorState, people: People
) -> None:
    keys = InlineKeyboardMarkup([[InlineKeyboardButton("Go 가", callback_data="go:1")]])
    sent = await aio_bot.send_message(
        people.group.id, "<b>Turn</b> 1 — 가나", parse_mode="HTML", reply_markup=keys
    )
    stored = state.message(people.group.id, sent.message_id)
    assert stored.content.text == "Turn 1 — 가나"
    assert stored.content.reply_markup == {
        "inline_keyboard": [[{"text": "Go 가", "callback_data": "go:1"}]]
    }
    assert sent.entities[0].type == "bold"


async def test_upload_then_file_id_then_media_edit(
    aio_bot: Bot, state: EmulatorState, people: People
) -> None:
    board = png("gold")
    sent = await aio_bot.send_photo(people.group.id, board, caption="board")
    assert state.photo_bytes(people.group.id, sent.message_id) == board
    again = await aio_bot.send_photo(people.alice.id, sent.photo[-1].file_id)
    assert state.photo_bytes(people.alice.id, again.message_id) == board
    other = png("navy")
    await aio_bot.edit_message_media(
        InputMediaPhoto(other, caption="new"), people.group.id, sent.message_id
    )
    assert state.photo_bytes(people.group.id, sent.message_id) == other
    assert state.message(people.group.id, sent.message_id).content.caption == "new"


async def test_api_errors_come_out_as_ptb_errors(aio_bot: Bot, people: People) -> None:
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await aio_bot.delete_message(people.group.id, 999_999)


async def test_a_hang_is_timed_out_and_a_reset_is_a_network_error(
    aio_bot: Bot, emulator: BotApiEmulator, people: People
) -> None:
    emulator.faults = dataclasses.replace(emulator.faults, hang_seconds=4.0)
    emulator.force_fault(TIMEOUT_BEFORE, method="sendMessage")
    with pytest.raises(TimedOut) as hung:
        await aio_bot.send_message(people.group.id, "lost", read_timeout=1.0)
    assert fate_of(hung.value, private=False).fate is Fate.UNKNOWN
    emulator.force_fault(RESET, method="sendMessage")
    with pytest.raises(NetworkError) as cut:
        await aio_bot.send_message(people.group.id, "dropped")
    # a broken connection may have carried the call out: the sender must check, not resend
    assert fate_of(cut.value, private=False).fate is Fate.UNKNOWN
    sent = await aio_bot.send_message(people.group.id, "fine")
    assert sent.text == "fine"


async def test_shut_down_then_initialized_again(emulator: BotApiEmulator) -> None:
    request = AiohttpRequest()
    client = Bot(**emulator.bot_kwargs, request=request)
    async with client:
        assert (await client.get_me()).is_bot
    with pytest.raises(NetworkError, match="not initialized"):
        await request.post(f"{emulator.bot_kwargs['base_url']}x/getMe")
    async with client:
        assert (await client.get_me()).is_bot


def test_answers_are_parsed_as_ptb_parses_them() -> None:
    """orjson where the answer is valid UTF-8 JSON; PTB's own decoding (bad bytes replaced)
    where it is not, and PTB's error for what is not JSON at all."""
    good = '{"ok": true, "result": {"text": "가나 \\ud83d\\ude00", "n": 1}}'.encode()
    assert AiohttpRequest.parse_json_payload(good) == BaseRequest.parse_json_payload(good)
    bad_bytes = b'{"ok": true, "result": "a\xffb"}'
    assert AiohttpRequest.parse_json_payload(bad_bytes) == {"ok": True, "result": "a\ufffdb"}
    with pytest.raises(TelegramError, match="Invalid server response"):
        AiohttpRequest.parse_json_payload(b"<html>502</html>")


async def test_plain_calls_answer_json_and_raise_ptb_errors(
    aio_bot: Bot, state: EmulatorState, people: People
) -> None:
    """`BotCalls`: the method's result as JSON (no PTB objects), an upload as a multipart
    field or a media's attached part, a JSON body otherwise, and Telegram's errors as PTB's."""
    api = BotCalls(aio_bot)
    board = png("gold")
    keyboard = {"inline_keyboard": [[{"text": "가 Go", "callback_data": "g", "style": "success"}]]}
    sent = await api(
        "sendPhoto",
        {
            "chat_id": people.group.id,
            "photo": Upload("b.png", board, "image/png"),
            "caption": "<b>board</b> 가나\r\n--",
            "parse_mode": "HTML",
            "message_thread_id": None,  # left out
            "reply_markup": keyboard,
        },
    )
    assert isinstance(sent, dict)
    message_id = sent["message_id"]
    assert field(sent, "caption") == "board 가나\r\n--"
    assert state.photo_bytes(people.group.id, message_id) == board
    assert state.message(people.group.id, message_id).content.reply_markup == keyboard
    other = png("navy")
    media = {"type": "photo", "media": Upload("o.png", other, "image/png"), "caption": "new"}
    where = {"chat_id": people.group.id, "message_id": message_id}
    edited = await api("editMessageMedia", {**where, "media": media})
    assert field(edited, "message_id") == message_id
    assert state.photo_bytes(people.group.id, message_id) == other
    assert state.message(people.group.id, message_id).content.caption == "new"
    caption = await api(
        "editMessageCaption", {**where, "caption": "<i>x</i>", "parse_mode": "HTML"}
    )
    assert field(caption, "caption") == "x"  # a JSON body
    file_id = sent["photo"][-1]["file_id"]
    again = await api("sendPhoto", {"chat_id": people.alice.id, "photo": file_id})
    assert state.photo_bytes(people.alice.id, field(again, "message_id")) == board  # type: ignore[arg-type]
    assert await api("deleteMessage", where) is True
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await api("deleteMessage", where)
    assert field(True, "message_id") is None


def test_bodies_are_json_or_multipart_with_files_attached() -> None:
    """What `encode` makes: JSON without files (None left out), multipart with them, each
    other field's value a JSON text, a media's file attached by name."""
    plain = encode({"chat_id": 5, "text": "가", "url": None, "show_alert": False})
    assert plain.content_type == "application/json" and not plain.contains_files
    assert plain.body == '{"chat_id":5,"text":"가","show_alert":false}'.encode()
    media = {"type": "photo", "media": Upload("p.png", b"PNG\r\n", "image/png")}
    upload = encode({"chat_id": 5, "media": media, "reply_markup": {"inline_keyboard": []}})
    assert upload.contains_files
    boundary = upload.content_type.split("boundary=")[1]
    parts = upload.body.split(f"--{boundary}".encode())
    assert parts[0] == b"" and parts[-1] == b"--\r\n"
    assert parts[1] == b'\r\nContent-Disposition: form-data; name="chat_id"\r\n\r\n5\r\n'
    assert b'"media":"attach://file0"' in parts[2]
    assert parts[3].endswith(b"\r\n") and b'{"inline_keyboard":[]}' in parts[3]
    assert (
        b'name="file0"; filename="p.png"\r\nContent-Type: image/png\r\n\r\nPNG\r\n\r\n' in parts[4]
    )
    assert encode({"chat_id": 5, "media": media}).content_type != upload.content_type  # fresh


async def test_the_calls_need_the_aiohttp_client(emulator: BotApiEmulator) -> None:
    with pytest.raises(TypeError, match="AiohttpRequest"):
        BotCalls(Bot(**emulator.bot_kwargs))
