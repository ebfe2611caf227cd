"""The Bot API requests for ephemeral messages (Bot API 10.2-10.4), which PTB does not know."""

from __future__ import annotations

from .bot_calls import Upload
from .keyboards import Keyboard
from .ports import Ephemeral

# Ephemeral messages (Bot API 10.2-10.4) are newer than PTB 22.8 (Bot API 10.0): these are the
# requests' parameters, posted as they are (`tgbot.bot_calls`) like every other call.
SEND_PHOTO = "sendPhoto"
EDIT_MEDIA = "editEphemeralMessageMedia"
DELETE = "deleteEphemeralMessage"


def send_photo(
    to: Ephemeral, png: bytes, caption: str, reply_markup: Keyboard | None
) -> dict[str, object]:
    """sendPhoto with `ephemeral_message_parameters`: a photo only `to.receiver_user_id` sees."""
    parameters: dict[str, object] = {"receiver_user_id": to.receiver_user_id}
    if to.callback_query_id is not None:
        parameters["callback_query_id"] = to.callback_query_id
    if to.replace_callback_query_message:
        parameters["replace_callback_query_message"] = True
    body: dict[str, object] = {
        "chat_id": to.chat_id,
        "photo": Upload("hand.png", png, "image/png"),
        "caption": caption,
        "parse_mode": "HTML",
        "ephemeral_message_parameters": parameters,
    }
    if to.thread_id is not None:
        body["message_thread_id"] = to.thread_id
    if reply_markup is not None:
        body["reply_markup"] = reply_markup
    return body


def edit_media(
    message: tuple[int, int, int],
    png: bytes,
    caption: str,
    reply_markup: Keyboard | None,
) -> dict[str, object]:
    """editEphemeralMessageMedia of (chat, receiver, ephemeral message id): a new upload."""
    body = delete(message)
    media = Upload("hand.png", png, "image/png")
    body["media"] = {"type": "photo", "media": media, "caption": caption, "parse_mode": "HTML"}
    if reply_markup is not None:
        body["reply_markup"] = reply_markup
    return body


def delete(message: tuple[int, int, int]) -> dict[str, object]:
    """deleteEphemeralMessage of (chat, receiver, ephemeral message id)."""
    chat_id, receiver_user_id, ephemeral_message_id = message
    return {
        "chat_id": chat_id,
        "receiver_user_id": receiver_user_id,
        "ephemeral_message_id": ephemeral_message_id,
    }
