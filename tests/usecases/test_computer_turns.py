"""Computer players' turns in memory: deadlines, view-only decisions, announcements, whole games."""

from __future__ import annotations

import dataclasses

import pytest

from ai import Level
from engine import Edition, Phase, current_player, player_view
from engine.archive import parse_seat_move
from tgbot import computer
from tgbot.buttons import SetEdition, SetTurnLimit, ShowHand, StartGame
from tgbot.clocks import CLAIM_LEASE_SECONDS, Deadline, DeadlineKind
from tgbot.i18n import Language
from tgbot.records import GameRecord, Status, record_from_json, record_to_json

from ..ai.test_view_only import hidden_changed
from .conftest import ANN, BOB, GROUP, Table, person, place

HOUR = 3600


def _computer_ids(record: GameRecord) -> set[int]:
    return {p.user_id for p in record.lobby.computers}


def _nothing_sent_to_computers(table: Table, record: GameRecord) -> None:
    """No message of any kind ever went to a computer player's id."""
    ids = _computer_ids(record)
    assert ids and not ids & {m.chat_id for m in table.sender.messages}


async def _play_out(table: Table, gid: str, people_discard: bool = True) -> GameRecord:
    """People discard, computers play, until the game ends; checks every owed message on the way."""
    for _ in range(2000):
        record = await table.record(gid)
        assert not (set(record.owed.fresh) | set(record.owed.edits)) & _computer_ids(record)
        if not record.status.is_active:
            return record
        await table.computers_play(gid)
        record = await table.record(gid)
        if record.status.is_active and people_discard:
            await table.discard(gid)
    raise AssertionError("the game did not end")


async def test_a_computer_s_turn_is_a_deadline_after_the_pause() -> None:
    table = Table(pause=2.0)
    gid = await table.start_with_computers((ANN,), 2, Level.RANDOM)
    while await table.to_act(gid) == ANN:
        await table.discard(gid)
    record = await table.record(gid)
    assert record.state is not None
    version = record.state.version
    pending = dict(await table.deadlines.pending())
    assert pending == {f"{gid}:{version}:computer": record.turn_started_at + 2.0}
    # the sweeper is asked to run when the pause is over, not at its next tick
    assert table.wakes and set(table.wakes) == {2.0}, table.wakes
    await table.service.sweep()
    assert (await table.state(gid)).version == version  # not yet: it pauses
    table.clock.advance(2)
    await table.service.sweep()
    assert (await table.state(gid)).version == version + 1


async def test_a_computer_s_move_is_announced_like_anyone_s(table: Table) -> None:
    gid = await table.start_with_computers((ANN,), 2)
    while await table.to_act(gid) == ANN:
        await table.discard(gid)
    computer_id = await table.to_act(gid)
    version = (await table.state(gid)).version
    name = next(
        p.name for p in (await table.record(gid)).lobby.computers if p.user_id == computer_id
    )
    await table.service.sweep()
    record = await table.record(gid)
    assert record.state is not None and record.state.version == version + 1
    assert record.owed.is_empty
    board = table.sender.live(GROUP, "photo")[-1]
    assert board.text.split("\n")[2].startswith(f"🤖 {name} ")  # after the status lines
    assert f'href="tg://user?id={computer_id}"' not in board.text
    assert len(record.moves) == record.state.version


async def test_no_deadline_or_message_of_a_computer_ever_reminds_or_times_out(
    table: Table,
) -> None:
    gid = await table.start_with_computers((ANN,), 2, Level.RANDOM)
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetTurnLimit(gid, revision, 1))
    while await table.to_act(gid) == ANN:
        await table.discard(gid)
    kinds = {m.split(":")[2] for m, _ in await table.deadlines.pending()}
    assert kinds == {"computer"}


async def test_one_person_and_two_computers_play_a_whole_game(table: Table) -> None:
    gid = await table.start_with_computers((ANN,), 2, Level.RANDOM)
    record = await _play_out(table, gid)
    assert record.status is Status.FINISHED
    assert record.state is not None and record.state.phase is Phase.OVER
    assert len(record.moves) == record.state.version
    assert await table.deadlines.pending() == []
    _nothing_sent_to_computers(table, record)
    assert "Game over!" in table.sender.live(GROUP, "text")[-1].text  # the game-end message
    assert await table.store.active_game(GROUP, None) is None


