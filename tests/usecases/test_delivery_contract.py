"""The delivery contract in memory: what Telegram's bad moments do to what a saved game owes.

Each failure is set up on the fake sender (`FakeSender.fail`): a passing one keeps the item
owed and its chat waiting with back-off; a timeout that Telegram carried out all the same leaves
a copy, which is deleted once the retried send is confirmed; nothing is lost and nothing shows
twice.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tgbot.buttons import CancelGame, ConfirmDiscard, Noop, StartGame
from tgbot.fitting import CAPTION_LIMIT, visible
from tgbot.game_ids import GameId
from tgbot.lease import LEASE_MS
from tgbot.menus import Button
from tgbot.notice_texts import render
from tgbot.outbox import BACKOFF_FIRST, Owed, attempts_in, folded, owe, waiting
from tgbot.ports import Fate, Sent
from tgbot.records import GameRecord
from tgbot.service import Toast
from tgbot.usecases.panels import board_keyboard

from .conftest import ANN, BOB, CAT, EN, GROUP, Table, person, place


async def _board_owed(table: Table, gid: str) -> int:
    """The game's live board post id (asserts there is exactly one)."""
    boards = table.sender.live(GROUP, "photo")
    assert len(boards) == 1, [b.text for b in boards]
    record = await table.record(gid)
    assert record.messages.board == boards[0].message_id
    return boards[0].message_id


async def _retry_until_delivered(table: Table, gid: str, *, rounds: int = 12) -> None:
    """Let time pass and sweep until nothing is owed (the back-off doubles up to 5 minutes)."""
    for _ in range(rounds):
        if (await table.record(gid)).owed.is_empty:
            return
        table.clock.advance(301)
        await table.service.sweep()
    assert (await table.record(gid)).owed.is_empty


async def test_a_5xx_on_the_board_keeps_it_owed_and_the_group_waits(table: Table) -> None:
    gid = await table.start()
    first = await _board_owed(table, gid)
    table.sender.fail("group_photo", Fate.RETRY)
    await table.discard(gid)
    record = await table.record(gid)
    assert record.owed.board_version == 1 and record.owed.board_lines
    assert waiting(record.owed, GROUP, table.clock()) and attempts_in(record.owed, GROUP) == 1
    assert not record.owed.fresh  # the next player's hand went out meanwhile
    await table.service.sweep()  # too early: nothing is tried
    assert table.sender.calls.count("group_photo") == 2
    table.clock.advance(BACKOFF_FIRST + 0.1)
    await table.service.sweep()
    board = await _board_owed(table, gid)
    assert board != first
    after = await table.record(gid)
    assert after.owed.is_empty and after.owed.waits == ()
    caption = table.sender.live(GROUP, "photo")[0].text
    assert "your turn" in caption and render(record.owed.board_lines[0], record, EN) in caption


async def test_the_back_off_doubles_and_a_429_waits_as_long_as_telegram_says(
    table: Table,
) -> None:
    gid = await table.start()
    table.sender.fail("group_photo", Fate.RETRY, times=3)
    await table.discard(gid)
    owed = (await table.record(gid)).owed
    assert [w[1] - table.clock() for w in owed.waits] == [1.0]
    table.clock.advance(1.1)
    await table.service.sweep()
    owed = (await table.record(gid)).owed
    assert [round(w[1] - table.clock(), 1) for w in owed.waits] == [2.0]
    table.clock.advance(2.1)
    table.sender.failures.clear()
    table.sender.fail("group_photo", Fate.RETRY, retry_after=42)
    await table.service.sweep()
    owed = (await table.record(gid)).owed
    assert [round(w[1] - table.clock()) for w in owed.waits] == [42]
    assert attempts_in(owed, GROUP) == 3
    table.clock.advance(43)
    await table.service.sweep()
    assert (await table.record(gid)).owed.is_empty


async def test_a_round_summary_survives_a_5xx(table: Table) -> None:
    gid = await table.start()
    for _ in range(300):
        if (await table.state(gid)).round > 1:
            break
        if not (await table.state(gid)).deck:  # the round's last moves: its board fails
            table.sender.failures.clear()
            table.sender.fail("group_photo", Fate.RETRY, times=40)
        await table.discard(gid)
    else:
        raise AssertionError("the round did not end")
    record = await table.record(gid)
    assert record.owed.replays[:2] == (-1, 1), "the final board, then the replay, owed"
    assert not any("Round 1 is over" in t for t in table.said(GROUP))
    table.sender.failures.clear()
    await _retry_until_delivered(table, gid)
    summaries = [t for t in table.said(GROUP) if "Round 1 is over" in t]
    assert len(summaries) == 1


