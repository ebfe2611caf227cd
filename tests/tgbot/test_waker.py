"""The sweeper's waker: a wake-up due now or soon ends its nap before the tick."""

from __future__ import annotations

import asyncio

from tgbot import app
from tgbot.app import Waker


async def test_a_wake_now_ends_the_nap_at_once() -> None:
    waker = Waker()
    waker(0)
    await asyncio.wait_for(waker.nap(), 0.5)  # not the 2 s tick
    assert not waker.event.is_set(), "the wake-up was used"


async def test_a_wake_later_ends_the_nap_then() -> None:
    waker = Waker()
    loop = asyncio.get_running_loop()
    started = loop.time()
    waker(0.2)
    await asyncio.wait_for(waker.nap(), 1.5)
    assert loop.time() - started >= 0.19  # not before it was due


async def test_without_a_wake_the_nap_lasts_the_tick() -> None:
    waker = Waker()
    naps = asyncio.create_task(waker.nap())
    await asyncio.sleep(0.1)
    assert not naps.done(), "a nap with no wake-up lasts until the tick"
    assert app.SWEEP_SECONDS > 0.1
    waker(0)
    await asyncio.wait_for(naps, 0.5)
