"""What a move owes the chats, coalesced and struck off (issue 6)."""

from __future__ import annotations

import random

from tgbot.i18n import Language
from tgbot.notice_texts import render
from tgbot.notices import Message
from tgbot.notices import Rendered as R
from tgbot.outbox import (
    MAX_BOARD_LINES,
    Owed,
    board_posted,
    delete_later,
    first_sends,
    folded,
    group_dropped,
    lines_shown,
    owe,
    private_sent,
    text_sent,
    units,
    wait,
    waiting,
    went_through,
)
from tgbot.records import GameRecord, Lobby


def test_board_posts_coalesce_and_the_newest_wins() -> None:
    """Two moves before the board is posted: one post covers both, showing the later state."""
    owed = owe(Owed(), lines=["A placed a card"], board_version=5, fresh=[2], edits=[1])
    owed = owe(owed, lines=["B discarded"], board_version=6, fresh=[3], edits=[2])
    assert owed.board_version == 6
    assert owed.board_lines == (R("A placed a card"), R("B discarded"))
    assert owed.fresh == (2, 3) and owed.edits == (1,)  # 2 is owed a fresh message already
    posted = board_posted(owed, 6, owed.board_lines, start=0)
    assert posted.board_version is None and posted.board_lines == ()


def test_a_board_posted_before_a_later_move_leaves_that_move_owed() -> None:
    """A post of version 5 does not pay a board owed for version 6."""
    owed = owe(Owed(), lines=["one"], board_version=5)
    owed = owe(owed, lines=["two"], board_version=6)
    after = board_posted(owed, 5, (R("one"),), start=0)
    assert after.board_version == 6 and after.board_lines == (R("two"),)
    assert not after.is_empty


def test_texts_go_in_order_and_private_messages_are_struck_off() -> None:
    """Texts leave the front of the queue; a fresh message also covers an owed edit."""
    owed = owe(Owed(), texts=["round over", "next round"], fresh=[7], edits=[8])
    owed = text_sent(owed, R("next round"))  # not the first: nothing changes
    assert owed.texts == (R("round over"), R("next round"))
    owed = text_sent(text_sent(owed, R("round over")), R("next round"))
    owed = private_sent(private_sent(owed, 7, fresh=True), 8, fresh=False)
    assert owed.is_empty


def test_notes_ride_on_a_players_next_live_message_and_deletions_are_owed() -> None:
    """A note owes the player an edit and leaves with it; a replaced post is owed a deletion."""
    from tgbot.outbox import delete_later, deleted, notes_for

    owed = owe(Owed(), notes=[(5, "Time is up")])
    assert owed.edits == (5,) and notes_for(owed, 5) == (R("Time is up"),)
    owed = private_sent(owed, 5, fresh=False)
    assert notes_for(owed, 5) == () and owed.is_empty
    owed = delete_later(delete_later(Owed(), -1, 10), -1, 10)
    assert owed.deletions == ((-1, 10),) and not owed.is_empty
    assert deleted(owed, -1, 10).is_empty
    assert delete_later(Owed(), -1, None).is_empty


def test_a_text_sent_in_parts_keeps_the_rest_owed_in_its_place() -> None:
    owed = owe(Owed(), texts=["long summary", "next"])
    owed = text_sent(owed, R("long summary"), rest="second half")
    assert owed.texts == (R("second half"), R("next"))
    assert text_sent(owed, R("second half")).texts == (R("next"),)


def test_fast_play_keeps_at_most_max_board_lines_the_oldest_folded_into_a_count() -> None:
    owed = Owed()
    for i in range(30):
        owed = owe(owed, lines=[f"move {i}"], board_version=i)
        assert len(owed.board_lines) <= MAX_BOARD_LINES
    first, *rest = owed.board_lines
    assert folded(first) == 30 - (MAX_BOARD_LINES - 1)
    assert rest == [R(f"move {i}") for i in range(30 - (MAX_BOARD_LINES - 1), 30)]
    record = GameRecord(
        game_id="Ab3dE9xYz0", chat_id=-5, thread_id=None, language=Language("en"),
        creator_id=1, created_at=0, updated_at=0, lobby=Lobby(),
    )  # fmt: skip
    assert render(first, record, Language("en")) == "⋯ 19 earlier moves, not shown here"
    korean = render(first, record, Language("ko"))
    assert "19" in korean and "earlier" not in korean


def test_a_board_read_before_lines_folded_strikes_off_exactly_what_it_showed() -> None:
    owed = Owed()
    for i in range(MAX_BOARD_LINES):
        owed = owe(owed, lines=[f"move {i}"], board_version=i)
    shown = owed.board_lines  # what a delivery drew its caption from
    for i in range(MAX_BOARD_LINES, MAX_BOARD_LINES + 5):  # moves meanwhile: the oldest fold
        owed = owe(owed, lines=[f"move {i}"], board_version=i)
    assert folded(owed.board_lines[0]) == 6
    left = board_posted(owed, MAX_BOARD_LINES - 1, shown, start=0)
    assert left.board_lines == tuple(R(f"move {i}") for i in range(MAX_BOARD_LINES, 17))
    # a board that showed a summary and some lines, and more folded since
    owed = Owed()
    for i in range(20):
        owed = owe(owed, lines=[f"move {i}"], board_version=i)
    shown = owed.board_lines[:3]  # the summary of 9, then moves 9 and 10
    for i in range(20, 24):
        owed = owe(owed, lines=[f"move {i}"], board_version=i)
    left = board_posted(owed, 10, shown, start=0)  # moves 11 and 12 are in the summary now
    assert folded(left.board_lines[0]) == 2
    assert left.board_lines[1:] == tuple(R(f"move {i}") for i in range(13, 24))
    # lines that did not fold are struck off only while they are the first owed
    plain = owe(Owed(), lines=["a", "b", "c"], board_version=1)
    once = board_posted(plain, 1, plain.board_lines[:2], start=0)
    assert once.board_lines == (R("c"),)
    assert board_posted(once, 1, plain.board_lines[:2], start=0).board_lines == (R("c"),)


