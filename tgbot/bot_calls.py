"""Bot API calls encoded here and answered as plain JSON, over the bot's aiohttp client.

python-telegram-bot turns every answer into objects (`Message.de_json`, one `__setattr__` per
field) and builds each request from parameter objects: under load about a fifth of the bot's
CPU, for answers of which the sender reads three fields (the message id, the photo's file ids,
the caption). These calls are encoded as Telegram documents them (a JSON body; multipart when
a file is uploaded, the other fields as JSON values, a media's file as `attach://` part) and go
through the bot's `AiohttpRequest`, whose `post` maps Telegram's errors to the same
`TelegramError`s as PTB's methods (`tgbot.fates` reads them).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from telegram import Bot

from .http_client import AiohttpRequest, Encoded

Answer = dict[str, Any] | list[dict[str, Any]] | bool


@dataclass(frozen=True, slots=True)
class Upload:
    """A file sent with a call: a parameter's value, or a media's `media` (attached)."""

    filename: str
    data: bytes
    mime: str


def _text(value: object) -> str:
    """A multipart field's text: strings as they are, anything else as JSON."""
    return value if isinstance(value, str) else orjson.dumps(value).decode()


def encode(parameters: Mapping[str, object]) -> Encoded:
    """The body of a call: None values left out; JSON unless a file goes up (multipart)."""
    fields: dict[str, object] = {}
    files: dict[str, Upload] = {}
    for name, value in parameters.items():
        if value is None:
            continue
        if isinstance(value, Upload):
            files[name] = value
            continue
        if isinstance(value, dict) and isinstance(value.get("media"), Upload):
            attached = f"file{len(files)}"
            files[attached] = value["media"]
            value = {**value, "media": f"attach://{attached}"}
        fields[name] = value
    if not files:
        return Encoded(orjson.dumps(fields), "application/json", files=False)
    boundary = secrets.token_hex(16)
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
        + _text(value).encode()
        + b"\r\n"
        for name, value in fields.items()
    ]
    parts.extend(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
        f'filename="{file.filename}"\r\nContent-Type: {file.mime}\r\n\r\n'.encode()
        + file.data
        + b"\r\n"
        for name, file in files.items()
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return Encoded(b"".join(parts), f"multipart/form-data; boundary={boundary}", files=True)


class BotCalls:
    """One Bot API method with its parameters, answered as JSON (the bot's `AiohttpRequest`)."""

    __slots__ = ("_base", "_request")

    def __init__(self, bot: Bot) -> None:
        request = bot.request
        if not isinstance(request, AiohttpRequest):
            raise TypeError(f"the bot's calls need an AiohttpRequest, not {type(request)!r}")
        self._request = request
        self._base = bot.base_url

    async def __call__(self, method: str, parameters: Mapping[str, object]) -> Answer:
        """Call `method`; its `result` as JSON, or the `TelegramError` PTB would raise."""
        result: Answer = await self._request.post(
            url=f"{self._base}/{method}", request_data=encode(parameters)
        )
        return result


def field(answer: object, name: str) -> object:
    """A field of an answer that is a message (None when it is not, or has no such field)."""
    return answer.get(name) if isinstance(answer, dict) else None


def topic_of(answer: object) -> int | None:
    """The forum topic of an answer that is a message, as a game's record keeps it: its
    `message_thread_id` only when it is a topic message (in other supergroups a reply carries
    a thread id too), else None."""
    thread = field(answer, "message_thread_id")
    if field(answer, "is_topic_message") is True and isinstance(thread, int):
        return thread
    return None
