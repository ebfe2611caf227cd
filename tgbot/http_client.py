"""Bot API requests over aiohttp, which the webhook server already uses.

python-telegram-bot's default client (httpx over httpcore) spends much of the bot's CPU under
load on its connection pool's bookkeeping; aiohttp's pool is cheaper per request. The wire
format is the same as PTB's `HTTPXRequest`: a form of JSON-coded parameters, or multipart
when files are uploaded; the same errors (`TimedOut`, `NetworkError`) come out.
"""

from __future__ import annotations

import aiohttp
import orjson
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

CONNECTIONS = 256  # open connections at most (PTB's default pool size)


def _seconds(value: ODVInput[float], default: float | None) -> float | None:
    return default if isinstance(value, DefaultValue) else value


class AiohttpRequest(BaseRequest):
    """A `BaseRequest` on one aiohttp session (HTTP/1.1 keep-alive, up to CONNECTIONS open).

    Timeouts (seconds, None for none) are PTB's defaults. aiohttp has no write timeout: a call
    is bounded as a whole by its pool, write and read timeouts together.
    """

    __slots__ = ("_connect", "_connections", "_media", "_pool", "_read", "_session", "_write")

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

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout in seconds."""
        return self._read

    async def initialize(self) -> None:
        """Open the session (again, after a shutdown)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._connections, limit_per_host=0)
            self._session = aiohttp.ClientSession(connector=connector)

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
        write = _seconds(write_timeout, self._media if files else self._write)
        read = _seconds(read_timeout, self._read)
        connect = _seconds(connect_timeout, self._connect)
        pool = _seconds(pool_timeout, self._pool)
        total = None if read is None or write is None else read + write + (pool or 0.0)
        wait = None if pool is None or connect is None else pool + connect
        timeout = aiohttp.ClientTimeout(
            total=total, connect=wait, sock_connect=connect, sock_read=read
        )
        headers = {"User-Agent": self.USER_AGENT}
        try:
            async with session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as res:
                return res.status, await res.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err