@pytest.mark.slow
async def test_a_whole_deluxe_game_against_searching_computers(table: Table) -> None:
    gid = await table.open()
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, SetEdition(gid, revision, Edition.DELUXE))
    await table.join(gid, ANN, BOB)
    await table.add_computers(gid, 2)
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, StartGame(gid, revision))
    record = await _play_out(table, gid)
    assert record.status is Status.FINISHED
    _nothing_sent_to_computers(table, record)


async def test_the_computer_decides_from_its_view_and_history_only(table: Table) -> None:
    """Two records alike from the computer's seat, unlike behind it: the same move."""
    gid = await table.start_with_computers((ANN,), 3, Level.HEURISTIC)
    for _ in range(6):
        await table.computers_play(gid)
        await table.discard(gid)
    await table.computers_play(gid)
    while True:
        record = await table.record(gid)
        assert record.state is not None
        player = current_player(record.state)
        if player is not None and player < 0:
            break
        await table.discard(gid)
    assert player is not None
    assert computer.history(record, player) is not None  # it replays what the seat saw
    for level in (Level.HEURISTIC, Level.SEARCH):
        levelled = _with_level(record, level)
        chosen = computer.decide(levelled, player)
        for k in range(3):
            state = hidden_changed(record.state, k)
            assert state.hands != record.state.hands or state.roles != record.state.roles
            assert player_view(state, player) == player_view(record.state, player)
            other = dataclasses.replace(levelled, state=state)
            assert computer.decide(other, player) == chosen


def _with_level(record: GameRecord, level: Level) -> GameRecord:
    players = tuple(
        dataclasses.replace(p, computer=level) if p.is_computer else p for p in record.lobby.players
    )
    return dataclasses.replace(record, lobby=dataclasses.replace(record.lobby, players=players))


async def test_a_decision_is_the_same_on_any_process_and_after_a_restart(table: Table) -> None:
    """The move comes from the stored record alone: decided again from the record as another
    process reads it, it is the same."""
    gid = await table.start_with_computers((ANN,), 2)
    for _ in range(3):
        await table.computers_play(gid)
        await table.discard(gid)
    record = await table.record(gid)
    player = await table.to_act(gid)
    assert player < 0
    stored = record_from_json(record_to_json(record), record.rev)
    assert computer.decide(stored, player) == computer.decide(record, player)
    # A record from before moves were kept: the computer still plays, from its view alone.
    old = dataclasses.replace(record, moves=())
    assert computer.history(old, player) is None
    assert computer.decide(old, player) is not None


async def test_a_computer_player_never_gets_a_private_message(table: Table) -> None:
    gid = await table.start_with_computers((ANN,), 2, Level.RANDOM)
    for _ in range(12):
        await table.computers_play(gid)
        await table.discard(gid)
    _nothing_sent_to_computers(table, await table.record(gid))


async def test_the_computer_s_role_and_hand_never_reach_the_group_before_the_round_ends() -> None:
    table = Table()
    gid = await table.open()
    await table.ctx.change(gid, lambda r: dataclasses.replace(r, language=Language("ko")))
    await table.join(gid, ANN)
    await table.add_computers(gid, 3)
    await table.set_level(gid, Level.HEURISTIC)
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, StartGame(gid, revision))
    record = await table.record(gid)
    assert record.state is not None
    for _ in range(300):
        record = await table.record(gid)
        assert record.state is not None
        if record.state.round > 1 or not record.status.is_active:
            break
        await table.computers_play(gid)
        if (await table.record(gid)).status.is_active:
            await table.discard(gid)
    said = table.said(GROUP)
    ended = next(i for i, t in enumerate(said) if "1라운드 종료" in t)
    assert "직업 공개:" in said[ended] and "🤖" in said[ended]  # the roles, at the end
    before = "\n".join(said[:ended])
    assert "방해꾼" not in before and "광부" not in before and "직업" not in before


