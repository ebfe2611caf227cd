"""Issue 13: with the bot-wide budget kept busy by other games, every owed item of a game gets
through within a few tries (a chat refused AGED_AFTER times in a row sends as overdue), the
private texts ("you joined", a player's notices) included; on a real Redis, the clock moved by
hand (a send that books a token ahead notes its wait and goes on: the test's time stands
still, as for the other sends it is side by side with)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from engine import Edition, Phase
from tests.usecases.conftest import ANN, BOB, CAT, Clock, Table
from tests.usecases.games import play_to_end, start
from tgbot import notice_texts
from tgbot.bot_budget import AGED_AFTER, BOOK_AHEAD_OVERDUE, BOOK_AHEAD_URGENT, BotBudget
from tgbot.buttons import PickCard, Rematch, StartGame
from tgbot.fake_sender import FakeSender
from tgbot.notices import said
from tgbot.outbox import attempts_in, owe, wait
from tgbot.records import GameRecord
from tgbot.redis_client import RedisClient
from tgbot.spending import Spending
from tgbot.store import Decision

# The other games' overdue sends keep the budget booked this far ahead: further than an urgent
# send books (it is refused), within what an overdue one does.
BUSY = 1.5
assert BOOK_AHEAD_URGENT < BUSY < BOOK_AHEAD_OVERDUE
# Tries a chat gets: AGED_AFTER refused, then one overdue, for each of its items in turn.
TRIES = 3 * (AGED_AFTER + 1)


class Busy:
    """The rest of a busy bot: another process whose overdue sends book the bot-wide budget's
    tokens BUSY seconds ahead, again before each of this game's deliveries."""

    def __init__(self, redis: RedisClient, prefix: str, clock: Clock) -> None:
        self.budget = BotBudget(redis, prefix=prefix)
        self.clock = clock

    async def keep(self) -> None:
        """Book tokens until the next one is BUSY seconds away."""
        while True:
            booked, wait = await self.budget.book(
                self.clock(), urgent=True, ahead=BOOK_AHEAD_OVERDUE
            )
            assert booked
            if wait >= BUSY:
                return


def busy_table(redis: RedisClient, prefix: str) -> tuple[Table, Busy, list[float]]:
    """A bot whose sends take from the real bot-wide budget (shared with `Busy`), and the waits
    of the sends that booked their token ahead."""
    clock = Clock()
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    spending = Spending(None, BotBudget(redis, prefix=prefix), clock, sleep)
    table = Table(clock=clock, sender=FakeSender(spending=spending))
    return table, Busy(redis, prefix, clock), waited


async def deliver_busy(table: Table, busy: Busy, done: Callable[[], bool]) -> int:
    """Sweep, the budget kept busy, until `done` (or TRIES sweeps): the sweeps it took."""
    for sweeps in range(1, TRIES + 1):
        table.clock.advance(BUSY + 0.1)  # every chat's wait is over
        await busy.keep()
        await table.service.sweep()
        if done():
            return sweeps
    return TRIES + 1


def got_text(table: Table, uid: int, part: str) -> bool:
    return any(part in t for t in table.sender.texts_in(uid))


def hands(table: Table, uid: int) -> int:
    """The live messages (hands) a player was ever sent."""
    return sum(1 for m in table.sender.messages if m.chat_id == uid and m.kind == "photo")


async def test_you_joined_and_the_first_hands_get_through_a_busy_bot(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """The load benchmark's stall: "you joined" refused by a busy bot-wide budget (other games'
    overdue sends booked further ahead than an urgent send books) was refused at every try, and
    its player's hand waited behind it for ever. It goes overdue after AGED_AFTER refusals, and
    every player then gets their hand."""
    table, busy, waited = busy_table(redis_client, key_prefix)
    gid = await table.open(ANN)  # the bot idle yet
    await busy.keep()
    await table.join(gid, ANN, BOB, CAT)
    assert not got_text(table, BOB, "joined"), "the budget is busy: it waits"
    record = await table.record(gid)
    assert [attempts_in(record.owed, u) for u in (ANN, BOB, CAT)] == [1, 1, 1]
    took = await deliver_busy(
        table, busy, lambda: all(got_text(table, u, "joined") for u in (ANN, BOB, CAT))
    )
    assert took <= AGED_AFTER + 1
    assert waited and all(BUSY <= w <= BOOK_AHEAD_OVERDUE for w in waited), "booked ahead"
    # The game starts with the bot busy: each player's hand (behind their text, if one is owed).
    revision = (await table.record(gid)).lobby.revision
    assert (await table.lobby_tap(ANN, StartGame(gid, revision))).text == "Done!"
    took = await deliver_busy(table, busy, lambda: all(hands(table, u) for u in (ANN, BOB, CAT)))
    assert took <= TRIES


async def test_overdue_texts_leave_the_tapper_and_the_player_to_move_their_turn(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """The other players' texts refused AGED_AFTER times go overdue (they book the busy budget's
    tokens ahead): the tapper's next screen still goes at once, and the player to move's new
    hand, refused meanwhile, goes overdue in its turn, within AGED_AFTER + 1 tries."""
    table, busy, waited = busy_table(redis_client, key_prefix)
    gid = await table.start()  # the bot idle yet: every player has their hand
    mover = await table.to_act(gid)
    others = [u for u in (ANN, BOB, CAT) if u != mover]
    note = said(notice_texts.joined, chat="The Mine")

    def owing(r: GameRecord) -> GameRecord:
        owed = owe(r.owed, private_texts=[(u, note) for u in others], fresh=[mover])
        for u in others:  # refused twice already: overdue at the next try
            for _ in range(AGED_AFTER):
                owed = wait(owed, u, table.clock(), 0.0)
        return dataclasses.replace(r, owed=owed)

    await table.store.update(gid, lambda r: Decision(None, r and owing(r)))
    await busy.keep()
    before = [len(table.sender.texts_in(u)) for u in others]
    await table.service.deliver(gid)
    assert len(waited) == len(others), "the texts booked their tokens ahead"
    assert [len(table.sender.texts_in(u)) for u in others] == [n + 1 for n in before]
    assert hands(table, mover) == 1, "its new hand waits: refused"
    assert attempts_in((await table.record(gid)).owed, mover) == 1
    (hand,) = table.sender.live(mover, "photo")
    edits = hand.edits
    toast = await table.hand_tap(mover, PickCard(gid, 0, 0))
    assert toast.text == "" and hand.edits == edits + 1, "the tapper's screen is not held"
    took = await deliver_busy(table, busy, lambda: hands(table, mover) == 2)
    assert took <= AGED_AFTER


async def test_rematch_invitations_are_owed_and_get_through_a_busy_bot(
    redis_client: RedisClient, key_prefix: str
) -> None:
    """A rematch asked for with the bot busy: the invitations are owed by the new lobby (sent
    at once before, a refused one was lost), tried again, and overdue after AGED_AFTER."""
    table, busy, _ = busy_table(redis_client, key_prefix)
    spending, table.sender.spending = table.sender.spending, None  # the game played idle
    gid = await start(table, (ANN, BOB, CAT), Edition.BASE)
    over = await play_to_end(table, gid, 3)
    assert over.state is not None and over.state.phase is Phase.OVER
    table.sender.spending = spending
    await busy.keep()
    assert "A new game is open" in (await table.lobby_tap(BOB, Rematch(gid))).text
    invited = (ANN, CAT)

    def told() -> bool:
        return all(got_text(table, u, "asks for the same game again") for u in invited)

    assert not told(), "the budget is busy: they wait"
    assert await deliver_busy(table, busy, told) <= AGED_AFTER + 1
