"""/practice in memory: a game against computer players in one private chat, board and hand."""

from __future__ import annotations

from ai import Level
from engine import Edition
from tgbot.buttons import (
    AddComputer,
    JoinGame,
    LeaveGame,
    SetComputers,
    SetEdition,
    SetLanguage,
    SetTurnLimit,
    ShowHand,
    StartGame,
)
from tgbot.clocks import LOBBY_IDLE_SECONDS, PRACTICE_IDLE_SECONDS, Deadline, DeadlineKind
from tgbot.i18n import Language
from tgbot.links import join_payload
from tgbot.records import GameRecord, Status

from .conftest import ANN, BOB, GROUP, Table, person, place


async def _practice(table: Table, uid: int = ANN) -> str:
    await table.service.practice(person(uid))
    gid = await table.store.active_game(uid, None)
    assert gid is not None
    return gid


async def _tap(table: Table, gid: str, command: object, uid: int = ANN) -> str:
    return (await table.service.tap(person(uid), command, uid, None)).text  # type: ignore[arg-type]


async def _started(table: Table, level: Level = Level.RANDOM, uid: int = ANN) -> str:
    gid = await _practice(table, uid)
    await table.set_level(gid, level)
    revision = (await table.record(gid)).lobby.revision
    assert await _tap(table, gid, StartGame(gid, revision), uid) == "Done!"
    return gid


async def _one_board_and_one_hand(table: Table, gid: str, uid: int = ANN) -> None:
    """The private chat holds the game's one board post and one hand: nothing twice, and
    neither deleted in the other's place."""
    record = await table.record(gid)
    photos = table.sender.live(uid, "photo")
    live = {p.message_id for p in photos if "is over!" not in p.text}  # rounds' final boards stay
    kept = {record.messages.board, record.messages.hand_of(uid)} - {None}
    assert live == kept, (live, kept)


async def test_practice_sets_up_a_game_in_the_private_chat(table: Table) -> None:
    gid = await _practice(table)
    record = await table.record(gid)
    assert record.is_practice and record.chat_id == ANN and record.status is Status.LOBBY
    assert [p.user_id for p in record.lobby.players] == [ANN, -1, -2, -3]
    assert record.lobby.turn_limit_hours is None and record.title == "Practice"
    (setup,) = table.sender.live(ANN)
    assert setup.message_id == record.messages.lobby
    assert "You against 3 computer players:" in setup.text and "🤖 Borin" in setup.text
    assert setup.keyboard is not None
    labels = [b.label for row in setup.keyboard for b in row]
    assert labels == [
        "✅ Saboteur",
        "▫️ Saboteur Deluxe",
        "▫️ 🤖 2",
        "✅ 🤖 3",
        "▫️ 🤖 4",
        "▫️ easy",
        "✅ strong",
        "▶️ Start",
        "✖️ Cancel game",
    ]
    assert await table.store.user_games(ANN) == (gid,)


async def test_the_player_picks_the_edition_and_the_opponents(table: Table) -> None:
    gid = await _practice(table)
    revision = (await table.record(gid)).lobby.revision
    assert await _tap(table, gid, SetEdition(gid, revision, Edition.DELUXE)) == "Saved."
    revision = (await table.record(gid)).lobby.revision
    assert await _tap(table, gid, SetComputers(gid, revision, 4, Level.SEARCH)) == "Saved."
    record = await table.record(gid)
    assert record.lobby.edition is Edition.DELUXE and len(record.lobby.computers) == 4
    revision = record.lobby.revision
    assert await _tap(table, gid, SetComputers(gid, revision, 2, Level.SEARCH)) == "Saved."
    assert [p.user_id for p in (await table.record(gid)).lobby.players] == [ANN, -1, -2]
    (setup,) = table.sender.live(ANN)
    assert "Saboteur Deluxe" in setup.text and "You against 2 computer players:" in setup.text


