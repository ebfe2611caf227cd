"""Rematch: "Same players again" opens a lobby with everyone invited, one tap each to confirm."""

from __future__ import annotations

from ai import Level
from engine import Edition, Phase
from tgbot.buttons import ConfirmRematch, Rematch, StartGame
from tgbot.records import Status

from .conftest import ANN, BOB, CAT, DAN, GROUP, OTHER_GROUP, Table, person, place
from .games import play_to_end, start


async def _over(table: Table, edition: Edition = Edition.BASE) -> str:
    gid = await start(table, (ANN, BOB, CAT), edition)
    record = await play_to_end(table, gid, 3)
    assert record.state is not None and record.state.phase is Phase.OVER
    return gid


async def _lobby(table: Table) -> str:
    gid = await table.store.active_game(GROUP, None)
    assert gid is not None
    return gid


async def test_same_players_again_opens_a_lobby_with_everyone_invited(table: Table) -> None:
    old = await _over(table, Edition.DELUXE)
    toast = await table.lobby_tap(BOB, Rematch(old))
    assert toast.text == "A new game is open: the others just tap I'm in."
    new = await table.record(await _lobby(table))
    assert new.status is Status.LOBBY and new.creator_id == BOB
    assert [p.user_id for p in new.lobby.players] == [BOB]
    assert [p.user_id for p in new.lobby.invited] == [ANN, CAT]
    assert new.lobby.edition is Edition.DELUXE
    assert (await table.record(old)).rematch == new.game_id
    lobby = table.group()[-1]
    assert "Invited again (one tap on I'm in): Ann, Cat" in lobby.text
    assert lobby.keyboard is not None and lobby.keyboard[0][0].command == ConfirmRematch(
        new.game_id
    )
    for uid in (ANN, CAT):
        assert any("asks for the same game again" in t for t in table.said(uid))


async def test_each_invited_player_confirms_with_one_tap(table: Table) -> None:
    old = await _over(table)
    await table.lobby_tap(ANN, Rematch(old))
    gid = await _lobby(table)
    assert (await table.lobby_tap(BOB, ConfirmRematch(gid))).text == "You are in!"
    # The game-end button is one tap too, once the rematch is open.
    assert (await table.lobby_tap(CAT, Rematch(old))).text == "You are in!"
    record = await table.record(gid)
    assert [p.user_id for p in record.lobby.players] == [ANN, BOB, CAT]
    assert record.lobby.invited == ()
    assert gid in await table.store.user_games(CAT)
    again = await table.lobby_tap(BOB, ConfirmRematch(gid))
    assert again.text == "You are already in this game."
    revision = record.lobby.revision
    assert (await table.lobby_tap(ANN, StartGame(gid, revision))).text == "Done!"
    assert (await table.record(gid)).status is Status.PLAYING


async def test_strangers_are_answered_and_change_nothing(table: Table) -> None:
    old = await _over(table)
    refused = await table.lobby_tap(DAN, Rematch(old))
    assert refused.alert and refused.text == "Only the players of that game can ask for it again."
    assert await table.store.active_game(GROUP, None) is None
    await table.lobby_tap(ANN, Rematch(old))
    gid = await _lobby(table)
    before = await table.record(gid)
    stranger = await table.lobby_tap(DAN, ConfirmRematch(gid))
    assert stranger.alert
    assert stranger.text == "This button is for the players invited again; others tap Join."
    assert (await table.record(gid)).rev == before.rev


async def test_forged_and_stale_buttons_change_nothing(table: Table) -> None:
    old = await _over(table)
    elsewhere = await table.lobby_tap(ANN, Rematch(old), chat=OTHER_GROUP)
    assert elsewhere.alert and elsewhere.text == "These buttons are not yours."
    gone = await table.lobby_tap(ANN, Rematch("Gone000001"))
    assert gone.text == "This game no longer exists."
    await table.lobby_tap(ANN, Rematch(old))
    gid = await _lobby(table)
    playing = await table.lobby_tap(ANN, Rematch(gid))
    assert playing.alert and playing.text == "This button is not valid.", "not a finished game"
    await table.cancel_command(place(), person(ANN), False)
    stale = await table.lobby_tap(BOB, Rematch(old))
    assert stale.text == "A rematch of this game was opened already."
    late = await table.lobby_tap(BOB, ConfirmRematch(gid))
    assert late.text == "This game no longer exists."
    assert await table.store.active_game(GROUP, None) is None


async def test_no_rematch_while_another_game_holds_the_chat(table: Table) -> None:
    old = await _over(table)
    await table.open(DAN)
    busy = await table.lobby_tap(ANN, Rematch(old))
    assert busy.alert and busy.text == "Another game is already running here."
    assert (await table.record(old)).rematch is None


async def test_an_invited_player_joining_by_the_link_is_no_longer_invited(table: Table) -> None:
    old = await _over(table)
    await table.lobby_tap(ANN, Rematch(old))
    gid = await _lobby(table)
    await table.join(gid, CAT)
    record = await table.record(gid)
    assert [p.user_id for p in record.lobby.players] == [ANN, CAT]
    assert [p.user_id for p in record.lobby.invited] == [BOB]


async def test_computer_players_take_their_seats_again_and_people_are_invited(
    table: Table,
) -> None:
    gid = await table.start_with_computers((ANN, BOB), 1, Level.RANDOM)
    await play_to_end(table, gid, 3)
    await table.lobby_tap(BOB, Rematch(gid))
    record = await table.record(await _lobby(table))
    assert [p.user_id for p in record.lobby.players] == [BOB, -1]
    assert [p.user_id for p in record.lobby.invited] == [ANN]
    assert not any("asks for the same game again" in t for t in table.said(-1))
