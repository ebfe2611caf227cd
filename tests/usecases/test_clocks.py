"""Turn clock use cases in memory: deadlines, reminders, stand-ins and /kick votes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from telegram import Chat, Message, MessageEntity, User

from tgbot.buttons import SetTurnLimit, ShowHand, StartGame
from tgbot.clocks import AUTO_DELAY_SECONDS, MISSES_FOR_AUTO, reminder_lead
from tgbot.handlers import target_of
from tgbot.links import join_payload
from tgbot.ports import Fate
from tgbot.records import LobbyPlayer
from tgbot.service import Person, Target
from tgbot.time_texts import fallback, moment

from .conftest import (
    ANN,
    BOB,
    CAT,
    DAN,
    EN,
    EVE,
    GROUP,
    NAMES,
    BrokenStore,
    Table,
    person,
    place,
)

HOUR = 3600


async def _limit_one_hour(table: Table, gid: str) -> None:
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetTurnLimit(gid, revision, 1))


async def test_a_started_game_schedules_a_reminder_and_a_timeout(table: Table) -> None:
    gid = await table.start()
    pending = dict(await table.deadlines.pending())
    start = (await table.record(gid)).turn_started_at
    assert pending == {
        f"{gid}:0:remind": start + 24 * HOUR - reminder_lead(24 * HOUR),
        f"{gid}:0:timeout": start + 24 * HOUR,
    }


async def test_a_move_replaces_the_deadlines_of_its_turn(table: Table) -> None:
    gid = await table.start()
    await table.discard(gid)
    assert sorted(m for m, _ in await table.deadlines.pending()) == [
        f"{gid}:1:remind",
        f"{gid}:1:timeout",
    ]


async def test_no_time_limit_means_no_deadlines(table: Table) -> None:
    gid = await table.start()
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetTurnLimit(gid, revision, None))
    await table.discard(gid)
    assert await table.deadlines.pending() == []


async def test_the_reminder_comes_in_private_before_the_end(table: Table) -> None:
    """The hand comes again (a new, notifying message) with the reminder on it; the old one
    goes, so the player still has one live hand."""
    gid = await table.start()
    player = await table.to_act(gid)
    old = (await table.record(gid)).messages.hand_of(player)
    table.clock.advance(24 * HOUR - reminder_lead(24 * HOUR))
    await table.service.sweep()
    hands = table.sender.live(player, "photo")
    assert len(hands) == 1 and hands[0].message_id != old
    end = (await table.record(gid)).turn_started_at + 24 * HOUR
    moment = f'<tg-time unix="{end}" format="wt">{fallback(end)}</tg-time>'
    assert f"⏰ Your turn in <b>The Mine</b> ends in 2 h ({moment})." in hands[0].text
    assert f"⏰ This turn ends {moment}." in hands[0].text  # the live message says it too
    assert hands[0].keyboard  # the buttons to play are on it
    assert (await table.state(gid)).version == 0


async def test_a_reminder_that_fails_for_a_passing_reason_comes_later(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    table.sender.fail("private_photo", Fate.RETRY)
    table.clock.advance(24 * HOUR - reminder_lead(24 * HOUR))
    await table.service.sweep()
    assert (await table.record(gid)).owed.fresh == (player,)
    table.clock.advance(2)
    await table.service.sweep()
    assert "⏰ Your turn" in table.sender.live(player, "photo")[-1].text
    assert (await table.record(gid)).owed.is_empty


async def test_a_timeout_lets_the_computer_play_for_the_player_and_says_so(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    table.clock.advance(24 * HOUR)
    await table.service.sweep()
    record = await table.record(gid)
    assert record.state is not None and record.state.version == 1
    assert dict(record.misses) == {player: 1} and record.automatic == ()
    assert any(
        "did not play in time, so the computer played for them." in t for t in table.said(GROUP)
    )
    (hand,) = table.sender.live(player, "photo")
    assert "Time is up: the computer played for you (" in hand.text


async def test_missing_turns_in_a_row_puts_the_player_on_automatic(table: Table) -> None:
    gid = await table.start()
    await _limit_one_hour(table, gid)
    player = await table.to_act(gid)
    for _ in range(MISSES_FOR_AUTO):
        while await table.to_act(gid) != player:
            await table.discard(gid)
        table.clock.advance(HOUR)
        await table.service.sweep()
    record = await table.record(gid)
    assert player in record.automatic
    assert any(
        "is away: the computer plays for them until they come back." in t for t in table.said(GROUP)
    )


async def test_a_player_on_automatic_is_played_for_after_a_pause(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    await table.overdue(gid)
    await table.service.kick(place(), person(EVE), True)
    assert player in (await table.record(gid)).automatic
    while await table.to_act(gid) != player:
        await table.discard(gid)
    version = (await table.state(gid)).version
    table.clock.advance(AUTO_DELAY_SECONDS)
    await table.service.sweep()
    assert (await table.state(gid)).version == version + 1


async def test_any_tap_brings_a_player_on_automatic_back(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    await table.overdue(gid)
    await table.service.kick(place(), person(EVE), True)
    toast = await table.hand_tap(player, ShowHand(gid, 1))
    assert toast.text == "Welcome back: you play your own turns again."
    assert player not in (await table.record(gid)).automatic


async def test_a_deadline_of_a_turn_already_played_does_nothing(table: Table) -> None:
    gid = await table.start()
    await table.discard(gid)
    await table.service.handle_deadline(f"{gid}:0:timeout")
    assert (await table.state(gid)).version == 1


async def test_a_deadline_of_a_cancelled_game_does_nothing(table: Table) -> None:
    gid = await table.start()
    await table.cancel_command(place(), person(ANN), False)
    await table.service.handle_deadline(f"{gid}:0:timeout")
    assert (await table.state(gid)).version == 0


async def test_an_unreadable_deadline_is_ignored(table: Table) -> None:
    gid = await table.start()
    for member in ("junk", f"{gid}:x:timeout", f"{gid}:0:later", "a:b:c:d"):
        await table.service.handle_deadline(member)
    assert (await table.state(gid)).version == 0


async def test_a_deadline_of_a_game_that_is_gone_does_nothing(table: Table) -> None:
    first = await table.start()
    table.deadlines.due["Gone000001:0:timeout"] = 0.0
    table.clock.advance(24 * HOUR)
    await table.service.sweep()
    assert (await table.state(first)).version == 1


async def test_a_failing_deadline_does_not_stop_the_others() -> None:
    table = Table(store_class=BrokenStore)
    assert isinstance(table.store, BrokenStore)
    first = await table.start()
    second = await table.start(where=place(GROUP, 9))
    table.store.broken = {first}
    table.clock.advance(24 * HOUR)
    await table.service.sweep()
    assert (await table.state(second)).version == 1
    table.store.broken = set()
    assert (await table.state(first)).version == 0


async def test_kick_without_a_game(table: Table) -> None:
    text = await table.service.kick(place(), person(ANN), False)
    assert text == "There is no game here. Open one with /new."


async def test_kick_in_a_lobby(table: Table) -> None:
    await table.open()
    text = await table.service.kick(place(), person(ANN), False)
    assert text == "The game here has not started yet: nobody's turn to skip."


async def test_kick_about_ones_own_turn(table: Table) -> None:
    gid = await table.start()
    text = await table.service.kick(place(), person(await table.to_act(gid)), False)
    assert text == "You cannot vote about your own turn."


async def test_kick_by_someone_outside_the_game(table: Table) -> None:
    await table.start()
    text = await table.service.kick(place(), person(DAN), False)
    assert text == "Only players of this game can vote."


async def test_a_kick_vote_is_counted_once(table: Table) -> None:
    gid = await table.start((ANN, BOB, CAT, DAN, EVE))
    player = await table.to_act(gid)
    voter = next(u for u in (ANN, BOB, CAT, DAN, EVE) if u != player)
    await table.overdue(gid)
    first = await table.service.kick(place(), person(voter), False)
    assert "votes to let the game play for" in first and "(1/3)" in first
    again = await table.service.kick(place(), person(voter), False)
    assert again == "You have already voted."
    assert (await table.record(gid)).kick_votes == (voter,)


async def test_a_majority_of_votes_lets_the_game_play(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    voters = [u for u in (ANN, BOB, CAT) if u != player]
    await table.overdue(gid)
    assert "(1/2)" in await table.service.kick(place(), person(voters[0]), False)
    assert await table.service.kick(place(), person(voters[1]), False) == ""
    record = await table.record(gid)
    assert record.state is not None and record.state.version == 1
    assert player in record.automatic and record.kick_votes == ()
    assert any("The computer now plays for" in t for t in table.said(GROUP))


async def test_an_admin_kicks_at_once(table: Table) -> None:
    gid = await table.start()
    await table.overdue(gid)
    assert await table.service.kick(place(), person(DAN), True) == ""
    assert (await table.state(gid)).version == 1


async def test_votes_are_forgotten_after_a_move(table: Table) -> None:
    gid = await table.start((ANN, BOB, CAT, DAN, EVE))
    player = await table.to_act(gid)
    voter = next(u for u in (ANN, BOB, CAT, DAN, EVE) if u != player)
    await table.service.kick(place(), person(voter), False)
    await table.discard(gid)
    assert (await table.record(gid)).kick_votes == ()


async def test_a_cancelled_game_drops_its_deadlines(table: Table) -> None:
    gid = await table.start()
    await table.cancel_command(place(), person(ANN), False)
    assert await table.deadlines.pending() == []
    table.clock.advance(24 * HOUR)
    await table.service.sweep()
    assert (await table.state(gid)).version == 0
    assert not any("did not play in time" in t for t in table.said(GROUP))


async def test_a_cancelled_game_on_automatic_drops_its_stand_in_move(table: Table) -> None:
    gid = await table.start()
    await table.overdue(gid)
    await table.service.kick(place(), person(EVE), True)
    assert await table.deadlines.pending() != []
    await table.cancel_command(place(), person(ANN), False)
    assert await table.deadlines.pending() == []
    assert (await table.state(gid)).version == 1


async def test_a_game_in_a_group_the_bot_left_drops_its_deadlines(table: Table) -> None:
    gid = await table.start()
    await table.service.bot_removed(GROUP)
    assert await table.deadlines.pending() == []
    assert (await table.record(gid)).status.value == "cancelled"


async def test_a_game_played_to_its_end_leaves_no_deadlines(table: Table) -> None:
    gid = await table.start()
    for _ in range(1000):
        record = await table.record(gid)
        if not record.status.is_active:
            break
        await table.discard(gid)
    assert (await table.record(gid)).status.value == "finished"
    assert await table.deadlines.pending() == []


async def _awaited_and_voter(table: Table, gid: str) -> tuple[int, int]:
    player = await table.to_act(gid)
    return player, next(u for u in (ANN, BOB, CAT) if u != player)


@pytest.mark.parametrize("form", ["{}", "@{}", "  {}  "])
async def test_kick_naming_the_awaited_player_counts(table: Table, form: str) -> None:
    gid = await table.start()
    player, voter = await _awaited_and_voter(table, gid)
    said = form.format(NAMES[player].upper())
    await table.overdue(gid)
    text = await table.service.kick(place(), person(voter), False, Target(said))
    assert "(1/2)" in text
    assert (await table.record(gid)).kick_votes == (voter,)


async def test_kick_naming_someone_else_says_who_is_awaited_and_changes_nothing(
    table: Table,
) -> None:
    gid = await table.start()
    player, voter = await _awaited_and_voter(table, gid)
    bystander = next(u for u in (ANN, BOB, CAT) if u not in (player, voter))
    before = await table.record(gid)
    for target in (Target(NAMES[bystander]), Target("@nobody"), Target("x", user_id=bystander)):
        text = await table.service.kick(place(), person(voter), True, target)
        assert text == (
            f"I am waiting for {NAMES[player]}, not for {target.text}: /kick only concerns the"
            " player whose turn it is."
        )
    assert await table.record(gid) == before


async def test_kick_by_a_picked_mention_or_username(table: Table) -> None:
    gid = await table.open()
    for uid in (ANN, BOB, CAT):
        await table.service.open_link(
            Person(uid, NAMES[uid], "en", f"user{uid}"), join_payload(gid)
        )
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, StartGame(gid, revision))
    player, voter = await _awaited_and_voter(table, gid)
    assert (await table.record(gid)).lobby.player(player) == LobbyPlayer(
        player, NAMES[player], EN, f"user{player}"
    )
    await table.overdue(gid)
    text = await table.service.kick(place(), person(voter), False, Target(f"@USER{player}"))
    assert "(1/2)" in text
    other = next(u for u in (ANN, BOB, CAT) if u not in (player, voter))
    assert await table.service.kick(place(), person(other), False, Target("me", player)) == ""
    assert (await table.state(gid)).version == 1


def _message(text: str, entities: tuple[MessageEntity, ...] = ()) -> Message:
    chat = Chat(GROUP, Chat.SUPERGROUP)
    return Message(1, datetime.now(UTC), chat, text=text, entities=entities)


def test_kick_without_words_names_nobody() -> None:
    assert target_of(_message("/kick"), []) is None
    assert target_of(_message("/kick"), None) is None


def test_kick_words_name_whom_they_say() -> None:
    assert target_of(_message("/kick @bob"), ["@bob"]) == Target("@bob")
    assert target_of(_message("/kick Bob Stone"), ["Bob", "Stone"]) == Target("Bob Stone")


def test_a_picked_mention_carries_the_user() -> None:
    bob = User(BOB, "Bob", False)
    picked = MessageEntity(MessageEntity.TEXT_MENTION, 6, 3, user=bob)
    assert target_of(_message("/kick Bob", (picked,)), ["Bob"]) == Target("Bob", BOB)


async def test_a_new_time_per_turn_during_play_redraws_the_deadline_on_every_hand(
    table: Table,
) -> None:
    """/settings during play moves the turn's end: each player's live message says the new one
    (a date_time entity), and no longer the old."""
    gid = await table.start()
    await table.discard(gid)
    record = await table.record(gid)
    start = record.turn_started_at
    old, new = moment(int(start + 24 * HOUR)), moment(int(start + HOUR))
    hands = dict(record.messages.hands)
    assert hands, "the players have live messages"

    def shown(uid: int) -> str:
        (message,) = [m for m in table.sender.live(uid) if m.message_id == hands[uid]]
        return message.text

    assert all(old in shown(uid) for uid in hands)
    await _limit_one_hour(table, gid)
    for uid in hands:
        assert new in shown(uid) and old not in shown(uid), uid
    # The group is told too, below the board, with the turn's new end.
    told = table.group()[-1]
    assert told.kind == "text", told
    assert "set the time per turn to 1 h" in told.text and new in told.text, told.text


async def test_removing_the_time_limit_during_play_is_told_without_a_deadline(
    table: Table,
) -> None:
    """/settings → no limit: the group is told the limit is gone, and no turn end is named."""
    gid = await table.start()
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetTurnLimit(gid, revision, None))
    told = table.group()[-1]
    assert "removed the time limit per turn" in told.text and "tg-time" not in told.text
    assert await table.deadlines.pending() == []
