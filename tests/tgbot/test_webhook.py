"""The webhook server over real HTTP: the secret before the body, a size cap, 400 for junk.

Requests are written by hand on a TCP connection, so a test can send only the headers of a
request that announces a huge body and still read the answer: proof that the server decided
without reading any of the body.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from telegram import Bot, Message, Update

from tests.emulator.support import quick_request
from tgbot.handlers import panel_of, place_of
from tgbot.webhook import MAX_BODY_BYTES, SECRET_HEADER, WebhookServer

SECRET = "webhook-test-secret_1"
TOKEN = "7000000001:AAHemulatorTokenForLocalTestsOnly12"
HUGE = 90 * 1024 * 1024  # the 90 MB bodies of the report
ANSWER_SECONDS = 20.0  # only a guard against a hung test, never a measurement
LINGER = 0.05  # how long a refused body's unread bytes are waited for before closing


# The servers' Bot only decodes updates (Update.de_json) and never sends, so one unstarted Bot
# serves every test. A Bot of PTB's defaults per test built two HTTP clients, each loading the
# CA bundle (~35 ms apiece).
BOT = Bot(TOKEN, request=quick_request(), get_updates_request=quick_request())


@dataclass
class Hook:
    """A running server and what it handed on."""

    server: WebhookServer
    accepted: list[Update] = field(default_factory=list)

    @property
    def port(self) -> int:
        """Where it listens."""
        return self.server.port


@pytest.fixture
async def hook() -> AsyncIterator[Hook]:
    """A webhook server on a free port whose `accept` keeps the updates."""
    accepted: list[Update] = []

    async def accept(update: Update) -> None:
        accepted.append(update)

    server = WebhookServer(
        bot=BOT,
        accept=accept,
        secret=SECRET,
        path="hook",
        host="127.0.0.1",
        port=0,
        linger_seconds=LINGER,
    )
    await server.start()
    try:
        yield Hook(server, accepted)
    finally:
        await server.stop()


def head(
    length: int | None = None,
    *,
    secret: str | None = SECRET,
    path: str = "/hook",
    method: str = "POST",
    extra: tuple[str, ...] = (),
) -> bytes:
    """A request's head: the request line and headers (Content-Length, or chunked if None)."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    if secret is not None:
        lines.append(f"{SECRET_HEADER}: {secret}")
    lines.append("Transfer-Encoding: chunked" if length is None else f"Content-Length: {length}")
    lines.extend(extra)
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def chunked(*parts: bytes) -> bytes:
    """Chunks in HTTP's chunked coding, with the last (empty) chunk."""
    out = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts)
    return out + b"0\r\n\r\n"


@dataclass
class Answer:
    """An HTTP answer as read off the wire."""

    status: int
    headers: dict[str, str]
    body: bytes


async def read_answer(reader: asyncio.StreamReader) -> Answer:
    """One HTTP answer (status line, headers, body by Content-Length)."""
    status_line = await reader.readline()
    assert status_line.startswith(b"HTTP/1.1 "), status_line
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return Answer(status, headers, body)


async def exchange(port: int, request: bytes, *, answers: int = 1) -> list[Answer]:
    """Write the request bytes, then read this many answers (an interim 100 counts as one)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        out = []
        for _ in range(answers):
            out.append(await asyncio.wait_for(read_answer(reader), ANSWER_SECONDS))
        return out
    finally:
        writer.close()
        await writer.wait_closed()


async def closed_after(port: int, request: bytes) -> tuple[Answer, bytes]:
    """The answer, and whatever the server sends after it until it closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        answer = await asyncio.wait_for(read_answer(reader), ANSWER_SECONDS)
        rest = await asyncio.wait_for(reader.read(), ANSWER_SECONDS)  # b"" once it is closed
        return answer, rest
    finally:
        writer.close()
        await writer.wait_closed()


def update_body(update_id: int = 41, text: str = "/new") -> bytes:
    """A message update as Telegram posts it."""
    return json.dumps(
        {
            "update_id": update_id,
            "message": {
                "message_id": 7,
                "date": 1_700_000_000,
                "chat": {"id": -100123, "type": "supergroup", "title": "Dwarves"},
                "from": {"id": 11, "is_bot": False, "first_name": "Ann", "language_code": "en"},
                "text": text,
                "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
            },
        }
    ).encode()


async def test_a_good_update_is_handed_on_and_answered_200(hook: Hook) -> None:
    body = update_body(41, "/new")
    (answer,) = await exchange(hook.port, head(len(body)) + body)
    assert answer.status == 200
    assert [u.update_id for u in hook.accepted] == [41]
    message = hook.accepted[0].message
    assert message is not None and message.text == "/new" and message.chat.id == -100123
    assert message.get_bot() is hook.server.bot  # shortcuts such as reply_text work


