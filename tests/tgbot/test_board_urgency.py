"""A move's board is as urgent as the next player's turn: with the bot-wide budget down to the
reserve that only urgent sends may take, the board still goes (before the hand it comes
with, `tests/usecases/test_delivery.py`), while the redraws of players not to move wait."""

from __future__ import annotations

from tests.usecases.conftest import GROUP, Clock, Table
from tgbot.bot_budget import BOOK_AHEAD, BotBudget
from tgbot.fake_sender import FakeSender
from tgbot.game_ids import GameId
from tgbot.redis_client import RedisClient
from tgbot.spending import Spending


async def _drain_to_reserve(budget: BotBudget, now: float) -> None:
    """Take every token a send that is not urgent may take, those it would book ahead too."""
    while (await budget.book(now, urgent=False, ahead=BOOK_AHEAD))[0]:
        pass


async def test_a_moves_board_takes_the_reserve_of_a_spent_bot_budget(
    redis_client: RedisClient, key_prefix: str
) -> None:
    clock = Clock()
    budget = BotBudget(redis_client, prefix=key_prefix)

    async def no_sleep(seconds: float) -> None:
        return None

    table = Table(clock=clock, sender=FakeSender(spending=Spending(None, budget, clock, no_sleep)))
    gid = await table.start()
    clock.advance(60.0)  # the start's sends are long refilled
    deliver = table.service.deliver

    async def crashed(_: GameId) -> None:
        return None

    table.service.deliver = crashed  # type: ignore[method-assign,assignment]
    await table.discard(gid)  # saved, its board owed
    del table.service.deliver
    boards = table.sender.calls.count("group_photo")
    await _drain_to_reserve(budget, clock())
    await deliver(gid)
    record = await table.record(gid)
    assert table.sender.calls.count("group_photo") == boards + 1
    assert record.owed.board_version is None  # struck off: it went on the first try
    assert [b.message_id for b in table.sender.live(GROUP, "photo")] == [record.messages.board]
