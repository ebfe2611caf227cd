"""Flood control for the whole bot: Telegram's 30 messages a second, one token bucket in Redis.

Every bot process takes from the same bucket (one HASH key, one slot, one script), beside each
group's own budget (`tgbot.budget`). A few tokens are a reserve that only urgent sends may take:
a player's private messages go before group posts when the bot is busy, and a chat refused
AGED_AFTER times in a row goes first from then on, so that nothing waits for ever. Private
messages are urgent unless the caller says otherwise (`urgency`): delivery marks the live
messages of players who are not to move as not urgent, so the player to move (and the player
whose tap is being answered) goes first. A send whose token comes within BOOK_AHEAD seconds
books it and waits that long; a bucket spent further ahead says how long to wait, and the
caller returns the usual retry outcome, so the outbox keeps the item owed and nothing sleeps
long in a handler.

What counts is what Telegram's limit counts, messages: sends and edits, ephemeral ones (Bot API
10.2: a message, if one only its receiver sees) included. A person's own next screen and an
ephemeral panel, which answer their tap, are counted (`charge`) but never held back. Answers to
button taps (a toast, not a message in any chat) and deletions (nothing sent) do not count.

A charge needs no answer, so it makes no round trip of its own: the process counts it and the
next take carries it to the bucket before taking (in a busy bot that is within milliseconds);
charges kept longer than CHARGES_KEPT are sent with the next charge. Counted late, a charge
takes from a bucket that may have refilled to its top meanwhile: never fewer tokens than if it
had been counted at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .keys import Keys
from .redis_client import RedisClient

BOT_MESSAGES_PER_SECOND = 30.0
BURST = 30.0  # the bucket's size: at most a second's worth at once
RESERVE = 5.0  # tokens only urgent sends may take
# A send whose token comes within this many seconds books it and waits for it, instead of
# being refused (then struck off as waiting, saved, and tried again by a later delivery run or
# sweep: with the budget spent, most of a busy bot's sends went round that loop, and the
# tokens that came meanwhile went unused). Urgent sends keep their reserve's lead.
BOOK_AHEAD = 0.5
BOOK_AHEAD_URGENT = 0.75  # an urgent send books further ahead (below a second: a bucket of
# thirty charged below empty is a second deep)
BOOK_AHEAD_OVERDUE = 5.0  # a chat refused AGED_AFTER times books whatever the queue before it
# A chat whose sends the budget refused this many times in a row is urgent from then on (until
# one goes through): with more to send than the budget allows, the sends that are not urgent
# were refused again at every try (a board and a mover's redraw waited more than a minute).
AGED_AFTER = 2
CHARGES_KEPT = 0.2  # seconds a process keeps charges for its next take before sending them

# KEYS: the bucket. ARGV: now, rate, size, the tokens that must stay after this take, the
# seconds a send may book ahead, the charges counted before it (each takes a token unless the
# bucket is at minus its size). A send that would have to wait no longer than that books its
# token now (the bucket goes below what must stay) and waits before it is sent; one that would
# wait longer takes nothing. Answers the wait, negative when the token was not taken.
# A clock behind the bucket's (another process's) adds nothing and takes as usual.
_TAKE = """
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local size = tonumber(ARGV[3])
local keep = tonumber(ARGV[4])
local ahead = tonumber(ARGV[5] or '0')
local charges = tonumber(ARGV[6] or '0')
local got = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(got[1]) or size
local at = tonumber(got[2]) or now
if now > at then
  tokens = math.min(size, tokens + (now - at) * rate)
  at = now
end
for _ = 1, charges do
  if tokens - 1 >= -size then tokens = tokens - 1 end
end
local wait = 0
if tokens - 1 < keep then
  wait = (keep + 1 - tokens) / rate
end
local taken = wait <= ahead
if taken then
  tokens = tokens - 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(at))
