"""sendAnimation: GIF uploads, the Animation (and Document) objects, re-sending, limits, errors."""

from __future__ import annotations

import datetime
import io

import pytest
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import BadRequest

from emulator import EmulatorState
from emulator.botapi import call
from emulator.control import message_view
from emulator.errors import ApiError
from emulator.limits import RateLimits
from emulator.params import Params, UploadedFile
from tests.emulator.support import People, RawCall


def gif(frames: int = 3, ms: int = 500, size: tuple[int, int] = (120, 80)) -> bytes:
    """An animated GIF of `frames` frames of `ms` each."""
    images = [Image.new("P", size, color) for color in range(frames)]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=ms, loop=0)
    return out.getvalue()


async def test_a_gif_upload_becomes_an_animation(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    data = gif(frames=4, ms=500)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Next", callback_data="n")]])
    sent = await bot.send_animation(
        people.group.id,
        InputFile(data, filename="replay.gif"),
        caption="<b>Round 1</b>",
        parse_mode="HTML",
        reply_markup=keyboard,
    )
    assert sent.animation is not None
    assert (sent.animation.width, sent.animation.height) == (120, 80)
    assert sent.animation.duration in (2, datetime.timedelta(seconds=2))
    assert sent.animation.file_size == len(data)
    assert sent.animation.file_name == "replay.gif"
    assert sent.document is not None and sent.document.file_id == sent.animation.file_id
    assert sent.caption == "Round 1" and sent.caption_entities[0].type == "bold"
    assert sent.reply_markup == keyboard
    assert state.animation_bytes(people.group.id, sent.message_id) == data
    assert state.message(people.group.id, sent.message_id).animation_file_id == (
        sent.animation.file_id
    )


async def test_an_animation_can_be_sent_again_and_downloaded(bot: Bot, people: People) -> None:
    data = gif()
    sent = await bot.send_animation(people.group.id, data)
    assert sent.animation is not None
    again = await bot.send_animation(people.alice.id, sent.animation.file_id)
    assert again.animation is not None
    assert again.animation.file_unique_id == sent.animation.file_unique_id
    file = await bot.get_file(sent.animation.file_id)
    assert bytes(await file.download_as_bytearray()) == data


async def test_animation_errors(raw: RawCall, bot: Bot, people: People) -> None:
    chat = people.alice.id
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.send_animation(chat, gif(), caption="c" * 1025)
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await bot.send_animation(chat, b"GIF89a but broken")
    png = io.BytesIO()
    Image.new("RGB", (10, 10)).save(png, format="PNG")
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await bot.send_animation(chat, png.getvalue())
    status, body = await raw("sendAnimation", chat_id=chat)
    assert (status, body["description"]) == (
        400,
        "Bad Request: there is no animation in the request",
    )
    for reference in ("CgACunknown", "https://example.com/replay.gif"):
        status, body = await raw("sendAnimation", chat_id=chat, animation=reference)
        assert (status, body["description"]) == (
            400,
            "Bad Request: wrong file identifier/HTTP URL specified",
        )
    status, body = await raw("sendAnimation", chat_id=people.carol.id, animation="x")
    assert status == 403


async def test_a_caption_of_an_animation_can_be_edited(bot: Bot, people: People) -> None:
    sent = await bot.send_animation(people.group.id, gif(), caption="round 1")
    edited = await bot.edit_message_caption(people.group.id, sent.message_id, caption="round 2")
    assert not isinstance(edited, bool) and edited.caption == "round 2"
    assert edited.animation is not None


def _send(state: EmulatorState, chat: int) -> object:
    upload = UploadedFile("replay.gif", "image/gif", gif())
    return call(state, "sendAnimation", Params({"chat_id": chat, "animation": upload}))


def test_animations_count_against_the_group_flood_limit() -> None:
    state = EmulatorState(rate_limits=RateLimits(group_messages=2))
    alice = state.create_user("Alice")
    group = state.create_group("Miners", creator=alice.id)
    _send(state, group.id)
    _send(state, group.id)
    with pytest.raises(ApiError) as refused:
        _send(state, group.id)
    assert refused.value.error_code == 429 and refused.value.parameters == {"retry_after": 60}


def test_the_control_view_shows_an_animation_as_an_image(state: EmulatorState) -> None:
    alice = state.create_user("Alice")
    group = state.create_group("Miners", creator=alice.id)
    sent = _send(state, group.id)
    assert isinstance(sent, dict)
    view = message_view(state, state.message(group.id, sent["message_id"]))
    assert view["emulator"]["photo_url"] == f"/_emu/files/{sent['animation']['file_id']}"
