"""Webhook mode: the bot's own small aiohttp server for Telegram's POSTs, and its lifecycle.

Each request is checked in this order, and each check answers before anything more is read:

1. only a POST on the path of WEBHOOK_URL is served (aiohttp answers anything else: 404, 405);
2. the `X-Telegram-Bot-Api-Secret-Token` header must equal WEBHOOK_SECRET (compared in constant
   time), else 403 before any of the body is read (a client that sends `Expect: 100-continue`
   is never invited to send it);
3. a declared Content-Length above MAX_BODY_BYTES is refused with 413 before reading; a chunked
   body is read up to that size and cut off there (413, connection closed);
4. a body that is not a JSON object making an Update gets 400 and one log line without the
   payload.

A button tap's update carries the whole message the button is on (its picture's sizes, its
caption and entities, its keyboard): python-telegram-bot would make an object of every part,
about a tenth of the bot's CPU under load, for a message of which the bot reads only where it
is (`_slim`).

A good update is handed to `accept`, and the answer (200) is sent once `accept` returns; if it
raises, 500, so that Telegram delivers the update again. The bot's `accept` handles the update
and returns once it is handled and saved (`tgbot.acks`): 200 means "handled", so a process that
dies in the middle leaves the update to Telegram's redelivery.

A tap's answer made while its update is handled rides in that 200's body, as the one request
Telegram carries out from a webhook's answer (`tgbot.webhook_reply`; WEBHOOK_REPLIES=0 turns it
off); if the update then fails (500), or is still being handled a second after the answer was
made, the answer is sent by a call of its own instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import signal
from collections.abc import Awaitable, Callable, Sequence

import orjson
from aiohttp import hdrs, web
from aiohttp.http import HttpVersion11
from telegram import Bot, Update
from telegram.ext import Application

from . import ops_http, webhook_reply
from .acks import NotHandled
from .bot_calls import BotCalls
from .config import Config

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY_BYTES = 1 << 20  # 1 MiB: Telegram's updates are a few KB
READ_SECONDS = 10.0  # a body that trickles in slower than this is dropped (408)
LINGER_SECONDS = 1.0  # after refusing, unread body bytes are discarded this long, then closed
STOP_SECONDS = 5.0  # requests in flight get this long to finish when the server stops
REPLY_WAIT_SECONDS = 1.0  # a tap's answer waits this long for its update's end, then is a call

Accept = Callable[[Update], Awaitable[object]]
Health = ops_http.Health
Backlog = ops_http.Backlog
HEALTH_PATH = ops_http.HEALTH_PATH
METRICS_PATH = ops_http.METRICS_PATH


class _Malformed(ValueError):
    """A body that is not a Telegram update (the reason never quotes the payload)."""


class WebhookServer:
    """Serves one webhook path on one address: checks, decodes and hands on Telegram's POSTs."""

    def __init__(
        self,
        *,
        bot: Bot,
        accept: Accept,
        secret: str,
        path: str,
        host: str,
        port: int,
        max_body: int = MAX_BODY_BYTES,
        read_seconds: float = READ_SECONDS,
        linger_seconds: float = LINGER_SECONDS,
        health: Health | None = None,
        backlog: Backlog | None = None,
        replies: bool = True,
        reply_wait: float = REPLY_WAIT_SECONDS,
    ) -> None:
        self.bot = bot
        self.replies = replies  # a tap's answer rides in the webhook's answer (`webhook_reply`)
        self.reply_wait = reply_wait  # how long it may wait there for the update's end
        self._apart: set[asyncio.Task[None]] = set()  # answers sent as calls meanwhile
        self.accept = accept
        self.health = health
        self.backlog = backlog
        self.path = "/" + path.lstrip("/")
        self.host = host
        self.port = port  # 0 picks a free port; the bound one is here after `start`
        self.max_body = max_body
        self.read_seconds = read_seconds
        self.linger_seconds = linger_seconds
        self._secret = secret.encode()
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen on host:port."""
        app = web.Application(client_max_size=self.max_body)
        app.router.add_post(self.path, self._post, expect_handler=self._expect)
        if self.health is not None and self.path != HEALTH_PATH:
            app.router.add_get(HEALTH_PATH, self._healthz)
        if self.path != METRICS_PATH:
            app.router.add_get(METRICS_PATH, self._metrics)
        runner = web.AppRunner(
            app,
            access_log=None,  # one line per update would drown the log
            handle_signals=False,
            shutdown_timeout=STOP_SECONDS,
            lingering_time=self.linger_seconds,
        )
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        if self.port == 0:  # the port the system picked
            self.port = int(runner.addresses[0][1])

    async def stop(self) -> None:
        """Stop listening; requests in flight get STOP_SECONDS to finish."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    # ---------------------------------------------------------------------------- requests

    def _refusal(self, request: web.BaseRequest) -> web.Response | None:
        """The answer to a request refused on its headers alone, or None to read its body."""
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
        if not hmac.compare_digest(given, self._secret):
            log.info("webhook: refused a request without the right secret from %s", request.remote)
            return _closing(403, "Forbidden")
        length = request.content_length
        if length is not None and length > self.max_body:
            log.warning(
                "webhook: refused a body of %d bytes (more than %d) from %s",
                length,
                self.max_body,
                request.remote,
            )
            return _closing(413, "Request Entity Too Large")
        return None

    async def _expect(self, request: web.Request) -> web.StreamResponse | None:
        """`Expect: 100-continue`: invite the body only if the headers pass the checks."""
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        expect = request.headers.get(hdrs.EXPECT, "")
        if request.version != HttpVersion11 or expect.lower() != "100-continue":
            return _closing(417, "Expectation Failed")
        await request.writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        request.writer.output_size = 0  # the interim answer is not the response's body
        return None

    async def _post(self, request: web.Request) -> web.Response:
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        try:
            async with asyncio.timeout(self.read_seconds):
                body = await self._read(request)
        except TimeoutError:
            log.warning("webhook: a body from %s came too slowly, dropped", request.remote)
            return _closing(408, "Request Timeout")
        if body is None:
            log.warning(
                "webhook: refused a chunked body past %d bytes from %s",
                self.max_body,
                request.remote,
            )
            return _closing(413, "Request Entity Too Large")
        try:
            update = self._decode(body)
        except _Malformed as err:
            log.warning(
                "webhook: refused a body that is %s (%d bytes) from %s",
                err,
                len(body),
                request.remote,
            )
            return web.Response(status=400, text="Bad Request")
        query = update.callback_query
        if query is None or not self.replies:
            try:
                await self.accept(update)
            except Exception as err:
                return self._not_taken(update, err)
            return web.Response(status=200)
        with webhook_reply.carrying(query.id, wait=self.reply_wait, late=self._late) as slot:
            try:
                await self.accept(update)
            except Exception as err:
                answer = slot.close()
                if answer is not None:  # the 500 would lose it: made as a call of its own
                    await self._answer_apart(answer)
                return self._not_taken(update, err)
        answer = slot.close()
        if answer is None:
            return web.Response(status=200)
        return web.Response(body=orjson.dumps(answer), content_type="application/json")

    def _not_taken(self, update: Update, err: Exception) -> web.Response:
        """The answer to an update `accept` did not take: 500, so that it comes again."""
        if isinstance(err, NotHandled):
            log.info("webhook: %s; Telegram will deliver it again", err)
        else:
            log.error("webhook: update %s was not taken", update.update_id, exc_info=err)
        return web.Response(status=500, text="Internal Server Error")

    def _late(self, answer: dict[str, object]) -> None:
        """A tap's answer taken back from a webhook answer that is slow to come: sent now."""
        task = asyncio.create_task(self._answer_apart(answer))
        self._apart.add(task)
        task.add_done_callback(self._apart.discard)

    async def _answer_apart(self, answer: dict[str, object]) -> None:
        """A tap's answer taken out of the webhook's answer (its update failed, or is slow to
        end): sent as a call."""
        method = str(answer.pop("method"))
        try:
            await BotCalls(self.bot)(method, answer)
        except Exception as err:  # the tap's spinner stops by itself
            log.info("webhook: a tap's answer sent apart could not be sent: %s", err)

    async def _healthz(self, request: web.Request) -> web.Response:
        """GET /healthz (`tgbot.ops_http.healthz`)."""
        assert self.health is not None
        return await ops_http.healthz(self.health)

    async def _metrics(self, request: web.Request) -> web.Response:
        """GET /metrics (`tgbot.ops_http.scrape`)."""
        return await ops_http.scrape(self.backlog)

    async def _read(self, request: web.Request) -> bytes | None:
        """The whole body, or None as soon as it grows past `max_body`."""
        body = bytearray()
        while chunk := await request.content.readany():
            body += chunk
            if len(body) > self.max_body:
                return None
        return bytes(body)

    def _decode(self, body: bytes) -> Update:
        try:
            data = _loads(body)
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            raise _Malformed("not JSON") from None
        if not isinstance(data, dict) or type(data.get("update_id")) is not int:
            raise _Malformed("not an update (a JSON object with an integer update_id)")
        _slim(data)
        try:
            update = Update.de_json(data, self.bot)
        except Exception:  # a field of the wrong shape: PTB raises whatever it meets
            raise _Malformed("not an update (a field of the wrong shape)") from None
        if update is None:
            raise _Malformed("not an update")
        return update


