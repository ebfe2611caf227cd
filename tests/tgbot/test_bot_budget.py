"""The bot-wide budget (issue 18): Telegram's 30 messages a second as one token bucket in Redis,
shared by every process, with a reserve for a player's private messages; on a real Redis."""

from __future__ import annotations

import asyncio

import pytest

from tgbot.bot_budget import BOOK_AHEAD_URGENT, CHARGES_KEPT, BotBudget, is_urgent, overdue
from tgbot.ports import Fate
from tgbot.redis_client import RedisClient
from tgbot.spending import Spending


async def test_thirty_sends_a_second_for_the_whole_bot(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """Sixty urgent sends at once through two processes' budgets: exactly thirty go now; the
    bucket refills at thirty a second."""
    one = BotBudget(redis_client, prefix=key_prefix)
    two = BotBudget(redis_client, prefix=key_prefix)  # another process, the same key
    await redis_client.exists(one.key)  # redis-py's first concurrent calls to a node can race
    waits = await asyncio.gather(
        *(b.take(1000.0, urgent=True) for _ in range(30) for b in (one, two))
    )
    assert sum(1 for w in waits if w == 0.0) == 30
    late = [w for w in waits if w > 0]
    assert all(abs(w - 1 / 30) < 1e-6 for w in late)  # one token, a thirtieth of a second away
    assert await one.take(1000.1, urgent=True) == 0.0  # 0.1 s refilled three tokens
    assert await two.take(1000.1, urgent=True) == 0.0
    assert await one.take(1000.1, urgent=True) == 0.0
    assert await two.take(1000.1, urgent=True) > 0.0


async def test_group_posts_leave_a_reserve_for_the_player_to_move(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """When the bot is busy, group posts stop five tokens short; private sends take those."""
    budget = BotBudget(redis_client, prefix=key_prefix)
    posts = [await budget.take(50.0, urgent=False) for _ in range(30)]
    assert posts.count(0.0) == 25
    assert all(w > 0 for w in posts[25:])
    screens = [await budget.take(50.0, urgent=True) for _ in range(6)]
    assert screens[:5] == [0.0] * 5 and screens[5] > 0
    # the group waits until six tokens are back (five reserved and its own)
    assert abs(await budget.take(50.0, urgent=False) - 6 / 30) < 1e-6
    assert await budget.take(50.0 + 6 / 30 + 1e-3, urgent=False) == 0.0


async def test_a_429_holds_the_bot_budget_for_retry_after(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """After a private chat's 429 (retry after 2 s) nothing is sent for 2 s, by any process."""
    budget = BotBudget(redis_client, prefix=key_prefix)
    await budget.hold(10.0, 2.0)
    other = BotBudget(redis_client, prefix=key_prefix)
    wait = await other.take(10.5, urgent=True)
    assert 1.5 < wait <= 1.5 + 1 / 30 + 1e-6
    assert await other.take(12.0 + 1 / 30 + 1e-3, urgent=True) == 0.0


async def test_a_process_with_a_clock_behind_takes_without_refilling(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """Clocks of processes differ a little: an earlier `now` adds no tokens and breaks nothing."""
    budget = BotBudget(redis_client, prefix=key_prefix, size=2, reserve=0)
    assert await budget.take(100.0, urgent=False) == 0.0
    assert await budget.take(99.0, urgent=False) == 0.0
    assert await budget.take(99.5, urgent=False) > 0.0
    assert await budget.take(100.1, urgent=False) == 0.0


async def test_a_charge_is_never_refused_and_the_next_sends_wait_for_it(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """Charged sends (a person's own screens) go below empty, down to minus the bucket's size:
    the sends after them wait until the bucket is back above its reserve."""
    budget = BotBudget(redis_client, prefix=key_prefix, rate=10.0, size=3, reserve=1)
    for _ in range(10):  # three from the bucket, three below empty, then no lower
        await budget.charge(5.0)
    assert await budget.take(5.0, urgent=True) == pytest.approx(4 / 10)  # from -3 to 1
    assert await budget.take(5.0, urgent=False) == pytest.approx(5 / 10)  # and the reserve
    assert await budget.take(5.4 + 1e-3, urgent=True) == 0.0


async def test_a_send_books_a_token_that_comes_soon_and_urgent_ones_keep_their_lead(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """Booking ahead (0.35 s here): a token that comes in time is taken now and waited for; one
    further ahead is refused, nothing taken; a non-urgent send stops a reserve short of an
    urgent one (each token a tenth of a second)."""
    budget = BotBudget(redis_client, prefix=key_prefix, rate=10.0, size=2, reserve=1)
    book = budget.book
    assert await book(5.0, urgent=True, ahead=0.35) == (True, 0.0)
    assert await book(5.0, urgent=True, ahead=0.35) == (True, 0.0)  # the bucket is empty
    assert await book(5.0, urgent=True, ahead=0.35) == pytest.approx((True, 0.1))
    assert await book(5.0, urgent=False, ahead=0.35) == pytest.approx((True, 0.3))
    assert await book(5.0, urgent=False, ahead=0.35) == pytest.approx((False, 0.4))
    assert await book(5.0, urgent=True, ahead=0.35) == pytest.approx((True, 0.3))  # its lead
    assert await budget.take(5.0, urgent=True) == pytest.approx(0.4)  # not booked: not taken
    assert await budget.take(5.4 + 1e-3, urgent=True) == 0.0  # three booked, all refilled


async def test_sends_wait_for_the_tokens_they_booked_and_the_rest_are_retried(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """Twenty-five private sends at once (urgent), one token in the bucket, twenty a second:
    the first goes at once, fifteen book the tokens of the next three quarters of a second
    (BOOK_AHEAD_URGENT) and wait for them, nine are told to retry (nothing of theirs taken)."""
    assert BOOK_AHEAD_URGENT == 0.75
    budget = BotBudget(redis_client, prefix=key_prefix, rate=20.0, size=1, reserve=0)
    spending = Spending(None, budget, lambda: 100.0)  # the budget's clock stands still
    await redis_client.exists(budget.key)  # redis-py's first concurrent calls to a node can race
    outcomes = await asyncio.gather(*(spending.bot(1000 + i) for i in range(25)))
    assert sum(1 for o in outcomes if o is None) == 16
    retried = [o for o in outcomes if o is not None]
    assert len(retried) == 9 and all(o.fate is Fate.RETRY for o in retried)
    assert all(o.retry_after == pytest.approx(0.8) for o in retried)


async def test_an_overdue_send_books_its_token_however_deep_the_bucket_is(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """Screens charged below empty leave the bucket a second in debt: an urgent send is refused
    (its token is further than BOOK_AHEAD_URGENT); the same send overdue (refused AGED_AFTER
    times before) books it and waits for it, so that it is not kept out for ever."""
    budget = BotBudget(redis_client, prefix=key_prefix, rate=20.0, size=20, reserve=0)
    spending = Spending(None, budget, lambda: 50.0)
    for _ in range(40):  # twenty from the bucket, twenty below empty
        await budget.charge(50.0)
    refused = await spending.bot(1000)
    assert refused is not None and refused.retry_after == pytest.approx(21 / 20)
    with overdue():
        assert is_urgent(1000) and is_urgent(-1000)  # a group's overdue post is urgent too
        assert await spending.bot(1000) is None  # booked 1.05 s ahead, waited for, sent
    assert await budget.take(50.0, urgent=True) == pytest.approx(22 / 20)  # it took its token


async def test_charges_ride_with_the_next_take_or_go_alone_once_old(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """A charge makes no round trip: the process's next take carries it (another process sees
    it then); charges kept CHARGES_KEPT seconds go with the next charge."""
    budget = BotBudget(redis_client, prefix=key_prefix, rate=10.0, size=5, reserve=0)
    other = BotBudget(redis_client, prefix=key_prefix, rate=10.0, size=5, reserve=0)
    await budget.charge(5.0)
    await budget.charge(5.0)
    assert not await redis_client.exists(budget.key), "counted here, not sent"
    assert await budget.take(5.0, urgent=True) == 0.0  # carried both: 5 - 2 - 1 = 2 left
    assert await other.take(5.0, urgent=True) == 0.0  # 1 left
    assert await other.take(5.0, urgent=True) == 0.0  # 0 left
    assert await other.take(5.0, urgent=True) == pytest.approx(1 / 10)
    await budget.charge(6.0)  # the bucket is full again at 6.0 (5 tokens)
    await budget.charge(6.0 + CHARGES_KEPT)  # the first one is old: both go now
    assert await other.take(6.0 + CHARGES_KEPT, urgent=True) == 0.0  # 5 - 2 = 3 left, 2 now
    assert await other.take(6.0 + CHARGES_KEPT, urgent=True) == 0.0
    assert await other.take(6.0 + CHARGES_KEPT, urgent=True) == 0.0
    assert await other.take(6.0 + CHARGES_KEPT, urgent=True) > 0.0
