"""Play use cases in memory: private hands, taps of every kind, moves, /board and /status."""

from __future__ import annotations

import dataclasses

from engine import Phase
from tgbot.buttons import Back, ConfirmDiscard, Noop, PickCard, SetTurnLimit, ShowHand, StartDiscard
from tgbot.links import hand_payload
from tgbot.records import Status

from .conftest import ANN, BOB, CAT, DAN, GROUP, Table, person, place


async def _other(table: Table, gid: str) -> int:
    """A player whose turn it is not."""
    player = await table.to_act(gid)
    return next(u for u in (ANN, BOB, CAT) if u != player)


async def test_an_unreadable_button_is_not_valid(table: Table) -> None:
    toast = await table.service.tap(person(ANN), None, ANN, None)
    assert toast.alert and toast.text == "This button is not valid."


async def test_a_label_button_does_nothing(table: Table) -> None:
    toast = await table.service.tap(person(ANN), Noop(), ANN, None)
    assert toast.text == "" and table.sender.calls == []


async def test_a_hand_button_of_a_game_that_is_gone(table: Table) -> None:
    toast = await table.hand_tap(ANN, ShowHand("Gone000001", 0))
    assert toast.text == "This game no longer exists."


async def test_a_hand_button_of_a_lobby_is_of_no_game(table: Table) -> None:
    gid = await table.open()
    toast = await table.hand_tap(ANN, ShowHand(gid, 0))
    assert toast.text == "This game no longer exists."


async def test_a_hand_button_from_someone_outside_the_game(table: Table) -> None:
    gid = await table.start()
    toast = await table.hand_tap(DAN, ShowHand(gid, 0))
    assert toast.alert and toast.text == "These buttons are not yours."


async def test_a_hand_button_tapped_in_a_group_is_not_yours(table: Table) -> None:
    gid = await table.start()
    toast = await table.service.tap(person(ANN), ShowHand(gid, 0), GROUP, None)
    assert toast.alert and toast.text == "These buttons are not yours."


async def test_a_button_from_the_future_is_forged(table: Table) -> None:
    gid = await table.start()
    toast = await table.hand_tap(ANN, ShowHand(gid, 99))
    assert toast.alert and toast.text == "This button is not valid."


async def test_it_is_not_your_turn(table: Table) -> None:
    gid = await table.start()
    other = await _other(table, gid)
    toast = await table.hand_tap(other, StartDiscard(gid, 0))
    assert toast.text.startswith("It is not your turn:")
    assert (await table.state(gid)).version == 0


async def test_showing_the_hand_works_out_of_turn(table: Table) -> None:
    gid = await table.start()
    other = await _other(table, gid)
    toast = await table.hand_tap(other, ShowHand(gid, 0))
    assert toast.text == ""
    assert table.sender.live(other, "photo")[0].edits == 1


