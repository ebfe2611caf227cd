"""Lobby use cases in memory: /new, joining, leaving, options, starting and cancelling."""

from __future__ import annotations

from engine import Edition, GoldRule
from tgbot.buttons import (
    CancelGame,
    JoinGame,
    SetEdition,
    SetTurnLimit,
    StartGame,
    ToggleVariant,
    Variant,
)
from tgbot.records import Status
from tgbot.service import START_GRACE_SECONDS

from .conftest import ANN, BOB, CAT, DAN, GROUP, OTHER_GROUP, Table, person, place


async def test_new_posts_a_lobby_with_buttons_and_remembers_it(table: Table) -> None:
    gid = await table.open()
    (lobby,) = table.group()
    record = await table.record(gid)
    assert record.status is Status.LOBBY and record.messages.lobby == lobby.message_id
    assert lobby.keyboard and "Ann" in lobby.text


async def test_new_in_a_chat_with_a_lobby_points_to_it_and_opens_nothing(table: Table) -> None:
    gid = await table.open()
    first = table.group()[-1].message_id
    await table.service.new_lobby(place(), person(BOB))
    assert await table.store.active_game(GROUP, None) == gid
    said, lobby = table.group()[-2:]
    assert said.text == "A game is being set up here: its lobby is below."
    assert lobby.keyboard and (await table.record(gid)).messages.lobby == lobby.message_id
    assert first not in {m.message_id for m in table.group()}, "the old lobby message goes"


async def test_new_in_a_chat_with_a_game_in_play_says_so(table: Table) -> None:
    gid = await table.start()
    await table.service.new_lobby(place(), person(BOB))
    assert await table.store.active_game(GROUP, None) == gid
    assert "already running here" in table.group()[-1].text


async def test_kick_and_new_agree_that_a_lobby_is_a_game_here(table: Table) -> None:
    await table.open()
    text = await table.service.kick(place(), person(BOB), False)
    assert text == "The game here has not started yet: nobody's turn to skip."


async def test_the_creator_leaving_passes_the_lobby_on_and_says_so(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN, BOB, CAT, DAN)
    toast = await table.leave(gid, ANN)
    assert toast.text == "You left the game; Bob now runs the lobby."
    record = await table.record(gid)
    assert record.creator_id == BOB and not record.lobby.has_player(ANN)
    assert any(
        "Ann left the lobby: Bob now runs it" in m.text for m in table.group() if m.kind == "text"
    )
    lobby = next(m for m in table.group() if m.message_id == record.messages.lobby)
    assert "Opened by Bob" in lobby.text
    revision = record.lobby.revision
    assert (await table.lobby_tap(BOB, StartGame(gid, revision))).text == "Done!"


async def test_the_lobby_collapses_to_one_line_once_started(table: Table) -> None:
    gid = await table.start()
    record = await table.record(gid)
    lobby = next(m for m in table.group() if m.message_id == record.messages.lobby)
    assert lobby.text == (
        "⛏ The game has started with 3 players: Ann, Bob, Cat · Saboteur · 24 h. Good digging!"
    )
    assert lobby.keyboard is None
    assert len(await table.store.chat_games(GROUP)) == 1


async def test_each_forum_topic_has_its_own_game(table: Table) -> None:
    first = await table.open(where=place(GROUP, 11))
    second = await table.open(BOB, where=place(GROUP, 12))
    assert first != second
    assert await table.store.chat_games(GROUP) == (first, second)


async def test_joining_by_the_link_adds_the_player_and_redraws_the_lobby(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB)
    record = await table.record(gid)
    assert [p.user_id for p in record.lobby.players] == [BOB]
    assert "You joined the game in <b>The Mine</b>" in table.said(BOB)[-1]
    (lobby,) = table.group()
    assert "Bob" in lobby.text and lobby.edits == 1
    assert await table.store.user_games(BOB) == (gid,)


async def test_new_joins_its_creator_once_they_started_the_bot_in_private(table: Table) -> None:
    await table.service.open_link(person(ANN), None)  # /start in private: the bot may write
    supergroup = -1001234567
    gid = await table.open(ANN, where=place(supergroup))
    record = await table.record(gid)
    assert [p.user_id for p in record.lobby.players] == [ANN]
    assert await table.store.user_games(ANN) == (gid,)
    (lobby,) = table.group(supergroup)
    assert "Ann" in lobby.text and record.messages.lobby == lobby.message_id
    (hello,) = [m for m in table.sender.live(ANN) if "You joined the game in" in m.text]
    assert hello.text.startswith("You joined the game in <b>The Mine</b>")
    assert hello.keyboard is not None, "a link back to the lobby"
    (back,) = [b for row in hello.keyboard for b in row]
    assert back.url == f"https://t.me/c/1234567/{lobby.message_id}"
    assert not record.owed.private_texts
    await table.join(gid, ANN)  # the Join link now says so and changes nothing
    assert table.said(ANN)[-1] == "You are already in this game."
    assert len((await table.record(gid)).lobby.players) == 1