async def test_the_player_picks_how_well_the_opponents_play(table: Table) -> None:
    gid = await _practice(table)
    assert "They play: strong" in table.sender.live(ANN)[0].text
    revision = (await table.record(gid)).lobby.revision
    assert await _tap(table, gid, SetComputers(gid, revision, 3, Level.HEURISTIC)) == "Saved."
    record = await table.record(gid)
    assert [p.computer for p in record.lobby.computers] == [Level.HEURISTIC] * 3
    (setup,) = table.sender.live(ANN)
    assert "They play: easy" in setup.text and setup.keyboard is not None
    assert "✅ easy" in [b.label for row in setup.keyboard for b in row]
    # More opponents keep the level picked; their buttons carry it.
    more = next(
        b.command
        for row in setup.keyboard
        for b in row
        if isinstance(b.command, SetComputers) and b.command.count == 4
    )
    assert await _tap(table, gid, more) == "Saved."
    assert [p.computer for p in (await table.record(gid)).lobby.computers] == [Level.HEURISTIC] * 4


async def test_forged_practice_buttons_are_refused_and_change_nothing(table: Table) -> None:
    gid = await _practice(table)
    before = await table.record(gid)
    rev = before.lobby.revision
    for command in (
        SetComputers(gid, rev, 1, Level.SEARCH),
        SetComputers(gid, rev, 5, Level.SEARCH),
        AddComputer(gid, rev, Level.SEARCH),
        LeaveGame(gid, rev),
        JoinGame(gid, rev),
        SetTurnLimit(gid, rev, 1),
    ):
        toast = await table.service.tap(person(ANN), command, ANN, None)
        assert toast.alert and toast.text == "This button is not valid.", command
    toast = await table.service.tap(person(BOB), StartGame(gid, rev), BOB, None)
    assert toast.alert and toast.text == "These buttons are not yours."
    assert await table.record(gid) == before


async def test_a_practice_game_in_play_takes_no_time_limit(table: Table) -> None:
    gid = await _started(table)
    before = await table.record(gid)
    command = SetTurnLimit(gid, before.lobby.revision, 1)
    toast = await table.service.tap(person(ANN), command, ANN, None)
    assert toast.alert and toast.text == "This button is not valid."
    assert await table.record(gid) == before


async def test_nobody_joins_someone_else_s_practice_game(table: Table) -> None:
    gid = await _practice(table)
    await table.service.open_link(person(BOB), join_payload(gid))
    assert table.said(BOB)[-1] == "This is someone's practice game."
    assert not (await table.record(gid)).lobby.has_player(BOB)


async def test_practice_again_shows_the_set_up_again(table: Table) -> None:
    gid = await _practice(table)
    await table.service.practice(person(ANN))
    (setup,) = table.sender.live(ANN)
    assert (await table.record(gid)).messages.lobby == setup.message_id
    assert await table.store.active_game(ANN, None) == gid


async def test_practice_during_a_practice_game_points_to_it_and_offers_to_end_it(
    table: Table,
) -> None:
    """The hand comes again at the bottom of the chat, under a note whose button ends it."""
    gid = await _started(table)
    await table.computers_play(gid)
    before = await table.record(gid)
    await table.service.practice(person(ANN))
    note, hand = table.sender.live(ANN)[-2:]
    assert note.text == (
        "Your practice game is still on: your hand is just below. Play on, or end it here."
    )
    assert hand.kind == "photo" and hand.message_id == (await table.record(gid)).messages.hand_of(
        ANN
    )
    assert hand.message_id != before.messages.hand_of(ANN)
    await _one_board_and_one_hand(table, gid)
    assert await table.store.active_game(ANN, None) == gid
    assert note.keyboard is not None
    ((end,),) = note.keyboard
    assert end.label == "✖️ End the practice game"
    assert await _tap(table, gid, end.command, BOB) != "The game was cancelled."
    assert (await table.record(gid)).status is Status.PLAYING  # a stranger's tap: nothing
    assert await _tap(table, gid, end.command) == "The game was cancelled."
    assert (await table.record(gid)).status is Status.CANCELLED
    assert await table.store.active_game(ANN, None) is None
    await _practice(table)  # the chat is free for the next one


