"""The sweeper ends when the application stops, even when a sweep swallowed the cancellation."""

from __future__ import annotations

import asyncio
from typing import Any

from tgbot import app as app_module


class Stubborn:
    """A service whose sweep eats the first cancellation, as a library on the way once did."""

    def __init__(self) -> None:
        self.inside = asyncio.Event()
        self.swallowed = 0

    async def sweep(self) -> None:
        """Wait inside the sweep; a cancellation here is caught and forgotten."""
        self.inside.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.swallowed += 1


class App:
    """What `_post_stop` reads of an Application."""

    def __init__(self, sweeper: asyncio.Task[None]) -> None:
        self.bot_data: dict[str, Any] = {"sweeper": sweeper}


async def test_a_cancellation_swallowed_mid_sweep_does_not_keep_the_sweeper_running() -> None:
    service = Stubborn()
    task = asyncio.create_task(app_module._sweep_forever(service, app_module.Waker()))  # type: ignore[arg-type]
    await service.inside.wait()
    app = App(task)
    await app_module._post_stop(app)  # type: ignore[arg-type]
    assert service.swallowed == 1, "the first cancellation landed in the sweep"
    assert task.done() and task.cancelled()
    assert "sweeper" not in app.bot_data