def _moves(owed: Owed, first: int, last: int) -> Owed:
    for i in range(first, last):
        owed = owe(owed, lines=[f"move {i}"], board_version=i)
    return owed


def _shown(owed: Owed) -> list[str]:
    return [x.text if isinstance(x, R) else f"({folded(x)})" for x in owed.board_lines]


def test_a_strike_of_folded_lines_made_again_after_more_folded_strikes_nothing_more() -> None:
    """A delivery's strike made twice (its save retried, or a second process that delivered
    the same board): the lines it showed go once, whatever folded in between, and no line or
    summary count it did not show goes with them."""
    owed = _moves(Owed(), 0, 20)  # (9), moves 9 to 19
    start, shown = owed.lines_struck, owed.board_lines[:3]  # an overflow text: (9), 9, 10
    once = lines_shown(owed, shown, start=start)
    assert _shown(once) == [f"move {i}" for i in range(11, 20)]
    later = _moves(once, 20, 24)  # moves 11 and 12 fold
    assert _shown(later) == ["(2)", *(f"move {i}" for i in range(13, 24))]
    assert lines_shown(later, shown, start=start) == later  # it was 13 to 21 struck off
    # a summary shown on its own, then twenty more moves fold: its count stays whole
    owed = _moves(Owed(), 0, 20)
    start, shown = owed.lines_struck, owed.board_lines[:1]
    later = _moves(lines_shown(owed, shown, start=start), 20, 40)
    assert _shown(later)[0] == "(20)"
    assert board_posted(later, 5, shown, start=start) == later  # it was (11)


def test_identical_lines_shown_again_are_not_taken_for_the_next_ones() -> None:
    """Two moves that read alike ("Ann passed" twice), struck off, then two more alike: a
    second strike of the first two leaves the later ones owed."""
    owed = owe(Owed(), lines=["a", "a"], board_version=1)
    start, shown = owed.lines_struck, owed.board_lines
    once = board_posted(owed, 1, shown, start=start)
    later = owe(once, lines=["a", "a", "b"], board_version=2)
    assert board_posted(later, 1, shown, start=start).board_lines == (R("a"), R("a"), R("b"))


def test_strikes_made_in_any_order_and_again_strike_each_line_once() -> None:
    """Moves, reads of the owed lines and strikes of those reads (some again, some late) in
    seeded random orders: the lines struck are the furthest any read showed, the rest are
    owed, and the lines not folded are the latest moves in order."""
    rng = random.Random(7)
    for _ in range(300):
        owed, moves, struck = Owed(), 0, 0
        reads: list[tuple[int, tuple[Message, ...]]] = []
        for _ in range(60):
            roll = rng.random()
            if roll < 0.5:
                owed = _moves(owed, moves, moves + 1)
                moves += 1
            elif roll < 0.8 or not reads:
                cut = rng.randint(0, len(owed.board_lines))
                reads.append((owed.lines_struck, owed.board_lines[:cut]))
            else:
                start, shown = rng.choice(reads)
                owed = lines_shown(owed, shown, start=start)
                struck = max(struck, start + units(shown))
            assert owed.lines_struck == struck
            assert struck + units(owed.board_lines) == moves
        plain = [x for x in owed.board_lines if not folded(x)]
        assert plain == [R(f"move {i}") for i in range(moves - len(plain), moves)]


def test_a_dropped_group_counts_its_lines_struck() -> None:
    """A group the bot left: its owed lines are dropped as if shown, so a late strike is void."""
    owed = _moves(Owed(), 0, 15)
    start, shown = owed.lines_struck, owed.board_lines[:2]
    dropped = group_dropped(owed)
    assert dropped.board_lines == () and dropped.lines_struck == 15
    assert lines_shown(dropped, shown, start=start) == dropped


def test_a_call_that_went_through_ends_that_chats_wait_only() -> None:
    """A chat's back-off ends when a call to it works; other chats keep theirs, and a chat that
    did not wait leaves what is owed as it was."""
    owed = wait(wait(Owed(), 1, now=100.0, retry_after=None), 2, now=100.0, retry_after=30.0)
    assert waiting(owed, 1, 100.5) and waiting(owed, 2, 100.5)
    after = went_through(owed, 1)
    assert not waiting(after, 1, 100.5) and waiting(after, 2, 100.5)
    assert went_through(after, 3) == after
    assert went_through(Owed(), 1) == Owed()


def test_the_chats_whose_next_item_is_a_new_message_are_named_for_their_floors() -> None:
    group, ann, bob = -100, 1, 2
    moved = owe(Owed(), board_version=3, fresh=[bob], edits=[ann])
    assert first_sends(moved, group) == (group, bob)  # an edit sends no new message
    deleting = delete_later(moved, group, 41)  # the group's next item is a deletion
    assert first_sends(deleting, group) == (bob,)
    assert first_sends(owe(Owed(), edits=[ann]), group) == ()
