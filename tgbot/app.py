"""The composition root: configuration, Redis, the store, the sender, the service, handlers."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable

from redis.asyncio import Redis
from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.error import InvalidToken, TelegramError
from telegram.ext import Application, ApplicationBuilder

from .acks import HandleThenAnswer
from .ahead import Reads, joined
from .bot_budget import BotBudget
from .budget import ChatBudget
from .commands import Scope, menu
from .config import Config, ConfigError
from .dedupe import UpdateLedger
from .game_ids import GameId
from .handlers import Handlers
from .http_client import AiohttpRequest
from .i18n import LANGUAGES, Language, texts
from .keys import SHARDS, Keys
from .lease import RedisLease
from .migrate import migrate_keys
from .ops_http import MetricsServer
from .outbox import first_sends
from .posts import RedisPosts
from .redis_archives import RedisArchives
from .redis_client import RedisClient, open_redis, unavailable, wait_for_redis
from .redis_store import RedisStore
from .scheduler import DeadlineIndex
from .service import GameService
from .telegram_io import Sender
from .updates import ChatOrderedProcessor

log = logging.getLogger(__name__)

_MENU_SCOPES = (
    (Scope.GROUP, BotCommandScopeAllGroupChats()),
    (Scope.PRIVATE, BotCommandScopeAllPrivateChats()),
)
SWEEP_SECONDS = 2.0  # how often deadlines are served and owed announcements retried
ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member")  # what the handlers read
_STOP_TICK = 0.2  # seconds between two cancellations of a sweeper that goes on
_STOP_TRIES = 25


def build_application(
    config: Config,
    *,
    redis: RedisClient | None = None,
    prefix: str | None = None,
    clock: Callable[[], float] = time.time,
    seeds: Callable[[], int] = lambda: secrets.randbits(63),
    builder: ApplicationBuilder | None = None,  # type: ignore[type-arg]
    request: AiohttpRequest | None = None,
) -> Application:  # type: ignore[type-arg]
    """A ready-to-run python-telegram-bot Application for this configuration (Bot API calls
    through `request`, an `AiohttpRequest`: by default with PTB's timeouts)."""
    assert config.token is not None, "a token is needed"
    b = builder or Application.builder().concurrent_updates(ChatOrderedProcessor())
    app = (
        b.token(config.token)
        .base_url(config.base_url)
        .base_file_url(config.base_file_url)
        .request(request or AiohttpRequest())
        .post_init(_post_init)
        .post_stop(_post_stop)
        .post_shutdown(_post_shutdown)
        .build()
    )
    client = (
        redis
        if redis is not None
        else open_redis(config.redis_url, config.redis_timeout, cluster=config.redis_cluster)
    )
    prefix = prefix or config.key_prefix
    store = RedisStore(client, prefix=prefix)
    posts = RedisPosts(client, prefix=prefix)
    rate = config.sends_per_second
    bot_budget = BotBudget(client, prefix=prefix, rate=rate) if rate > 0 else None
    sender = Sender(app.bot, ChatBudget(client, prefix=prefix), clock, posts, bot_budget)
    waker = Waker()
    service = GameService(
        store,
        sender,
        deadlines=DeadlineIndex(client, prefix=prefix),
        ledger=UpdateLedger(client, prefix=prefix),
        lease=RedisLease(client, prefix=prefix, reads=functools.partial(lease_reads, store, posts)),
        clock=clock,
        seeds=seeds,
        default_language=config.language,
        archives=RedisArchives(client, prefix=prefix),
        computer_pause=config.computer_pause,
        wake=waker,
        # Webhook: a move's delivery does not keep its update held and its POST open.
        detach=config.is_webhook,
        unavailable=unavailable,
    )
    handlers = Handlers(service, unavailable=unavailable)
    handlers.install(app, once=not config.is_webhook)
    if config.is_webhook:  # answered once handled: Telegram's redelivery covers a crash
        app.bot_data["accept"] = HandleThenAnswer(
            app,
            UpdateLedger(client, prefix=prefix),
            unavailable=unavailable,
            busy=handlers.busy,
            passing=handlers.passing,
            reads=store.reads,
        )
    app.bot_data["redis"] = client
    app.bot_data["owns_redis"] = redis is None
    app.bot_data["service"] = service
    app.bot_data["waker"] = waker
    app.bot_data["language"] = config.language
    app.bot_data["prefix"] = prefix
    app.bot_data["health"] = functools.partial(health, app, client)
    app.bot_data["backlog"] = functools.partial(backlog, client, Keys(prefix))
    if config.metrics_port is not None:  # long polling: no webhook port to serve /metrics on
        app.bot_data["metrics_server"] = MetricsServer(
            host=config.webhook_listen,
            port=config.metrics_port,
            health=app.bot_data["health"],
            backlog=app.bot_data["backlog"],
        )
    return app


def lease_reads(store: RedisStore, posts: RedisPosts, *, game_id: GameId) -> Reads:
    """What a delivery's lease is taken with: the game's record, and the floors of the chats
    the record this process knows (if any) owes new messages first."""
    known = store.known(game_id)
    chats = () if known is None else first_sends(known.owed, known.chat_id)
    return joined(store.reads(game_id=game_id), posts.floors(chats))


async def backlog(client: RedisClient, keys: Keys) -> int:
    """How many games owe Telegram something now (every outbox shard, for GET /metrics)."""
    total = 0
    for shard in range(SHARDS):
        total += int(await client.zcard(keys.outbox(shard)))
    return total


async def health(app: Application, client: RedisClient) -> dict[str, bool]:  # type: ignore[type-arg]
    """Whether Redis and the Bot API answer now (for GET /healthz)."""

    async def redis_ok() -> bool:
        try:
            return bool(await client.ping())
        except Exception:
            return False

    async def bot_api_ok() -> bool:
        try:
            await app.bot.get_me()
        except Exception:
            return False
        return True

    redis, bot_api = await asyncio.gather(redis_ok(), bot_api_ok())
    return {"redis": redis, "bot_api": bot_api}


async def check_services(config: Config) -> None:
    """Before serving: the Bot API server accepts the token (else ConfigError), then wait until
    Redis answers (one log line per attempt; only a malformed REDIS_URL is a ConfigError).

    PTB would find out about the token too, but with a traceback that prints it.
    """
    assert config.token is not None, "a token is needed"
    bot = Bot(config.token, base_url=config.base_url, base_file_url=config.base_file_url)
    quiet = logging.getLogger("telegram.request")  # would log a traceback before raising
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        async with bot:
            pass  # entering the bot calls getMe
    except InvalidToken:
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN",
            f"was refused by {config.api_url} (a wrong token, or not a Bot API server)",
        ) from None
    except TelegramError as err:  # NetworkError and TimedOut included
        problem = str(err).replace(config.token, "<token>")
        raise ConfigError(
            "TELEGRAM_API_URL", f"cannot use the Bot API at {config.api_url}: {problem}"
        ) from None
    finally:
        quiet.setLevel(level)
    await wait_for_redis(config.redis_url, config.redis_timeout, cluster=config.redis_cluster)


