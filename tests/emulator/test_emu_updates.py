"""Update delivery: getUpdates long polling, and webhooks with secret, retries and duplicates."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import Conflict

from emulator import EmulatorState
from emulator.model import CallbackQuery
from emulator.server import BotApiEmulator
from tests.emulator.support import People, RawCall, keyboard

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@dataclass
class Receiver:
    """A tiny webhook endpoint that checks the secret the way a bot does."""

    url: str = ""
    expected_secret: str | None = None
    failures: list[int] = field(default_factory=list)
    accepted: list[dict[str, Any]] = field(default_factory=list)
    headers: list[str | None] = field(default_factory=list)
    attempts: int = 0

    async def handle(self, request: web.Request) -> web.Response:
        self.attempts += 1
        secret = request.headers.get(SECRET_HEADER)
        if self.expected_secret is not None and secret != self.expected_secret:
            return web.Response(status=403)
        if self.failures:
            return web.Response(status=self.failures.pop(0))
        self.headers.append(secret)
        self.accepted.append(await request.json())
        return web.Response(text="ok")


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    hook = Receiver()
    app = web.Application()
    app.router.add_post("/hook", hook.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    hook.url = f"http://127.0.0.1:{runner.addresses[0][1]}/hook"
    yield hook
    await runner.cleanup()


async def test_long_poll_returns_as_soon_as_an_update_arrives(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    await bot.get_updates(offset=-1, timeout=0)
    state.pending_updates.clear()
    started = time.monotonic()
    poll = asyncio.create_task(bot.get_updates(timeout=40))
    await asyncio.sleep(0.05)
    assert not poll.done()
    state.send_text(people.alice.id, people.alice.id, "/status")
    # well before the poll's 40 s, however loaded the machine
    (update,) = await asyncio.wait_for(poll, 20)
    assert update.message is not None and update.message.text == "/status"
    assert time.monotonic() - started < 20


async def test_long_poll_times_out_empty(bot: Bot, state: EmulatorState) -> None:
    started = time.monotonic()
    assert await bot.get_updates(timeout=timedelta(seconds=0.3)) == ()
    assert 0.25 <= time.monotonic() - started < 15  # after its timeout (a loaded machine: later)


async def test_offset_confirms_and_forgets_updates(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    state.pending_updates.clear()
    for text in ("/a", "/b", "/c"):
        state.send_text(people.alice.id, people.alice.id, text)
    first, second, third = await bot.get_updates(timeout=0)
    confirmed = await bot.get_updates(offset=second.update_id)
    assert [u.message.text for u in confirmed if u.message] == ["/b", "/c"]
    assert [u.update_id for u in await bot.get_updates()] == [second.update_id, third.update_id]
    assert [u.update_id for u in await bot.get_updates(limit=1)] == [second.update_id]
    assert [u.update_id for u in await bot.get_updates(offset=-1)] == [third.update_id]
    assert [u.update_id for u in await bot.get_updates()] == [third.update_id]
    assert first.update_id < second.update_id < third.update_id


async def test_get_updates_conflicts_with_a_webhook(
    bot: Bot, raw: RawCall, receiver: Receiver
) -> None:
    assert await bot.set_webhook(receiver.url)
    status, body = await raw("getUpdates")
    assert (status, body["description"]) == (
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to"
        " delete the webhook first",
    )
    with pytest.raises(Conflict):
        await bot.get_updates()
    assert await bot.delete_webhook()
    assert await bot.get_updates(timeout=0) is not None


async def test_a_second_poller_terminates_the_first(
    emulator: BotApiEmulator, raw: RawCall, state: EmulatorState
) -> None:
    first = asyncio.create_task(raw("getUpdates", timeout=40))
    await asyncio.sleep(0.05)
    second = asyncio.create_task(raw("getUpdates", timeout=0.2))
    status, body = await asyncio.wait_for(first, 20)  # ended by the second, not its 40 s
    assert (status, body["description"]) == (
        409,
        "Conflict: terminated by other getUpdates request; make sure that only one bot instance"
        " is running",
    )
    assert (await second)[1] == {"ok": True, "result": []}


async def test_webhook_delivers_in_order_with_the_secret_header(
    bot: Bot, emulator: BotApiEmulator, state: EmulatorState, people: People, receiver: Receiver
) -> None:
    receiver.expected_secret = "s3cret_Token-1"
    assert await bot.set_webhook(
        receiver.url, secret_token="s3cret_Token-1", drop_pending_updates=True
    )
    for text in ("/one", "/two", "/three"):
        state.send_text(people.alice.id, people.alice.id, text)
    await emulator.wait_for(lambda: not state.pending_updates)
    assert [u["message"]["text"] for u in receiver.accepted] == ["/one", "/two", "/three"]
    assert receiver.headers == ["s3cret_Token-1"] * 3
    info = await bot.get_webhook_info()
    assert (info.url, info.pending_update_count, info.last_error_date) == (receiver.url, 0, None)


async def test_webhook_without_secret_sends_no_header(
    bot: Bot, emulator: BotApiEmulator, state: EmulatorState, receiver: Receiver
) -> None:
    assert await bot.set_webhook(receiver.url)
    state.create_user("Dana")
    dana = state.create_user("Eve")
    state.start_bot(dana.id)
    await emulator.wait_for(lambda: receiver.accepted)
    assert receiver.headers == [None]


async def test_webhook_with_the_wrong_secret_is_retried_until_fixed(
    bot: Bot, emulator: BotApiEmulator, state: EmulatorState, receiver: Receiver
) -> None:
    receiver.expected_secret = "right"
    assert await bot.set_webhook(receiver.url, secret_token="wrong")
    dana = state.create_user("Dana")
    state.start_bot(dana.id)
    await emulator.wait_for(lambda: receiver.attempts >= 3)
    assert receiver.accepted == []
    info = await bot.get_webhook_info()
    assert info.pending_update_count == 1
    assert info.last_error_message == "Wrong response from the webhook: 403 Forbidden"
    assert info.last_error_date is not None
    assert await bot.set_webhook(receiver.url, secret_token="right")
    await emulator.wait_for(lambda: receiver.accepted)
    assert receiver.accepted[0]["message"]["text"] == "/start"
    assert len(receiver.accepted) == 1


async def test_webhook_errors_are_retried_and_reported(
    bot: Bot, emulator: BotApiEmulator, state: EmulatorState, receiver: Receiver
) -> None:
    receiver.failures = [500, 502]
    state.pending_updates.clear()
    assert await bot.set_webhook(receiver.url)
    dana = state.create_user("Dana")
    state.start_bot(dana.id)
    await emulator.wait_for(lambda: receiver.accepted)
    assert receiver.attempts == 3
    assert len(receiver.accepted) == 1
    info = await bot.get_webhook_info()
    assert info.last_error_message == "Wrong response from the webhook: 502 Bad Gateway"


async def test_a_failing_chat_waits_in_order_while_other_chats_are_delivered(
    bot: Bot, emulator: BotApiEmulator, state: EmulatorState, people: People
) -> None:
    """Like Telegram: a chat's updates in order, one in flight each; a chat whose update is
    refused backs off and retries it, and the other chats' updates go on meanwhile, at once."""
    seen: list[tuple[int, str]] = []
    refused = {"left": 5}  # backing off 0.01 + 0.02 + ... + 0.16 s
    in_flight, most = 0, 0

    async def handle(request: web.Request) -> web.Response:
        nonlocal in_flight, most
        update = await request.json()
        chat, text = update["message"]["chat"]["id"], update["message"]["text"]
        if chat == people.alice.id and refused["left"] > 0:
            refused["left"] -= 1
            return web.Response(status=500)
        in_flight += 1
        most = max(most, in_flight)
        if chat != people.alice.id and text != "/start":
            await asyncio.sleep(0.05)  # slow answers: the other chats' posts overlap
        in_flight -= 1
        if text != "/start":
            seen.append((chat, text))
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post("/hook", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        state.pending_updates.clear()
        assert await bot.set_webhook(f"http://127.0.0.1:{runner.addresses[0][1]}/hook")
        others = [state.create_user(f"User{n}") for n in range(4)]
        for user in others:
            state.start_bot(user.id)
        for n in range(3):
            state.send_text(people.alice.id, people.alice.id, f"/a{n}")
            for user in others:
                state.send_text(user.id, user.id, f"/u{n}")
        await emulator.wait_for(lambda: not state.pending_updates, timeout=20)
    finally:
        await runner.cleanup()
    alice = [t for c, t in seen if c == people.alice.id]
    assert alice == ["/a0", "/a1", "/a2"], "retried, in order"
    for user in others:
        assert [t for c, t in seen if c == user.id] == ["/u0", "/u1", "/u2"]
    first_alice = next(i for i, (c, _) in enumerate(seen) if c == people.alice.id)
    assert first_alice >= 4, "the others did not wait for the failing chat"
    assert most > 1, "chats are delivered concurrently"


async def test_webhook_to_a_dead_endpoint_keeps_the_update(
    bot: Bot, emulator: BotApiEmulator, state: EmulatorState
) -> None:
    state.pending_updates.clear()
    assert await bot.set_webhook("http://127.0.0.1:9/hook")
    state.start_bot(state.create_user("Dana").id)
    await emulator.wait_for(lambda: state.webhook.last_error_message)
    assert state.webhook.last_error_message == "Connection refused"
    assert len(state.pending_updates) == 1


async def test_duplicate_delivery_option(
    bot: Bot, emulator: BotApiEmulator, state: EmulatorState, receiver: Receiver
) -> None:
    emulator.duplicate_webhook_deliveries = True
    assert await bot.set_webhook(receiver.url, drop_pending_updates=True)
    state.start_bot(state.create_user("Dana").id)
    await emulator.wait_for(lambda: len(receiver.accepted) >= 2)
    first, second = receiver.accepted
    assert first == second


async def test_webhook_settings(
    bot: Bot, raw: RawCall, state: EmulatorState, people: People, receiver: Receiver
) -> None:
    status, body = await raw("setWebhook", url=receiver.url, secret_token="has space")
    assert (status, body["description"]) == (
        400,
        "Bad Request: secret token contains unallowed characters",
    )
    assert len(state.pending_updates) > 0
    await bot.delete_webhook(drop_pending_updates=True)
    assert state.pending_updates == []
    assert (await bot.get_webhook_info()).url == ""
    await bot.get_updates(timeout=0, allowed_updates=["callback_query"])
    lobby = await bot.send_message(people.group.id, "lobby", reply_markup=keyboard("join"))
    state.send_text(people.bob.id, people.group.id, "/join")
    state.press_button(people.bob.id, people.group.id, lobby.message_id, "join")
    (update,) = await bot.get_updates(timeout=0)
    assert update.callback_query is not None


async def test_a_request_in_a_webhook_answer_is_carried_out_and_its_result_lost(
    bot: Bot, emulator: BotApiEmulator, state: EmulatorState, people: People
) -> None:
    """Telegram's "making requests when getting updates": a 2xx answer whose JSON, form or
    multipart body names a `method` is carried out (its result and errors never reach the
    bot); the get... methods, setWebhook, deleteWebhook, close and logOut are not, and an
    answer that is not a request changes nothing. The update is delivered whatever the body."""
    Reply = Callable[[str], web.Response]  # the tap's query id -> the webhook's answer
    replies: list[Reply] = []
    seen: list[dict[str, Any]] = []

    async def handle(request: web.Request) -> web.Response:
        update = await request.json()
        seen.append(update)
        reply = replies.pop(0) if replies else (lambda _: web.Response(text="ok"))
        return reply(update["callback_query"]["id"])

    app = web.Application()
    app.router.add_post("/hook", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/hook"
    try:
        lobby = await bot.send_message(people.group.id, "lobby", reply_markup=keyboard("a"))
        assert await bot.set_webhook(url, drop_pending_updates=True)

        async def tapped(*answers: Reply) -> CallbackQuery:
            replies.extend(answers)
            before = len(seen)
            query = state.press_button(people.bob.id, people.group.id, lobby.message_id, "a")
            await emulator.wait_for(
                lambda: len(seen) >= before + len(answers) and not state.pending_updates
            )
            return state.callback_queries[query]

        asked = {"method": "answerCallbackQuery", "text": "Done!", "show_alert": True}
        query = await tapped(lambda _: web.json_response({**asked, "callback_query_id": "0"}))
        assert not query.answered  # a wrong id: refused, and the bot never knows
        assert emulator.webhook_reply_errors == [
            (
                "answercallbackquery",
                "Bad Request: query is too old and response timeout expired or query ID is invalid",
            )
        ]
        query = await tapped(lambda q: web.json_response({**asked, "callback_query_id": q}))
        assert (query.answered, query.text, query.show_alert) == (True, "Done!", True)
        query = await tapped(
            lambda q: web.Response(
                text=f"method=AnswerCallbackQuery&callback_query_id={q}&text=by+form",
                content_type="application/x-www-form-urlencoded",
            )
        )
        assert (query.answered, query.text) == (True, "by form")
        query = await tapped(lambda q: web.Response(text=f"method=answerCallbackQuery&{q}"))
        assert not query.answered  # text/plain: not a request
        # Not carried out: a get... method, setWebhook, deleteWebhook, an answer with no method.
        for body in (
            {"method": "getMe"},
            {"method": "deleteWebhook", "drop_pending_updates": True},
            {"method": "setWebhook", "url": ""},
            {"text": "no method"},
        ):
            await tapped(lambda _, body=body: web.json_response(body))  # type: ignore[misc]
        assert (await bot.get_webhook_info()).url == url
        assert emulator.webhook_replies == {"answercallbackquery": 3}
        # A request in a failed answer is not carried out, and the update comes again.
        query = await tapped(
            lambda q: web.json_response({**asked, "callback_query_id": q}, status=500),
            lambda _: web.Response(text="ok"),
        )
        assert not query.answered
        assert seen[-1] == seen[-2]
    finally:
        await bot.delete_webhook()
        await runner.cleanup()
