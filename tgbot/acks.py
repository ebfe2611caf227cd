"""Webhook updates acknowledged only once handled, so that Telegram's redelivery covers a crash.

The webhook answers 200 when `HandleThenAnswer` returns and 500 when it raises. It returns once
the update is handled and what it decided is saved (its announcements owed in Redis, delivered
by this process, in a task of its own that the update does not wait for (`tgbot.detached`), or
by the next sweep), at once for an update some process already handled, and
once a tap was told the bot is busy because Redis is away (as in long polling: the player taps
again; a command then gets no reply). It raises while another process is handling the same
update (Telegram sent it again meanwhile), so that Telegram delivers it again later.

A process killed in the middle never answers; its hold on the update expires (`dedupe.HOLD_MS`),
and Telegram's redelivery is handled by whichever process gets it. A live process renews its hold
while it handles the update (every third of the hold), so a slow update is never handled twice.
Updates of one chat keep their order through the application's update processor
(`tgbot.updates`), as in long polling.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Update
from telegram.ext import Application

from . import ahead
from .ahead import Reads
from .callback import decode
from .dedupe import Begun, UpdateLedger
from .detached import handling_update
from .game_ids import is_game_id
from .trips import riding

log = logging.getLogger(__name__)


class NotHandled(RuntimeError):
    """The update was not handled now; Telegram should deliver it again."""


class HandleThenAnswer:
    """The webhook's `accept`: handle one update through the application, then return."""

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        ledger: UpdateLedger,
        *,
        unavailable: Callable[[BaseException], bool],
        busy: Callable[[Update, BaseException], Awaitable[None]],
        passing: set[int],
        reads: Callable[..., Reads] | None = None,
    ) -> None:
        self.app = app
        self.reads = reads  # the store's reads ahead (`RedisStore.reads`), if any
        self.ledger = ledger
        self.unavailable = unavailable
        self.busy = busy
        self.passing = passing  # update ids whose handling met a passing failure
        self.handled = 0

    async def __call__(self, update: Update) -> None:
        """Handle `update` once across processes; NotHandled while another process has it."""
        uid = update.update_id
        ahead.start()
        try:
            begun = await self.ledger.begin(uid, self._reads_of(update))
        except Exception as err:
            if not self.unavailable(err):
                raise
            await self.busy(update, err)  # told so, like any update while Redis is away
            return
        if begun is Begun.DONE:
            log.info("update %s was already handled", uid)
            return
        if begun is Begun.HELD:
            raise NotHandled(f"update {uid} is being handled by another process")
        # What the handling leaves to write without an answer (a delivery's lease given back)
        # goes with the update's mark (`trips.riding`).
        async with riding():
            await self._handle(update, uid)

    async def _handle(self, update: Update, uid: int) -> None:
        """Handle an update this process began, then mark it handled (or let go of it)."""
        # The hold is renewed from a third of it on; most updates are handled long before, so
        # only a timer is armed (a task that sleeps cost every update a task and its wake-up).
        keepers: list[asyncio.Task[None]] = []
        pause = self.ledger.hold_ms / 3000
        timer = asyncio.get_running_loop().call_later(
            pause, lambda: keepers.append(asyncio.create_task(self._keep(uid, pause)))
        )
        try:
            with handling_update():  # its deliveries go on their own (`detached`), if so set
                coroutine: Awaitable[Any] = self.app.process_update(update)
                await self.app.update_processor.process_update(update, coroutine)
        except BaseException:
            await self._let_go(uid)
            raise
        finally:
            timer.cancel()
            for keeper in keepers:
                keeper.cancel()
        if uid in self.passing:  # Redis went away: told so, not handled; it may come again
            self.passing.discard(uid)
            await self._let_go(uid)
            return
        self.handled += 1
        try:
            await self.ledger.done(uid)
        except Exception as err:  # handled and answered 200: Telegram will not send it again
            if not self.unavailable(err):
                raise
            log.warning("update %s handled, but Redis went away before it was marked", uid)

    def _reads_of(self, update: Update) -> Reads | None:
        """What the update's handler will read, made in the ledger's trip: the sender's
        language, and a tap's game."""
        if self.reads is None:
            return None
        user = update.effective_user
        query = update.callback_query
        game = getattr(decode(query.data), "game", None) if query is not None else None
        return self.reads(
            user_id=None if user is None else user.id,
            game_id=game if isinstance(game, str) and is_game_id(game) else None,
        )

    async def _keep(self, update_id: int, pause: float) -> None:
        """Renew the hold on an update while it is handled: now, then every `pause` seconds."""
        while True:
            try:
                if not await self.ledger.renew(update_id):
                    log.warning("update %s: its hold was lost while handling it", update_id)
                    return
            except Exception:  # Redis away: try again at the next beat
                log.debug("could not renew the hold on update %s", update_id)
            await asyncio.sleep(pause)

    async def _let_go(self, update_id: int) -> None:
        try:
            await self.ledger.release(update_id)
        except Exception:  # Redis away: the hold expires by itself
            log.debug("could not release update %s", update_id)
