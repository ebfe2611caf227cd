"""Photos: multipart upload, sizes, re-sending by file id, getFile and download, media edits."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from telegram import Bot, InputMediaPhoto
from telegram.error import BadRequest

from emulator import EmulatorState
from tests.emulator.support import People, RawCall


def png(width: int = 400, height: int = 300, color: str = "gold") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="PNG")
    return out.getvalue()


async def test_upload_gives_sizes_with_file_ids(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    board = png()
    sent = await bot.send_photo(
        people.group.id, board, caption="<b>Turn 1</b>: Alice", parse_mode="HTML"
    )
    assert [(p.width, p.height) for p in sent.photo] == [(90, 68), (320, 240), (400, 300)]
    assert len({p.file_id for p in sent.photo}) == 3
    assert len({p.file_unique_id for p in sent.photo} & {p.file_id for p in sent.photo}) == 0
    assert sent.photo[-1].file_size == len(board)
    assert sent.caption == "Turn 1: Alice"
    assert sent.caption_entities[0].type == "bold"
    assert state.photo_bytes(people.group.id, sent.message_id) == board
    stored = state.message(people.group.id, sent.message_id)
    assert stored.content.raw_caption == "<b>Turn 1</b>: Alice"
    assert stored.photo_file_id == sent.photo[-1].file_id


async def test_a_file_id_can_be_sent_again(bot: Bot, state: EmulatorState, people: People) -> None:
    sent = await bot.send_photo(people.group.id, png())
    again = await bot.send_photo(people.alice.id, sent.photo[0].file_id)
    assert [p.file_unique_id for p in again.photo] == [p.file_unique_id for p in sent.photo]
    assert state.photo_bytes(people.alice.id, again.message_id) == state.photo_bytes(
        people.group.id, sent.message_id
    )


async def test_get_file_and_download(bot: Bot, people: People) -> None:
    board = png(color="navy")
    sent = await bot.send_photo(people.alice.id, board)
    file = await bot.get_file(sent.photo[-1].file_id)
    assert file.file_path is not None and file.file_path.startswith(bot.base_file_url)
    assert bytes(await file.download_as_bytearray()) == board
    thumb = await bot.get_file(sent.photo[0].file_id)
    with Image.open(io.BytesIO(bytes(await thumb.download_as_bytearray()))) as image:
        assert (image.format, image.size) == ("JPEG", (90, 68))
    with pytest.raises(BadRequest, match="Invalid file_id"):
        await bot.get_file("nope")


async def test_photo_errors(raw: RawCall, bot: Bot, people: People) -> None:
    chat = people.alice.id
    assert (await bot.send_photo(chat, png(), caption="c" * 1024)).caption == "c" * 1024
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.send_photo(chat, png(), caption="c" * 1025)
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await bot.send_photo(chat, b"not an image")
    with pytest.raises(BadRequest, match="Photo_invalid_dimensions"):
        await bot.send_photo(chat, png(10, 400))
    for reference in ("AgACunknown", "https://example.com/board.png"):
        status, body = await raw("sendPhoto", chat_id=chat, photo=reference)
        assert (status, body["description"]) == (
            400,
            "Bad Request: wrong file identifier/HTTP URL specified",
        )
    status, body = await raw("sendPhoto", chat_id=chat)
    assert (status, body["description"]) == (400, "Bad Request: there is no photo in the request")


async def test_media_and_caption_edits(
    bot: Bot, raw: RawCall, state: EmulatorState, people: People
) -> None:
    group = people.group.id
    sent = await bot.send_photo(group, png(color="red"), caption="turn 1")
    new_board = png(color="blue")
    edited = await bot.edit_message_media(
        InputMediaPhoto(new_board, caption="turn 2"), group, sent.message_id
    )
    assert not isinstance(edited, bool)
    assert edited.caption == "turn 2"
    assert edited.photo[-1].file_id != sent.photo[-1].file_id
    assert state.photo_bytes(group, sent.message_id) == new_board
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(edited.photo[-1].file_id, caption="turn 2"), group, sent.message_id
        )
    captioned = await bot.edit_message_caption(group, sent.message_id, caption="turn 3")
    assert not isinstance(captioned, bool) and captioned.caption == "turn 3"
    history = state.message(group, sent.message_id).history
    assert [c.caption for c in history] == ["turn 1", "turn 2"]
    assert history[0].photo is not None and history[0].photo[-1].file_id == sent.photo[-1].file_id
    status, body = await raw("editMessageText", chat_id=group, message_id=sent.message_id, text="t")
    assert (status, body["description"]) == (
        400,
        "Bad Request: there is no text in the message to edit",
    )
    text = await bot.send_message(group, "text")
    with pytest.raises(BadRequest, match="There is no media in the message to edit"):
        await bot.edit_message_media(InputMediaPhoto(new_board), group, text.message_id)


async def test_cheap_photos_take_their_sizes_from_the_header_and_keep_the_bytes(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    board = png(1000, 600)
    full = await bot.send_photo(people.group.id, board)
    state.cheap_photos = True
    cheap = await bot.send_photo(people.group.id, board)
    assert [(p.width, p.height) for p in cheap.photo] == [(p.width, p.height) for p in full.photo]
    assert state.photo_uploads == 2
    for size in cheap.photo:  # every size is the upload itself: nothing was decoded
        assert (await (await bot.get_file(size.file_id)).download_as_bytearray()) == board
    with pytest.raises(BadRequest, match=r"(?i)photo_invalid_dimensions"):
        await bot.send_photo(people.group.id, png(2100, 100))  # still Telegram's limits
