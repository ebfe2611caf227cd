"""The emulator's multipart reader (`emulator.multipart`): the fields aiohttp's own reader finds
in the same bytes, for bodies written by aiohttp, httpx (PTB's default client) and the bot's own
encoder, plain or odd (RFC 2231 names, base64 parts, a preamble; folded headers too); a body it
cannot read is refused by the emulator with Telegram's 400 and changes nothing."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator

import aiohttp
import httpx
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import EmulatorState, multipart
from emulator.server import BotApiEmulator
from tests.profiles import examples
from tgbot.bot_calls import Upload, encode

Field = tuple[str, str | None, str | None, bytes]  # name, filename, Content-Type, data


async def _aiohttp_reads(request: web.Request) -> web.Response:
    """What aiohttp's own reader makes of a body (the reference)."""
    fields: list[list[object]] = []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        assert isinstance(part, aiohttp.BodyPartReader)
        data = await part.read(decode=True)
        kind = part.headers.get(aiohttp.hdrs.CONTENT_TYPE)
        fields.append([part.name, part.filename, kind, base64.b64encode(data).decode()])
    return web.json_response(fields)


@pytest.fixture
async def reference() -> AsyncIterator[aiohttp.ClientSession]:
    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_post("/", _aiohttp_reads)
    server = TestServer(app)
    await server.start_server()
    async with aiohttp.ClientSession(base_url=str(server.make_url("/"))) as session:
        yield session
    await server.close()


async def _by_aiohttp(
    session: aiohttp.ClientSession, body: bytes, content_type: str
) -> list[Field]:
    async with session.post("/", data=body, headers={"Content-Type": content_type}) as res:
        assert res.status == 200, await res.text()
        got = await res.json()
    return [(n, f, c, base64.b64decode(d)) for n, f, c, d in got]


def _ours(body: bytes, content_type: str) -> list[Field]:
    return [
        (p.name, p.filename, p.content_type, p.data) for p in multipart.parse(body, content_type)
    ]


def _httpx(fields: dict[str, str], files: dict[str, tuple[str, bytes, str]]) -> tuple[bytes, str]:
    request = httpx.Request("POST", "http://x/", data=fields, files=files)
    return request.read(), request.headers["Content-Type"]


async def _aiohttp_form(form: aiohttp.FormData) -> tuple[bytes, str]:
    payload = form()
    return await payload.as_bytes(), payload.content_type


PHOTO = bytes(range(256)) * 40 + b"\r\n--not-the-boundary\r\n" + b"\x00" * 100


async def test_the_bots_uploads_read_as_aiohttp_reads_them(
    reference: aiohttp.ClientSession,
) -> None:
    encoded = encode(
        {
            "chat_id": -100123,
            "caption": "Round 1 — 김민수's turn\r\nline two",
            "reply_markup": {"inline_keyboard": [[{"text": "x", "callback_data": "y"}]]},
            "photo": Upload("board.png", PHOTO, "image/png"),
        }
    )
    expected = await _by_aiohttp(reference, encoded.body, encoded.content_type)
    assert _ours(encoded.body, encoded.content_type) == expected
    assert expected[-1] == ("photo", "board.png", "image/png", PHOTO)
    # the fast path read it (no fallback to the MIME parser)
    boundary = multipart.boundary_of(encoded.content_type)
    assert boundary is not None
    assert multipart._simple(encoded.body, boundary.encode()) is not None


async def test_httpx_and_aiohttp_forms_read_as_aiohttp_reads_them(
    reference: aiohttp.ClientSession,
) -> None:
    fields = {"chat_id": "5", "caption": 'a "quoted" caption; with = signs', "empty": ""}
    body, kind = _httpx(fields, {"photo": ("a b.png", PHOTO, "image/png")})
    assert _ours(body, kind) == await _by_aiohttp(reference, body, kind)
    form = aiohttp.FormData()
    for name, value in fields.items():
        form.add_field(name, value)
    form.add_field("photo", PHOTO, filename="hand.png", content_type="image/png")
    body, kind = await _aiohttp_form(form)
    assert _ours(body, kind) == await _by_aiohttp(reference, body, kind)


def _hand_written(boundary: str, parts: list[bytes], *, preamble: bytes = b"") -> bytes:
    out = preamble
    for part in parts:
        out += b"--" + boundary.encode() + b"\r\n" + part + b"\r\n"
    return out + b"--" + boundary.encode() + b"--\r\n"


