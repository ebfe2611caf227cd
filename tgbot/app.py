"""The composition root: configuration, Redis, the store, the sender, the service, handlers."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable

from redis.asyncio import Redis
from redis.exceptions import RedisError
from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.error import InvalidToken, TelegramError
from telegram.ext import Application, ApplicationBuilder

from .budget import ChatBudget
from .commands import Scope, menu
from .config import Config, ConfigError, redacted_url
from .dedupe import UpdateLedger
from .handlers import Handlers
from .i18n import LANGUAGES, Language, texts
from .lease import RedisLease
from .posts import RedisPosts
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


def build_application(
    config: Config,
    *,
    redis: Redis | None = None,
    prefix: str | None = None,
    clock: Callable[[], float] = time.time,
    seeds: Callable[[], int] = lambda: secrets.randbits(63),
    builder: ApplicationBuilder | None = None,  # type: ignore[type-arg]
) -> Application:  # type: ignore[type-arg]
    """A ready-to-run python-telegram-bot Application for this configuration."""
    assert config.token is not None, "a token is needed"
    b = builder or Application.builder().concurrent_updates(ChatOrderedProcessor())
    app = (
        b.token(config.token)
        .base_url(config.base_url)
        .base_file_url(config.base_file_url)
        .post_init(_post_init)
        .post_stop(_post_stop)
        .post_shutdown(_post_shutdown)
        .build()
    )
    client = redis if redis is not None else Redis.from_url(config.redis_url)
    prefix = prefix or config.key_prefix
    store = RedisStore(client, prefix=prefix)
    posts = RedisPosts(client, prefix=prefix)
    sender = Sender(app.bot, ChatBudget(client, prefix=prefix), clock, posts)
    service = GameService(
        store,
        sender,
        deadlines=DeadlineIndex(client, prefix=prefix),
        ledger=UpdateLedger(client, prefix=prefix),
        lease=RedisLease(client, prefix=prefix),
        clock=clock,
        seeds=seeds,
        default_language=config.language,
        computer_pause=config.computer_pause,
    )
    Handlers(service).install(app)
    app.bot_data["redis"] = client
    app.bot_data["owns_redis"] = redis is None
    app.bot_data["service"] = service
    app.bot_data["language"] = config.language
    return app


async def check_services(config: Config) -> None:
    """Before serving: the Bot API server accepts the token and Redis answers, else ConfigError.

    PTB would find out too, but with a traceback that prints the token.
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
    client = Redis.from_url(config.redis_url)
    try:
        await client.ping()
    except RedisError as err:
        where = redacted_url(config.redis_url)
        raise ConfigError("REDIS_URL", f"cannot use Redis at {where!r}: {err}") from None
    finally:
        await client.aclose()


async def _post_init(app: Application) -> None:  # type: ignore[type-arg]
    """Check Redis, and publish the command menus of groups and private chats in every language."""
    client: Redis = app.bot_data["redis"]
    await client.ping()
    default: Language = app.bot_data["language"]
    for lang in LANGUAGES:
        code = None if lang == default else lang.code.split("_")[0]  # Telegram's are two letters
        for scope, where in _MENU_SCOPES:
            listed = [BotCommand(c, text) for c, text in menu(scope, texts(lang))]
            await app.bot.set_my_commands(listed, scope=where, language_code=code)
    app.bot_data["sweeper"] = asyncio.create_task(_sweep_forever(app.bot_data["service"]))


async def _sweep_forever(service: GameService) -> None:
    """Serve deadlines and deliver owed announcements: at start (a crashed process may have
    left some), then every SWEEP_SECONDS."""
    while True:
        try:
            await service.sweep()
        except Exception:
            log.exception("sweep failed")
        await asyncio.sleep(SWEEP_SECONDS)


async def _post_stop(app: Application) -> None:  # type: ignore[type-arg]
    task = app.bot_data.pop("sweeper", None)
    if task is not None:
        task.cancel()


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    if app.bot_data.get("owns_redis"):
        client: Redis = app.bot_data["redis"]
        await client.aclose()
