"""`saboteur-bot sandbox [--port N] [--seed N]`: the real bot, the Bot API emulator and a page.

One asyncio process: the emulator's aiohttp server (which also serves the page and its JSON
routes under `/_sandbox/`), the bot's python-telegram-bot Application long-polling it, and the
store (Redis at REDIS_URL, or fakeredis in-process). With `--seed`, every deal (and game id)
comes from that seed, so the same taps give the same games (the sandbox's own tests use it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import random
import signal
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import web
from redis.exceptions import RedisError
from telegram.ext import Application

from emulator.errors import SimulationError
from emulator.server import BotApiEmulator
from emulator.state import EmulatorState
from tgbot.app import build_application
from tgbot.config import Config, ConfigError, load_config
from tgbot.startup import fail, start_fonts

from .store import SandboxStore, open_store
from .table import Table

DEFAULT_PORT = 8080
HOST = "127.0.0.1"
STATIC_DIR = Path(__file__).with_name("static")
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
# The sandbox reads only these; a bot's token or webhook settings are no business of it.
PROG = "saboteur-bot sandbox"
SANDBOX_VARIABLES = (
    "REDIS_URL",
    "REDIS_TIMEOUT_SECONDS",
    "BOT_LANGUAGE",
    "LOG_LEVEL",
    "FONT_DIR",
    "COMPUTER_PAUSE_SECONDS",
)


class SandboxEmulator(BotApiEmulator):
    """The Bot API emulator, plus the page and the `/_sandbox/` routes on the same port."""

    table: Table | None = None
    bot_app: Application | None = None  # type: ignore[type-arg]

    def make_app(self) -> web.Application:
        """The emulator's routes and the page's."""
        app = super().make_app()
        app.router.add_get("/", self._index)
        app.router.add_static("/static/", STATIC_DIR)
        app.router.add_get("/_sandbox/view", self._view)
        app.router.add_post("/_sandbox/seats", self._add_seat)
        app.router.add_get("/_sandbox/idle", self._idle)
        app.router.add_post("/_sandbox/ephemeral/press", self._press_ephemeral)
        return app

    async def _press_ephemeral(self, request: web.Request) -> web.Response:
        """A seat taps a button of its ephemeral panel: `{user_id, ephemeral_message_id,
        callback_data}`; answers `{callback_query_id}`."""
        try:
            body: Any = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return web.json_response({"ok": False, "error": "send a JSON object"}, status=400)
        user, number, data = (
            body.get("user_id"),
            body.get("ephemeral_message_id"),
            body.get("callback_data"),
        )
        try:
            if (
                not isinstance(user, int)
                or not isinstance(number, int)
                or not isinstance(data, str)
            ):
                raise SimulationError("user_id, ephemeral_message_id and callback_data are needed")
            query = self._table().press_ephemeral(user, number, data)
        except SimulationError as error:
            return web.json_response({"ok": False, "error": str(error)}, status=400)
        return web.json_response({"ok": True, "result": {"callback_query_id": query}})

    async def _idle(self, request: web.Request) -> web.Response:
        """Wait (up to 15 s: a busy machine) until the bot has handled every update it was
        given: it answers a tap as soon as the move is saved and draws the screens after, as
        Telegram users see."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 15.0
        while loop.time() < deadline:
            app = self.bot_app
            processor = getattr(app, "update_processor", None) if app is not None else None
            active = getattr(processor, "active", 0)
            queued = app is not None and not app.update_queue.empty()
            if not active and not queued and not self.state.pending_updates:
                return web.json_response({"ok": True, "result": True})
            await asyncio.sleep(0.01)
        return web.json_response({"ok": True, "result": False})

    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    def _table(self) -> Table:
        if self.table is None:
            raise web.HTTPServiceUnavailable(text="the sandbox is starting")
        return self.table

    async def _view(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": True, "result": self._table().view()})

    async def _add_seat(self, request: web.Request) -> web.Response:
        try:
            body: Any = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return web.json_response({"ok": False, "error": "send a JSON object"}, status=400)
        name, language = body.get("name"), body.get("language", "ko")
        try:
            if not isinstance(name, str) or not isinstance(language, str):
                raise SimulationError("name and language must be strings")
            seat = self._table().add_seat(name, language)
        except SimulationError as error:
            return web.json_response({"ok": False, "error": str(error)}, status=400)
        return web.json_response({"ok": True, "result": seat})


class Sandbox:
    """The emulator with the page, the real bot polling it, and the store, started together."""

    def __init__(
        self,
        config: Config,
        store: SandboxStore,
        *,
        port: int = DEFAULT_PORT,
        seed: int | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.seed = seed
        self.emulator = SandboxEmulator(EmulatorState(), host=HOST, port=port)
        self.app: Application | None = None  # type: ignore[type-arg]

    @property
    def url(self) -> str:
        """The page's address."""
        return f"{self.emulator.url}/"

    async def start(self) -> None:
        """Serve the emulator and the page, start the bot, then open the sandbox group."""
        await self.emulator.start()
        try:
            config = dataclasses.replace(
                self.config, token=self.emulator.state.token, api_url=self.emulator.url
            )
            redis, prefix = self.store.client, self.store.prefix
            if self.seed is None:
                self.app = build_application(config, redis=redis, prefix=prefix)
            else:
                seeds = _seeds(self.seed)
                self.app = build_application(config, redis=redis, prefix=prefix, seeds=seeds)
            self.emulator.bot_app = self.app
            await self.app.initialize()
            if self.app.post_init is not None:
                await self.app.post_init(self.app)  # run_polling would call it: ping, commands
            await self.app.start()
            assert self.app.updater is not None
            await self.app.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
        except BaseException:
            await self.stop()
            raise
        state = self.emulator.state
        self.emulator.table = Table.open(
            state, store=self.store.announcement, is_embedded=self.store.is_embedded
        )

    async def stop(self) -> None:
        """Stop the bot, then the emulator; forget this run's keys and close the store."""
        app, self.app = self.app, None
        if app is not None:
            if app.updater is not None and app.updater.running:
                await app.updater.stop()
            if app.running:
                await app.stop()
            if app.post_stop is not None:
                await app.post_stop(app)  # stops the bot's sweeper
            await app.shutdown()
            if app.post_shutdown is not None:
                await app.post_shutdown(app)
        await self.emulator.stop()
        with contextlib.suppress(Exception):
            await self.store.forget()
        await self.store.client.aclose()


def _seeds(seed: int) -> Callable[[], int]:
    """The seeds of the games' deals (and ids), drawn in turn from `seed`."""
    draw = random.Random(seed)
    return lambda: draw.randrange(2**62)


def sandbox_config(environ: Mapping[str, str]) -> Config:
    """The bot's settings for the sandbox: only SANDBOX_VARIABLES are read (and checked)."""
    wanted = {name: environ[name] for name in SANDBOX_VARIABLES if name in environ}
    return load_config(wanted, require_token=False, default_log_level="WARNING")


async def serve(port: int, environ: Mapping[str, str], seed: int | None = None) -> None:
    """Run the sandbox until Ctrl-C or SIGTERM (games dealt from `seed` when given)."""
    config = sandbox_config(environ)
    redis_url = (environ.get("REDIS_URL") or "").strip() or None
    store = open_store(config.redis_url if redis_url else None, config.redis_timeout)
    print(store.announcement, flush=True)
    sandbox = Sandbox(config, store, port=port, seed=seed)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, stopping.set)
    await sandbox.start()
    try:
        print(f"Sandbox ready: open {sandbox.url} in a browser (Ctrl-C stops it).", flush=True)
        await stopping.wait()
    finally:
        print("Stopping the sandbox...", flush=True)
        await sandbox.stop()


def main(argv: list[str] | None = None) -> None:
    """Parse `[--port N] [--seed N]`, check the settings and the font, then serve until
    interrupted."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play Saboteur offline in a browser: the real bot against a local Telegram.",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help="port of the page (0: any free one)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="deal every game from this seed: the same taps give the same games (for tests)",
    )
    args = parser.parse_args(argv)
    try:
        config = sandbox_config(os.environ)
    except ConfigError as err:
        fail(f"configuration error: {err}", status=2, prog=PROG)
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    start_fonts(config, prog=PROG)
    try:
        asyncio.run(serve(args.port, os.environ, args.seed))
    except KeyboardInterrupt:
        pass
    except ConfigError as err:
        fail(f"configuration error: {err}", status=2, prog=PROG)
    except RedisError as err:
        fail(f"cannot use REDIS_URL: {err}", status=1, prog=PROG)
    except OSError as err:
        fail(f"cannot start: {err} (another --port?)", status=1, prog=PROG)
