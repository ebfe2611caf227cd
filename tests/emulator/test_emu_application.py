"""A real PTB `Application` against the emulator, by long polling and through a webhook."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from emulator import EmulatorState, Message
from emulator.server import BotApiEmulator
from tests.emulator.support import keyboard, quick_request


async def welcome(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answer /start with the deep-link payload and a button."""
    assert update.effective_message is not None
    payload = context.args[0] if context.args else "none"
    await update.effective_message.reply_text(f"welcome {payload}", reply_markup=keyboard("ready"))


async def ready(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answer the button and edit its message."""
    query = update.callback_query
    assert query is not None
    await query.answer("You are ready")
    await query.edit_message_text("ready!")


@pytest.fixture
async def application(emulator: BotApiEmulator) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    kwargs = emulator.bot_kwargs
    app = (
        ApplicationBuilder()
        .token(kwargs["token"])
        .base_url(kwargs["base_url"])
        .base_file_url(kwargs["base_file_url"])
        .request(quick_request())
        .get_updates_request(quick_request())
        .build()
    )
    app.add_handler(CommandHandler("start", welcome))
    app.add_handler(CallbackQueryHandler(ready))
    async with app:
        await app.start()
        yield app
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        await app.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def play_deep_link_and_button(emulator: BotApiEmulator, state: EmulatorState) -> None:
    carol = state.create_user("Carol")
    state.open_link(carol.id, "https://t.me/saboteur_emu_bot?start=g7")
    reply = await emulator.wait_for_bot_message(carol.id)
    assert reply.text == "welcome g7"
    query_id = state.press_button(carol.id, carol.id, reply.message_id, "ready")
    answer = await emulator.wait_for_answer(query_id)
    assert answer.text == "You are ready"

    def edited_reply() -> Message | None:
        message = state.message(carol.id, reply.message_id)
        return message if message.is_edited else None

    edited = await emulator.wait_for(edited_reply)
    assert edited.text == "ready!"
    assert edited.reply_markup is None


async def test_application_by_long_polling(
    application: Application,  # type: ignore[type-arg]
    emulator: BotApiEmulator,
    state: EmulatorState,
) -> None:
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0.0, timeout=1)
    await play_deep_link_and_button(emulator, state)


async def test_application_by_webhook_checks_the_secret(
    application: Application,  # type: ignore[type-arg]
    emulator: BotApiEmulator,
    state: EmulatorState,
) -> None:
    async def receive(request: web.Request) -> web.Response:
        if request.headers.get("X-Telegram-Bot-Api-Secret-Token") != "s3cret":
            return web.Response(status=403)
        update = Update.de_json(json.loads(await request.read()), application.bot)
        await application.process_update(update)
        return web.Response()

    server = web.Application()
    server.router.add_post("/tg", receive)
    runner = web.AppRunner(server)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        await application.bot.set_webhook(f"http://127.0.0.1:{port}/tg", secret_token="s3cret")
        assert state.webhook.secret_token == "s3cret"
        state.webhook.secret_token = "forged"
        dana = state.create_user("Dana")
        state.start_bot(dana.id)
        await emulator.wait_for(lambda: state.webhook.last_error_message)
        assert state.webhook.last_error_message == "Wrong response from the webhook: 403 Forbidden"
        assert state.last_message(dana.id) is not None
        assert [m.text for m in state.messages(dana.id)] == ["/start"]
        state.webhook.secret_token = "s3cret"
        assert (await emulator.wait_for_bot_message(dana.id)).text == "welcome none"
        await play_deep_link_and_button(emulator, state)
    finally:
        await runner.cleanup()
