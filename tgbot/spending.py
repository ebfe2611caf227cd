"""What a send takes from the bot's and the group's budgets, and what a flood wait holds."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from . import metrics
from .bot_budget import (
    BOOK_AHEAD,
    BOOK_AHEAD_OVERDUE,
    BOOK_AHEAD_URGENT,
    is_overdue,
    is_reply,
    is_urgent,
)
from .ports import BotBudget, Budget, Fate, Sent

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Spending:
    """The budgets of one sender: a group send takes from the bot-wide budget first, then the
    group's; a private send from the bot-wide one only (a player's own screens may use the
    reserve that group posts leave, `bot_budget.urgency`)."""

    budget: Budget | None
    bot_budget: BotBudget | None
    clock: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # until a booked token comes

    async def bot(self, chat_id: int) -> Sent | None:
        """Take one send from the bot-wide budget (a private chat's is urgent unless marked
        otherwise, `bot_budget.urgency`), waiting for it if it comes within BOOK_AHEAD (an
        urgent one BOOK_AHEAD_URGENT, an overdue one BOOK_AHEAD_OVERDUE); a RETRY outcome when
        it is spent further ahead."""
        if self.bot_budget is None:
            return None
        if is_reply(chat_id):  # counted, never held: the person waits for this screen
            await self.charge()
            return None
        urgent = is_urgent(chat_id)
        ahead = BOOK_AHEAD_URGENT if urgent else BOOK_AHEAD
        if is_overdue():
            ahead = BOOK_AHEAD_OVERDUE
        booked, wait = await self.bot_budget.book(self.clock(), urgent=urgent, ahead=ahead)
        if booked:
            if wait > 0:  # its token comes within BOOK_AHEAD: wait for it, then send
                await self.sleep(wait)
            return None
        log.info("chat %s: the bot's budget is spent for %.2f s", chat_id, wait)
        metrics.BUDGET_WAITS.labels("bot").inc()
        return Sent(Fate.RETRY, retry_after=wait, detail="the bot's budget is spent")

    async def charge(self) -> None:
        """Count one send the bot-wide budget never holds back (it answers a person's own tap:
        their next screen, an ephemeral panel), `BotBudget.charge`."""
        if self.bot_budget is not None:
            await self.bot_budget.charge(self.clock())

    async def group(self, chat_id: int) -> Sent | None:
        """Take one send from the bot's budget, then the group's; a RETRY outcome when one is
        spent (the bot's first: a token of it wasted costs a thirtieth of a second, not three)."""
        bot = await self.bot(chat_id)
        if bot is not None or self.budget is None:
            return bot
        wait = await self.budget.take(chat_id, self.clock())
        if wait > 0:
            log.info("group %s: budget spent for %.0f s", chat_id, wait)
            metrics.BUDGET_WAITS.labels("group").inc()
            return Sent(Fate.RETRY, retry_after=wait, detail="the group's budget is spent")
        return None

    async def hold(self, chat_id: int, sent: Sent) -> None:
        """A flood wait Telegram answered holds the group's budget (a group's chat), or the
        bot-wide one (a private chat's), for every process."""
        wait = sent.retry_after
        if sent.fate is not Fate.RETRY or wait is None:
            return
        if chat_id < 0 and self.budget:
            await self.budget.hold(chat_id, self.clock(), wait)
        elif chat_id > 0 and self.bot_budget:
            await self.bot_budget.hold(self.clock(), wait)