async def test_new_leaves_a_creator_the_bot_cannot_write_to_to_join_by_the_link(
    table: Table,
) -> None:
    gid = await table.open(ANN)  # Ann never started the bot in private
    assert (await table.record(gid)).lobby.players == ()
    assert table.said(ANN) == [] and await table.store.user_games(ANN) == ()
    await table.join(gid, ANN)
    assert [p.user_id for p in (await table.record(gid)).lobby.players] == [ANN]


async def test_joining_twice_says_so(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB, BOB)
    assert table.said(BOB)[-1] == "You are already in this game."
    assert len((await table.record(gid)).lobby.players) == 1


async def test_a_full_lobby_turns_the_next_player_away(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, *range(10, 20))
    await table.join(gid, 99)
    assert table.said(99) == ["The game is full."]
    assert len((await table.record(gid)).lobby.players) == 10


async def test_joining_a_running_game_is_refused(table: Table) -> None:
    gid = await table.start()
    await table.join(gid, DAN)
    assert table.said(DAN) == ["The game is already running."]
    assert DAN not in (await table.state(gid)).players


async def test_joining_a_game_that_is_gone_is_refused(table: Table) -> None:
    await table.join("Gone000001", BOB)
    assert table.said(BOB) == ["This game no longer exists."]


async def test_the_join_button_opens_the_private_chat(table: Table) -> None:
    gid = await table.open()
    toast = await table.lobby_tap(BOB, JoinGame(gid, 0))
    assert toast.url is not None and table.sender.username in toast.url and toast.text == ""


async def test_leaving_removes_the_player_and_their_game_list_entry(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB, CAT)
    toast = await table.leave(gid, BOB)
    assert toast.text == "You left the game."
    assert [p.user_id for p in (await table.record(gid)).lobby.players] == [CAT]
    assert await table.store.user_games(BOB) == ()


async def test_leaving_without_having_joined_says_so(table: Table) -> None:
    gid = await table.open()
    toast = await table.leave(gid, BOB)
    assert toast.text == "You are not in this game."


async def test_a_stale_lobby_button_redraws_the_lobby_and_changes_nothing(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB)
    toast = await table.lobby_tap(ANN, SetEdition(gid, 0, Edition.DELUXE))
    assert "out of date" in toast.text
    record = await table.record(gid)
    assert record.lobby.edition is Edition.BASE
    assert table.group()[0].edits == 2  # the join, then the stale tap


async def test_the_creator_changes_the_edition(table: Table) -> None:
    gid = await table.open()
    toast = await table.lobby_tap(ANN, SetEdition(gid, 0, Edition.DELUXE))
    assert toast.text == "Saved."
    assert (await table.record(gid)).lobby.edition is Edition.DELUXE


async def test_only_the_creator_changes_options(table: Table) -> None:
    gid = await table.open()
    toast = await table.lobby_tap(BOB, SetEdition(gid, 0, Edition.DELUXE))
    assert toast.text == "Only Ann can do that for now."
    assert (await table.record(gid)).lobby.edition is Edition.BASE


async def test_variants_toggle_on_and_off(table: Table) -> None:
    gid = await table.open()
    await table.lobby_tap(ANN, ToggleVariant(gid, 0, Variant.GOLD_PER_MINER))
    assert (await table.record(gid)).lobby.options.gold is GoldRule.PER_MINER
    await table.lobby_tap(ANN, ToggleVariant(gid, 1, Variant.GOLD_PER_MINER))
    assert (await table.record(gid)).lobby.options.gold is GoldRule.OFFICIAL
    await table.lobby_tap(ANN, ToggleVariant(gid, 2, Variant.GREEDY_DWARF))
    assert (await table.record(gid)).lobby.options.greedy_dwarf


async def test_the_time_per_turn_is_set_in_the_lobby(table: Table) -> None:
    gid = await table.open()
    await table.lobby_tap(ANN, SetTurnLimit(gid, 0, None))
    assert (await table.record(gid)).lobby.turn_limit_hours is None


