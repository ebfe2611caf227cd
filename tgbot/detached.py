"""Deliveries detached from the webhook update that asked for them (webhook mode).

A webhook update is held in the update ledger (`dedupe`) and its POST stays open while it is
handled (`acks.HandleThenAnswer`). Delivering a move (a board, hands, texts: many Bot API calls,
each behind the bot's and the group's budgets) inside that handling kept both open for seconds
under load: a renewal of the hold came late, the hold was lost, and Telegram's second delivery
of the update could have been handled again.

What an update decided is saved with what it owes (the record's outbox) before it asks for a
delivery, so the update is done once it asked: while an update is handled (`handling_update`),
`Detacher.ask` starts the game's delivery as a task of its own and returns. The task runs in a
fresh context (it does not ride with the update's trips, `trips.riding`, nor take its reads
ahead, `ahead`), one per game at a time: asked again while it runs, it runs once more after it
ends. At the application's stop the tasks are cancelled: what they had not sent stays owed, and
the sweeper (of this process or the next) delivers it. Errors are logged.

Outside an update's handling (the sweeper, the clock, long polling) a delivery runs inline.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Awaitable, Callable, Iterator

from . import logs
from .game_ids import GameId

log = logging.getLogger(__name__)

_HANDLING: contextvars.ContextVar[bool] = contextvars.ContextVar("handling_update", default=False)
STOP_TICK = 0.2  # seconds between two cancellations of a delivery that goes on
STOP_TRIES = 25


@contextlib.contextmanager
def handling_update() -> Iterator[None]:
    """Deliveries asked for inside are detached from the caller (see `Detacher`)."""
    token = _HANDLING.set(True)
    try:
        yield
    finally:
        _HANDLING.reset(token)


def is_handling_update() -> bool:
    """Whether an update is being handled in the running task."""
    return _HANDLING.get()


class Detacher:
    """Runs games' deliveries as tasks of their own: one per game at a time, coalesced."""

    def __init__(
        self,
        deliver: Callable[[GameId], Awaitable[None]],
        *,
        unavailable: Callable[[BaseException], bool] = lambda _err: False,
    ) -> None:
        self._deliver = deliver
        self._unavailable = unavailable  # a passing failure (Redis away): one line, no traceback
        self._tasks: dict[GameId, asyncio.Task[None]] = {}
        self._again: set[GameId] = set()  # asked for again while their delivery ran
        self._idle: asyncio.Event | None = None

    @property
    def running(self) -> int:
        """How many games' deliveries are running now."""
        return len(self._tasks)

    def ask(self, gid: GameId) -> None:
        """Deliver what the game owes, in a task of its own (or once more after the one that
        runs now ends)."""
        if gid in self._tasks:
            self._again.add(gid)
            return
        self._idle_event().clear()
        # A fresh context: nothing of the update's handling (its riding trips, its reads ahead,
        # its being handled) goes with the delivery.
        task = asyncio.create_task(self._run(gid), context=contextvars.Context())
        self._tasks[gid] = task

    async def _run(self, gid: GameId) -> None:
        try:
            while True:
                self._again.discard(gid)
                try:
                    await self._deliver(gid)
                except Exception as err:
                    with logs.about(gid):
                        if self._unavailable(err):
                            log.warning("game %s: delivery paused, Redis is away; still owed", gid)
                        else:
                            log.exception("game %s: delivery failed; what it owes stays owed", gid)
                if gid not in self._again:
                    return
        finally:
            self._tasks.pop(gid, None)
            self._again.discard(gid)
            if not self._tasks:
                self._idle_event().set()

    def _idle_event(self) -> asyncio.Event:
        if self._idle is None:
            self._idle = asyncio.Event()
            self._idle.set()
        return self._idle

    async def idle(self) -> None:
        """Until no delivery runs (those asked for meanwhile included)."""
        while self._tasks:
            await self._idle_event().wait()

    async def stop(self) -> None:
        """Cancel the deliveries that run and wait until they ended (what they had not sent
        stays owed). A cancellation swallowed on the way is repeated, a few seconds at most."""
        self._again.clear()
        for _ in range(STOP_TRIES):
            tasks = set(self._tasks.values())
            if not tasks:
                return
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks, timeout=STOP_TICK)
        seconds = STOP_TRIES * STOP_TICK
        log.warning("%d deliveries did not stop within %.0f s", self.running, seconds)