async def test_a_board_that_timed_out_but_was_posted_leaves_one_board(table: Table) -> None:
    gid = await table.start()
    table.sender.fail("group_photo", Fate.UNKNOWN, carried_out=True)
    await table.discard(gid)
    record = await table.record(gid)
    assert record.owed.board_version == 1 and record.owed.uncertain
    assert len(table.sender.live(GROUP, "photo")) == 2  # the old board and the unknown copy
    table.clock.advance(1.1)
    await table.service.sweep()
    await _board_owed(table, gid)  # the copy found and deleted, the old board deleted
    after = await table.record(gid)
    assert after.owed.is_empty and after.owed.uncertain == ()
    assert table.sender.calls.count("probe") >= 1


async def test_a_text_that_timed_out_but_was_posted_shows_once(table: Table) -> None:
    gid = await table.start()
    sends = table.sender.calls.count("group_text")
    table.sender.fail("group_text", Fate.UNKNOWN, carried_out=True)
    await table.ctx.change(gid, lambda r: dataclasses.replace(r, owed=owe(r.owed, texts=["hi"])))
    await table.service.deliver(gid)
    assert [m.text for m in table.sender.live(GROUP, "text")].count("hi") == 1
    table.clock.advance(1.1)
    await table.service.sweep()
    assert [m.text for m in table.sender.live(GROUP, "text")].count("hi") == 1
    assert table.sender.calls.count("group_text") == sends + 2
    assert (await table.record(gid)).owed.is_empty


async def test_reconciling_never_deletes_other_messages_of_the_bot(table: Table) -> None:
    """Messages the ledger knows (another game's, the lobby) survive the search for a copy."""
    gid = await table.start()
    lobby_and_more = [m.message_id for m in table.sender.live(GROUP)]
    table.sender.fail("group_photo", Fate.UNKNOWN)  # not carried out: there is no copy
    await table.discard(gid)
    other = await table.sender.group_text(GROUP, 7, "another topic's game")
    table.clock.advance(1.1)
    await table.service.sweep()
    live = [m.message_id for m in table.sender.live(GROUP)]
    assert other.message_id in live
    assert set(lobby_and_more) - set(live) <= {lobby_and_more[-1]}  # only the old board went


async def test_another_topics_message_not_recorded_yet_is_not_taken_for_a_copy(
    table: Table,
) -> None:
    """In a forum group another topic's game may post in the gap an instant before its send is
    recorded: the bot's own message, not in the ledger, but in another topic: never a copy of
    this game's (whose topic is none here), so it stays (its keyboard, which told the topic,
    is gone: README, not done)."""
    gid = await table.start()
    table.sender.fail("group_photo", Fate.UNKNOWN)  # not carried out: there is no copy
    await table.discard(gid)
    table.sender.fail("group_text", Fate.UNKNOWN, carried_out=True)  # sent, not recorded
    await table.sender.group_text(GROUP, 7, "another topic's board", [[Button("x", Noop())]])
    other = table.sender.messages[-1]
    assert other.thread_id == 7
    table.clock.advance(1.1)
    await table.service.sweep()
    assert table.sender.calls.count("probe") >= 1, "the gap was searched"
    assert other.message_id in [m.message_id for m in table.sender.live(GROUP)]
    assert (await table.record(gid)).owed.is_empty


async def test_another_topics_board_gets_back_the_keyboard_a_probe_took(table: Table) -> None:
    """The probe of the search for copies takes a message's keyboard: another topic's game,
    whose board that was (sent an instant before, recorded just after), sets it again."""
    other = await table.start(where=place(GROUP, 7))
    here = await table.start()
    table.sender.fail("group_photo", Fate.UNKNOWN)  # this game's board: not carried out
    await table.discard(here)
    # The other game's next board, in flight: on Telegram already, not recorded yet.
    keys = board_keyboard(await table.record(other))
    assert keys
    table.sender.fail("group_photo", Fate.UNKNOWN, carried_out=True)
    await table.sender.group_photo(GROUP, 7, b"png", "the other game's board", keys)
    board = table.sender.messages[-1]
    table.clock.advance(1.1)
    await table.service.deliver(here)  # its board again: confirmed, the gap searched
    assert board.keyboard is None and not board.deleted, "taken, not deleted"
    assert (await table.record(other)).owed.board_keyboard
    # The other game's send comes back: the board is its own now.
    await table.sender.posts.confirm(GROUP, board.message_id)
    await table.ctx.strike(
        other,
        lambda r: dataclasses.replace(
            r, messages=dataclasses.replace(r.messages, board=board.message_id)
        ),
    )
    await table.service.deliver(other)
    shown = next(m for m in table.group() if m.message_id == board.message_id)
    assert shown.keyboard == keys
    assert (await table.record(other)).owed.is_empty
    assert (await table.record(here)).owed.is_empty


