"""The emulator over HTTP: Bot API routes, file downloads, webhook delivery and long polling."""

from __future__ import annotations

import asyncio
import contextlib
import urllib.parse
from collections import Counter
from collections.abc import Callable
from http import HTTPStatus
from types import TracebackType
from typing import Any, TypedDict, TypeVar

import aiohttp
import orjson
from aiohttp import web

from emulator import botapi, errors, multipart
from emulator.control import add_control_routes
from emulator.errors import ApiError, bad_request
from emulator.faults import (
    CLIENT_GONE,
    ERROR_500,
    ERROR_502,
    RESET,
    RESET_AFTER,
    SLOW,
    STORM_429,
    TIMEOUT_AFTER,
    TIMEOUT_BEFORE,
    FaultInjector,
    FaultLog,
    Faults,
    ForcedFault,
    InjectedFault,
)
from emulator.model import CallbackQuery, Message, WebhookConfig
from emulator.params import Params, UploadedFile
from emulator.photos import image_type
from emulator.state import EmulatorState

JsonDict = dict[str, Any]
T = TypeVar("T")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_POLL_SECONDS = 50.0
# How long the `wait_for...` helpers wait by default: what the bot does in a moment on a quiet
# machine can take several seconds on a loaded one (CI runs four test workers on two cores).
WAIT_SECONDS = 20.0
MAX_REQUEST_BYTES = 50 * 1024 * 1024
NO_RESPONSE = 444
# Methods Telegram does not carry out when a webhook's answer names them (nor any "get..."):
# the official server (tdlib/telegram-bot-api, WebhookActor) skips these.
NOT_IN_WEBHOOK_REPLIES = frozenset({"deletewebhook", "setwebhook", "close", "logout"})
REPLY_TYPES = frozenset(
    {"application/json", "application/x-www-form-urlencoded", "multipart/form-data"}
)
# What the front proxy of api.telegram.org answers when the Bot API server behind it is away.
BAD_GATEWAY_PAGE = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n"
    "</body>\r\n</html>\r\n"
)


class BotKwargs(TypedDict):
    """What `telegram.Bot` needs to talk to the emulator."""

    token: str
    base_url: str
    base_file_url: str


# A client that resets (or closes) a connection this soon after an answer, with no request in
# between, gave up on that answer: well below the keep-alive time after which an idle pooled
# connection is closed (aiohttp's client: 15 s). A client that shuts down this soon after its
# last answer is counted too: read `fault_log.gone` before stopping the client.
GONE_RESET_SECONDS = 5.0
GONE_CLOSE_SECONDS = 0.5