ODD = [
    # RFC 2231 filename*, beside a plain name
    b"Content-Disposition: form-data; name=\"photo\"; filename*=UTF-8''%EA%B9%80.png\r\n"
    b"Content-Type: image/png\r\n\r\n" + PHOTO[:300],
    # a base64 transfer encoding
    b'Content-Disposition: form-data; name="text"\r\nContent-Transfer-Encoding: base64\r\n\r\n'
    + base64.b64encode("김민수".encode()),
    # escapes in a quoted name, and a filename with a semicolon
    b'Content-Disposition: form-data; name="a\\"b"; filename="x;y.png"\r\n\r\nzz',
]


@pytest.mark.parametrize("odd", range(len(ODD)))
async def test_odd_bodies_read_as_aiohttp_reads_them(
    reference: aiohttp.ClientSession, odd: int
) -> None:
    boundary = "b0undary"
    plain = b'Content-Disposition: form-data; name="chat_id"\r\n\r\n42'
    body = _hand_written(boundary, [plain, ODD[odd]], preamble=b"" if odd else b"preamble\r\n")
    kind = f'multipart/form-data; boundary="{boundary}"'
    assert _ours(body, kind) == await _by_aiohttp(reference, body, kind)


def test_a_folded_header_line_is_read_by_the_general_reader() -> None:
    """aiohttp refuses obsolete line folding; the MIME parser reads it."""
    body = _hand_written(
        "b0", [b'Content-Disposition: form-data;\r\n name="caption"\r\n\r\nfolded']
    )
    assert multipart._simple(body, b"b0") is None
    assert _ours(body, "multipart/form-data; boundary=b0") == [("caption", None, None, b"folded")]


# Printable ASCII: aiohttp refuses control characters in a filename, strips a leading slash or
# backslash from it (against path traversal), which this reader leaves to the caller, and loses
# the name of a part whose quoted filename holds ";;" (one ";" is tested above).
names = st.text(
    st.characters(min_codepoint=32, max_codepoint=126, exclude_characters='"\\/%;'), min_size=1
)
datas = st.binary(max_size=300)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    fields=st.dictionaries(names, st.text(max_size=40), max_size=4),
    files=st.dictionaries(names, st.tuples(names, datas), min_size=1, max_size=3),
)
async def test_random_httpx_forms_read_as_aiohttp_reads_them(
    reference: aiohttp.ClientSession,
    fields: dict[str, str],
    files: dict[str, tuple[str, bytes]],
) -> None:
    """(httpx writes multipart only when a file goes up.)"""
    body, kind = _httpx(
        fields, {n: (f, d, "application/octet-stream") for n, (f, d) in files.items()}
    )
    assert _ours(body, kind) == await _by_aiohttp(reference, body, kind)


async def test_a_body_the_emulator_cannot_read_is_refused_and_changes_nothing() -> None:
    state = EmulatorState()
    user = state.create_user("Ann")
    state.start_bot(user.id)
    async with BotApiEmulator(state) as emu, aiohttp.ClientSession() as session:
        url = f"{emu.url}/bot{state.token}/sendMessage"
        before = len(state.messages(user.id))
        cases = [
            (b"no parts at all", "multipart/form-data; boundary=zzz"),
            (b"--zzz\r\n", "multipart/form-data"),  # no boundary given
            (
                _hand_written("zzz", [b'Content-Disposition: form-data; name="text"\r\n\r\n\xff']),
                "multipart/form-data; boundary=zzz",
            ),
        ]
        answers = []
        for body, kind in cases:
            async with session.post(url, data=body, headers={"Content-Type": kind}) as res:
                answers.append((res.status, (await res.json())["description"]))
        assert answers == [
            (400, "Bad Request: can't parse multipart/form-data request"),
            (400, "Bad Request: can't parse multipart/form-data request"),
            (400, "Bad Request: strings must be encoded in UTF-8"),
        ]
        assert len(state.messages(user.id)) == before
        good = _hand_written(
            "zzz",
            [
                b'Content-Disposition: form-data; name="chat_id"\r\n\r\n' + str(user.id).encode(),
                b'Content-Disposition: form-data; name="text"\r\n\r\nhello',
            ],
        )
        async with session.post(
            url, data=good, headers={"Content-Type": "multipart/form-data; boundary=zzz"}
        ) as res:
            assert res.status == 200
        assert [m.text for m in state.messages(user.id)][-1] == "hello"
