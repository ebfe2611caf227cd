"""/cancel asks before ending a game in play and says who ended it with the gold so far; /kick
works only once most of the turn's time has passed, and tells the player how to come back;
toasts are in the tapper's language."""

from __future__ import annotations

import random

from tgbot.buttons import (
    CancelGame,
    KeepGame,
    LeaveGame,
    SetLanguage,
    SetTurnLimit,
    ShowHand,
    StartGame,
)
from tgbot.i18n import texts
from tgbot.menus import Style
from tgbot.records import Status

from .conftest import ANN, BOB, CAT, DAN, GROUP, KO, Table, person, place
from .games import _skip_to_round_end, choose, play, start


def _question(table: Table) -> tuple[int, CancelGame, KeepGame]:
    message = table.group()[-1]
    buttons = [b for row in message.keyboard or () for b in row]
    yes = next(b for b in buttons if isinstance(b.command, CancelGame))
    no = next(b for b in buttons if isinstance(b.command, KeepGame))
    assert yes.style is Style.DANGER
    assert isinstance(yes.command, CancelGame) and isinstance(no.command, KeepGame)
    return message.message_id, yes.command, no.command


async def test_cancel_during_play_asks_first_and_no_keeps_the_game(table: Table) -> None:
    gid = await table.start()
    await table.service.cancel_command(place(), person(ANN), False)
    assert (await table.record(gid)).status is Status.PLAYING, "nothing happens before Yes"
    asked, _, no = _question(table)
    assert "Ann, cancel this game for everyone?" in table.group()[-1].text
    toast = await table.service.tap(person(BOB), no, GROUP, asked)
    assert toast.alert and "creator or a group admin" in toast.text, "a player cannot answer"
    toast = await table.service.tap(person(ANN), no, GROUP, asked)
    assert toast.text == "The game goes on."
    assert asked not in {m.message_id for m in table.group()}, "the question goes"
    assert (await table.record(gid)).status is Status.PLAYING


async def test_a_player_asking_to_cancel_is_refused_without_a_question(table: Table) -> None:
    gid = await table.start()
    await table.service.cancel_command(place(), person(BOB), False)
    assert "creator or a group admin" in table.group()[-1].text
    assert not table.group()[-1].keyboard
    assert (await table.record(gid)).status is Status.PLAYING


async def test_yes_cancels_says_who_and_shows_the_gold_so_far(table: Table) -> None:
    table2 = table
    gid = await start(table2)
    rng = random.Random(5)  # one round played, then the game is cancelled
    await _skip_to_round_end(table2, gid, rng, 0.8, None)
    await play(table2, gid, choose(await table2.state(gid), rng, 0.8))
    state = await table2.state(gid)
    assert state.round == 2
    await table2.service.cancel_command(place(), person(ANN), False)
    asked, yes, _ = _question(table2)
    toast = await table2.service.tap(person(ANN), yes, GROUP, asked)
    assert toast.text == "The game was cancelled."
    record = await table2.record(gid)
    assert record.status is Status.CANCELLED
    assert asked not in {m.message_id for m in table2.group()}
    said = table2.group()[-1].text
    assert said.startswith("🛑 Ann cancelled the game. Nobody wins.\nThe gold after 1 round:")
    for uid, gold in zip(state.players, state.gold, strict=True):
        name = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}[uid]
        assert f"{name}: {gold} gold" in said
    for uid in (ANN, BOB, CAT):
        (hand,) = table2.sender.live(uid, "photo")
        assert "🛑 Ann cancelled the game." in hand.text


async def test_the_lobby_s_cancel_button_is_red(table: Table) -> None:
    await table.open()
    (lobby,) = table.group()
    buttons = [b for row in lobby.keyboard or () for b in row]
    (cancel,) = [b for b in buttons if isinstance(b.command, CancelGame)]
    assert cancel.style is Style.DANGER