async def test_a_lobby_button_from_another_chat_is_not_yours(table: Table) -> None:
    gid = await table.open()
    toast = await table.lobby_tap(ANN, SetEdition(gid, 0, Edition.DELUXE), chat=OTHER_GROUP)
    assert toast.alert and toast.text == "These buttons are not yours."


async def test_a_lobby_button_of_a_game_that_is_gone(table: Table) -> None:
    toast = await table.lobby_tap(ANN, StartGame("Gone000001", 0))
    assert toast.text == "This game no longer exists."


async def test_starting_with_too_few_players_is_refused(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN, BOB)
    toast = await table.lobby_tap(ANN, StartGame(gid, 2))
    assert toast.alert and "at least 3 players" in toast.text
    assert (await table.record(gid)).status is Status.LOBBY


async def test_before_the_grace_only_the_creator_starts(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN, BOB, CAT)
    toast = await table.lobby_tap(BOB, StartGame(gid, 3))
    assert toast.text == "Only Ann can do that for now."


async def test_after_the_grace_any_joined_player_starts(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN, BOB, CAT)
    table.clock.advance(START_GRACE_SECONDS)
    toast = await table.lobby_tap(BOB, StartGame(gid, 3))
    assert toast.text == "Done!"
    assert (await table.record(gid)).status is Status.PLAYING


async def test_after_the_grace_a_stranger_still_cannot_start(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN, BOB, CAT)
    table.clock.advance(START_GRACE_SECONDS)
    toast = await table.lobby_tap(DAN, StartGame(gid, 3))
    assert toast.text == "You are not in this game."


async def test_starting_deals_posts_the_board_and_every_hand(table: Table) -> None:
    gid = await table.start()
    record = await table.record(gid)
    assert record.owed.is_empty and record.state is not None
    photos = table.sender.live(GROUP, "photo")
    assert [p.message_id for p in photos] == [record.messages.board]
    for uid in (ANN, BOB, CAT):
        (hand,) = table.sender.live(uid, "photo")
        assert record.messages.hand_of(uid) == hand.message_id
    assert "The game has started with 3 players" in table.group()[0].text
    assert table.group()[0].keyboard is None


async def test_starting_twice_is_refused(table: Table) -> None:
    gid = await table.start()
    toast = await table.lobby_tap(ANN, StartGame(gid, 3))
    assert toast.text == "The game is already running."


async def test_the_deck_comes_from_the_seed(table: Table) -> None:
    other = Table()
    first = await table.state(await table.start())
    second = await other.state(await other.start())
    assert first.hands == second.hands


async def test_the_creator_cancels_the_lobby(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB)
    toast = await table.lobby_tap(ANN, CancelGame(gid, 1))
    assert toast.text == "The game was cancelled."
    assert (await table.record(gid)).status is Status.CANCELLED
    assert await table.store.active_game(GROUP, None) is None
    assert await table.store.user_games(BOB) == ()
    assert table.group()[0].text == "The game was cancelled."


async def test_a_player_cannot_cancel(table: Table) -> None:
    gid = await table.open()
    toast = await table.lobby_tap(BOB, CancelGame(gid, 0))
    assert toast.alert and "creator or a group admin" in toast.text
    assert (await table.record(gid)).status is Status.LOBBY


async def test_an_admin_cancels(table: Table) -> None:
    gid = await table.open()
    table.sender.admins.add((GROUP, DAN))
    toast = await table.lobby_tap(DAN, CancelGame(gid, 0))
    assert toast.text == "The game was cancelled."


async def test_cancelling_a_running_game_tells_the_group_and_every_player(table: Table) -> None:
    await table.start()
    await table.cancel_command(place(), person(ANN), False)
    assert table.group()[-1].text.startswith("🛑 Ann cancelled the game. Nobody wins.")
    for uid in (ANN, BOB, CAT):
        (hand,) = table.sender.live(uid, "photo")
        assert "🛑 Ann cancelled the game." in hand.text and hand.keyboard is None
    assert await table.store.user_games(BOB) == ()


async def test_cancel_command_by_a_player_is_answered_in_the_group(table: Table) -> None:
    await table.open()
    await table.cancel_command(place(), person(BOB), False)
    assert "creator or a group admin" in table.group()[-1].text


async def test_cancel_command_without_a_game(table: Table) -> None:
    await table.cancel_command(place(), person(ANN), True)
    assert table.said(GROUP) == ["There is no game here. Open one with /new."]


