"""What a send takes from the bot's and the group's budgets, and what a flood wait holds.

A send that may leave a copy behind (a new message) first notes the chat's floor (the highest
message id of the sent-message ledger, `usecases.reconcile`); `floor_before` books the send's
token of the bot-wide budget in the same round trip, and the send takes that booking instead of
booking again (`Spending.bot`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextvars import ContextVar
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
from .bot_budget import BotBudget as RedisBotBudget
from .ports import BotBudget, Budget, Fate, Posts, Sent
from .posts import RedisPosts
from .trips import Trip

log = logging.getLogger(__name__)

# Bookings made with a send's floor, by chat, for the send that follows in this task: (booked,
# wait, when). One is taken by the next send to its chat, or ignored once BOOKED_FOR old.
_BOOKED: ContextVar[dict[int, tuple[bool, float, float]] | None] = ContextVar(
    "booked", default=None
)
BOOKED_FOR = 1.0  # seconds a booking made with a floor waits for its send


@dataclass(slots=True)
class Spending:
    """The budgets of one sender: a group send takes from the bot-wide budget first, then the
    group's; a private send from the bot-wide one only (a player's own screens may use the
    reserve that group posts leave, `bot_budget.urgency`)."""

    budget: Budget | None
    bot_budget: BotBudget | None
    clock: Callable[[], float]

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
        urgent, ahead = _terms(chat_id)
        early = _booked(chat_id, self.clock())
        if early is not None:
            booked, wait = early
        else:
            booked, wait = await self.bot_budget.book(self.clock(), urgent=urgent, ahead=ahead)
        if booked:
            if wait > 0:  # its token comes within BOOK_AHEAD: wait for it, then send
                await asyncio.sleep(wait)
            return None
        log.info("chat %s: the bot's budget is spent for %.2f s", chat_id, wait)
        metrics.BUDGET_WAITS.labels("bot").inc()
        return Sent(Fate.RETRY, retry_after=wait, detail="the bot's budget is spent")

    async def floor_before(self, posts: Posts, chat_id: int) -> int:
        """The chat's highest recorded message id, noted before a send to it; with the send's
        booking of the bot-wide budget in the same round trip when both are in Redis (the
        send then takes it, `bot`)."""
        budget = self.bot_budget
        same = isinstance(posts, RedisPosts) and isinstance(budget, RedisBotBudget)
        if not same or is_reply(chat_id):
            return await posts.latest(chat_id)
        assert isinstance(posts, RedisPosts) and isinstance(budget, RedisBotBudget)
        urgent, ahead = _terms(chat_id)
        now = self.clock()
        trip = Trip(posts.redis)
        floor = posts.latest_in(trip, chat_id)
        booking = budget.book_in(trip, now, urgent=urgent, ahead=ahead)
        answers = await trip.run()
        booked = _BOOKED.get()
        if booked is None:
            booked = {}
            _BOOKED.set(booked)
        booked[chat_id] = (*booking(answers), now)
        return floor(answers)

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


def _terms(chat_id: int) -> tuple[bool, float]:
    """Whether a send to the chat is urgent, and how far ahead it may book its token."""
    urgent = is_urgent(chat_id)
    ahead = BOOK_AHEAD_URGENT if urgent else BOOK_AHEAD
    if is_overdue():
        ahead = BOOK_AHEAD_OVERDUE
    return urgent, ahead


def _booked(chat_id: int, now: float) -> tuple[bool, float] | None:
    """The booking made with the floor of this send (taken once), its wait counted from now;
    None if there is none, or it is too old to be this send's."""
    booked = _BOOKED.get()
    early = None if booked is None else booked.pop(chat_id, None)
    if early is None or now - early[2] > BOOKED_FOR:
        return None
    taken, wait, at = early
    left = wait - (now - at)
    if taken:
        return True, max(0.0, left)
    return None if left <= 0 else (False, left)  # (its token may have come by now: book again)