async def _post_init(app: Application) -> None:  # type: ignore[type-arg]
    """Check Redis (moving old keys to today's layout), and publish the command menus of groups
    and private chats in every language."""
    client: RedisClient = app.bot_data["redis"]
    await client.ping()
    if isinstance(client, Redis):  # a Cluster starts with today's key layout
        await migrate_keys(client, app.bot_data["prefix"])
    default: Language = app.bot_data["language"]
    for lang in LANGUAGES:
        code = None if lang == default else lang.code.split("_")[0]  # Telegram's are two letters
        for scope, where in _MENU_SCOPES:
            listed = [BotCommand(c, text) for c, text in menu(scope, texts(lang))]
            await app.bot.set_my_commands(listed, scope=where, language_code=code)
    if "metrics_server" in app.bot_data:
        await app.bot_data["metrics_server"].start()
    app.bot_data["sweeper"] = asyncio.create_task(
        _sweep_forever(app.bot_data["service"], app.bot_data["waker"])
    )


class Waker:
    """Wakes the sweeper before its next tick, when a deadline of this process's making falls
    due sooner (a computer player's move, after its pause): computer turns in a row then take
    their pauses, not a sweep interval each."""

    def __init__(self) -> None:
        self._event: asyncio.Event | None = None

    @property
    def event(self) -> asyncio.Event:
        """Set when the sweeper should run (made in the running loop, at first use)."""
        if self._event is None:
            self._event = asyncio.Event()
        return self._event

    def __call__(self, seconds: float) -> None:
        if seconds <= 0:
            self.event.set()
        else:
            asyncio.get_running_loop().call_later(seconds, self.event.set)

    async def nap(self) -> None:
        """Until the next tick, or sooner if woken; a wake during the sweep counts."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.event.wait(), SWEEP_SECONDS)
        self.event.clear()


async def _sweep_forever(service: GameService, waker: Waker) -> None:
    """Serve deadlines and deliver owed announcements: at start (a crashed process may have
    left some), then every SWEEP_SECONDS, or sooner when woken. While Redis is away it says so
    once, and once more when Redis is back."""
    away = False
    while True:
        try:
            await service.sweep()
        except Exception as err:
            if not unavailable(err):
                log.exception("sweep failed")
            elif not away:
                log.warning("sweep paused: Redis is away (%s)", " ".join(str(err).split()))
                away = True
        else:
            if away:
                log.info("sweep resumed: Redis answers again")
            away = False
        await waker.nap()


async def _post_stop(app: Application) -> None:  # type: ignore[type-arg]
    """Stop the sweeper and the deliveries running on their own (`tgbot.detached`: what they
    had not sent stays owed, for the next sweep), and wait until they have stopped (before
    Redis is closed).

    A cancellation that lands inside a sweep can be swallowed by a library on the way (the
    loop then goes on to its next sleep), so it is repeated until the task ends, a few seconds
    at most.
    """
    task: asyncio.Task[None] | None = app.bot_data.pop("sweeper", None)
    if task is not None:
        await _stop_sweeper(task)
    service: GameService | None = app.bot_data.get("service")
    if service is not None:
        await service.detacher.stop()


async def _stop_sweeper(task: asyncio.Task[None]) -> None:
    for _ in range(_STOP_TRIES):
        task.cancel()
        await asyncio.wait({task}, timeout=_STOP_TICK)
        if task.done():
            if not task.cancelled():
                task.exception()  # retrieved: it ended on its own (it catches Exception)
            return
    log.warning("the sweeper did not stop within %.0f s", _STOP_TRIES * _STOP_TICK)


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    if "metrics_server" in app.bot_data:
        await app.bot_data["metrics_server"].stop()
    if app.bot_data.get("owns_redis"):
        client: RedisClient = app.bot_data["redis"]
        await client.aclose()
