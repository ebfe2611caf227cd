"""The sweeper's waker: a wake-up due now or soon ends its nap before the tick."""

from __future__ import annotations

import asyncio

import pytest

from tgbot import app
from tgbot.app import Waker

TICK = 30.0  # the sweep interval here (2 s in production): far above any stall of a loaded CI
PATIENT = 10.0  # how long a nap that ends early may take to end, well below TICK


@pytest.fixture(autouse=True)
def long_tick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tick long enough that a nap ended by its wake-up cannot be mistaken for one ended by
    the tick, however slow the machine."""
    monkeypatch.setattr(app, "SWEEP_SECONDS", TICK)


async def test_a_wake_now_ends_the_nap_at_once() -> None:
    waker = Waker()
    waker(0)
    await asyncio.wait_for(waker.nap(), PATIENT)  # not the tick
    assert not waker.event.is_set(), "the wake-up was used"


async def test_a_wake_later_ends_the_nap_then() -> None:
    waker = Waker()
    loop = asyncio.get_running_loop()
    started = loop.time()
    waker(0.2)
    await asyncio.wait_for(waker.nap(), PATIENT)
    assert loop.time() - started >= 0.19  # not before it was due


async def test_without_a_wake_the_nap_lasts_the_tick() -> None:
    waker = Waker()
    naps = asyncio.create_task(waker.nap())
    await asyncio.sleep(0.1)
    assert not naps.done(), "a nap with no wake-up lasts until the tick"
    waker(0)
    await asyncio.wait_for(naps, PATIENT)