redis.call('EXPIRE', KEYS[1], 60)
if taken then return tostring(wait) end
return tostring(-wait)
"""

# KEYS: the bucket. ARGV: now, rate, seconds: empty it so that it refills `seconds` from now.
_HOLD = """
local tokens = -tonumber(ARGV[2]) * tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', ARGV[1])
redis.call('EXPIRE', KEYS[1], 60 + math.ceil(tonumber(ARGV[3])))
return 1
"""


_URGENT: ContextVar[bool | None] = ContextVar("urgent", default=None)


@contextmanager
def urgency(urgent: bool) -> Iterator[None]:
    """Private sends made inside are urgent (may take the reserve) or not."""
    token = _URGENT.set(urgent)
    try:
        yield
    finally:
        _URGENT.reset(token)


_OVERDUE: ContextVar[bool] = ContextVar("overdue", default=False)


@contextmanager
def overdue() -> Iterator[None]:
    """Sends made inside were refused AGED_AFTER times in a row: urgent, and they book their
    token however far ahead it is (up to BOOK_AHEAD_OVERDUE) and wait for it, so that sends
    that are never held back (a person's own screens) cannot keep them out for ever."""
    token = _OVERDUE.set(True)
    urgent = _URGENT.set(True)
    try:
        yield
    finally:
        _URGENT.reset(urgent)
        _OVERDUE.reset(token)


def is_overdue() -> bool:
    """Whether the sends made now are overdue (see `overdue`)."""
    return _OVERDUE.get()


_REPLY: ContextVar[bool] = ContextVar("reply", default=False)


@contextmanager
def replying() -> Iterator[None]:
    """Private sends made inside answer a person's own tap (the next screen of their menu):
    they are not held back by the bot-wide budget, as the tap's answer is not (the person is
    looking at that message, waiting for it)."""
    token = _REPLY.set(True)
    try:
        yield
    finally:
        _REPLY.reset(token)


def is_reply(chat_id: int) -> bool:
    """Whether a send answers a person's own tap in their private chat (see `replying`)."""
    return chat_id > 0 and _REPLY.get()


def is_urgent(chat_id: int) -> bool:
    """Whether a send to this chat may take the reserve: as marked (`urgency`), else a private
    chat's and not a group's."""
    marked = _URGENT.get()
    return chat_id > 0 if marked is None else marked


class BotBudget:
    """The bot-wide send budget shared by every process."""

    def __init__(
        self,
        redis: RedisClient,
        *,
        prefix: str,
        rate: float = BOT_MESSAGES_PER_SECOND,
        size: float = BURST,
        reserve: float = RESERVE,
    ) -> None:
        self.key = Keys(prefix).bot_budget()
        self.rate = rate
        self.size = size
        self.reserve = reserve
        self._take = redis.register_script(_TAKE)
        self._hold = redis.register_script(_HOLD)
        self._charges = 0  # counted here, not in the bucket yet (see the module's docstring)
        self._charged_at = 0.0  # when the oldest of them was counted

    async def take(self, now: float, *, urgent: bool) -> float:
        """Use one send: 0 if allowed now, else seconds to wait (urgent sends may use the
        reserve)."""
        taken, wait = await self.book(now, urgent=urgent, ahead=0.0)
        return 0.0 if taken else wait

    async def book(self, now: float, *, urgent: bool, ahead: float) -> tuple[bool, float]:
        """Use one send, now or within `ahead` seconds: (True, seconds to wait before sending
        it), or (False, seconds until it could go) with nothing taken."""
        keep = 0.0 if urgent else self.reserve
        raw = await self._carrying(now, keep, ahead)
        wait = float(raw.decode() if isinstance(raw, bytes) else str(raw))
        return (False, -wait) if wait < 0 else (True, wait)

    async def charge(self, now: float) -> None:
        """Count one send that is never held back (a person's own next screen, an ephemeral
        panel): the bucket may fall below its reserve and below empty, down to minus its size,
        so that the sends after it wait for what it used. Carried by the next take; sent alone
        once the charges waiting are CHARGES_KEPT old."""
        if not self._charges:
            self._charged_at = now
        self._charges += 1
        if now - self._charged_at >= CHARGES_KEPT:
            self._charges -= 1  # this one is the take
            await self._carrying(now, -self.size, 0.0)

    async def _carrying(self, now: float, keep: float, ahead: float) -> bytes | str:
        """One take, with the charges counted so far applied before it."""
        charges, self._charges = self._charges, 0
        args = [now, self.rate, self.size, keep, ahead, charges]
        try:
            raw: bytes | str = await self._take(keys=[self.key], args=args)
        except BaseException:
            self._charges += charges  # not counted: the next take carries them
            raise
        return raw

    async def hold(self, now: float, seconds: float) -> None:
        """Telegram said 429 outside a group: nothing is sent for `seconds` (its retry_after)."""
        await self._hold(keys=[self.key], args=[now, self.rate, seconds])
