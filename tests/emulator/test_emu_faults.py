"""The seeded fault layer: what a real PTB `Bot` sees for each kind, and what really happened."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from telegram import Bot, Message
from telegram.error import NetworkError, RetryAfter, TelegramError, TimedOut

from emulator import EmulatorState, FaultLog, Faults, ManualClock
from emulator import Message as StoredMessage
from emulator.faults import (
    ERROR_500,
    ERROR_502,
    KINDS,
    RESET,
    RESET_AFTER,
    SLOW,
    STORM_429,
    TIMEOUT_AFTER,
    TIMEOUT_BEFORE,
    UNAFFECTED_METHODS,
    FaultInjector,
    InjectedFault,
)
from emulator.params import Params
from emulator.server import BotApiEmulator
from tests.emulator.support import People, RawCall, quick_request

# A loaded CI machine can take over a second to answer an ordinary call, so the client waits
# PATIENT seconds for answers by default; a call that a fault hangs (HANG_SECONDS, far longer)
# is given up on after CLIENT_TIMEOUT. The emulator ends its hangs when it stops.
PATIENT = 15.0
CLIENT_TIMEOUT = 1.0
HANG_SECONDS = 30.0
Control = Callable[..., Awaitable[tuple[int, Any]]]


def only(kind: str, **settings: Any) -> Faults:
    """A plan that gives every affected call the fault `kind`."""
    return Faults(share=1.0, kinds={kind: 1.0}, hang_seconds=HANG_SECONDS, **settings)


@pytest.fixture
async def quick_bot(emulator: BotApiEmulator) -> AsyncIterator[Bot]:
    """A bot that waits PATIENT seconds for an answer (a call meant to hang passes
    read_timeout=CLIENT_TIMEOUT), with room for parallel calls."""
    client = Bot(
        **emulator.bot_kwargs,
        request=quick_request(read_timeout=PATIENT, connection_pool_size=16),
        get_updates_request=quick_request(),
    )
    async with client:
        yield client


@pytest.fixture
async def control(emulator: BotApiEmulator) -> AsyncIterator[Control]:
    async with aiohttp.ClientSession() as session:

        async def call(method: str, path: str, body: object = None) -> tuple[int, Any]:
            async with session.request(method, f"{emulator.url}/_emu{path}", json=body) as reply:
                return reply.status, await reply.json()

        yield call


def bot_texts(state: EmulatorState, chat_id: int) -> list[str | None]:
    return [m.raw_text for m in state.messages(chat_id) if m.sender_id == state.bot.id]


def last_from_bot(state: EmulatorState, chat_id: int) -> StoredMessage:
    sent = [m for m in state.messages(chat_id) if m.sender_id == state.bot.id]
    assert sent, "the bot sent nothing there"
    return sent[-1]


async def logged(found: Callable[[], list[InjectedFault]]) -> list[InjectedFault]:
    """The fault log's entries that `found` picks, once there are any (checked every 10 ms, for
    PATIENT seconds at most): a client that gave up after CLIENT_TIMEOUT on a loaded machine may
    have done so before the emulator read its call, or carried it out."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENT
    while not (entries := found()):
        assert loop.time() < deadline, "the call never reached the emulator's fault log"
        await asyncio.sleep(0.01)
    return entries


async def carried_out(emulator: BotApiEmulator, count: int) -> None:
    """Wait until `count` faulty calls took effect."""
    await logged(lambda: emulator.fault_log.carried_out()[count - 1 : count])


# -- the plan -------------------------------------------------------------------------------------


