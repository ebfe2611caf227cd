"""Computer seats in a group's lobby: who may add and remove them, limits, stale and forged taps."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ai import Level
from engine import Edition
from tgbot import computer
from tgbot.buttons import (
    AddComputer,
    GameCommand,
    LeaveGame,
    RemoveComputer,
    SetComputers,
    SetEdition,
    SetLanguage,
    StartGame,
)
from tgbot.i18n import LANGUAGES, Language, texts
from tgbot.names import computer_index, computer_name, level_name, local_computer_name
from tgbot.presenter import names_of
from tgbot.records import GameRecord, Status

from .conftest import ANN, BOB, CAT, GROUP, OTHER_GROUP, Table, person


def _computers(record: GameRecord) -> list[tuple[int, str]]:
    return [(p.user_id, p.name) for p in record.lobby.computers]


def _add_strong(gid: str, revision: int) -> AddComputer:
    return AddComputer(gid, revision, Level.SEARCH)


async def _tap(
    table: Table, gid: str, uid: int, make: Callable[[str, int], GameCommand], chat: int = GROUP
) -> str:
    revision = (await table.record(gid)).lobby.revision
    return (await table.lobby_tap(uid, make(gid, revision), chat)).text


async def test_the_lobby_offers_to_add_and_remove_computer_players(table: Table) -> None:
    await table.open()
    (lobby,) = table.group()
    assert lobby.keyboard is not None
    labels = [b.label for row in lobby.keyboard for b in row]
    assert "🤖 Add: easy" in labels and "🤖 Add: strong" in labels
    assert "🤖 Remove a computer" in labels


async def test_the_creator_picks_each_computer_player_s_level(table: Table) -> None:
    """Easy plays the heuristic level, strong the search; the lobby says which next to the
    name; a person the computer stands in for is played at the strong level all the same."""
    gid = await table.open()
    await table.join(gid, ANN)
    for level in (Level.HEURISTIC, Level.SEARCH):
        revision = (await table.record(gid)).lobby.revision
        assert (await table.lobby_tap(ANN, AddComputer(gid, revision, level))).text == "Saved."
    record = await table.record(gid)
    assert [(p.name, p.computer) for p in record.lobby.computers] == [
        ("Borin", Level.HEURISTIC),
        ("Dagna", Level.SEARCH),
    ]
    text = table.group()[0].text
    assert "2. 🤖 Borin (easy)\n3. 🤖 Dagna (strong)" in text
    await table.service.tap(person(ANN), SetLanguage(Language("ko")), GROUP, None)
    korean = texts(Language("ko"))
    easy = level_name(korean, Level.HEURISTIC)
    assert f"2. 🤖 보린 ({easy})" in table.group()[0].text
    assert computer.level_of(record, -1) is Level.HEURISTIC
    assert computer.level_of(record, ANN) is Level.SEARCH  # a stand-in


async def test_the_creator_adds_computer_players_with_names_and_negative_ids(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN)
    await table.add_computers(gid, 2)
    record = await table.record(gid)
    assert _computers(record) == [(-1, "Borin"), (-2, "Dagna")]
    assert all(p.computer is Level.SEARCH for p in record.lobby.computers)
    (lobby,) = table.group()
    assert "1. Ann\n2. 🤖 Borin (strong)\n3. 🤖 Dagna (strong)" in lobby.text
    assert "Ready! Ann can start the game." in lobby.text
    assert await table.store.user_games(-1) == ()


async def test_a_group_in_korean_shows_korean_names(table: Table) -> None:
    gid = await table.open()
    await table.ctx.change(gid, lambda r: dataclasses.replace(r, language=Language("ko")))
    await table.add_computers(gid, 1)
    assert _computers(await table.record(gid)) == [(-1, "Borin")]  # stored in English
    assert "🤖 보린" in table.group()[0].text


async def test_computer_names_follow_the_group_s_language_when_it_changes(table: Table) -> None:
    """Names are translated where they are shown, not when the computer was added."""
    gid = await table.open()
    await table.join(gid, ANN)
    await table.add_computers(gid, 2)
    assert "🤖 Borin" in table.group()[0].text
    await table.service.tap(person(ANN), SetLanguage(Language("ko")), GROUP, None)
    text = table.group()[0].text
    assert "🤖 보린" in text and "Borin" not in text
    await table.service.tap(person(ANN), SetLanguage(Language("en")), GROUP, None)
    assert "🤖 Borin" in table.group()[0].text and "보린" not in table.group()[0].text


async def test_a_name_stored_in_korean_by_an_older_record_is_shown_in_english(
    table: Table,
) -> None:
    gid = await table.open()
    await table.add_computers(gid, 1)

    def korean_name(record: GameRecord) -> GameRecord:
        (borin,) = record.lobby.computers
        return dataclasses.replace(
            record, lobby=record.lobby.changed(players=(dataclasses.replace(borin, name="보린"),))
        )

    await table.ctx.change(gid, korean_name)
    record = await table.record(gid)
    assert names_of(record)[-1] == "🤖 Borin"
    assert names_of(record, Language("ko"))[-1] == "🤖 보린"
    await table.add_computers(gid, 1)  # the next name is not Borin again
    assert _computers(await table.record(gid)) == [(-1, "보린"), (-2, "Dagna")]


def test_every_computer_name_is_known_in_every_language() -> None:
    for lang in LANGUAGES:
        tr = texts(lang)
        for index in (0, 5, 11, 12, 25):
            name = computer_name(tr, index)
            assert computer_index(name) == index, name
            assert local_computer_name(texts(Language("en")), name) == computer_name(
                texts(Language("en")), index
            )
    assert computer_index("Ann") is None and computer_index("Borin 1") is None


async def test_only_the_creator_adds_or_removes_computer_players(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB)
    await table.add_computers(gid, 1)
    before = await table.record(gid)
    for make in (_add_strong, RemoveComputer):
        assert await _tap(table, gid, BOB, make) == "Only Ann can do that for now."
    assert await table.record(gid) == before


async def test_remove_takes_the_computer_added_last(table: Table) -> None:
    gid = await table.open()
    await table.add_computers(gid, 3)
    assert await _tap(table, gid, ANN, RemoveComputer) == "Saved."
    assert _computers(await table.record(gid)) == [(-1, "Borin"), (-2, "Dagna")]
    await table.add_computers(gid, 1)
    assert _computers(await table.record(gid))[-1] == (-3, "Fimbur")


async def test_removing_without_computer_players_says_so_and_changes_nothing(
    table: Table,
) -> None:
    gid = await table.open()
    await table.join(gid, ANN)
    before = await table.record(gid)
    assert await _tap(table, gid, ANN, RemoveComputer) == "There is no computer player to remove."
    assert await table.record(gid) == before


async def test_computer_players_fill_seats_up_to_the_edition_s_limit(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN)
    await table.add_computers(gid, 9)  # base seats 10
    before = await table.record(gid)
    assert await _tap(table, gid, ANN, _add_strong) == "The game is full."
    assert await table.record(gid) == before
    await table.join(gid, BOB)
    assert table.said(BOB)[-1] == "The game is full."


async def test_a_stale_computer_button_redraws_and_changes_nothing(table: Table) -> None:
    gid = await table.open()
    old = (await table.record(gid)).lobby.revision
    await table.join(gid, ANN)
    before = await table.record(gid)
    toast = await table.lobby_tap(ANN, AddComputer(gid, old, Level.SEARCH))
    assert toast.text == "That button was out of date; the lobby has been updated."
    assert await table.record(gid) == before


async def test_forged_computer_buttons_are_refused_and_change_nothing(table: Table) -> None:
    gid = await table.open()
    before = await table.record(gid)
    revision = before.lobby.revision
    toast = await table.lobby_tap(
        ANN, SetComputers(gid, revision, 3, Level.SEARCH)
    )  # a practice button
    assert toast.alert and toast.text == "This button is not valid."
    toast = await table.lobby_tap(ANN, AddComputer(gid, revision, Level.SEARCH), OTHER_GROUP)
    assert toast.alert and toast.text == "These buttons are not yours."
    toast = await table.lobby_tap(ANN, AddComputer("Gone000001", 0, Level.SEARCH))
    assert toast.text == "This game no longer exists."
    assert await table.record(gid) == before


async def test_computer_buttons_during_play_change_nothing(table: Table) -> None:
    gid = await table.start_with_computers()
    before = await table.record(gid)
    toast = await table.lobby_tap(ANN, AddComputer(gid, before.lobby.revision, Level.SEARCH))
    assert toast.text == "The game is already running."
    assert await table.record(gid) == before


async def test_one_person_and_two_computers_start_a_game(table: Table) -> None:
    gid = await table.start_with_computers((ANN,), 2)
    record = await table.record(gid)
    assert record.status is Status.PLAYING and record.state is not None
    assert sorted(record.state.players) == [-2, -1, ANN]
    (lobby,) = [m for m in table.group() if m.kind == "text"]
    assert "The game has started with 3 players: Ann, 🤖 " in lobby.text


async def test_computer_players_cannot_play_alone(table: Table) -> None:
    gid = await table.open()
    await table.add_computers(gid, 3)
    before = await table.record(gid)
    (lobby,) = table.group()
    assert "Computer players cannot play alone" in lobby.text
    text = await _tap(table, gid, ANN, StartGame)
    assert text == "Computer players cannot play alone: at least one person joins."
    assert (await table.record(gid)).status is Status.LOBBY
    assert (await table.record(gid)).lobby == before.lobby


async def test_too_many_seats_for_the_edition_are_refused_at_start(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN)
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetEdition(gid, revision, Edition.DELUXE))
    await table.add_computers(gid, 11)  # Deluxe seats 12
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetEdition(gid, revision, Edition.BASE))
    text = await _tap(table, gid, ANN, StartGame)
    assert text == "Saboteur seats at most 10 players: remove a computer player first."
    assert (await table.record(gid)).status is Status.LOBBY


async def test_when_the_last_person_leaves_computers_stay_but_cannot_start(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN)
    await table.add_computers(gid, 3)
    assert await _tap(table, gid, ANN, LeaveGame) == "You left the game."
    assert [p.user_id for p in (await table.record(gid)).lobby.players] == [-1, -2, -3]
    assert "at least one person" in await _tap(table, gid, ANN, StartGame)


async def test_two_people_and_a_computer_start_and_each_person_gets_a_hand(table: Table) -> None:
    gid = await table.start_with_computers((ANN, BOB), 1)
    record = await table.record(gid)
    assert record.owed.is_empty
    assert {m.chat_id for m in table.sender.messages} == {GROUP, ANN, BOB}
    assert len(table.sender.live(ANN, "photo")) == len(table.sender.live(BOB, "photo")) == 1
    assert CAT not in {m.chat_id for m in table.sender.messages}
