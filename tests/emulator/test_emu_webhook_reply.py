"""A tap's answer in the webhook's own HTTP answer: the bot's webhook server and sender against
the emulator, which carries out a request named in a webhook's answer as Telegram does."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from telegram import Update

from emulator import EmulatorState
from emulator.model import CallbackQuery, Content
from emulator.server import BotApiEmulator
from tests.emulator.support import People
from tgbot import webhook_reply
from tgbot.telegram_io import Sender
from tgbot.webhook import WebhookServer

SECRET = "reply-secret"
Accept = Callable[[Update], Awaitable[None]]


async def tap_through(
    emulator: BotApiEmulator,
    sender: Sender,
    people: People,
    accept: Accept,
    *,
    replies: bool = True,
    posts: int = 1,
    reply_wait: float = 30.0,  # (a loaded machine must not make the answer late)
) -> CallbackQuery:
    """Serve the bot's webhook with `accept`, tap a button once, and wait until the emulator
    has posted the update `posts` times and has nothing left to deliver; the tap's query."""
    state = emulator.state
    server = WebhookServer(
        bot=sender.bot,
        accept=accept,
        secret=SECRET,
        path="hook",
        host="127.0.0.1",
        port=0,
        replies=replies,
        reply_wait=reply_wait,
    )
    await server.start()
    try:
        url = f"http://127.0.0.1:{server.port}/hook"
        assert await sender.bot.set_webhook(url, secret_token=SECRET, drop_pending_updates=True)
        keyboard = {"inline_keyboard": [[{"text": "hand", "callback_data": "h"}]]}
        post = state.send_as_bot(
            state.chat(people.group.id), Content(text="board", reply_markup=keyboard)
        )
        before = emulator.webhook_attempts
        query = state.press_button(people.alice.id, people.group.id, post.message_id, "h")
        await emulator.wait_for(
            lambda: emulator.webhook_attempts >= before + posts and not state.pending_updates
        )
        await sender.bot.delete_webhook()
        return state.callback_queries[query]
    finally:
        await server.stop()


def the_tap(update: Update) -> str:
    assert update.callback_query is not None
    return update.callback_query.id


async def test_a_tap_answered_while_its_update_is_handled_rides_in_the_webhook_answer(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    """No call of its own: the emulator carries the answer out from the webhook's answer."""

    async def accept(update: Update) -> None:
        sent = await sender.answer(the_tap(update), "Done!", alert=True, url=None)
        assert sent.ok

    query = await tap_through(emulator, sender, people, accept)
    assert (query.answered, query.text, query.show_alert) == (True, "Done!", True)
    assert emulator.calls["answerCallbackQuery"] == 0
    assert emulator.webhook_replies == {"answercallbackquery": 1}
    assert emulator.webhook_reply_errors == []


async def test_with_webhook_replies_off_a_tap_is_answered_by_a_call(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    async def accept(update: Update) -> None:
        assert (await sender.answer(the_tap(update), "Done!", alert=False, url=None)).ok

    query = await tap_through(emulator, sender, people, accept, replies=False)
    assert (query.answered, query.text) == (True, "Done!")
    assert emulator.calls["answerCallbackQuery"] == 1
    assert emulator.webhook_replies == {}


async def test_the_answer_of_an_update_that_fails_is_sent_by_a_call(
    emulator: BotApiEmulator, sender: Sender, people: People
) -> None:
    """An update answered 500 comes again, and its body would be lost: the tap's answer kept
    for it is sent as a call; the second delivery, handled, answers nothing more."""
    attempts: list[int] = []

    async def accept(update: Update) -> None:
        attempts.append(update.update_id)
        if len(attempts) == 1:
            assert (await sender.answer(the_tap(update), "Saved", alert=False, url=None)).ok
            raise RuntimeError("lost the store after answering")

    query = await tap_through(emulator, sender, people, accept, posts=2)
    assert len(attempts) == 2 and attempts[0] == attempts[1]
    assert (query.answered, query.text) == (True, "Saved")
    assert emulator.calls["answerCallbackQuery"] == 1
    assert emulator.webhook_replies == {}


async def test_an_answer_whose_update_is_slow_to_end_is_sent_by_a_call_meanwhile(
    emulator: BotApiEmulator, sender: Sender, people: People, state: EmulatorState
) -> None:
    """A slow edit after the answer (Telegram late to answer it) does not hold the tap's
    answer: past the wait it is taken back from the webhook's answer and sent as a call."""
    answered_before_the_end: list[bool] = []

    async def accept(update: Update) -> None:
        query_id = the_tap(update)
        assert (await sender.answer(query_id, "Saved", alert=False, url=None)).ok
        await emulator.wait_for(lambda: state.callback_queries[query_id].answered, timeout=20)
        answered_before_the_end.append(True)

    query = await tap_through(emulator, sender, people, accept, reply_wait=0.05)
    assert answered_before_the_end == [True]
    assert (query.answered, query.text) == (True, "Saved")
    assert emulator.calls["answerCallbackQuery"] == 1
    assert emulator.webhook_replies == {}


async def test_only_the_update_s_own_tap_and_only_its_first_answer_ride(
    emulator: BotApiEmulator, sender: Sender, people: People, state: EmulatorState
) -> None:
    """Another query's answer, a second answer, and an answer from a task the handling
    started that answers after the update ended are calls of their own."""
    other = state.press_button(
        people.bob.id,
        people.group.id,
        state.send_as_bot(
            state.chat(people.group.id),
            Content(
                text="x", reply_markup={"inline_keyboard": [[{"text": "b", "callback_data": "b"}]]}
            ),
        ).message_id,
        "b",
    )
    later: list[asyncio.Task[bool]] = []
    go = asyncio.Event()

    async def answer_later(query_id: str) -> bool:
        await go.wait()
        return webhook_reply.offer(query_id, {"callback_query_id": query_id, "text": "late"})

    async def accept(update: Update) -> None:
        query_id = the_tap(update)
        later.append(asyncio.create_task(answer_later(query_id)))
        assert (await sender.answer(other, "not yours", alert=False, url=None)).ok
        assert (await sender.answer(query_id, "first", alert=False, url=None)).ok
        assert not webhook_reply.offer(query_id, {"callback_query_id": query_id, "text": "2nd"})

    query = await tap_through(emulator, sender, people, accept)
    go.set()
    assert await later[0] is False  # the slot closed with the update's handling
    assert (query.answered, query.text) == (True, "first")
    assert state.callback_queries[other].text == "not yours"
    assert emulator.calls["answerCallbackQuery"] == 1  # the other query's
    assert emulator.webhook_replies == {"answercallbackquery": 1}


def test_no_slot_outside_a_webhook_update() -> None:
    assert webhook_reply.offer("q", {"callback_query_id": "q"}) is False
    with webhook_reply.carrying("q") as slot:
        assert webhook_reply.offer("q", {"callback_query_id": "q", "text": None, "url": "u"})
    assert slot.close() == {"method": "answerCallbackQuery", "callback_query_id": "q", "url": "u"}
    assert webhook_reply.offer("q", {"callback_query_id": "q"}) is False
