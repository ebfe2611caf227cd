"""Bot API requests over aiohttp, which the webhook server already uses.

python-telegram-bot's default client (httpx over httpcore) spends much of the bot's CPU under
load on its connection pool's bookkeeping; aiohttp's pool is cheaper per request. The wire
format is the same as PTB's `HTTPXRequest`: a form of JSON-coded parameters, or multipart
when files are uploaded; the same errors (`TimedOut`, `NetworkError`) come out.
"""

from __future__ import annotations

import aiohttp
import orjson
import yarl
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

CONNECTIONS = 256  # open connections at most (PTB's default pool size)


def _seconds(value: ODVInput[float], default: float | None) -> float | None:
    return default if isinstance(value, DefaultValue) else value


# PTB marks RequestData final (for typing only); a body encoded beforehand rides in one so that
# `BaseRequest.post` hands it to `do_request` and maps Telegram's errors as for PTB's own calls.
class Encoded(RequestData):  # type: ignore[misc]
    """A request body already encoded (`AiohttpRequest.do_request` posts it as it is)."""

    __slots__ = ("body", "content_type")

    def __init__(self, body: bytes, content_type: str, *, files: bool) -> None:
        # RequestData's own fields set here: its __init__ would scan an empty parameter list
        # with a generator on every call (about 1% of the bot's samples under load).
        self._parameters = []
        self.body = body
        self.content_type = content_type
        self.contains_files = files  # a longer write timeout, as PTB gives uploads


class AiohttpRequest(BaseRequest):
    """A `BaseRequest` on one aiohttp session (HTTP/1.1 keep-alive, up to CONNECTIONS open).

    Timeouts (seconds, None for none) are PTB's defaults. aiohttp has no write timeout: a call
    is bounded as a whole by its pool, write and read timeouts together.
    """

    __slots__ = (
        "_connect",
        "_connections",
        "_headers",
        "_media",
        "_pool",
        "_read",
        "_session",
        "_timeouts",
        "_urls",
        "_write",
    )

    def __init__(
        self,
        connections: int = CONNECTIONS,
        *,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._connections = connections
        self._read = read_timeout
        self._write = write_timeout
        self._connect = connect_timeout
        self._pool = pool_timeout
        self._media = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._headers = {"User-Agent": self.USER_AGENT}
        self._timeouts: dict[bool, aiohttp.ClientTimeout] = {}
        self._urls: dict[str, yarl.URL] = {}

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout in seconds."""
        return self._read

    async def initialize(self) -> None:
        """Open the session (again, after a shutdown)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._connections, limit_per_host=0)
            # No cookies: the Bot API sets none, and the jar is work on every call.
            jar = aiohttp.DummyCookieJar()
            self._session = aiohttp.ClientSession(connector=connector, cookie_jar=jar)

    async def shutdown(self) -> None:
        """Close the session and its connections."""
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    @staticmethod
    def parse_json_payload(payload: bytes) -> JSONDict:
        """Telegram's answer as JSON (orjson: several times faster than `json` on answers the
        size of a message); an answer that is not valid UTF-8 is decoded as PTB does."""
        try:
            result: JSONDict = orjson.loads(payload)
        except orjson.JSONDecodeError:
            return BaseRequest.parse_json_payload(payload)
        return result

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """One request; its status and body."""
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("this AiohttpRequest is not initialized")
        headers = self._headers
        body: aiohttp.FormData | dict[str, str] | bytes | None
        if isinstance(request_data, Encoded):  # the sender's own calls (`tgbot.bot_calls`)
            body = request_data.body
            headers = {**headers, "Content-Type": request_data.content_type}
            files = request_data.contains_files
        else:
            body, files = _form(request_data)
        timeout = self._timeout(files, read_timeout, write_timeout, connect_timeout, pool_timeout)
        try:
            async with session.request(
                method, self._url(url), data=body, headers=headers, timeout=timeout
            ) as res:
                return res.status, await res.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err

    def _url(self, url: str) -> yarl.URL:
        """The parsed URL (kept: a bot calls a few dozen methods)."""
        parsed = self._urls.get(url)
        if parsed is None:
            if len(self._urls) >= 256:
                self._urls.clear()
            parsed = self._urls[url] = yarl.URL(url)
        return parsed

    def _timeout(
        self,
        files: bool,
        read_timeout: ODVInput[float],
        write_timeout: ODVInput[float],
        connect_timeout: ODVInput[float],
        pool_timeout: ODVInput[float],
    ) -> aiohttp.ClientTimeout:
        """The call's timeouts (the defaults' objects made once)."""
        asked = (read_timeout, write_timeout, connect_timeout, pool_timeout)
        default = all(isinstance(t, DefaultValue) for t in asked)
        if default and files in self._timeouts:
            return self._timeouts[files]
        write = _seconds(write_timeout, self._media if files else self._write)
        read = _seconds(read_timeout, self._read)
        connect = _seconds(connect_timeout, self._connect)
        pool = _seconds(pool_timeout, self._pool)
        total = None if read is None or write is None else read + write + (pool or 0.0)
        wait = None if pool is None or connect is None else pool + connect
        timeout = aiohttp.ClientTimeout(
            total=total, connect=wait, sock_connect=connect, sock_read=read
        )
        if default:
            self._timeouts[files] = timeout
        return timeout


def _form(
    request_data: RequestData | None,
) -> tuple[aiohttp.FormData | dict[str, str] | None, bool]:
    """PTB's parameters as aiohttp sends them: a form, or multipart when files go up."""
    files = request_data.multipart_data if request_data else None
    fields = request_data.json_parameters if request_data else {}
    body: aiohttp.FormData | dict[str, str] | None = fields or None
    if files:
        form = aiohttp.FormData(fields)
        for name, part in files.items():
            filename, content, mime = part
            data = content if isinstance(content, bytes) else content.read()
            form.add_field(name, data, filename=filename, content_type=mime)
        body = form
    return body, bool(files)