async def test_another_topics_lobby_is_drawn_again_after_a_probe_took_its_keyboard(
    table: Table,
) -> None:
    lobby = await table.open(where=place(GROUP, 7))
    here = await table.start()
    table.sender.fail("group_photo", Fate.UNKNOWN)
    await table.discard(here)
    keys = [[Button("x", Noop())]]
    table.sender.fail("group_text", Fate.UNKNOWN, carried_out=True)  # standing for a lobby
    await table.sender.group_text(GROUP, 7, "the lobby, again", keys)
    table.clock.advance(1.1)
    await table.service.sweep()
    assert (await table.record(lobby)).owed.lobby_redraw
    await table.service.sweep()  # (the sweeper's next pass)
    record = await table.record(lobby)
    assert record.owed.is_empty, "the lobby was drawn again"
    message = next(m for m in table.sender.live(GROUP) if m.message_id == record.messages.lobby)
    assert message.keyboard


async def test_a_deletion_that_fails_for_a_passing_reason_is_retried(table: Table) -> None:
    gid = await table.start()
    first = await _board_owed(table, gid)
    table.sender.fail("delete", Fate.RETRY)
    await table.discard(gid)
    assert (await table.record(gid)).owed.deletions == ((GROUP, first),)
    table.clock.advance(1.1)
    await table.service.sweep()
    await _board_owed(table, gid)
    assert (await table.record(gid)).owed.is_empty


async def test_a_private_hiccup_is_retried_not_taken_for_a_block(table: Table) -> None:
    gid = await table.start()
    nxt_version = (await table.state(gid)).version
    table.sender.fail("private_photo", Fate.RETRY)
    await table.discard(gid)
    nxt = await table.to_act(gid)
    record = await table.record(gid)
    assert nxt in record.owed.fresh and record.unreachable == ()
    assert not any("blocked me" in t for t in table.said(GROUP))
    table.clock.advance(1.1)
    await table.service.sweep()
    record = await table.record(gid)
    assert record.owed.is_empty
    hands = table.sender.live(nxt, "photo")
    assert [h.message_id for h in hands] == [record.messages.hand_of(nxt)]
    assert record.state is not None and record.state.version == nxt_version + 1


async def test_the_tap_is_answered_after_the_save_and_before_the_announcements(
    table: Table,
) -> None:
    gid = await table.start()
    uid = await table.to_act(gid)
    version = (await table.state(gid)).version
    order: list[str] = []

    async def answer(toast: Toast) -> None:
        order.append(f"answer:{toast.text}")
        order.append(f"saved:{(await table.state(gid)).version}")
        order.append(f"photos:{table.sender.calls.count('group_photo')}")

    photos = table.sender.calls.count("group_photo")
    await table.service.tap(
        person(uid), ConfirmDiscard(gid, version, frozenset({0})), uid, None, answer=answer
    )
    assert order == ["answer:Done!", f"saved:{version + 1}", f"photos:{photos}"]
    assert table.sender.calls.count("group_photo") == photos + 1


async def test_a_saved_move_is_answered_done_even_if_announcing_it_fails(table: Table) -> None:
    gid = await table.start()
    uid = await table.to_act(gid)
    version = (await table.state(gid)).version

    async def broken(gid: GameId) -> None:
        raise ConnectionError("the process lost its network")

    table.service.deliver = broken  # type: ignore[method-assign]
    answers: list[Toast] = []

    async def answer(toast: Toast) -> None:
        answers.append(toast)

    try:
        toast = await table.service.tap(
            person(uid), ConfirmDiscard(gid, version, frozenset({0})), uid, None, answer=answer
        )
    finally:
        del table.service.deliver
    assert toast.text == "Done!" and [a.text for a in answers] == ["Done!"]
    assert not (await table.record(gid)).owed.is_empty
    await table.service.sweep()
    assert (await table.record(gid)).owed.is_empty


async def test_every_tap_is_answered_exactly_once(table: Table) -> None:
    gid = await table.start()
    answers: list[str] = []

    async def answer(toast: Toast) -> None:
        answers.append(toast.text)

    await table.service.tap(person(BOB), None, BOB, None, answer=answer)  # unreadable button
    await table.service.tap(  # not their turn, or not theirs at all
        person(CAT), ConfirmDiscard(gid, 0, frozenset({0})), ANN, None, answer=answer
    )
    assert len(answers) == 2 and all(answers)


