"""Fixtures: an emulator on a free port, a real PTB `Bot` pointed at it, and a few people."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from telegram import Bot

from emulator import EmulatorState, ManualClock
from emulator.server import BotApiEmulator
from tests.emulator.support import People, RawCall, quick_request
from tgbot.http_client import AiohttpRequest
from tgbot.memory_ports import MemoryBudget, MemoryPosts
from tgbot.telegram_io import Sender


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def state(clock: ManualClock) -> EmulatorState:
    return EmulatorState(clock=clock)


@pytest.fixture
async def emulator(state: EmulatorState) -> AsyncIterator[BotApiEmulator]:
    async with BotApiEmulator(state, webhook_retry_delay=0.01) as emu:
        yield emu


@pytest.fixture
async def bot(emulator: BotApiEmulator) -> AsyncIterator[Bot]:
    client = Bot(
        **emulator.bot_kwargs, request=quick_request(), get_updates_request=quick_request()
    )
    async with client:
        yield client


@pytest.fixture
def people(state: EmulatorState) -> People:
    alice = state.create_user("Alice", username="alice")
    bob = state.create_user("Bob", username="bob", language_code="ko")
    carol = state.create_user("Carol")
    state.start_bot(alice.id)
    state.start_bot(bob.id)
    group = state.create_group("Miners", creator=alice.id, members=[bob.id])
    return People(alice, bob, carol, group)


@pytest.fixture
async def raw(emulator: BotApiEmulator) -> AsyncIterator[RawCall]:
    """Call a Bot API method with a JSON body; returns the HTTP status and the parsed body."""
    async with aiohttp.ClientSession() as session:

        async def call(method: str, *, token: str | None = None, **params: Any) -> Any:
            url = f"{emulator.url}/bot{token or emulator.state.token}/{method}"
            async with session.post(url, json=params) as response:
                return response.status, await response.json()

        yield call


async def bot_sender(emulator: BotApiEmulator, read_timeout: float) -> AsyncIterator[Sender]:
    """The bot's sender (in-memory budgets and ledger) over a PTB bot on the bot's own HTTP
    client that waits `read_timeout` seconds for an answer."""
    bot = Bot(
        **emulator.bot_kwargs,
        request=AiohttpRequest(read_timeout=read_timeout),
        get_updates_request=quick_request(),
    )
    async with bot:
        yield Sender(bot, MemoryBudget(), emulator.state.now, MemoryPosts())


@pytest.fixture
async def sender(emulator: BotApiEmulator) -> AsyncIterator[Sender]:
    """The bot's sender over a PTB bot that waits long for an answer: a loaded machine (CI runs
    four workers) can take over a second to carry out a photo, and these tests are not about
    giving up."""
    async for made in bot_sender(emulator, read_timeout=15.0):
        yield made