class BotApiEmulator:
    """An aiohttp server that a python-telegram-bot `Bot` can use instead of api.telegram.org."""

    def __init__(
        self,
        state: EmulatorState | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        webhook_retry_delay: float = 1.0,
        webhook_timeout: float = 10.0,
        duplicate_webhook_deliveries: bool = False,
        faults: Faults | None = None,
    ) -> None:
        self.state = state or EmulatorState()
        self.host = host
        self.port = port
        self.webhook_retry_delay = webhook_retry_delay
        self.webhook_timeout = webhook_timeout
        self.duplicate_webhook_deliveries = duplicate_webhook_deliveries
        self.webhook_attempts = 0
        # Bot API requests being handled right now, and the most at once (getUpdates left out).
        self.in_flight = 0
        self.max_in_flight = 0
        self.calls: Counter[str] = Counter()  # Bot API calls so far by method (no getUpdates)
        # Requests made in webhook answers, by method (lower-cased, as Telegram reads them),
        # and the ones refused, with why: the bot never learns either (`_webhook_reply`).
        self.webhook_replies: Counter[str] = Counter()
        self.webhook_reply_errors: list[tuple[str, str]] = []
        # Calls waiting out the plan's latency right now, and the most at once.
        self.delayed = 0
        self.max_delayed = 0
        self._injector = FaultInjector(faults or Faults(), self.state.now)
        self._stopping = asyncio.Event()
        self._changed = asyncio.Event()
        self._poll_generation = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._delivery: asyncio.Task[None] | None = None
        # Under a fault plan, the call answered last on each connection, and when, until the
        # client sends its next request there (so it read the answer) or closes it (it did not).
        self._unread: dict[object, tuple[InjectedFault, float]] = {}
        self.state.add_listener(self._wake)

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The server's root URL, e.g. `http://127.0.0.1:8081`."""
        return f"http://{self.host}:{self.port}"

    @property
    def bot_kwargs(self) -> BotKwargs:
        """Keyword arguments for `telegram.Bot(...)` to talk to this emulator."""
        return {
            "token": self.state.token,
            "base_url": f"{self.url}/bot",
            "base_file_url": f"{self.url}/file/bot",
        }

    def make_app(self) -> web.Application:
        """The aiohttp application with every route of the emulator."""
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_bot_api)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        add_control_routes(app, self)
        return app

    async def start(self) -> None:
        """Serve on `host:port` (port 0 picks a free port) and start webhook delivery."""
        self._closing = False
        self._stopping.clear()
        self._runner = web.AppRunner(self.make_app(), shutdown_timeout=1.0)
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        closed = server.connection_lost

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            self._connection_closed(handler, exc)
            closed(handler, exc)

        server.connection_lost = connection_lost  # type: ignore[method-assign]
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._session = aiohttp.ClientSession()
        self._delivery = asyncio.create_task(self._deliver_webhooks())

    async def stop(self) -> None:
        """Stop serving; pending long polls return at once."""
        self._closing = True
        self._stopping.set()  # ends hanging faults, so that shutdown does not wait for them
        self._wake()
        if self._delivery is not None:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
            self._delivery = None
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> BotApiEmulator:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- faults --------------------------------------------------------------------------------

    @property
    def faults(self) -> Faults:
        """The fault plan in force; setting one restarts its draws and ends 429 storms."""
        return self._injector.plan

    @faults.setter
    def faults(self, plan: Faults) -> None:
        self._injector.plan = plan

    @property
    def fault_log(self) -> FaultLog:
        """Every fault injected so far, with counters."""
        return self._injector.log

    @property
    def forced_faults(self) -> list[ForcedFault]:
        """The forced faults not used up yet."""
        return self._injector.forced

    def force_fault(
        self,
        kind: str,
        *,
        method: str | None = None,
        chat_id: int | str | None = None,
        times: int = 1,
    ) -> ForcedFault:
        """Give the next `times` calls of `method` to `chat_id` the fault `kind`.

        No `chat_id`: any chat; no `method`: any method the plan could fault (not getMe,
        getUpdates... by default); a method named is faulted whatever the plan."""
        return self._injector.force(kind, method=method, chat_id=chat_id, times=times)

    # -- waiting for the bot -----------------------------------------------------------------

    async def wait_for(
        self, predicate: Callable[[], T | None], *, timeout: float = WAIT_SECONDS
    ) -> T:
        """Wait until `predicate()` returns something truthy, re-checking after every change."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self._changed
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):  # (no task made per wake-up, as wait_for)
                    await changed.wait()

    async def wait_for_bot_message(
        self, chat_id: int, *, after: int = 0, timeout: float = WAIT_SECONDS
    ) -> Message:
        """The first visible bot message in `chat_id` with an id above `after`."""

        def find() -> Message | None:
            return next(
                (
                    m
                    for m in self.state.messages(chat_id)
                    if m.message_id > after and m.sender_id == self.state.bot.id
                ),
                None,
            )

        return await self.wait_for(find, timeout=timeout)

    async def wait_for_answer(
        self, query_id: str, *, timeout: float = WAIT_SECONDS
    ) -> CallbackQuery:
        """The callback query once the bot has answered it."""
        query = self.state.callback_query(query_id)
        return await self.wait_for(lambda: query if query.answered else None, timeout=timeout)

    async def wait_for_version(self, after: int, *, timeout: float) -> int:
        """The state version once it is above `after` (or the current one after `timeout`)."""
        with contextlib.suppress(TimeoutError):
            await self.wait_for(lambda: self.state.version > after, timeout=timeout)
        return self.state.version

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # -- Bot API -------------------------------------------------------------------------------

    async def _handle_bot_api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        counted = method.lower() != "getupdates"
        if counted:
            self.calls[method] += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if request.match_info["token"] != self.state.token:
                raise errors.unauthorized()
            params = await _read_params(request)
            if self._unread:  # a new request on a connection: its client read the last answer
                self._unread.pop(request.protocol, None)
            if self._injector.engaged():
                return await self._with_faults(request, method, params)
            return await self._answer(method, params)
        except ApiError as error:
            return _error_response(error)
        finally:
            if counted:
                self.in_flight -= 1

    async def _answer(
        self, method: str, params: Params, fault: InjectedFault | None = None
    ) -> web.Response:
        """Carry the call out and build its answer (noting the outcome in `fault`)."""
        try:
            if method.lower() == "getupdates":
                result: object = await self._long_poll(params)
            else:
                result = botapi.call(self.state, method, params)
        except ApiError as error:
            if fault is not None:
                fault.refused(error)
            return _error_response(error)
        if fault is not None:
            fault.carried(result, params)
        return _json({"ok": True, "result": result})

    async def _with_faults(self, request: web.Request, method: str, params: Params) -> web.Response:
        """Answer one call under the fault plan: latency first, then the fault drawn, if any."""
        plan = self._injector.plan
        fault = self._injector.decide(method, params)
        latency = self._injector.latency_seconds()
        upload = self._injector.upload_seconds(request.content_length or 0)
        # Half the latency on the way in (after the upload), half on the way out.
        if latency > 0 or upload > 0:
            self.delayed += 1
            self.max_delayed = max(self.max_delayed, self.delayed)
            try:
                await self._pause(upload + latency / 2)
            finally:
                self.delayed -= 1
        kind = None if fault is None else fault.kind
        if kind is None:
            note = self._injector.unfaulted(method, params)
            response = await self._answer(method, params, note)
            self._answered(request, method, note)
        elif kind == ERROR_500:
            response = _error_response(ApiError(500, "Internal Server Error"))
        elif kind == ERROR_502:
            response = web.Response(status=502, text=BAD_GATEWAY_PAGE, content_type="text/html")
        elif kind == STORM_429:
            assert fault is not None and fault.retry_after is not None
            response = _error_response(errors.too_many_requests(fault.retry_after))
        elif kind == RESET:
            return _drop(request)
        elif kind == TIMEOUT_BEFORE:
            await self._pause(plan.hang_seconds)
            return _drop(request)
        else:
            response = await self._answer(method, params, fault)
            if kind == TIMEOUT_AFTER:
                await self._pause(plan.hang_seconds)
                return _drop(request)
            if kind == RESET_AFTER:
                return _drop(request)
            assert kind == SLOW, kind
            await self._pause(plan.slow_seconds)
            assert fault is not None
            note = InjectedFault(CLIENT_GONE, fault.method, fault.chat_id, fault.call)
            note.carried_out, note.message_id = fault.carried_out, fault.message_id
            self._answered(request, method, note)
        await self._pause(latency / 2)
        return response

    def _answered(self, request: web.Request, method: str, note: InjectedFault) -> None:
        """A call carried out is being answered: watch whether its client reads the answer."""
        if not note.carried_out or method.lower() == "getupdates":
            return
        transport = request.transport
        if transport is None or transport.is_closing():
            self._injector.log.gone.append(note)  # the client left while the call was carried out
            return
        self._unread[request.protocol] = (note, asyncio.get_running_loop().time())

    def _connection_closed(self, handler: object, exc: BaseException | None) -> None:
        """A client closed a connection: if it did so soon after the last answer there, before
        asking anything else, it never read that answer (its own timeout fired first)."""
        unread = self._unread.pop(handler, None)
        if unread is None or self._closing:
            return
        note, answered_at = unread
        # Closed with the answer unread in its socket, a client's end resets the connection;
        # a clean close right after the answer is one that gave up just before it came.
        window = GONE_RESET_SECONDS if exc is not None else GONE_CLOSE_SECONDS
        if asyncio.get_running_loop().time() - answered_at <= window:
            self._injector.log.gone.append(note)

    async def _pause(self, seconds: float) -> None:
        """Sleep for `seconds`, or less if the emulator stops meanwhile."""
        if seconds <= 0 or self._stopping.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)

    async def _long_poll(self, params: Params) -> list[JsonDict]:
        timeout = min(max(params.number("timeout") or 0.0, 0.0), MAX_POLL_SECONDS)
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self._changed
            if generation != self._poll_generation:
                raise errors.conflict(errors.OTHER_GET_UPDATES)
            updates = botapi.get_updates(self.state, params)
            remaining = deadline - loop.time()
            if updates or remaining <= 0 or self._closing:
                return updates
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):  # (no task made per wake-up, as wait_for)
                    await changed.wait()

    async def _handle_file(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.state.token:
            raise web.HTTPNotFound()
        stored = self.state.file_by_path(request.match_info["path"])
        if stored is None:
            raise web.HTTPNotFound()
        return web.Response(body=stored.data, content_type=image_type(stored.data))

    # -- webhook delivery ------------------------------------------------------------------------

    async def _deliver_webhooks(self) -> None:
        """POST pending updates the way Telegram does: up to the webhook's max_connections at
        once, one at a time per chat and in order (a chat's next update waits until the one
        before is answered with a 2xx), each unanswered or failed update kept and retried with
        a back-off of its chat's own (doubling from `webhook_retry_delay`, at most a minute)."""
        busy: dict[int | None, asyncio.Task[None]] = {}
        backoff: dict[int | None, tuple[float, float]] = {}  # chat: (retry at, next delay)
        # Each pending update's chat, worked out once: the queue is scanned at every change,
        # and a fuzz test keeps hundreds of updates pending at a time.
        chats: dict[object, int | None] = {}
        try:
            while not self._closing:  # (a cancellation that lands as `changed` is set is lost)
                changed = self._changed
                hook = self.state.webhook
                now = asyncio.get_running_loop().time()
                wake_at: float | None = None
                if hook.url:
                    seen: set[int | None] = set()
                    pending = list(self.state.pending_updates)
                    if len(chats) > 2 * len(pending) + 100:  # forget confirmed updates
                        ids = {u.get("update_id") for u in pending}
                        chats = {uid: chat for uid, chat in chats.items() if uid in ids}
                    for update in pending:
                        if len(busy) >= hook.max_connections:
                            break  # the next delivery to end wakes this loop again
                        uid = update.get("update_id")
                        if uid not in chats:
                            chats[uid] = update_chat(update)
                        chat = chats[uid]
                        if chat in seen:
                            continue  # a chat's updates go in order: only its first is ready
                        seen.add(chat)
                        if chat in busy:
                            continue
                        at, _ = backoff.get(chat, (0.0, 0.0))
                        if at > now:
                            wake_at = at if wake_at is None else min(wake_at, at)
                            continue
                        busy[chat] = asyncio.create_task(
                            self._deliver_one(hook, update, chat, busy, backoff)
                        )
                timeout = None if wake_at is None else max(0.0, wake_at - now)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await changed.wait()
        finally:
            for task in busy.values():
                task.cancel()
            await asyncio.gather(*busy.values(), return_exceptions=True)

    async def _deliver_one(
        self,
        hook: WebhookConfig,
        update: JsonDict,
        chat: int | None,
        busy: dict[int | None, asyncio.Task[None]],
        backoff: dict[int | None, tuple[float, float]],
    ) -> None:
        """One attempt at one update; on success it is confirmed, else its chat backs off."""
        try:
            error = await self._post_update(hook, update)
            if error is None:
                if self.duplicate_webhook_deliveries:
                    await self._post_update(hook, update)
                backoff.pop(chat, None)
                self.state.confirm_update(update["update_id"])
                return
            hook.last_error_date = int(self.state.now())
            hook.last_error_message = error
            _, delay = backoff.get(chat, (0.0, self.webhook_retry_delay))
            now = asyncio.get_running_loop().time()
            backoff[chat] = (now + delay, min(delay * 2, 60.0))
            self.state.changed()
        finally:
            busy.pop(chat, None)
            self._wake()

    async def _post_update(self, hook: WebhookConfig, update: JsonDict) -> str | None:
        """POST one update; the error text for getWebhookInfo, or None on a 2xx answer."""
        assert self._session is not None
        self.webhook_attempts += 1
        headers = {SECRET_HEADER: hook.secret_token} if hook.secret_token else {}
        try:
            async with self._session.post(
                hook.url,
                json=update,
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=self.webhook_timeout),
            ) as response:
                if 200 <= response.status < 300:
                    await self._webhook_reply(response)
                    return None
                return f"Wrong response from the webhook: {response.status} {_phrase(response)}"
        except TimeoutError:
            return "Read timeout expired"
        except aiohttp.ClientError:
            return "Connection refused"

    async def _webhook_reply(self, response: aiohttp.ClientResponse) -> None:
        """A request made in a webhook's 2xx answer ("making requests when getting updates"):
        a JSON, form or multipart body naming a `method` is carried out like a call, before
        the update is confirmed. As on Telegram its result is lost: an error is only noted in
        `webhook_reply_errors`, and the update counts as delivered whatever the body holds."""
        header = response.headers.get(aiohttp.hdrs.CONTENT_TYPE, "")
        kind = multipart.media_type(header)
        if kind not in REPLY_TYPES:
            return  # plain text, no body...: no request
        body = await response.read()
        if not body:
            return
        try:
            values = _reply_fields(body, kind, header)
        except (ApiError, ValueError) as error:
            self.webhook_reply_errors.append(("", str(error)))
            return
        method = values.pop("method", None)
        if not isinstance(method, str) or not method:
            return
        name = method.lower()
        if name in NOT_IN_WEBHOOK_REPLIES or name.startswith("get"):
            return
        self.webhook_replies[name] += 1
        try:
            botapi.call(self.state, method, Params(values))
        except ApiError as error:
            self.webhook_reply_errors.append((name, error.description))