def tap_body(update_id: int, *, date: int = 1_700_000_000) -> bytes:
    """A button tap on a board post in a forum topic, with everything Telegram puts in it."""
    button = {"text": "My hand", "callback_data": "h:1"}
    return json.dumps(
        {
            "update_id": update_id,
            "callback_query": {
                "id": "q1",
                "from": {"id": 11, "is_bot": False, "first_name": "Ann"},
                "chat_instance": "ci",
                "data": "h:1",
                "message": {
                    "message_id": 90,
                    "date": date,
                    "chat": {"id": -100123, "type": "supergroup", "title": "Dwarves"},
                    "from": {"id": 5, "is_bot": True, "first_name": "Bot"},
                    "message_thread_id": 3,
                    "is_topic_message": True,
                    "reply_to_message": {
                        "message_id": 3,
                        "date": 1_600_000_000,
                        "chat": {"id": -100123, "type": "supergroup", "title": "Dwarves"},
                        "forum_topic_created": {"name": "Mine", "icon_color": 7322096},
                        "photo": [{"file_id": "p", "file_unique_id": "u", "width": 1, "height": 1}],
                    },
                    "photo": [
                        {"file_id": f"f{i}", "file_unique_id": f"u{i}", "width": i, "height": i}
                        for i in range(1, 5)
                    ],
                    "caption": "Round 1/3",
                    "caption_entities": [{"type": "bold", "offset": 0, "length": 5}],
                    "reply_markup": {"inline_keyboard": [[button] * 4] * 3},
                    "ephemeral_message_id": 12,
                    "receiver_user": {"id": 11, "is_bot": False, "first_name": "Ann"},
                },
            },
        }
    ).encode()


async def test_a_tap_keeps_of_its_message_only_what_the_bot_reads(hook: Hook) -> None:
    """Where the tapped message is (chat, id, topic and its name, an ephemeral message's number
    and receiver) is kept; its picture, caption and keyboard are not made into objects."""
    body = tap_body(51)
    (answer,) = await exchange(hook.port, head(len(body)) + body)
    assert answer.status == 200
    query = hook.accepted[0].callback_query
    assert query is not None and query.data == "h:1" and query.from_user.id == 11
    message = query.message
    assert isinstance(message, Message)
    place = place_of(message)
    assert (place.chat_id, place.thread_id, place.title) == (-100123, 3, "Dwarves › Mine")
    assert message.message_id == 90
    panel = panel_of(query, message)
    assert (panel.ephemeral_message_id, panel.receiver_id) == (12, 11)
    assert message.photo == () and message.caption is None and message.reply_markup is None
    assert message.reply_to_message is not None and message.reply_to_message.photo == ()


async def test_an_update_only_the_standard_json_module_reads_is_taken(hook: Hook) -> None:
    """orjson refuses a lone surrogate's escape, which `json` (and Telegram) take: the update
    is read all the same."""
    body = update_body(43, "/new").replace(b'"/new"', b'"/new \\ud83d"')
    (answer,) = await exchange(hook.port, head(len(body)) + body)
    assert answer.status == 200
    message = hook.accepted[0].message
    assert message is not None and message.text == "/new \ud83d"


async def test_a_chunked_update_within_the_cap_is_taken(hook: Hook) -> None:
    body = update_body(42)
    (answer,) = await exchange(hook.port, head(None) + chunked(body[:10], body[10:]))
    assert answer.status == 200
    assert [u.update_id for u in hook.accepted] == [42]


@pytest.mark.parametrize(
    "secret",
    [None, "", "wrong", SECRET.upper(), SECRET[:-1], SECRET + "x", "ключ"],
)
async def test_a_request_without_the_right_secret_is_refused_on_its_headers(
    hook: Hook, secret: str | None
) -> None:
    """Only the head of a request announcing 90 MB is sent: the 403 comes without the body."""
    answer, rest = await closed_after(hook.port, head(HUGE, secret=secret))
    assert answer.status == 403
    assert answer.headers.get("connection") == "close" and rest == b""
    assert hook.accepted == []


async def test_a_declared_body_over_the_cap_is_refused_on_its_headers(hook: Hook) -> None:
    """The right secret, a Content-Length above 1 MiB: 413 before any of the body is sent."""
    for length in (MAX_BODY_BYTES + 1, HUGE):
        answer, rest = await closed_after(hook.port, head(length))
        assert answer.status == 413, length
        assert rest == b""
    body = update_body(43)
    (answer,) = await exchange(hook.port, head(len(body)) + body)
    assert answer.status == 200  # the cap is on size, not on this server's health
    assert [u.update_id for u in hook.accepted] == [43]


async def test_a_chunked_body_is_cut_off_at_the_cap(hook: Hook) -> None:
    """Chunks adding up past 1 MiB: 413 and the connection closed; nothing handed on."""
    piece = b" " * (256 * 1024)
    body = chunked(b'{"update_id": 44, "pad": "', *([piece] * 4), b"x", b'"}')
    answer, rest = await closed_after(hook.port, head(None) + body)
    assert answer.status == 413
    assert answer.headers.get("connection") == "close" and rest == b""
    assert hook.accepted == []