async def test_start_command_starts_the_game_silently(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN, BOB, CAT)
    await table.service.start_command(place(), person(ANN))
    assert (await table.record(gid)).status is Status.PLAYING
    assert all("Done" not in text for text in table.said(GROUP))


async def test_start_command_with_too_few_says_why_in_the_group(table: Table) -> None:
    await table.open()
    await table.service.start_command(place(), person(ANN))
    assert "at least 3 players" in table.group()[-1].text


async def test_leave_command(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB)
    await table.service.leave_command(place(), person(BOB))
    assert table.group()[-1].text == "You left the game."
    assert (await table.record(gid)).lobby.players == ()


async def test_join_command_posts_the_lobby_again(table: Table) -> None:
    gid = await table.open()
    first = (await table.record(gid)).messages.lobby
    await table.service.join_hint(place())
    (lobby,) = table.group()
    assert (
        lobby.message_id != first and (await table.record(gid)).messages.lobby == lobby.message_id
    )


async def test_join_command_without_a_game(table: Table) -> None:
    await table.service.join_hint(place())
    assert table.said(GROUP) == ["There is no game here. Open one with /new."]


async def test_join_command_during_play(table: Table) -> None:
    await table.start()
    await table.service.join_hint(place())
    assert table.group()[-1].text == "The game is already running."


async def test_settings_in_a_lobby_offer_the_language_only(table: Table) -> None:
    await table.open()
    text, rows = await table.service.settings(place())
    assert "Settings of this chat" in text and len(rows) == 1


async def test_settings_during_play_offer_the_time_per_turn(table: Table) -> None:
    await table.start()
    text, rows = await table.service.settings(place())
    assert len(rows) == 3 and "24" in text, "the language, then the time per turn in two rows"
    assert [len(r) for r in rows[1:]] == [3, 2]
    assert [b.label for r in rows[1:] for b in r] == [
        "▫️ ⏱ 1 h",
        "▫️ ⏱ 12 h",
        "✅ ⏱ 24 h",
        "▫️ ⏱ 72 h",
        "▫️ ∞ No limit",
    ]


async def test_the_creator_changes_the_time_per_turn_during_play(table: Table) -> None:
    gid = await table.start()
    record = await table.record(gid)
    toast = await table.lobby_tap(ANN, SetTurnLimit(gid, record.lobby.revision, 1))
    assert toast.text == "Saved."
    assert (await table.record(gid)).lobby.turn_limit_hours == 1
    due = [at for _, at in await table.deadlines.pending()]
    assert max(due) == record.turn_started_at + 3600


async def test_a_player_cannot_change_the_time_per_turn_during_play(table: Table) -> None:
    gid = await table.start()
    revision = (await table.record(gid)).lobby.revision
    toast = await table.lobby_tap(BOB, SetTurnLimit(gid, revision, 1))
    assert toast.alert and (await table.record(gid)).lobby.turn_limit_hours == 24


async def test_an_admin_changes_the_time_per_turn_during_play(table: Table) -> None:
    gid = await table.start()
    table.sender.admins.add((GROUP, DAN))
    revision = (await table.record(gid)).lobby.revision
    toast = await table.lobby_tap(DAN, SetTurnLimit(gid, revision, None))
    assert toast.text == "Saved." and await table.deadlines.pending() == []


async def test_a_stale_time_button_during_play_changes_nothing(table: Table) -> None:
    gid = await table.start()
    toast = await table.lobby_tap(ANN, SetTurnLimit(gid, 0, 1))
    assert "out of date" in toast.text
    assert (await table.record(gid)).lobby.turn_limit_hours == 24


async def test_a_join_in_a_supergroup_offers_a_button_back_to_its_lobby(table: Table) -> None:
    supergroup = -1001234567890
    gid = await table.open(ANN, place(supergroup))
    await table.join(gid, BOB)
    lobby = (await table.record(gid)).messages.lobby
    joined = [m for m in table.sender.live(BOB) if "You joined the game" in m.text][-1]
    ((back,),) = joined.keyboard or ((),)
    assert back.url == f"https://t.me/c/1234567890/{lobby}"
    assert back.label == "↩️ Back to The Mine"


async def test_a_join_in_a_basic_group_has_no_button_telegram_cannot_link(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB)
    joined = [m for m in table.sender.live(BOB) if "You joined the game" in m.text][-1]
    assert joined.keyboard is None