async def test_a_menu_step_edits_the_live_message(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    toast = await table.hand_tap(player, PickCard(gid, 0, 0))
    (hand,) = table.sender.live(player, "photo")
    assert toast.text == "" and hand.edits == 1 and hand.keyboard


async def test_a_forged_card_index_is_refused(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    toast = await table.hand_tap(player, PickCard(gid, 0, 42))
    assert toast.alert and toast.text == "This button is not valid."


async def test_a_discard_is_a_move_announced_in_the_group_and_in_private(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    board_before = (await table.record(gid)).messages.board
    toast = await table.discard(gid)
    assert toast.text == "Done!"
    record = await table.record(gid)
    assert record.state is not None and record.state.version == 1
    assert record.owed.is_empty
    boards = table.sender.live(GROUP, "photo")
    assert [b.message_id for b in boards] == [record.messages.board] != [board_before]
    assert "discarded" in boards[0].text.lower()
    nxt = await table.to_act(gid)
    assert nxt != player
    assert len([s for s in table.sender.messages if s.chat_id == nxt and s.kind == "photo"]) == 2


async def test_the_next_player_gets_a_fresh_hand_and_the_old_one_goes(table: Table) -> None:
    gid = await table.start()
    await table.discard(gid)
    nxt = await table.to_act(gid)
    (hand,) = table.sender.live(nxt, "photo")
    assert (await table.record(gid)).messages.hand_of(nxt) == hand.message_id
    assert hand.keyboard


async def test_a_tap_on_an_old_hand_shows_the_current_one(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    await table.discard(gid)
    await table.discard(gid)
    await table.discard(gid)
    assert await table.to_act(gid) == player
    toast = await table.hand_tap(player, ShowHand(gid, 0))
    assert toast.text == "This hand is from turn 1; here is your current hand."


async def test_an_old_move_button_out_of_turn_says_whose_turn(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    await table.discard(gid)
    toast = await table.hand_tap(player, ConfirmDiscard(gid, 0, frozenset({0})))
    assert toast.text.startswith("It is not your turn:")
    assert (await table.state(gid)).version == 1


async def test_a_stale_tapped_message_is_deleted(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    await table.discard(gid)
    live = (await table.record(gid)).messages.hand_of(player)
    old = table.sender.messages[0].message_id
    await table.hand_tap(player, Back(gid, 0), message=old)
    assert (await table.record(gid)).messages.hand_of(player) == live


async def test_a_move_on_a_cancelled_game(table: Table) -> None:
    gid = await table.start()
    await table.cancel_command(place(), person(ANN), False)
    toast = await table.discard(gid, ANN)
    assert toast.text == "This game was cancelled."


async def test_a_discard_of_a_card_one_does_not_hold_is_refused(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    toast = await table.hand_tap(player, ConfirmDiscard(gid, 0, frozenset({77})))
    assert toast.alert
    assert (await table.state(gid)).version == 0


async def test_two_cards_cannot_be_discarded_in_the_base_game(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    toast = await table.hand_tap(player, ConfirmDiscard(gid, 0, frozenset({0, 1})))
    assert toast.alert
    assert (await table.state(gid)).version == 0


async def test_start_in_private_says_hello(table: Table) -> None:
    await table.service.open_link(person(DAN), None)
    assert "I run games of Saboteur in groups" in table.said(DAN)[0]


async def test_start_in_private_greets_in_the_apps_language(table: Table) -> None:
    await table.service.open_link(person(DAN, "ko"), None)
    assert table.said(DAN)[0].startswith("안녕하세요!")


async def test_the_hand_link_sends_a_new_live_message(table: Table) -> None:
    gid = await table.start()
    before = (await table.record(gid)).messages.hand_of(BOB)
    await table.service.open_link(person(BOB), hand_payload(gid))
    after = (await table.record(gid)).messages.hand_of(BOB)
    assert after != before
    assert [m.message_id for m in table.sender.live(BOB, "photo")] == [after]


async def test_the_hand_link_of_someone_else_s_game(table: Table) -> None:
    gid = await table.start()
    await table.service.open_link(person(DAN), hand_payload(gid))
    assert table.said(DAN) == ["This game no longer exists."]


async def test_board_posts_the_board_again_and_deletes_the_old_one(table: Table) -> None:
    gid = await table.start()
    old = (await table.record(gid)).messages.board
    await table.service.repost_board(place())
    new = (await table.record(gid)).messages.board
    assert new != old
    assert [b.message_id for b in table.sender.live(GROUP, "photo")] == [new]


async def test_board_in_a_lobby_posts_the_lobby_again(table: Table) -> None:
    gid = await table.open()
    old = (await table.record(gid)).messages.lobby
    await table.service.repost_board(place())
    assert (await table.record(gid)).messages.lobby != old
    assert len(table.group()) == 1


async def test_board_without_a_game(table: Table) -> None:
    await table.service.repost_board(place())
    assert table.said(GROUP) == ["There is no game here. Open one with /new."]


async def test_status_without_a_game(table: Table) -> None:
    assert await table.service.status_text(place()) == "There is no game here. Open one with /new."


async def test_status_of_a_lobby_counts_the_players(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, ANN, BOB)
    assert await table.service.status_text(place()) == "The game is being set up: 2 players so far."


async def test_status_of_a_game_names_the_player_and_the_time_left(table: Table) -> None:
    gid = await table.start()
    table.clock.advance(3600)
    text = await table.service.status_text(place())
    name = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}[await table.to_act(gid)]
    assert "Round 1/3. " in text and name in text and "23 h." in text


async def test_status_without_a_time_limit(table: Table) -> None:
    gid = await table.start()
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetTurnLimit(gid, revision, None))
    assert (await table.service.status_text(place())).endswith("No time limit.")


async def test_a_finished_game_answers_taps_as_over(table: Table) -> None:
    gid = await table.start()
    record = await table.record(gid)
    assert record.state is not None
    over = dataclasses.replace(
        record, status=Status.FINISHED, state=dataclasses.replace(record.state, phase=Phase.OVER)
    )
    assert await table.store.save(over, record.rev)
    toast = await table.hand_tap(ANN, ShowHand(gid, 0))
    assert toast.text == "This game is over."


async def test_the_board_post_says_whose_turn_first_above_the_picture(table: Table) -> None:
    gid = await table.start()
    await table.discard(gid)
    post = table.sender.live(GROUP, "photo")[-1]
    status, turn, *moves = post.text.split("\n")
    state = await table.state(gid)
    assert post.above, "the caption is shown above the picture"
    assert status == f"Round 1/3 · deck {len(state.deck)}", post.text
    assert turn.endswith("your turn!") and moves and "discarded" in " ".join(moves), post.text
