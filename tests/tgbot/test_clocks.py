"""Turn clocks (issue 6): deadlines per turn, stand-in moves, and claiming each deadline once."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from engine import Discard, apply, current_player, legal_actions, new_game
from tgbot.clocks import (
    AUTO_DELAY_SECONDS,
    CLAIM_LEASE_SECONDS,
    CLAIMED,
    Deadline,
    DeadlineKind,
    deadlines,
    parse_member,
    stand_in_move,
)
from tgbot.scheduler import DeadlineIndex


def test_a_limited_turn_owes_a_reminder_then_a_timeout() -> None:
    """24 hours per turn: a reminder 2 hours before the end, the timeout at the end."""
    state = new_game([1, 2, 3], seed=1)
    remind, timeout = deadlines("g", state, turn_started_at=1000, limit_hours=24, automatic=False)
    assert (remind.kind, timeout.kind) == (DeadlineKind.REMIND, DeadlineKind.TIMEOUT)
    assert timeout.at == 1000 + 24 * 3600
    assert remind.at == timeout.at - 2 * 3600
    assert remind.version == timeout.version == state.version


def test_a_short_limit_reminds_after_three_quarters() -> None:
    """One hour per turn: the reminder comes 15 minutes before the end."""
    state = new_game([1, 2, 3], seed=1)
    remind, timeout = deadlines("g", state, turn_started_at=0, limit_hours=1, automatic=False)
    assert timeout.at - remind.at == 900


def test_no_limit_owes_nothing_but_automatic_players_are_played_for_soon() -> None:
    """Without a limit nothing is scheduled, except for a player the game plays for."""
    state = new_game([1, 2, 3], seed=1)
    assert deadlines("g", state, turn_started_at=0, limit_hours=None, automatic=False) == ()
    (only,) = deadlines("g", state, turn_started_at=50, limit_hours=None, automatic=True)
    assert only.kind is DeadlineKind.TIMEOUT and only.at == 50 + AUTO_DELAY_SECONDS


def test_deadline_names_round_trip_and_garbage_is_refused() -> None:
    """The index member names a game, a version and a kind."""
    d = Deadline("Ab3dE9xYz0", 42, DeadlineKind.REMIND, 5.0)
    assert parse_member(d.member) == ("Ab3dE9xYz0", 42, DeadlineKind.REMIND)
    for bad in ("", "x", "a:b:c", "a:1:later", "a:-1:remind", "a:1:remind:extra"):
        assert parse_member(bad) is None


def test_the_stand_in_move_is_a_legal_single_discard() -> None:
    """The game plays for the absent by discarding one card (legal, helps nobody)."""
    state = new_game([1, 2, 3, 4], seed=9)
    for _ in range(30):
        player = current_player(state)
        assert player is not None
        move = stand_in_move(state, player)
        assert isinstance(move, Discard) and len(move.cards) == 1
        assert move in legal_actions(state, player)
        state = apply(state, player, move).state


async def test_each_due_deadline_is_claimed_by_exactly_one_caller(
    redis_client: Redis, key_prefix: str
) -> None:
    """Ten pollers at once share the due deadlines without handling one twice."""
    index = DeadlineIndex(redis_client, prefix=key_prefix)
    due = [Deadline(f"g{i:09d}", i, DeadlineKind.TIMEOUT, 100 + i) for i in range(30)]
    later = Deadline("late000000", 1, DeadlineKind.REMIND, 10_000)
    await index.add([*due, later])
    claims = await asyncio.gather(*(index.claim_due(500, limit=7) for _ in range(10)))
    flat = [m for c in claims for m in c]
    assert sorted(flat) == sorted(d.member for d in due)
    assert len(flat) == len(set(flat))
    held = 500.0 + CLAIM_LEASE_SECONDS
    marks = sorted(CLAIMED + m for m in flat)
    assert await index.pending() == [*((c, held) for c in marks), (later.member, 10_000.0)]
    assert await index.claim_due(held - 1) == []
    await asyncio.gather(*(index.done(m) for m in flat))
    assert await index.pending() == [(later.member, 10_000.0)]
    assert await index.next_due() == 10_000.0
    assert await index.claim_due(9_999) == []


async def test_a_claim_left_unserved_comes_back_after_its_lease(
    redis_client: Redis, key_prefix: str
) -> None:
    """A process that claimed a deadline and died: another claims it once the lease ends; a
    deadline scheduled again while claimed is kept when the first claim is done, and a deadline
    due twice (itself and its stale claim) is handed out once."""
    index = DeadlineIndex(redis_client, prefix=key_prefix)
    first = Deadline("g000000001", 3, DeadlineKind.COMPUTER, 100.5)
    again = Deadline("g000000002", 4, DeadlineKind.COMPUTER, 100.5)
    await index.add([first, again])
    assert sorted(await index.claim_due(100.5)) == sorted([first.member, again.member])
    assert await index.claim_due(100.5 + CLAIM_LEASE_SECONDS - 0.25) == []
    retry = Deadline(again.game, 4, DeadlineKind.COMPUTER, 100.5 + CLAIM_LEASE_SECONDS)
    await index.add([retry])
    await index.done(again.member)
    assert await index.pending() == [
        (CLAIMED + first.member, 100.5 + CLAIM_LEASE_SECONDS),
        (again.member, 100.5 + CLAIM_LEASE_SECONDS),
    ]
    await index.add([Deadline(first.game, 3, DeadlineKind.COMPUTER, 130.0)])
    due = await index.claim_due(100.5 + CLAIM_LEASE_SECONDS)
    assert sorted(due) == sorted([first.member, again.member])


async def test_a_turns_deadlines_are_replaced_by_the_next_turns_at_once(
    redis_client: Redis, key_prefix: str
) -> None:
    index = DeadlineIndex(redis_client, prefix=key_prefix)
    turn = [Deadline("g000000001", 3, k, 100) for k in (DeadlineKind.REMIND, DeadlineKind.TIMEOUT)]
    other = Deadline("g000000002", 1, DeadlineKind.TIMEOUT, 50)
    await index.add([*turn, other])
    nxt = Deadline("g000000001", 4, DeadlineKind.TIMEOUT, 200)
    await index.replace([d.member for d in turn], [nxt])
    assert await index.pending() == [(other.member, 50.0), (nxt.member, 200.0)]
    await index.replace([], [])  # nothing to do is fine
    await index.replace([other.member], [])
    assert await index.pending() == [(nxt.member, 200.0)]