async def test_kick_is_refused_until_most_of_the_turn_has_passed(table: Table) -> None:
    gid = await table.start((ANN, BOB, CAT, DAN))
    player = await table.to_act(gid)
    voter = next(u for u in (ANN, BOB, CAT, DAN) if u != player)
    text = await table.service.kick(place(), person(voter), True)
    assert "Too early: /kick works once 18 h of the 24 h per turn have passed" in text
    assert "That is in 18 h." in text
    table.clock.advance(17 * 3600)
    text = await table.service.kick(place(), person(voter), True)
    assert "That is in 1 h." in text
    assert (await table.state(gid)).version == 0 and (await table.record(gid)).kick_votes == ()
    table.clock.advance(3600)
    assert await table.service.kick(place(), person(voter), True) == ""
    assert (await table.state(gid)).version == 1


async def test_kick_in_a_game_without_a_time_limit_waits_a_day(table: Table) -> None:
    gid = await table.open()
    await table.lobby_tap(ANN, SetTurnLimit(gid, 0, None))
    await table.join(gid, ANN, BOB, CAT)
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, StartGame(gid, revision))
    player = await table.to_act(gid)
    text = await table.service.kick(place(), person(player + 1 if player < CAT else ANN), True)
    assert "has had 24 h for their turn" in text


async def test_the_kicked_player_is_told_privately_with_a_button_to_come_back(
    table: Table,
) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    await table.overdue(gid)
    before = len(table.sender.messages)
    assert await table.service.kick(place(), person(DAN), True) == ""
    new = [m for m in table.sender.messages[before:] if m.chat_id == player]
    (told,) = [m for m in new if "the group let the computer play for you" in m.text]
    assert told.kind == "photo", "their live message comes anew, so they notice"
    buttons = [b for row in told.keyboard or () for b in row]
    (back,) = [b for b in buttons if b.label == "🙋 Take my seat back"]
    assert isinstance(back.command, ShowHand)
    others = [m for m in table.sender.messages[before:] if m.chat_id not in (player, GROUP)]
    assert not any("let the computer play for you" in m.text for m in others)
    toast = await table.hand_tap(player, back.command, told.message_id)
    assert toast.text == "Welcome back: you play your own turns again."
    assert player not in (await table.record(gid)).automatic


async def test_a_toast_is_in_the_language_of_whoever_tapped(table: Table) -> None:
    gid = await table.open()  # an English group
    revision = (await table.record(gid)).lobby.revision
    korean = await table.service.tap(person(BOB, "ko"), LeaveGame(gid, revision), GROUP, None)
    assert korean.text == texts(KO).pgettext("toast", "You are not in this game.")
    english = await table.service.tap(person(CAT, "en"), LeaveGame(gid, revision), GROUP, None)
    assert english.text == "You are not in this game."


async def test_a_language_choice_edits_its_message_and_drops_its_buttons(table: Table) -> None:
    asked = await table.sender.group_text(GROUP, None, "Choose a language:", None)
    assert asked.message_id is not None
    toast = await table.service.tap(person(ANN), SetLanguage(KO), GROUP, asked.message_id)
    chosen = texts(KO).pgettext("toast", "Language: {language}", language="한국어")
    assert toast.text == chosen
    (message,) = [m for m in table.group() if m.message_id == asked.message_id]
    assert message.text == f"✅ {chosen}" and message.keyboard is None


async def test_a_time_per_turn_chosen_in_settings_edits_its_message(table: Table) -> None:
    gid = await table.start()
    text, rows = await table.service.settings(place())
    shown = await table.sender.group_text(GROUP, None, text, rows)
    assert shown.message_id is not None
    one_hour = next(
        b.command
        for r in rows
        for b in r
        if isinstance(b.command, SetTurnLimit) and b.command.hours == 1
    )
    toast = await table.service.tap(person(ANN), one_hour, GROUP, shown.message_id)
    assert toast.text == "Saved."
    assert (await table.record(gid)).lobby.turn_limit_hours == 1
    (message,) = [m for m in table.group() if m.message_id == shown.message_id]
    assert message.text == "✅ Time per turn: 1 h" and message.keyboard is None
