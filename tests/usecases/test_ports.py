"""The in-memory ports keep their contracts: a lease's renewal, deadlines, ledger, budget, the
fake sender (the lease's holder rules run over Redis and memory in tests/tgbot/test_lease.py)."""

from __future__ import annotations

from tgbot.clocks import CLAIM_LEASE_SECONDS, Deadline, DeadlineKind
from tgbot.fake_sender import FakeSender
from tgbot.memory_ports import MemoryBudget, MemoryDeadlines, MemoryLease, MemoryLedger
from tgbot.ports import Fate

from .conftest import Clock


async def test_a_lease_expires_unless_renewed() -> None:
    clock = Clock()
    lease = MemoryLease(clock=clock, ms=1000)
    token = await lease.acquire("g")
    assert token is not None
    clock.advance(0.9)
    assert await lease.renew("g", token)
    clock.advance(0.9)
    assert await lease.acquire("g") is None
    clock.advance(0.2)
    assert not await lease.renew("g", token)
    assert await lease.acquire("g") is not None


def _deadline(version: int, at: float, kind: DeadlineKind = DeadlineKind.TIMEOUT) -> Deadline:
    return Deadline("g", version, kind, at)


async def test_deadlines_are_claimed_when_due_and_once() -> None:
    index = MemoryDeadlines()
    await index.add([_deadline(1, 10), _deadline(2, 20), _deadline(3, 5, DeadlineKind.REMIND)])
    assert await index.claim_due(9) == ["g:3:remind"]
    assert await index.claim_due(20) == ["g:1:timeout", "g:2:timeout"]
    for member in ("g:3:remind", "g:1:timeout", "g:2:timeout"):
        await index.done(member)
    assert await index.claim_due(100) == []
    assert await index.pending() == []


async def test_a_claim_never_done_is_due_again_when_its_lease_ends() -> None:
    """A process that died after claiming leaves the deadline to the next sweep after the lease."""
    index = MemoryDeadlines()
    await index.add([_deadline(1, 10)])
    assert await index.claim_due(10) == ["g:1:timeout"]
    assert await index.claim_due(10 + CLAIM_LEASE_SECONDS - 1) == []
    assert await index.claim_due(10 + CLAIM_LEASE_SECONDS) == ["g:1:timeout"]


async def test_a_deadline_scheduled_again_while_claimed_is_kept_by_done() -> None:
    index = MemoryDeadlines()
    await index.add([_deadline(1, 10)])
    assert await index.claim_due(10) == ["g:1:timeout"]
    await index.add([_deadline(1, 10 + CLAIM_LEASE_SECONDS)])  # a retry, as late as the lease
    await index.done("g:1:timeout")
    assert await index.pending() == [("g:1:timeout", 10 + CLAIM_LEASE_SECONDS)]


async def test_deadlines_claimed_at_most_a_limit_at_a_time() -> None:
    index = MemoryDeadlines()
    await index.add([_deadline(v, v) for v in range(30)])
    assert len(await index.claim_due(100, limit=20)) == 20
    assert len(await index.claim_due(100)) == 10


async def test_a_deadline_added_twice_is_kept_once_and_dropped() -> None:
    index = MemoryDeadlines()
    await index.add([_deadline(1, 10), _deadline(1, 12)])
    assert await index.pending() == [("g:1:timeout", 12)]
    await index.drop(["g:1:timeout", "unknown"])
    assert await index.pending() == []


async def test_the_ledger_claims_once() -> None:
    ledger = MemoryLedger()
    assert await ledger.claim(1) and not await ledger.claim(1)


async def test_the_budget_allows_a_limit_per_window() -> None:
    budget = MemoryBudget(limit=2, window=60)
    assert await budget.take(1, 0) == 0 and await budget.take(1, 1) == 0
    assert await budget.take(1, 2) == 58
    assert await budget.take(2, 2) == 0
    assert await budget.take(1, 60.5) == 0


async def test_a_held_budget_waits_the_time_asked() -> None:
    budget = MemoryBudget(limit=3, window=60)
    await budget.hold(1, 100, 10)
    assert await budget.take(1, 105) == 5
    assert await budget.take(1, 110.5) == 0


async def test_the_fake_sender_edits_and_deletes_only_live_messages() -> None:
    sender = FakeSender()
    text = (await sender.group_text(-1, None, "hello")).message_id
    photo = (await sender.private_photo(7, b"", "caption", ())).message_id
    assert text is not None and photo is not None
    assert (await sender.edit_photo(-1, text, b"", "x", ())).fate is Fate.GONE  # not a photo
    assert (await sender.edit_text(-1, text, "bye", None)).ok
    assert (await sender.delete(-1, text)).ok
    assert (await sender.delete(-1, text)).fate is Fate.GONE
    assert (await sender.edit_text(-1, text, "again", None)).fate is Fate.GONE
    assert [s.text for s in sender.live(7)] == ["caption"]
    assert sender.texts_in(-1) == ["bye"]
    assert await sender.posts.confirmed(-1, 0, 100) == {text}


async def test_the_fake_sender_refuses_blocked_chats_and_reports_moves() -> None:
    sender = FakeSender(blocked={7}, moved={-1: -2})
    assert (await sender.private_text(7, "hi")).fate is Fate.BLOCKED
    moved = await sender.group_text(-1, None, "hi")
    assert moved.fate is Fate.MOVED and moved.new_chat == -2


async def test_the_fake_sender_reports_a_spent_budget() -> None:
    sender = FakeSender(budget=MemoryBudget(limit=1))
    assert (await sender.group_text(-1, None, "one")).ok
    spent = await sender.group_photo(-1, None, b"", "two")
    assert spent.fate is Fate.RETRY and spent.retry_after == 60


async def test_the_fake_sender_fails_as_set_up_and_may_carry_out_all_the_same() -> None:
    sender = FakeSender()
    sender.fail("group_photo", Fate.UNKNOWN, carried_out=True)
    sender.fail("group_text", Fate.RETRY)
    lost = await sender.group_photo(-1, None, b"", "board")
    assert lost.fate is Fate.UNKNOWN and lost.message_id is None
    assert [m.text for m in sender.live(-1)] == ["board"]  # it is there, but not recorded
    assert await sender.posts.latest(-1) == 0
    assert (await sender.group_text(-1, None, "t")).fate is Fate.RETRY
    assert len(sender.live(-1)) == 1
    assert (await sender.group_text(-1, None, "t")).ok
