"""Delivery in memory: the outbox struck off item by item, the lease, flood waits, the sweeper."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from ai import Level
from tgbot.buttons import ShowHand, StartGame
from tgbot.game_ids import GameId
from tgbot.links import hand_payload
from tgbot.memory_ports import MemoryBudget
from tgbot.ports import Keyboard, Sent
from tgbot.usecases.delivery import deliver_one
from tgbot.usecases.reconcile import floor_before, noted_floors

from .conftest import ANN, BOB, CAT, GROUP, BrokenStore, Table, person, place

SUPER = -1009


async def _undelivered_move(table: Table, gid: str) -> None:
    """A move saved while its process 'dies' before sending."""

    async def crashed(gid: GameId) -> None:
        return None

    table.service.deliver = crashed  # type: ignore[method-assign]
    try:
        await table.discard(gid)
    finally:
        del table.service.deliver


async def test_a_saved_move_owes_its_announcements_until_delivered(table: Table) -> None:
    gid = await table.start()
    boards = len(table.sender.live(GROUP, "photo"))
    await _undelivered_move(table, gid)
    record = await table.record(gid)
    assert not record.owed.is_empty and record.owed.board_version == 1
    assert await table.store.owing_games() == (gid,)
    assert len(table.sender.live(GROUP, "photo")) == boards
    await table.service.deliver(gid)
    assert (await table.record(gid)).owed.is_empty
    assert await table.store.owing_games() == ()


async def test_the_sweeper_delivers_what_a_crash_left_once(table: Table) -> None:
    gid = await table.start()
    await _undelivered_move(table, gid)
    posted = table.sender.calls.count("group_photo")
    await table.service.sweep()
    await table.service.sweep()
    assert table.sender.calls.count("group_photo") == posted + 1
    assert [b.message_id for b in table.sender.live(GROUP, "photo")] == [
        (await table.record(gid)).messages.board
    ]


async def test_each_item_is_struck_off_in_order(table: Table) -> None:
    gid = await table.start()
    await _undelivered_move(table, gid)
    record = await table.record(gid)
    assert await deliver_one(table.ctx, record)
    after = await table.record(gid)
    assert after.owed != record.owed and after.rev > record.rev


async def test_nothing_owed_is_nothing_sent(table: Table) -> None:
    gid = await table.start()
    calls = list(table.sender.calls)
    await table.service.deliver(gid)
    assert table.sender.calls == calls


async def test_a_held_lease_leaves_the_game_to_its_holder(table: Table) -> None:
    gid = await table.start()
    await _undelivered_move(table, gid)
    token = await table.lease.acquire(gid)
    assert token is not None
    await table.service.deliver(gid)
    assert not (await table.record(gid)).owed.is_empty
    await table.lease.release(gid, token)
    await table.service.deliver(gid)
    assert (await table.record(gid)).owed.is_empty


async def test_a_dead_holders_lease_expires(table: Table) -> None:
    gid = await table.start()
    await _undelivered_move(table, gid)
    assert await table.lease.acquire(gid) is not None
    table.clock.advance(15)
    await table.service.deliver(gid)
    assert (await table.record(gid)).owed.is_empty


async def test_delivery_gives_the_lease_back(table: Table) -> None:
    gid = await table.start()
    await table.discard(gid)
    assert table.lease.held == {}


async def test_a_spent_group_budget_keeps_the_board_owed_but_sends_hands() -> None:
    budget = MemoryBudget(limit=1)
    table = Table()
    gid = await table.start()
    table.sender.budget = budget
    table.sender.clock = table.clock
    await budget.take(GROUP, table.clock())  # the group's one send a minute is used
    await table.discard(gid)
    record = await table.record(gid)
    assert record.owed.board_version == 1 and not record.owed.fresh
    nxt = await table.to_act(gid)
    assert record.messages.hand_of(nxt) == table.sender.live(nxt, "photo")[0].message_id
    table.clock.advance(61)
    await table.service.sweep()
    assert (await table.record(gid)).owed.is_empty


async def test_a_group_that_moved_is_followed_while_delivering(table: Table) -> None:
    gid = await table.start()
    table.sender.moved[GROUP] = SUPER
    await table.discard(gid)
    record = await table.record(gid)
    assert record.chat_id == SUPER
    assert await table.store.active_game(SUPER, None) == gid
    del table.sender.moved[GROUP]
    await table.service.sweep()
    assert table.sender.live(SUPER, "photo")
    assert (await table.record(gid)).owed.is_empty


async def test_a_refused_group_text_is_dropped_not_retried(table: Table) -> None:
    gid = await table.start()
    await _undelivered_move(table, gid)
    table.sender.blocked.add(GROUP)  # not a flood: Telegram refuses, the item is done
    await table.service.deliver(gid)
    assert (await table.record(gid)).owed.is_empty


async def test_a_player_who_blocked_the_bot_is_asked_in_the_group(table: Table) -> None:
    table.sender.blocked.add(BOB)
    gid = await table.start()
    said = [t for t in table.said(GROUP) if "has blocked me or never started" in t]
    assert len(said) == 1 and "Bob" in said[0] and "@saboteur_test_bot" in said[0]
    assert (await table.record(gid)).unreachable == (BOB,)
    assert not table.sender.live(BOB)


async def test_an_edit_that_fails_sends_a_new_live_message(table: Table) -> None:
    gid = await table.start()
    live = (await table.record(gid)).messages.hand_of(CAT)
    assert live is not None
    await table.sender.delete(CAT, live)  # the user deleted it
    await table.hand_tap(CAT, ShowHand(gid, 0))
    new = (await table.record(gid)).messages.hand_of(CAT)
    assert new is not None and new != live


async def test_the_old_hand_is_deleted_when_a_new_one_is_sent(table: Table) -> None:
    gid = await table.start()
    old = (await table.record(gid)).messages.hand_of(ANN)
    await table.service.open_link(person(ANN), hand_payload(gid))
    record = await table.record(gid)
    assert record.owed.deletions == ()
    assert [m.message_id for m in table.sender.live(ANN, "photo")] == [record.messages.hand_of(ANN)]
    assert old not in [m.message_id for m in table.sender.live(ANN)]


async def test_the_sweeper_skips_a_corrupt_record_and_serves_the_others(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = Table(store_class=BrokenStore)
    store = table.store
    assert isinstance(store, BrokenStore)
    first = await table.start()
    second = await table.start(where=place(GROUP, 5))
    await _undelivered_move(table, first)
    await _undelivered_move(table, second)
    assert await store.owing_games() == (first, second)
    store.broken = {first}
    with caplog.at_level(logging.ERROR):
        await table.service.sweep()
    assert f"game {first}" in caplog.text and "cannot be read" in caplog.text
    assert (await table.record(second)).owed.is_empty
    assert await store.owing_games() == (first,)


async def test_a_move_saved_while_a_hand_is_sent_is_drawn_after_it() -> None:
    """A move saved while a player's live message is on its way (a computer's, at once) is not
    lost: the message drawn before it is redrawn after it (the move's redraw was folded into
    the one being sent, and striking that one whole left the older hand on screen)."""
    table = Table(pause=0.0)
    real = table.sender.private_photo
    moved: list[int] = []

    async def meanwhile(user_id: int, png: bytes, caption: str, keyboard: Keyboard) -> Sent:
        sent = await real(user_id, png, caption, keyboard)
        if user_id == ANN and not moved:  # her first hand, as the computer players move
            moved.append((await table.state(gid)).version)
            await table.computers_play(gid)
        return sent

    table.sender.private_photo = meanwhile  # type: ignore[method-assign]
    gid = await table.lobby_with_computers((ANN,), 2, Level.HEURISTIC)
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, StartGame(gid, revision))
    state = await table.state(gid)
    assert moved and state.version > moved[0], "the computer players moved as her hand was sent"
    (hand,) = table.sender.live(ANN, "photo")
    assert hand.keyboard is not None
    versions = {getattr(b.command, "version", None) for row in hand.keyboard for b in row}
    assert versions == {state.version}, "her hand is drawn from the latest move"


async def test_the_next_player_gets_their_turn_after_the_board_that_shows_the_move(
    table: Table,
) -> None:
    """A player's turn comes after the board of the move before it, even when the board's
    upload is slow (sent side by side, the hand came first: a turn over a board that did not
    show the last move yet)."""
    gid = await table.start()
    real = table.sender.group_photo
    order: list[str] = []

    async def slow_board(*args: Any, **kwargs: Any) -> Sent:
        await asyncio.sleep(0.05)  # a slow upload: the other chats' sends would go meanwhile
        sent = await real(*args, **kwargs)
        order.append("board")
        return sent

    real_hand = table.sender.private_photo

    async def hand(user_id: int, png: bytes, caption: str, keyboard: Keyboard) -> Sent:
        order.append(f"hand {user_id}")
        return await real_hand(user_id, png, caption, keyboard)

    table.sender.group_photo = slow_board  # type: ignore[method-assign]
    table.sender.private_photo = hand  # type: ignore[method-assign]
    await table.discard(gid)
    nxt = await table.to_act(gid)
    assert order == ["board", f"hand {nxt}"]


async def test_a_sweep_delivers_games_side_by_side(table: Table) -> None:
    """A game whose delivery is slow does not hold the others' back: each game's delivery here
    waits until the other's has begun (one after another, the sweep would never end)."""
    first = await table.start()
    second = await table.start(where=place(GROUP, 5))
    await _undelivered_move(table, first)
    await _undelivered_move(table, second)
    begun = {first: asyncio.Event(), second: asyncio.Event()}
    other = {first: second, second: first}
    real = table.service.deliver

    async def slow(gid: GameId) -> None:
        begun[gid].set()
        await begun[other[gid]].wait()
        await real(gid)

    table.service.deliver = slow  # type: ignore[method-assign]
    try:
        await asyncio.wait_for(table.service.sweep(), 10)
    finally:
        del table.service.deliver
    assert (await table.record(first)).owed.is_empty
    assert (await table.record(second)).owed.is_empty


async def test_a_floor_noted_ahead_is_taken_once_then_read(table: Table) -> None:
    """A delivery's first round takes the floors read with its lease, each once; after it, or
    for another chat, the sent-message ledger is read."""
    posts = table.sender.posts
    await posts.confirm(GROUP, 40)
    with noted_floors({GROUP: 37}):
        assert await floor_before(table.ctx, GROUP) == 37
        assert await floor_before(table.ctx, GROUP) == 40
        assert await floor_before(table.ctx, ANN) == 0
    await posts.confirm(GROUP, 41)
    assert await floor_before(table.ctx, GROUP) == 41