MARK = "PAYLOAD-MARK-7f3a"
MALFORMED = [
    f"not json at all {MARK}".encode(),
    f'{{"update_id": 45, "message": "{MARK}"'.encode(),  # cut short
    f'["{MARK}"]'.encode(),
    f'"{MARK}"'.encode(),
    f'{{"update_id": "{MARK}"}}'.encode(),
    f'{{"update_id": true, "x": "{MARK}"}}'.encode(),
    f'{{"text": "{MARK}"}}'.encode(),
    f'{{"update_id": 46, "message": "{MARK}"}}'.encode(),
    f'{{"update_id": 47, "message": {{"text": "{MARK}"}}}}'.encode(),
    f'{{"update_id": 48, "callback_query": {{"id": "{MARK}"}}}}'.encode(),
    b"[" * 100_000 + MARK.encode(),  # deeper than the JSON parser recurses
    b"\xff\xfe" + MARK.encode() + b"\x00\x81",
    b"",
]


@pytest.mark.parametrize("body", MALFORMED, ids=range(len(MALFORMED)))
async def test_a_malformed_body_is_refused_with_400_and_one_line_without_the_payload(
    hook: Hook, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    (answer,) = await exchange(hook.port, head(len(body)) + body)
    assert answer.status == 400
    assert hook.accepted == []
    ours = [r for r in caplog.records if r.name == "tgbot.webhook"]
    assert len(ours) == 1, [r.getMessage() for r in ours]
    assert ours[0].levelno == logging.WARNING and ours[0].exc_info is None
    assert "\n" not in ours[0].getMessage()
    assert MARK not in caplog.text
    for record in caplog.records:
        assert MARK not in record.getMessage() and not record.exc_info, record.name


async def test_only_post_on_the_path_is_served(hook: Hook) -> None:
    body = update_body(49)
    (get,) = await exchange(hook.port, head(0, method="GET"))
    (elsewhere,) = await exchange(hook.port, head(len(body), path="/other") + body)
    (root,) = await exchange(hook.port, head(len(body), path="/") + body)
    assert (get.status, elsewhere.status, root.status) == (405, 404, 404)
    assert hook.accepted == []


async def test_expect_continue_is_answered_by_the_checks(hook: Hook) -> None:
    """A client that waits for "100 Continue" is refused at once, or invited to send."""
    expect = ("Expect: 100-continue",)
    (refused,) = await exchange(hook.port, head(HUGE, secret="wrong", extra=expect))
    (too_big,) = await exchange(hook.port, head(HUGE, extra=expect))
    assert (refused.status, too_big.status) == (403, 413)

    body = update_body(50)
    reader, writer = await asyncio.open_connection("127.0.0.1", hook.port)
    try:
        writer.write(head(len(body), extra=expect))
        await writer.drain()
        interim = await asyncio.wait_for(read_answer(reader), ANSWER_SECONDS)
        assert interim.status == 100 and hook.accepted == []
        writer.write(body)
        await writer.drain()
        final = await asyncio.wait_for(read_answer(reader), ANSWER_SECONDS)
        assert final.status == 200
    finally:
        writer.close()
        await writer.wait_closed()
    assert [u.update_id for u in hook.accepted] == [50]


async def test_an_update_that_cannot_be_taken_answers_500_so_telegram_sends_it_again() -> None:
    """The hand-over is the server's last step: when it fails, the answer says so."""

    async def refuse(update: Update) -> None:
        raise RuntimeError("the queue is gone")

    server = WebhookServer(
        bot=BOT, accept=refuse, secret=SECRET, path="/hook", host="127.0.0.1", port=0
    )
    await server.start()
    try:
        body = update_body(51)
        (answer,) = await exchange(server.port, head(len(body)) + body)
        assert answer.status == 500
    finally:
        await server.stop()


async def test_healthz_says_whether_redis_and_the_bot_api_answer() -> None:
    """GET /healthz needs no secret: 200 when both answer, 503 naming what is down."""
    checks = {"redis": True, "bot_api": True}

    async def health() -> dict[str, bool]:
        return dict(checks)

    async def accept(update: Update) -> None:
        return None

    server = WebhookServer(
        bot=BOT,
        accept=accept,
        secret=SECRET,
        path="/hook",
        host="127.0.0.1",
        port=0,
        health=health,
    )
    await server.start()
    try:
        (up,) = await exchange(server.port, head(0, method="GET", path="/healthz", secret=None))
        checks["redis"] = False
        (down,) = await exchange(server.port, head(0, method="GET", path="/healthz", secret=None))
    finally:
        await server.stop()
    assert (up.status, json.loads(up.body)) == (200, {"redis": "ok", "bot_api": "ok"})
    assert (down.status, json.loads(down.body)) == (503, {"redis": "down", "bot_api": "ok"})