def _reply_fields(body: bytes, kind: str, header: str) -> dict[str, object]:
    """A webhook answer's parameters, read as a request's would be."""
    if kind == "application/json":
        data = orjson.loads(body)
        if not isinstance(data, dict):
            raise ValueError("a JSON answer that is not an object")
        return data
    if kind == "multipart/form-data":
        return _fields(body, header)
    return dict(urllib.parse.parse_qsl(body.decode("utf-8"), keep_blank_values=True))


def update_chat(update: JsonDict) -> int | None:
    """The chat whose updates keep their order (a tap's message's chat, else its sender's)."""
    for kind in ("message", "edited_message", "my_chat_member", "chat_member"):
        body = update.get(kind)
        if isinstance(body, dict) and isinstance(body.get("chat"), dict):
            chat_id = body["chat"].get("id")
            return chat_id if isinstance(chat_id, int) else None
    query = update.get("callback_query")
    if isinstance(query, dict):
        message = query.get("message")
        if isinstance(message, dict) and isinstance(message.get("chat"), dict):
            chat_id = message["chat"].get("id")
            return chat_id if isinstance(chat_id, int) else None
        sender = query.get("from")
        if isinstance(sender, dict) and isinstance(sender.get("id"), int):
            return int(sender["id"])
    return None


