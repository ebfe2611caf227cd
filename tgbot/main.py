"""`saboteur-bot`: the bot (webhook when WEBHOOK_URL is set, long polling otherwise), or the
offline sandbox (`saboteur-bot sandbox`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version

from . import logs
from .config import Config, ConfigError, load_config
from .startup import PROG, fail, start_fonts

_EPILOG = (
    "Settings come from the environment: TELEGRAM_BOT_TOKEN (required to run the bot), "
    "TELEGRAM_API_URL, REDIS_URL, REDIS_CLUSTER, REDIS_TIMEOUT_SECONDS, WEBHOOK_URL, "
    "WEBHOOK_SECRET, WEBHOOK_LISTEN, WEBHOOK_PORT, METRICS_PORT, BOT_LANGUAGE, "
    "REDIS_KEY_PREFIX, LOG_LEVEL, FONT_DIR (see the README)."
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

        asyncio.run(check_services(config))
    except ConfigError as err:
        fail(f"configuration error: {err}", status=2)
    _run(config)


def _run(config: Config) -> None:
    """Build the application and serve until SIGINT or SIGTERM."""
    from .app import ALLOWED_UPDATES, build_application

    app = build_application(config)
    if config.is_webhook:
        from .webhook import serve  # the bot's own webhook server (tgbot/webhook.py)

        try:
            asyncio.run(serve(app, config, ALLOWED_UPDATES))
        except OSError as err:  # the address is taken, or not this machine's
            where = f"{config.webhook_listen}:{config.webhook_port}"
            fail(f"cannot serve the webhook on {where}: {err}", status=1)
    else:
        try:
            app.run_polling(allowed_updates=list(ALLOWED_UPDATES))
        except OSError as err:  # METRICS_PORT taken, or WEBHOOK_LISTEN not this machine's
            where = f"{config.webhook_listen}:{config.metrics_port}"
            fail(f"cannot serve the metrics on {where}: {err}", status=1)


if __name__ == "__main__":
    main()
