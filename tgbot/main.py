"""`saboteur-bot`: the bot (webhook when WEBHOOK_URL is set, long polling otherwise), or the
offline sandbox (`saboteur-bot sandbox`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable, Coroutine
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TypeVar

from . import logs
from .config import Config, ConfigError, load_config
from .startup import PROG, fail, start_fonts

T = TypeVar("T")
log = logging.getLogger(__name__)

_EPILOG = (
    "Settings come from the environment: TELEGRAM_BOT_TOKEN (required to run the bot), "
    "TELEGRAM_API_URL, REDIS_URL, REDIS_CLUSTER, REDIS_TIMEOUT_SECONDS, WEBHOOK_URL, "
    "WEBHOOK_SECRET, WEBHOOK_LISTEN, WEBHOOK_PORT, METRICS_PORT, BOT_LANGUAGE, "
    "REDIS_KEY_PREFIX, LOG_LEVEL, FONT_DIR, COMPUTER_PAUSE_SECONDS, BOT_SENDS_PER_SECOND, "
    "EVENT_LOOP (see the README)."
)


def package_version() -> str:
    """The installed version of saboteur-bot."""
    try:
        return version(PROG)
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def parser() -> argparse.ArgumentParser:
    """The command line: `run` (the default) and `sandbox`; --help and --version."""
    top = argparse.ArgumentParser(
        prog=PROG,
        description="Saboteur and Saboteur Deluxe, played in Telegram groups.",
        epilog=_EPILOG,
    )
    top.add_argument("--version", action="version", version=f"{PROG} {package_version()}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "run",
        help="run the bot against Telegram (the default)",
        description="Run the bot: webhook when WEBHOOK_URL is set, long polling otherwise.",
        epilog=_EPILOG,
    )
    commands.add_parser(
        "sandbox",
        help="play offline in a browser: the real bot against a local Telegram "
        "(saboteur-bot sandbox --help)",
    )
    return top


def loop_factory(config: Config) -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes the event loop EVENT_LOOP names (uvloop's, or Python's own)."""
    if config.event_loop == "uvloop":
        try:
            import uvloop
        except ImportError:  # a platform uvloop does not build on (Windows)
            fail("configuration error: EVENT_LOOP: uvloop is not installed (use asyncio)", status=2)
        return uvloop.new_event_loop
    return asyncio.new_event_loop


def loop_name(loop: asyncio.AbstractEventLoop) -> str:
    """`uvloop` for uvloop's loop, `asyncio` for Python's own."""
    return "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"


def run(main: Coroutine[Any, Any, T], config: Config) -> T:
    """Run `main` to its end on a new event loop of the configured kind."""
    with asyncio.Runner(loop_factory=loop_factory(config)) as runner:
        return runner.run(main)


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and start; a bad setting stops it with one clear line."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["sandbox"]:  # its own parser answers --help and checks --port
        from sandbox.server import main as sandbox_main

        sandbox_main(argv[1:])
        return
    parser().parse_args(argv)
    try:
        config = load_config(os.environ)
    except ConfigError as err:
        fail(f"configuration error: {err}", status=2)
    logs.configure(config.log_level)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    start_fonts(config)
    try:
        from .app import check_services  # telegram, then wait for redis: once settings are sane

        run(check_services(config), config)
    except ConfigError as err:
        fail(f"configuration error: {err}", status=2)
    _run(config)


def _run(config: Config) -> None:
    """Build the application and serve until SIGINT or SIGTERM."""
    from .app import ALLOWED_UPDATES, build_application

    app = build_application(config)
    if config.is_webhook:
        from .webhook import serve  # the bot's own webhook server (tgbot/webhook.py)

        async def serve_and_say() -> None:
            log.info("event loop: %s", loop_name(asyncio.get_running_loop()))
            await serve(app, config, ALLOWED_UPDATES)

        try:
            run(serve_and_say(), config)
        except OSError as err:  # the address is taken, or not this machine's
            where = f"{config.webhook_listen}:{config.webhook_port}"
            fail(f"cannot serve the webhook on {where}: {err}", status=1)
    else:
        loop = loop_factory(config)()
        asyncio.set_event_loop(loop)  # PTB runs its polling on this loop
        log.info("event loop: %s", loop_name(loop))
        try:
            app.run_polling(allowed_updates=list(ALLOWED_UPDATES))
        except OSError as err:  # METRICS_PORT taken, or WEBHOOK_LISTEN not this machine's
            where = f"{config.webhook_listen}:{config.metrics_port}"
            fail(f"cannot serve the metrics on {where}: {err}", status=1)


if __name__ == "__main__":
    main()