def _error_response(error: ApiError) -> web.Response:
    return _json(error.to_json(), status=error.error_code)


def _json(payload: object, status: int = 200) -> web.Response:
    """A JSON answer, encoded by orjson (compact, UTF-8, as Telegram's): the standard library's
    encoder was the emulator's largest cost after reading uploads."""
    body = orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
    return web.Response(body=body, status=status, content_type="application/json")


def _drop(request: web.Request) -> web.Response:
    """Close the connection with no answer; aiohttp then fails to write the (unused) response.

    Its status, 444, is nginx's "closed without a response", for the access log only."""
    if request.transport is not None:
        request.transport.abort()
    return web.Response(status=NO_RESPONSE)


def _phrase(response: aiohttp.ClientResponse) -> str:
    """The standard reason phrase, as Telegram reports it, whatever the server's own wording."""
    try:
        return HTTPStatus(response.status).phrase
    except ValueError:
        return response.reason or ""


async def _read_params(request: web.Request) -> Params:
    values: dict[str, object] = dict(request.query)
    if request.method == "POST" and request.body_exists:
        header = request.headers.get(aiohttp.hdrs.CONTENT_TYPE, "")
        kind = multipart.media_type(header)
        if kind == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise bad_request("can't parse JSON encoded request") from None
            if not isinstance(body, dict):
                raise bad_request("can't parse JSON encoded request")
            values.update(body)
        elif kind == "multipart/form-data":
            values.update(_fields(await request.read(), header))
        else:
            values.update((await request.post()).items())  # a repeated name: the last wins
    return Params(values)


def _fields(body: bytes, content_type: str) -> dict[str, object]:
    """A multipart body's fields: files as uploads, text decoded (the last of a name wins)."""
    try:
        parts = multipart.parse(body, content_type)
    except multipart.MalformedBody:
        raise bad_request("can't parse multipart/form-data request") from None
    values: dict[str, object] = {}
    for part in parts:
        if part.filename:
            kind = part.content_type or "application/octet-stream"
            values[part.name] = UploadedFile(part.filename, kind, part.data)
        elif part.content_type is None or part.content_type.lower().startswith("text/"):
            charset = multipart.charset_of(part.content_type) or "utf-8"
            try:
                values[part.name] = part.data.decode(charset)
            except (LookupError, UnicodeDecodeError):
                raise bad_request("strings must be encoded in UTF-8") from None
        else:
            values[part.name] = part.data
    return values