async def test_many_move_lines_never_cut_the_caption_or_the_mention(table: Table) -> None:
    """With the group's board owed for a long time, lines pile up: the ones that do not fit go
    first as a text, whole; the caption ends with whose turn it is."""
    gid = await table.start()

    def long_names(r: GameRecord) -> GameRecord:
        players = tuple(
            dataclasses.replace(p, name=f"{p.name} the Dwarf of the Deep Mines <&> " + "x" * 60)
            for p in r.lobby.players
        )
        return dataclasses.replace(r, lobby=dataclasses.replace(r.lobby, players=players))

    await table.ctx.change(gid, long_names)
    table.sender.fail("group_photo", Fate.RETRY, times=60)
    for _ in range(30):
        await table.discard(gid)
        table.clock.advance(0.01)
    record = await table.record(gid)
    lines = [render(m, record, EN) for m in record.owed.board_lines]
    assert visible("\n".join(lines)) > CAPTION_LIMIT
    table.sender.failures.clear()
    await _retry_until_delivered(table, gid)
    shown = "\n".join(m.text for m in table.sender.messages if m.chat_id == GROUP)
    for line in lines:
        assert shown.count(line) >= 1
    texts = [m.text for m in table.sender.messages if m.chat_id == GROUP and m.kind == "text"]
    assert any(lines[0] in t for t in texts)  # the oldest lines went first, as a text
    post = table.sender.live(GROUP, "photo")[-1]
    board = post.text
    assert visible(board) <= CAPTION_LIMIT and post.above  # the status first, above the picture
    status, turn, *_ = board.split("\n")
    assert status.startswith("Round ") and turn.endswith("your turn!"), board
    assert board.count("<a ") == board.count("</a>")


async def test_the_lobby_saying_the_game_started_survives_a_5xx(table: Table) -> None:
    gid = await table.open(ANN)
    await table.join(gid, ANN, BOB, CAT)
    table.sender.fail("edit_text", Fate.RETRY)
    revision = (await table.record(gid)).lobby.revision
    assert (await table.lobby_tap(ANN, StartGame(gid, revision))).text == "Done!"
    record = await table.record(gid)
    assert record.owed.lobby_text is not None
    assert "has started" in render(record.owed.lobby_text, record, EN)
    table.clock.advance(1.1)
    await table.service.sweep()
    lobby = next(
        m for m in table.sender.live(GROUP, "text") if m.message_id == record.messages.lobby
    )
    assert "has started with 3 players" in lobby.text and lobby.keyboard is None
    assert (await table.record(gid)).owed.is_empty


async def test_a_cancelled_game_says_so_in_the_group_and_in_every_hand_despite_errors(
    table: Table,
) -> None:
    gid = await table.start()
    table.sender.fail("group_text", Fate.UNKNOWN)
    table.sender.fail("edit_photo", Fate.RETRY)
    revision = (await table.record(gid)).lobby.revision
    toast = await table.lobby_tap(ANN, CancelGame(gid, revision))
    assert toast.text == "The game was cancelled."
    await _retry_until_delivered(table, gid)
    said = [m.text for m in table.sender.live(GROUP, "text") if "Ann cancelled the game" in m.text]
    assert len(said) == 1
    for uid in (ANN, BOB, CAT):
        hand = table.sender.live(uid, "photo")[-1]
        assert "Ann cancelled the game." in hand.text and not hand.keyboard


async def test_a_board_delivered_twice_after_its_lines_folded_strikes_them_once(
    table: Table,
) -> None:
    """A delivery's board send is so slow that its lease runs out: another process delivers the
    same board, then more moves come while the group's boards fail, and their lines fold. The
    slow one's strike, made last, strikes off nothing more: every later move is still owed."""
    gid = await table.start()
    table.sender.fail("group_photo", Fate.RETRY, times=1000)
    for _ in range(20):  # boards wait: the lines fold
        await table.discard(gid)
    assert folded((await table.record(gid)).owed.board_lines[0])
    table.sender.failures.clear()
    send = table.sender.group_photo
    later: list[Owed] = []
    calls = 0

    async def slow(*args: Any, **kwargs: Any) -> Sent:
        nonlocal calls
        calls += 1
        if calls == 1:
            table.clock.advance(LEASE_MS / 1000 + 1)  # this send outlives its lease
            await table.service.deliver(gid)  # the other process, with the same lines
            table.sender.fail("group_photo", Fate.RETRY, times=1000)
            for _ in range(14):
                await table.discard(gid)
            later.append((await table.record(gid)).owed)
            assert folded(later[0].board_lines[0])
            table.sender.failures.clear()
        sent = await send(*args, **kwargs)
        table.sender.fail("group_photo", Fate.RETRY, times=1000)
        return sent

    table.sender.group_photo = slow  # type: ignore[method-assign]
    table.clock.advance(301)  # past the group's back-off
    await table.service.deliver(gid)
    owed = (await table.record(gid)).owed
    assert later and owed.board_lines == later[0].board_lines
    assert owed.lines_struck == later[0].lines_struck