# What the bot reads of the message a tapped button is on (`tgbot.handlers`: its chat and id,
# its forum topic with the topic's name in the message it replies to, an ephemeral message's
# number and receiver), with what a Message needs to be one.
_TAPPED_KEPT = frozenset(
    {
        "message_id",
        "date",
        "chat",
        "message_thread_id",
        "is_topic_message",
        "reply_to_message",
        "ephemeral_message_id",
        "receiver_user",
    }
)
_REPLIED_KEPT = frozenset(
    {"message_id", "date", "chat", "message_thread_id", "is_topic_message", "forum_topic_created"}
)


def _slim(data: dict[str, object]) -> None:
    """Leave out of a tap's message (and the message it replies to) what the bot never reads."""
    query = data.get("callback_query")
    if not isinstance(query, dict):
        return
    message = query.get("message")
    if not isinstance(message, dict):
        return
    slim = {key: value for key, value in message.items() if key in _TAPPED_KEPT}
    root = slim.get("reply_to_message")
    if isinstance(root, dict):
        slim["reply_to_message"] = {k: v for k, v in root.items() if k in _REPLIED_KEPT}
    query["message"] = slim


def _loads(body: bytes) -> object:
    """JSON by orjson (fast); what it refuses and `json` takes (a lone surrogate's escape, a
    number out of range) by `json`, as before."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return json.loads(body)


def _closing(status: int, text: str) -> web.Response:
    """An answer after which the connection is closed (its unread body is not wanted)."""
    response = web.Response(status=status, text=text)
    response.force_close()
    return response


# ---------------------------------------------------------------------------- the lifecycle


async def open_webhook(
    app: Application,  # type: ignore[type-arg]
    config: Config,
    allowed_updates: Sequence[str],
) -> WebhookServer:
    """Serve the webhook for this (started) application, then point Telegram at it.

    The webhook is set with WEBHOOK_URL, the secret and these update kinds; pending updates
    are kept (Telegram delivers them now).
    """
    assert config.webhook_url is not None and config.webhook_secret is not None
    server = WebhookServer(
        bot=app.bot,
        accept=app.bot_data.get("accept", app.update_queue.put),
        secret=config.webhook_secret,
        path=config.webhook_path,
        host=config.webhook_listen,
        port=config.webhook_port,
        health=app.bot_data.get("health"),
        backlog=app.bot_data.get("backlog"),
        replies=config.webhook_replies,
    )
    await server.start()
    try:
        await app.bot.set_webhook(
            url=config.webhook_url,
            secret_token=config.webhook_secret,
            allowed_updates=list(allowed_updates),
            drop_pending_updates=False,
        )
    except BaseException:
        await server.stop()
        raise
    return server


async def serve(
    app: Application,  # type: ignore[type-arg]
    config: Config,
    allowed_updates: Sequence[str],
    *,
    stop: asyncio.Event | None = None,
) -> None:
    """Webhook mode from start to end: start the application (and its `post_init`: menus and
    the sweeper), serve and set the webhook, wait for `stop` (by default SIGINT or SIGTERM),
    then stop taking requests, handle what was queued, stop the sweeper and shut down."""
    stopping = stop if stop is not None else _stop_on_signals()
    await app.initialize()
    try:
        if app.post_init is not None:
            await app.post_init(app)
        await app.start()
        try:
            server = await open_webhook(app, config, allowed_updates)
            try:
                log.info("webhook: serving %s on %s:%d", server.path, server.host, server.port)
                await stopping.wait()
                log.info("webhook: stopping")
            finally:
                await server.stop()
        finally:
            await app.stop()
            if app.post_stop is not None:
                await app.post_stop(app)
    finally:
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)


def _stop_on_signals() -> asyncio.Event:
    """An event that SIGINT or SIGTERM sets (instead of interrupting the event loop)."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # no signals on this platform
            loop.add_signal_handler(sig, stopping.set)
    return stopping
