"""`saboteur-bot`: run the bot (webhook when WEBHOOK_URL is set, long polling otherwise).

`saboteur-bot sandbox [--port N]` runs the offline sandbox instead (no token needed).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from .config import Config, ConfigError, load_config


def main(argv: list[str] | None = None) -> None:
    """Start the bot from the environment; a bad setting stops it with one clear line."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "sandbox":
        from sandbox.server import main as sandbox_main

        sandbox_main(args[1:])
        return
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        print("Configuration: see the README (TELEGRAM_BOT_TOKEN, REDIS_URL, WEBHOOK_URL, ...).")
        return
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO"),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        config = load_config(os.environ)
        from .app import check_services  # telegram, redis, Pillow: only once the settings are sane

        asyncio.run(check_services(config))
    except ConfigError as err:
        line = " ".join(str(err).split())
        print(f"saboteur-bot: configuration error: {line}", file=sys.stderr)
        raise SystemExit(2) from None
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
