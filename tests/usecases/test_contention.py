"""When other saves keep winning, each use case answers so and changes nothing; topics."""

from __future__ import annotations

import pytest

from engine import Edition
from tgbot.buttons import SetEdition, ShowHand
from tgbot.links import join_payload

from .conftest import ANN, BOB, DAN, GROUP, BusyStore, Table, person, place


@pytest.fixture
def busy() -> Table:
    """A bot over a store that another writer always beats."""
    return Table(store_class=BusyStore)


def _jam(table: Table) -> None:
    assert isinstance(table.store, BusyStore)
    table.store.busy = True


async def test_a_lobby_tap_under_contention_asks_to_tap_again(busy: Table) -> None:
    gid = await busy.open()
    _jam(busy)
    toast = await busy.lobby_tap(ANN, SetEdition(gid, 0, Edition.DELUXE))
    assert toast.text == "Something else happened at the same moment. Please tap again."
    assert (await busy.record(gid)).lobby.edition is Edition.BASE


async def test_joining_under_contention_asks_to_tap_again(busy: Table) -> None:
    gid = await busy.open()
    _jam(busy)
    await busy.service.open_link(person(BOB), join_payload(gid))
    assert busy.said(BOB) == ["Something else happened at the same moment. Please tap again."]


async def test_a_move_under_contention_asks_to_tap_again(busy: Table) -> None:
    gid = await busy.start()
    _jam(busy)
    toast = await busy.discard(gid)
    assert "Please tap again" in toast.text and (await busy.state(gid)).version == 0


async def test_a_kick_under_contention_says_so(busy: Table) -> None:
    gid = await busy.start()
    await busy.overdue(gid)
    _jam(busy)
    assert "Please tap again" in await busy.service.kick(place(), person(DAN), True)
    assert (await busy.state(gid)).version == 0


async def test_a_deadline_under_contention_is_left_alone(busy: Table) -> None:
    gid = await busy.start()
    _jam(busy)
    await busy.service.handle_deadline(f"{gid}:0:timeout")
    assert (await busy.state(gid)).version == 0


async def test_a_migration_under_contention_leaves_the_game_where_it_was(busy: Table) -> None:
    gid = await busy.start()
    _jam(busy)
    await busy.service.migrate(GROUP, -1009)
    assert (await busy.record(gid)).chat_id == GROUP


async def test_a_game_in_a_topic_posts_in_its_topic(table: Table) -> None:
    gid = await table.start(where=place(GROUP, 42))
    assert {m.thread_id for m in table.group()} == {42}
    await table.discard(gid)
    assert {m.thread_id for m in table.group()} == {42}


async def test_a_hand_tap_in_a_topic_game_is_answered(table: Table) -> None:
    gid = await table.start(where=place(GROUP, 42))
    toast = await table.hand_tap(ANN, ShowHand(gid, 0))
    assert toast.text == ""