async def test_a_practice_game_left_waiting_for_its_player_ends_after_two_days(
    table: Table,
) -> None:
    """The player walked away (or blocked the bot): after PRACTICE_IDLE_SECONDS without their
    move the game ends, says so on their hand, and frees the chat and every deadline."""
    gid = await _started(table)
    await table.computers_play(gid)
    version = (await table.state(gid)).version
    record = await table.record(gid)
    assert await table.deadlines.pending() == [
        (f"{gid}:{version}:idle", record.turn_started_at + PRACTICE_IDLE_SECONDS)
    ]
    table.clock.advance(PRACTICE_IDLE_SECONDS - 1)
    await table.service.sweep()
    assert (await table.record(gid)).status is Status.PLAYING
    table.clock.advance(1)
    await table.service.sweep()
    record = await table.record(gid)
    assert record.status is Status.CANCELLED and record.owed.is_empty
    ended = "This practice game ended: it waited 48 h for your move. /practice starts a new one."
    (hand,) = [m for m in table.sender.live(ANN, "photo") if ended in m.text]
    assert hand.keyboard is None
    assert await table.store.active_game(ANN, None) is None
    assert await table.store.user_games(ANN) == ()
    assert await table.deadlines.pending() == []
    await _practice(table)


async def test_a_practice_game_s_idle_clock_starts_again_at_each_move(table: Table) -> None:
    gid = await _started(table)
    await table.computers_play(gid)
    table.clock.advance(PRACTICE_IDLE_SECONDS - 10)
    await table.discard(gid)
    await table.computers_play(gid)
    table.clock.advance(10)
    await table.service.sweep()  # the first turn's deadline is gone with the move
    record = await table.record(gid)
    assert record.status is Status.PLAYING
    assert [kind for kind in dict(await table.deadlines.pending())] == [
        f"{gid}:{record.state.version if record.state else 0}:idle"
    ]


async def test_a_practice_game_from_before_idle_ends_gets_its_deadline_at_a_tap(
    table: Table,
) -> None:
    """A game started before practice games ended has no idle deadline: the player's next tap
    that is not a move owes it (from the turn's start, as for any other)."""
    gid = await _started(table)
    await table.computers_play(gid)
    table.deadlines.due.clear()
    record = await table.record(gid)
    assert record.state is not None
    await table.hand_tap(ANN, ShowHand(gid, record.state.version))
    assert await table.deadlines.pending() == [
        (f"{gid}:{record.state.version}:idle", record.turn_started_at + PRACTICE_IDLE_SECONDS)
    ]


async def test_a_practice_set_up_left_a_day_expires_and_says_so_in_its_words(
    table: Table,
) -> None:
    gid = await _practice(table)
    table.clock.advance(LOBBY_IDLE_SECONDS)
    await table.service.sweep()
    assert (await table.record(gid)).status is Status.CANCELLED
    (setup,) = table.sender.live(ANN)
    assert setup.text == "This practice set-up expired after a day. /practice opens a new one."
    assert await table.store.active_game(ANN, None) is None
    assert await table.store.user_games(ANN) == ()


async def test_an_idle_practice_game_s_player_blocked_the_bot_still_ends(table: Table) -> None:
    gid = await _started(table)
    await table.computers_play(gid)
    table.sender.blocked.add(ANN)
    table.clock.advance(PRACTICE_IDLE_SECONDS)
    await table.service.sweep()
    assert (await table.record(gid)).status is Status.CANCELLED
    assert await table.store.active_game(ANN, None) is None


async def test_a_stale_idle_deadline_changes_nothing(table: Table) -> None:
    gid = await _started(table)
    await table.computers_play(gid)
    version = (await table.state(gid)).version
    await table.discard(gid)
    await table.computers_play(gid)
    before = await table.record(gid)
    await table.deadlines.add([Deadline(gid, version, DeadlineKind.IDLE, table.clock())])
    await table.service.sweep()
    after = await table.record(gid)
    assert after.status is Status.PLAYING and after.state == before.state