def test_the_default_plan_injects_nothing() -> None:
    plan = Faults()
    assert not plan.active
    assert plan.share == 0 and plan.latency_ms == 0 and plan.jitter_ms == 0
    assert "sendMessage" in plan.affected_methods and "editMessageText" in plan.affected_methods
    assert not plan.affected_methods & UNAFFECTED_METHODS
    assert hash(plan) == hash(Faults()) and plan == Faults()
    assert Faults(latency_ms=5).active and Faults(share=0.1).active


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"share": 1.5}, "share must be between 0 and 1"),
        ({"share": -0.1}, "share must be between 0 and 1"),
        ({"kinds": {"flood": 1.0}}, "unknown fault kinds ['flood']"),
        ({"kinds": {RESET: -1.0}}, "must not be negative"),
        ({"share": 0.5, "kinds": {RESET: 0.0}}, "at least one kind with a positive weight"),
        ({"methods": {"sendMesage"}}, "unknown Bot API methods ['sendMesage']"),
        ({"storm_methods": {"sendSticker"}}, "unknown Bot API methods ['sendSticker']"),
        ({"hang_seconds": -1.0}, "hang_seconds must not be negative"),
    ],
)
def test_a_bad_plan_is_refused(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Faults(**settings)


def test_method_names_are_case_insensitive_and_a_string_is_not_a_set() -> None:
    assert Faults(methods={"sendmessage", "EDITMESSAGETEXT"}).affected_methods == {
        "sendMessage",
        "editMessageText",
    }
    with pytest.raises(TypeError):
        Faults(methods="sendMessage")  # type: ignore[arg-type]


def test_the_plan_round_trips_through_json() -> None:
    plan = Faults(
        seed=7,
        share=0.25,
        kinds={TIMEOUT_AFTER: 2.0, ERROR_500: 1.0},
        methods={"sendMessage", "editMessageText"},
        hang_seconds=3.0,
        storm_methods={"sendMessage"},
        latency_ms=20.0,
        jitter_ms=5.0,
    )
    assert Faults.from_json(plan.to_json()) == plan
    assert Faults.from_json({}) == Faults()
    with pytest.raises(ValueError, match="seed must be an integer"):
        Faults.from_json({"seed": 1.5})
    with pytest.raises(ValueError, match="unknown fault settings"):
        Faults.from_json({"shares": 0.5})


# -- seeds, shares and mixes, straight from the injector -------------------------------------------


def drive(injector: FaultInjector, calls: int, method: str = "sendMessage") -> list[str | None]:
    kinds = []
    for n in range(calls):
        fault = injector.decide(method, Params({"chat_id": 1000 + n % 3, "text": "x"}))
        kinds.append(None if fault is None else fault.kind)
    return kinds


def test_the_same_seed_gives_the_same_faults_and_another_seed_others() -> None:
    plan = Faults(seed=11, share=0.3)
    first = drive(FaultInjector(plan, ManualClock()), 300)
    again = drive(FaultInjector(plan, ManualClock()), 300)
    other = drive(FaultInjector(Faults(seed=12, share=0.3), ManualClock()), 300)
    assert first == again
    assert first != other
    # a new plan restarts the draws from its seed
    injector = FaultInjector(plan, ManualClock())
    drive(injector, 50)
    injector.plan = plan
    assert drive(injector, 300) == first


def test_the_share_and_the_mix_are_respected_over_many_calls() -> None:
    injector = FaultInjector(
        Faults(seed=3, share=0.2, kinds={ERROR_500: 3.0, RESET: 1.0}), ManualClock()
    )
    kinds = drive(injector, 5000)
    faults = [kind for kind in kinds if kind is not None]
    assert 0.18 < len(faults) / len(kinds) < 0.22
    assert set(faults) == {ERROR_500, RESET}
    assert 0.70 < faults.count(ERROR_500) / len(faults) < 0.80
    assert injector.log.calls == 5000
    assert injector.log.by_kind == {ERROR_500: faults.count(ERROR_500), RESET: faults.count(RESET)}
    assert all(
        kind is not None for kind in drive(FaultInjector(Faults(share=1.0), ManualClock()), 50)
    )


def test_every_kind_comes_up_in_the_default_mix() -> None:
    # (edits: a drawn storm would refuse the later sends to its chat as storm_429)
    kinds = drive(FaultInjector(Faults(seed=1, share=1.0), ManualClock()), 800, "editMessageText")
    counts = {kind: kinds.count(kind) for kind in KINDS}
    assert all(60 < count < 140 for count in counts.values()), counts


def test_unaffected_methods_take_no_draws() -> None:
    plan = Faults(seed=5, share=0.5)
    injector = FaultInjector(plan, ManualClock())
    for method in sorted(UNAFFECTED_METHODS):
        assert injector.decide(method, Params({"chat_id": 1})) is None
    assert injector.log.calls == 0
    # ... so calls to them in between do not shift the faults of the others
    assert drive(injector, 100) == drive(FaultInjector(plan, ManualClock()), 100)


def test_a_forced_fault_does_not_shift_the_draws() -> None:
    plan = Faults(seed=9, share=0.4, kinds={ERROR_500: 1.0})
    plain = drive(FaultInjector(plan, ManualClock()), 100)
    injector = FaultInjector(plan, ManualClock())
    assert drive(injector, 40) == plain[:40]
    injector.force(RESET, method="sendmessage", chat_id=1000, times=2)
    after = drive(injector, 60)  # the calls to chat 1000 are calls 0, 3, 6... of these
    assert [n for n, kind in enumerate(after) if kind == RESET] == [0, 3]
    assert [k for n, k in enumerate(after) if n not in (0, 3)] == [
        k for n, k in enumerate(plain[40:]) if n not in (0, 3)
    ]
    assert not injector.forced
    assert [e.forced for e in injector.log.entries if e.kind == RESET] == [True, True]


def test_latency_jitter_is_seeded_and_apart_from_the_faults() -> None:
    plan = Faults(seed=4, share=0.3, latency_ms=100.0, jitter_ms=50.0)
    injector = FaultInjector(plan, ManualClock())
    delays = [injector.latency_seconds() for _ in range(200)]
    assert all(0.05 <= d <= 0.15 for d in delays)
    assert len(set(delays)) > 100
    other = FaultInjector(plan, ManualClock())
    assert [other.latency_seconds() for _ in range(200)] == delays
    assert injector.log.delays == delays
    # drawing latencies leaves the fault sequence alone
    assert drive(injector, 100) == drive(FaultInjector(plan, ManualClock()), 100)


# -- each kind, as python-telegram-bot sees it --------------------------------------------------


async def test_off_by_default_and_nothing_is_logged(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    assert emulator.faults == Faults()
    await quick_bot.send_message(people.alice.id, "hello")
    assert emulator.fault_log.entries == [] and emulator.fault_log.calls == 0
    assert emulator.fault_log.delays == []


async def test_error_500_is_a_network_error_and_nothing_is_sent(
    emulator: BotApiEmulator, quick_bot: Bot, raw: RawCall, people: People
) -> None:
    emulator.faults = only(ERROR_500)
    assert await raw("sendMessage", chat_id=people.alice.id, text="raw") == (
        500,
        {"ok": False, "error_code": 500, "description": "Internal Server Error"},
    )
    with pytest.raises(NetworkError) as error:
        await quick_bot.send_message(people.alice.id, "hello")
    assert type(error.value) is NetworkError
    assert error.value.message == "Internal Server Error"
    assert bot_texts(emulator.state, people.alice.id) == []
    assert [(e.kind, e.carried_out) for e in emulator.fault_log.entries] == [(ERROR_500, False)] * 2


async def test_error_502_is_the_proxy_page_and_a_network_error(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = only(ERROR_502)
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{emulator.url}/bot{emulator.state.token}/sendMessage",
            json={"chat_id": people.alice.id, "text": "raw"},
        ) as reply,
    ):
        assert (reply.status, reply.content_type) == (502, "text/html")
        assert "<title>502 Bad Gateway</title>" in await reply.text()
    with pytest.raises(NetworkError) as error:
        await quick_bot.send_message(people.alice.id, "hello")
    assert type(error.value) is NetworkError
    assert error.value.message.startswith("Bad Gateway (502). Parsing the server response")
    assert bot_texts(emulator.state, people.alice.id) == []


async def test_a_reset_is_a_network_error_and_nothing_is_sent(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = only(RESET)
    with pytest.raises(NetworkError) as error:
        await quick_bot.send_message(people.alice.id, "hello")
    assert type(error.value) is NetworkError
    assert "Server disconnected without sending a response" in error.value.message
    assert bot_texts(emulator.state, people.alice.id) == []
    emulator.faults = Faults()
    assert (await quick_bot.send_message(people.alice.id, "again")).text == "again"


async def test_timeout_before_times_out_and_nothing_is_sent(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = only(TIMEOUT_BEFORE)
    with pytest.raises(TimedOut):
        await quick_bot.send_message(people.alice.id, "hello", read_timeout=CLIENT_TIMEOUT)
    # on a loaded machine the client may give up before the emulator has read the call
    (entry,) = await logged(lambda: emulator.fault_log.entries)
    assert bot_texts(emulator.state, people.alice.id) == []
    assert (entry.kind, entry.carried_out, entry.message_id) == (TIMEOUT_BEFORE, False, None)
    assert emulator.fault_log.lost_answers() == []


async def test_timeout_after_times_out_but_the_message_is_sent(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = only(TIMEOUT_AFTER)
    with pytest.raises(TimedOut):
        await quick_bot.send_message(
            people.group.id, "<b>board</b>", parse_mode="HTML", read_timeout=CLIENT_TIMEOUT
        )
    await carried_out(emulator, 1)
    sent = last_from_bot(emulator.state, people.group.id)
    assert (sent.raw_text, sent.content.text) == ("<b>board</b>", "board")
    (lost,) = emulator.fault_log.lost_answers()
    assert (lost.kind, lost.method, lost.chat_id, lost.message_id) == (
        TIMEOUT_AFTER,
        "sendMessage",
        people.group.id,
        sent.message_id,
    )


async def test_timeout_after_edits_and_deletes_for_real(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    group = people.group.id
    board = await quick_bot.send_message(group, "turn 1")
    note = await quick_bot.send_message(group, "note")
    emulator.faults = only(TIMEOUT_AFTER)
    with pytest.raises(TimedOut):
        await quick_bot.edit_message_text(
            "turn 2", group, board.message_id, read_timeout=CLIENT_TIMEOUT
        )
    await carried_out(emulator, 1)  # before the delete: the log's order is the calls' order
    with pytest.raises(TimedOut):
        await quick_bot.delete_message(group, note.message_id, read_timeout=CLIENT_TIMEOUT)
    await carried_out(emulator, 2)
    assert emulator.state.message(group, board.message_id).content.text == "turn 2"
    assert emulator.state.message(group, note.message_id).deleted
    assert [(e.method, e.chat_id, e.message_id) for e in emulator.fault_log.lost_answers()] == [
        ("editMessageText", group, board.message_id),
        ("deleteMessage", group, note.message_id),
    ]


async def test_timeout_after_on_a_refused_call_is_logged_as_not_carried_out(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.force_fault(TIMEOUT_AFTER, method="editMessageText")
    with pytest.raises(TimedOut):
        await quick_bot.edit_message_text(
            "nothing there", people.group.id, 999, read_timeout=CLIENT_TIMEOUT
        )
    (entry,) = await logged(lambda: [e for e in emulator.fault_log.entries if e.error])
    assert (entry.carried_out, entry.error) == (False, "Bad Request: message to edit not found")
    assert emulator.fault_log.lost_answers() == []


async def test_reset_after_is_a_network_error_but_the_message_is_sent(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = only(RESET_AFTER)
    with pytest.raises(NetworkError) as error:
        await quick_bot.send_message(people.alice.id, "hello")
    assert type(error.value) is NetworkError
    assert bot_texts(emulator.state, people.alice.id) == ["hello"]
    (lost,) = emulator.fault_log.lost_answers()
    assert lost.kind == RESET_AFTER and lost.message_id is not None


async def test_a_slow_answer_comes_after_the_message_is_there(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = only(SLOW, slow_seconds=0.2)
    sending = asyncio.create_task(
        quick_bot.send_message(people.alice.id, "hello", read_timeout=5.0)
    )
    sent = await emulator.wait_for_bot_message(people.alice.id)
    assert not sending.done()  # carried out, not answered yet
    message = await sending
    assert (message.message_id, message.text) == (sent.message_id, "hello")
    assert emulator.fault_log.carried_out(SLOW)[0].message_id == sent.message_id
    assert emulator.fault_log.lost_answers() == []


async def test_a_429_storm_refuses_sends_to_that_chat_until_it_ends(
    emulator: BotApiEmulator,
    quick_bot: Bot,
    people: People,
    clock: ManualClock,
    monkeypatch: pytest.MonkeyPatch,
    raw: RawCall,
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # retry_after as a timedelta, without a warning
    group = people.group.id
    board = await quick_bot.send_message(group, "board")
    emulator.faults = Faults(storm_seconds=10.0)
    emulator.force_fault(STORM_429, chat_id=group)
    with pytest.raises(RetryAfter) as error:
        await quick_bot.send_message(group, "one")
    assert error.value.retry_after == timedelta(seconds=10)
    clock.advance(3.5)
    assert await raw("sendMessage", chat_id=group, text="two") == (
        429,
        {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 7",
            "parameters": {"retry_after": 7},
        },
    )
    with pytest.raises(RetryAfter):
        await quick_bot.send_photo(group, b"not even read")
    # other chats, and edits in this one, go through
    assert (await quick_bot.send_message(people.alice.id, "private")).text == "private"
    assert await quick_bot.edit_message_text("board 2", group, board.message_id)
    clock.advance(6.5)
    assert (await quick_bot.send_message(group, "three")).text == "three"
    assert bot_texts(emulator.state, group) == ["board 2", "three"]
    log = emulator.fault_log
    assert [(s.chat_id, s.ends - s.started) for s in log.storms] == [(group, 10.0)]
    assert [(e.method, e.retry_after, e.forced) for e in log.entries] == [
        ("sendMessage", 10, True),
        ("sendMessage", 7, False),
        ("sendPhoto", 7, False),
    ]


async def test_a_drawn_storm_starts_on_the_chat_of_the_call(
    emulator: BotApiEmulator, quick_bot: Bot, people: People, clock: ManualClock
) -> None:
    emulator.faults = Faults(
        share=1.0, kinds={STORM_429: 1.0}, methods={"sendChatAction"}, storm_seconds=30.0
    )
    with pytest.raises(RetryAfter):
        await quick_bot.send_chat_action(people.group.id, "typing")
    with pytest.raises(RetryAfter):
        await quick_bot.send_message(people.group.id, "refused by the storm")
    assert (await quick_bot.send_message(people.alice.id, "fine")).text == "fine"
    # a new plan ends the storm
    emulator.faults = Faults()
    assert (await quick_bot.send_message(people.group.id, "after")).text == "after"


# -- which calls, and which not -------------------------------------------------------------------


async def test_setup_calls_are_left_alone_by_default(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = only(ERROR_500)
    assert (await quick_bot.get_me()).username == emulator.state.bot.username
    assert await quick_bot.set_my_commands([("new", "New game")])
    assert [c.command for c in await quick_bot.get_my_commands()] == ["new"]
    assert (await quick_bot.get_webhook_info()).url == ""
    assert await quick_bot.get_updates(timeout=0) is not None
    with pytest.raises(NetworkError):
        await quick_bot.get_chat(people.group.id)
    assert emulator.fault_log.by_method == {"getChat": 1}


async def test_only_the_methods_named_are_affected(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = only(ERROR_500, methods={"editMessageText", "getMe"})
    sent = await quick_bot.send_message(people.alice.id, "one")
    with pytest.raises(NetworkError):
        await quick_bot.edit_message_text("two", people.alice.id, sent.message_id)
    with pytest.raises(NetworkError):
        await quick_bot.get_me()
    assert emulator.fault_log.by_method == {"editMessageText": 1, "getMe": 1}


async def test_webhook_delivery_is_not_affected(
    emulator: BotApiEmulator, quick_bot: Bot, state: EmulatorState, people: People
) -> None:
    received: list[dict[str, Any]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append(await request.json())
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        assert await quick_bot.set_webhook(
            f"http://127.0.0.1:{runner.addresses[0][1]}/hook", drop_pending_updates=True
        )
        emulator.faults = Faults(share=1.0, kinds={RESET: 1.0}, latency_ms=50.0)
        for text in ("/one", "/two"):
            state.send_text(people.alice.id, people.alice.id, text)
        await emulator.wait_for(lambda: len(received) == 2)
    finally:
        await runner.cleanup()
    assert [u["message"]["text"] for u in received] == ["/one", "/two"]
    assert emulator.webhook_attempts == 2
    assert emulator.fault_log.entries == [] and emulator.fault_log.delays == []


# -- the same faults again, over HTTP ------------------------------------------------------------


async def play(emulator: BotApiEmulator, bot: Bot, chat_id: int) -> list[str]:
    """Thirty sends and edits; what the bot saw for each."""
    seen = []
    last: Message | None = None
    for n in range(30):
        try:
            if last is not None and n % 3 == 0:
                edited = await bot.edit_message_text(f"edit {n}", chat_id, last.message_id)
                assert not isinstance(edited, bool)
            else:
                last = await bot.send_message(chat_id, f"send {n}")
            seen.append("ok")
        except TelegramError as error:
            seen.append(type(error).__name__)
    return seen


async def test_the_same_seed_and_calls_give_the_same_faults_over_http(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    plan = Faults(
        seed=2024,
        share=0.5,
        kinds={ERROR_500: 1.0, RESET: 1.0, RESET_AFTER: 1.0, SLOW: 1.0},
        slow_seconds=0.01,
    )

    async def run() -> tuple[list[str], list[tuple[int | None, str, str]], list[str | None]]:
        state = EmulatorState(clock=ManualClock())
        alice = state.create_user("Alice")
        state.start_bot(alice.id)
        async with BotApiEmulator(state, faults=plan) as emu:
            client = Bot(
                **emu.bot_kwargs,
                request=quick_request(read_timeout=PATIENT),
                get_updates_request=quick_request(),
            )
            async with client:
                seen = await play(emu, client, alice.id)
            log = [(e.call, e.kind, e.method) for e in emu.fault_log.entries]
            return (
                seen,
                log,
                bot_texts(state, alice.id),
            )

    first, again = await run(), await run()
    assert first == again
    seen, log, _ = first
    assert {"ok", "NetworkError"} <= set(seen)
    assert {kind for _, kind, _ in log} == {ERROR_500, RESET, RESET_AFTER, SLOW}
    assert seen.count("NetworkError") == len([e for e in log if e[1] != SLOW])
    # and a different seed gives different faults for the same calls
    emulator.faults = Faults(**{**plan.to_json(), "seed": 2025})
    assert (await play(emulator, quick_bot, people.alice.id)) != seen


# -- latency --------------------------------------------------------------------------------------


@pytest.mark.slow  # 4 s of latency waited out; test_latency_applies_to_every_method stays fast
async def test_latency_delays_calls_side_by_side_not_in_a_queue(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    # 3 s: on a loaded machine the ten calls may take more than a second to all arrive
    emulator.faults = Faults(latency_ms=3000.0)
    emulator.max_in_flight = emulator.max_delayed = 0
    calls = [
        quick_bot.send_chat_action(people.alice.id, "typing", read_timeout=15.0) for _ in range(10)
    ]
    assert await asyncio.gather(*calls) == [True] * 10
    # all ten were in the emulator at once, and all ten waited out their latency at once
    assert (emulator.max_in_flight, emulator.max_delayed) == (10, 10)
    assert (emulator.in_flight, emulator.delayed) == (0, 0)
    assert emulator.fault_log.delays == [3.0] * 10
    # one after the other, only one is ever in flight
    emulator.faults = Faults(latency_ms=400.0)
    emulator.max_in_flight = emulator.max_delayed = 0
    for _ in range(2):
        await quick_bot.send_chat_action(people.alice.id, "typing", read_timeout=5.0)
    assert (emulator.max_in_flight, emulator.max_delayed) == (1, 1)


async def test_latency_applies_to_every_method(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = Faults(latency_ms=1.0, jitter_ms=1.0, seed=8)
    await quick_bot.get_me()
    await quick_bot.send_message(people.alice.id, "hi")
    await quick_bot.get_updates(timeout=0)
    assert len(emulator.fault_log.delays) == 3
    assert all(0.0 <= d <= 0.002 for d in emulator.fault_log.delays)
    assert emulator.fault_log.entries == []


# -- forced faults and counters -------------------------------------------------------------------


async def test_forced_faults_hit_the_calls_named_and_are_counted(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    group, alice = people.group.id, people.alice.id
    emulator.force_fault(ERROR_500, method="sendMessage", chat_id=group, times=2)
    emulator.force_fault(RESET_AFTER, method="editMessageText")
    with pytest.raises(ValueError, match="unknown fault kind"):
        emulator.force_fault("meteor")
    assert (await quick_bot.send_message(alice, "private")).text == "private"
    for _ in range(2):
        with pytest.raises(NetworkError):
            await quick_bot.send_message(group, "lost")
    board = await quick_bot.send_message(group, "board")
    with pytest.raises(NetworkError):
        await quick_bot.edit_message_text("board 2", group, board.message_id)
    assert await quick_bot.edit_message_text("board 3", group, board.message_id)
    assert emulator.forced_faults == []
    log: FaultLog = emulator.fault_log
    assert log.by_kind == {ERROR_500: 2, RESET_AFTER: 1}
    assert log.by_method == {"sendMessage": 2, "editMessageText": 1}
    assert log.count(ERROR_500, "sendmessage") == 2 and log.count(method="editMessageText") == 1
    assert [(e.method, e.message_id) for e in log.carried_out()] == [
        ("editMessageText", board.message_id)
    ]
    log.clear()
    assert (log.entries, log.by_kind, log.calls) == ([], {}, 0)


# -- the control endpoints ------------------------------------------------------------------------


async def test_faults_over_the_control_endpoints(
    emulator: BotApiEmulator, quick_bot: Bot, control: Control, people: People
) -> None:
    status, reply = await control("GET", "/faults")
    assert status == 200 and reply["result"]["faults"] == Faults().to_json()
    assert reply["result"]["log"]["entries"] == []

    plan = {
        "seed": 5,
        "share": 1.0,
        "kinds": {"error_500": 1},
        "methods": ["editMessageText"],
        "hang_seconds": HANG_SECONDS,
    }
    status, reply = await control("POST", "/faults", plan)
    assert status == 200
    expected = Faults(
        seed=5,
        share=1.0,
        kinds={ERROR_500: 1.0},
        methods={"editMessageText"},
        hang_seconds=HANG_SECONDS,
    )
    assert emulator.faults == expected
    assert reply["result"]["faults"] == expected.to_json()
    assert reply["result"]["affected_methods"] == ["editMessageText"]

    status, reply = await control(
        "POST",
        "/faults/force",
        {"kind": "timeout_after", "method": "sendMessage", "chat_id": people.alice.id},
    )
    assert status == 200
    assert reply["result"]["forced"] == [
        {"kind": "timeout_after", "method": "sendMessage", "chat_id": people.alice.id, "times": 1}
    ]
    with pytest.raises(TimedOut):
        await quick_bot.send_message(people.alice.id, "forced", read_timeout=CLIENT_TIMEOUT)
    await carried_out(emulator, 1)
    status, reply = await control("GET", "/faults")
    log = reply["result"]["log"]
    assert reply["result"]["forced"] == []
    assert log["by_kind"] == {"timeout_after": 1} and log["by_method"] == {"sendMessage": 1}
    (entry,) = log["entries"]
    sent = last_from_bot(emulator.state, people.alice.id)
    assert (entry["carried_out"], entry["message_id"], entry["chat_id"], entry["forced"]) == (
        True,
        sent.message_id,
        people.alice.id,
        True,
    )

    for body, error in [
        ({"share": 2}, "share must be between 0 and 1"),
        ({"kinds": {"flood": 1}}, "unknown fault kinds"),
        ({"methods": "sendMessage"}, "methods must be a list of method names"),
        ({"shares": 1}, "unknown fault settings"),
    ]:
        status, reply = await control("POST", "/faults", body)
        assert status == 400 and error in reply["error"], reply
    status, reply = await control("POST", "/faults/force", {"kind": "meteor"})
    assert status == 400 and "unknown fault kind" in reply["error"]
    assert emulator.faults == expected  # a refused plan changes nothing

    status, reply = await control("DELETE", "/faults/log")
    assert status == 200 and reply["result"]["log"]["entries"] == []
    status, reply = await control("POST", "/faults", {})
    assert status == 200 and emulator.faults == Faults()


async def test_a_forced_fault_without_a_method_skips_setup_and_polling_calls(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.force_fault(ERROR_500)
    assert (await quick_bot.get_me()).is_bot
    assert await quick_bot.get_updates(timeout=0) is not None
    with pytest.raises(NetworkError):
        await quick_bot.send_chat_action(people.alice.id, "typing")
    # a method named explicitly is faulted even when the plan leaves it alone
    emulator.force_fault(RESET, method="getMe")
    with pytest.raises(NetworkError):
        await quick_bot.get_me()
    assert [(e.kind, e.method) for e in emulator.fault_log.entries] == [
        (ERROR_500, "sendChatAction"),
        (RESET, "getMe"),
    ]


async def test_an_upload_bandwidth_delays_each_call_by_its_size(
    emulator: BotApiEmulator, quick_bot: Bot, people: People
) -> None:
    emulator.faults = Faults(upload_kbps=800.0)  # 100 KB a second
    assert emulator.faults.active and Faults.from_json(emulator.faults.to_json()) == emulator.faults
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.effect_noise((200, 200), 64).save(out, "PNG")  # noise: it does not compress
    picture = out.getvalue()
    await quick_bot.send_photo(people.alice.id, picture, read_timeout=5.0)
    await quick_bot.send_message(people.alice.id, "hi")
    photo, text = emulator.fault_log.uploads
    assert photo >= len(picture) / 100_000 > 10 * text