async def test_kick_during_a_computer_s_turn_says_it_moves_by_itself() -> None:
    table = Table(pause=60.0)
    gid = await table.start_with_computers((ANN, BOB), 1, Level.RANDOM)
    while await table.to_act(gid) > 0:
        await table.discard(gid)
    before = await table.record(gid)
    text = await table.service.kick(place(), person(ANN), True)
    assert text.endswith("is a computer player: it moves by itself.")
    assert await table.record(gid) == before


async def test_a_kick_vote_counts_people_only_and_the_computer_plays_for_them(
    table: Table,
) -> None:
    gid = await table.start_with_computers((ANN, BOB), 2, Level.RANDOM)
    await table.computers_play(gid)
    awaited = await table.to_act(gid)
    voter = BOB if awaited == ANN else ANN
    await table.overdue(gid)
    assert await table.service.kick(place(), person(voter), False) == ""  # 1 of 1 person
    record = await table.record(gid)
    assert awaited in record.automatic
    assert any(
        "The computer now plays for" in t and "until they come back" in t for t in table.said(GROUP)
    )
    assert record.state is not None and len(record.moves) == record.state.version


async def test_a_reminder_or_timeout_on_a_computer_s_turn_does_nothing() -> None:
    table = Table(pause=60.0)
    gid = await table.start_with_computers((ANN,), 2, Level.RANDOM)
    while await table.to_act(gid) > 0:
        await table.discard(gid)
    before = await table.record(gid)
    assert before.state is not None
    for kind in ("remind", "timeout"):
        await table.service.handle_deadline(f"{gid}:{before.state.version}:{kind}")
    assert await table.record(gid) == before
    _nothing_sent_to_computers(table, before)


async def test_a_computer_s_turn_lost_with_a_process_is_resumed_by_board_or_a_tap(
    table: Table,
) -> None:
    """A process that claimed a computer's turn and died leaves no deadline: /board, or any
    tap of a person's hand, owes it again, and the computer moves once."""
    gid = await table.start_with_computers((ANN, BOB), 1, Level.RANDOM)
    for resume in ("board", "tap"):
        while await table.to_act(gid) > 0:
            await table.discard(gid)
        version = (await table.state(gid)).version
        table.deadlines.due.clear()  # claimed by a process that died
        await table.service.sweep()
        assert (await table.state(gid)).version == version
        if resume == "board":
            await table.service.repost_board(place())
        else:
            await table.hand_tap(ANN, ShowHand(gid, version))
        assert list(table.deadlines.due) == [f"{gid}:{version}:computer"]
        await table.service.sweep()
        assert (await table.state(gid)).version == version + 1


async def test_a_computer_s_turn_claimed_by_a_process_that_died_is_played_once() -> None:
    """A process claims the computer's turn and dies before saving: the sweeper after the claim's
    lease plays it, once; sweeping the same deadline again changes nothing."""
    table = Table()
    gid = await table.start_with_computers((ANN,), 2, Level.HEURISTIC)
    while await table.to_act(gid) == ANN:
        await table.discard(gid)
    computer_id = await table.to_act(gid)
    version = (await table.state(gid)).version
    member = f"{gid}:{version}:computer"
    assert await table.deadlines.claim_due(table.clock()) == [member]  # claimed, then dropped
    await table.service.sweep()
    assert (await table.state(gid)).version == version  # held by the dead process's claim
    table.clock.advance(CLAIM_LEASE_SECONDS)
    await table.service.sweep()
    record = await table.record(gid)
    assert record.state is not None and record.state.version == version + 1
    assert len(record.moves) == version + 1
    assert parse_seat_move(record.state.players, record.moves[version])[0] == computer_id
    moves = record.moves
    await table.deadlines.add([Deadline(gid, version, DeadlineKind.COMPUTER, table.clock())])
    await table.service.sweep()  # the stale turn again: its version is past
    assert (await table.record(gid)).moves[: len(moves)] == moves
    assert member not in dict(await table.deadlines.pending())


async def test_a_person_s_turn_wakes_no_sweeper(table: Table) -> None:
    """Only a computer player's move is hurried: a game of people asks for no wake-up."""
    gid = await table.start()
    await table.discard(gid)
    assert table.wakes == []
