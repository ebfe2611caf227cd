"""Lobby expiry in memory: a lobby silent for a day says so and frees its chat for a new /new."""

from __future__ import annotations

from tgbot.buttons import SetEdition, StartGame
from tgbot.clocks import LOBBY_IDLE_SECONDS
from tgbot.records import Status

from .conftest import ANN, BOB, CAT, GROUP, BusyStore, Edition, Table, person, place

DAY = LOBBY_IDLE_SECONDS
EXPIRED = (
    "This lobby expired after a day without anyone joining, leaving or changing it."
    " Open a new game with /new."
)


async def _pending(table: Table) -> dict[str, float]:
    return dict(await table.deadlines.pending())


async def test_a_new_lobby_expires_a_day_later(table: Table) -> None:
    gid = await table.open()
    assert await _pending(table) == {f"{gid}:0:expire": table.clock.now + DAY}


async def test_each_change_of_the_lobby_moves_its_expiry(table: Table) -> None:
    gid = await table.open()
    table.clock.advance(3600)
    await table.join(gid, BOB)
    table.clock.advance(3600)
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetEdition(gid, revision, Edition.DELUXE))
    table.clock.advance(3600)
    await table.leave(gid, BOB)
    assert await _pending(table) == {f"{gid}:3:expire": table.clock.now + DAY}


async def test_a_silent_lobby_expires_says_so_and_frees_the_chat(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB)
    table.clock.advance(DAY)
    await table.service.sweep()
    record = await table.record(gid)
    assert record.status is Status.CANCELLED
    (lobby,) = table.group()
    assert lobby.text == EXPIRED and lobby.keyboard is None
    assert await table.store.active_game(GROUP, None) is None
    assert await table.store.user_games(BOB) == ()
    assert await table.deadlines.pending() == []
    assert await table.open(BOB) != gid


async def test_a_lobby_changed_since_does_not_expire_at_the_old_deadline(table: Table) -> None:
    gid = await table.open()
    table.clock.advance(DAY - 60)
    await table.join(gid, BOB)
    table.clock.advance(60)
    await table.service.sweep()
    assert (await table.record(gid)).status is Status.LOBBY
    await table.service.handle_deadline(f"{gid}:0:expire")
    assert (await table.record(gid)).status is Status.LOBBY
    table.clock.advance(DAY)
    await table.service.sweep()
    assert (await table.record(gid)).status is Status.CANCELLED


async def test_a_started_game_does_not_expire(table: Table) -> None:
    gid = await table.start()
    assert not any(m.endswith(":expire") for m in await _pending(table))
    await table.service.handle_deadline(f"{gid}:2:expire")
    assert (await table.record(gid)).status is Status.PLAYING


async def test_a_cancelled_lobby_drops_its_expiry(table: Table) -> None:
    await table.open()
    await table.cancel_command(place(), person(ANN), False)
    assert await table.deadlines.pending() == []


async def test_an_expired_lobbys_buttons_say_it_is_gone(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN, BOB, CAT)
    table.clock.advance(DAY)
    await table.service.sweep()
    toast = await table.lobby_tap(ANN, StartGame(gid, 3))
    assert toast.text == "This game no longer exists."


async def test_new_frees_a_chat_held_by_a_lobby_silent_for_a_day_without_a_deadline(
    table: Table,
) -> None:
    old = await table.open()
    table.deadlines.due.clear()  # opened before lobbies had an expiry
    table.clock.advance(DAY)
    new = await table.open(BOB)
    assert new != old and (await table.record(old)).status is Status.CANCELLED
    expired, fresh = table.group()
    assert expired.text == EXPIRED and fresh.keyboard


async def test_new_in_a_chat_with_a_lobby_silent_for_less_than_a_day_is_refused(
    table: Table,
) -> None:
    gid = await table.open()
    table.deadlines.due.clear()
    table.clock.advance(DAY - 1)
    await table.service.new_lobby(place(), person(BOB))
    assert await table.store.active_game(GROUP, None) == gid
    said, lobby = table.group()[-2:]
    assert "A game is being set up here: its lobby is below." in said.text
    assert lobby.keyboard and (await table.record(gid)).messages.lobby == lobby.message_id


async def test_an_expiry_that_loses_to_other_saves_is_tried_again_a_minute_later() -> None:
    table = Table(store_class=BusyStore)
    assert isinstance(table.store, BusyStore)
    gid = await table.open()
    table.clock.advance(DAY)
    table.store.busy = True
    await table.service.sweep()
    assert (await table.record(gid)).status is Status.LOBBY
    assert await _pending(table) == {f"{gid}:0:expire": table.clock.now + 60}
    table.store.busy = False
    table.clock.advance(60)
    await table.service.sweep()
    assert (await table.record(gid)).status is Status.CANCELLED
