"""`saboteur-bot`: the bot (webhook when WEBHOOK_URL is set, long polling otherwise), or the
offline sandbox (`saboteur-bot sandbox`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version

from .config import Config, ConfigError, load_config
from .startup import PROG, fail, start_fonts

_EPILOG = (
    "Settings come from the environment: TELEGRAM_BOT_TOKEN (required to run the bot), "
    "TELEGRAM_API_URL, REDIS_URL, WEBHOOK_URL, WEBHOOK_SECRET, WEBHOOK_LISTEN, WEBHOOK_PORT, "
    "BOT_LANGUAGE, REDIS_KEY_PREFIX, LOG_LEVEL, FONT_DIR (see the README)."
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
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    start_fonts(config)
    try:
        from .app import check_services  # telegram, redis: only once the settings are sane

        asyncio.run(check_services(config))
    except ConfigError as err:
        fail(f"configuration error: {err}", status=2)
    _run(config)


def _run(config: Config) -> None:
    """Build the application and serve until stopped."""
    from .app import build_application

    app = build_application(config)
    if config.is_webhook:
        assert config.webhook_url is not None
        app.run_webhook(
            listen=config.webhook_listen,
            port=config.webhook_port,
            url_path=config.webhook_path,
            secret_token=config.webhook_secret,
            webhook_url=config.webhook_url,
            allowed_updates=["message", "callback_query", "my_chat_member"],
        )
    else:
        app.run_polling(allowed_updates=["message", "callback_query", "my_chat_member"])


if __name__ == "__main__":
    main()