async def test_a_started_practice_posts_the_board_and_the_hand_in_the_same_chat(
    table: Table,
) -> None:
    gid = await _started(table)
    await table.computers_play(gid)
    record = await table.record(gid)
    assert record.owed.is_empty
    boards = [m for m in table.sender.live(ANN, "photo") if m.keyboard is None]
    (hand,) = [m for m in table.sender.live(ANN, "photo") if m.keyboard is not None]
    assert boards[-1].message_id == record.messages.board
    assert hand.message_id == record.messages.hand_of(ANN)
    assert "🎴 <b>Practice</b>" in hand.text
    assert {m.chat_id for m in table.sender.messages} == {ANN}
    await _one_board_and_one_hand(table, gid)


async def test_a_whole_practice_game_to_the_end(table: Table) -> None:
    gid = await _started(table)
    for _ in range(400):
        record = await table.record(gid)
        if not record.status.is_active:
            break
        await table.computers_play(gid)
        await _one_board_and_one_hand(table, gid)
        if (await table.record(gid)).status.is_active:
            await table.discard(gid)
    record = await table.record(gid)
    assert record.status is Status.FINISHED
    assert {m.chat_id for m in table.sender.messages} == {ANN}
    await _one_board_and_one_hand(table, gid)
    (board,) = [m for m in table.sender.live(ANN, "photo") if "Game over!" in m.text]
    assert "Round 3 is over!" in board.text, "the last round's final board tells the end"
    assert "Game over!" in board.text and "Play again with /practice." in board.text
    finals = [m for m in table.sender.live(ANN, "photo") if "is over!" in m.text]
    assert len(finals) == 3, "each round's final board stays in the chat"
    assert await table.store.active_game(ANN, None) is None
    assert await table.deadlines.pending() == []
    await _practice(table)  # the chat is free for the next one


async def test_cancel_in_private_ends_the_practice_game_and_says_so_once(table: Table) -> None:
    gid = await _started(table)
    await table.computers_play(gid)
    await table.service.cancel_practice(person(ANN))
    record = await table.record(gid)
    assert record.status is Status.CANCELLED
    assert await table.deadlines.pending() == []
    said = [m.text for m in table.sender.messages if "Ann cancelled the game." in m.text]
    assert len(said) == 1
    (hand,) = [m for m in table.sender.live(ANN, "photo") if m.text in said]
    assert hand.keyboard is None
    assert await table.store.active_game(ANN, None) is None


async def test_cancel_of_a_practice_set_up_edits_it(table: Table) -> None:
    gid = await _practice(table)
    await table.service.cancel_practice(person(ANN))
    assert (await table.record(gid)).status is Status.CANCELLED
    (setup,) = table.sender.live(ANN)
    assert setup.text == "The game was cancelled." and setup.keyboard is None


async def test_cancel_in_private_without_a_practice_game(table: Table) -> None:
    await table.service.cancel_practice(person(ANN))
    assert table.said(ANN) == ["You have no practice game here. /practice starts one."]


async def test_practice_in_a_group_points_to_the_private_chat(table: Table) -> None:
    await table.service.practice_in_group(place())
    assert table.said(GROUP) == [
        "Practice games are played in our private chat: send /practice to @saboteur_test_bot there."
    ]
    assert await table.store.active_game(GROUP, None) is None


async def test_a_practice_game_and_a_group_game_at_once(table: Table) -> None:
    group_game = await table.start((ANN, BOB, 3))
    practice = await _started(table)
    assert set(await table.store.user_games(ANN)) == {group_game, practice}
    record: GameRecord = await table.record(group_game)
    assert record.status is Status.PLAYING


async def test_a_language_chosen_in_private_is_the_practice_game_s_language(table: Table) -> None:
    gid = await _started(table)
    await table.service.tap(person(ANN), SetLanguage(Language("ko")), ANN, None)
    record = await table.record(gid)
    assert record.language == Language("ko") and record.lobby.player(ANN) is not None
    assert record.lobby.humans[0].language == Language("ko")
