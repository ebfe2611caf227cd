"""A Deluxe thief chooses whom to steal from at the round's end, in private (rule
deluxe.payout.theft): the menu, refused taps, and the timeout's random choice."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Card, Edition, Phase, Role, Steal, current_player, legal_actions
from tgbot.buttons import PickCard, SetTurnLimit, StealFrom
from tgbot.records import GameRecord

from .conftest import ANN, BOB, CAT, GROUP, Table
from .games import start

HOUR = 3600
STRANGER = 77


async def _thief_waits(table: Table, *, limit: bool = False) -> tuple[str, int]:
    """A Deluxe game whose player to act is a thief about to end the round by a discard, while
    the next player has 2 nuggets and the one after none; ends the round; the thief."""
    gid = await start(table, (ANN, BOB, CAT), Edition.DELUXE)
    if limit:
        revision = (await table.record(gid)).lobby.revision
        await table.lobby_tap(ANN, SetTurnLimit(gid, revision, 1))
    thief = await table.to_act(gid)

    def arrange(record: GameRecord) -> GameRecord:
        state = record.state
        assert state is not None
        seat = state.seat_of(thief)
        n = len(state.players)
        hands = tuple((Card.MAP,) if s == seat else () for s in range(n))
        in_front = tuple((Card.THEFT,) if s == seat else () for s in range(n))
        gold = tuple(2 if s == (seat + 1) % n else 0 for s in range(n))
        roles = (Role.GREEN_MINER,) * n  # the saboteurs win, and there are none: no payout
        state = dataclasses.replace(
            state,
            hands=hands,
            deck=(),
            in_front=in_front,
            thefts=(seat,),
            gold=gold,
            roles=roles,
            cache={},
        )
        return dataclasses.replace(record, state=state)

    assert await table.ctx.change(gid, arrange) is not None
    await table.discard(gid, thief)
    return gid, thief


@pytest.mark.rule("deluxe.payout.theft", "privacy.theft")
async def test_the_thief_chooses_from_a_private_menu_and_the_group_learns_who_from_whom(
    table: Table,
) -> None:
    gid, thief = await _thief_waits(table)
    state = await table.state(gid)
    assert state.phase is Phase.THEFT and current_player(state) == thief
    (victim,) = [a.victim for a in legal_actions(state, thief) if isinstance(a, Steal)]
    # The thief's live message offers the one player with gold, and no amount.
    (hand,) = table.sender.live(thief, "photo")
    assert hand.keyboard is not None
    steals = [b for row in hand.keyboard for b in row if isinstance(b.command, StealFrom)]
    assert [b.command for b in steals] == [StealFrom(gid, state.version, state.seat_of(victim))]
    assert "choose whom to take 1 gold nugget from" in hand.text
    others = [p for p in state.players if p != thief]
    for p in others:
        (theirs,) = table.sender.live(p, "photo")
        assert "to choose whom to steal from" in theirs.text
    assert any("is choosing whom to steal from" in t for t in table.said(GROUP))

    toast = await table.hand_tap(thief, StealFrom(gid, state.version, state.seat_of(victim)))
    assert toast.text == "Done!"
    after = await table.state(gid)
    assert (after.round, after.phase) == (2, Phase.PLAYING)
    assert after.gold[after.seat_of(victim)] == 1 and after.gold[after.seat_of(thief)] == 1
    said = "\n".join(table.said(GROUP))
    assert "steals a gold nugget from" in said and "Round 2 begins" in said
    assert "Your gold" not in said and "nuggets" not in said.replace("a gold nugget", "")
    # The thief and the victim each learn it in a message of their own, with their own total.
    (mine,) = [m.text for m in table.sender.live(thief, "text") if "You stole" in m.text]
    assert mine.endswith("You have 1 gold.")
    (robbed,) = [m.text for m in table.sender.live(victim, "text") if "stole a gold" in m.text]
    assert "from you. You have 1 gold." in robbed
    for p in set(state.players) - {thief, victim}:
        assert not any("stole a gold" in t for t in table.sender.ever_shown(p)), p


@pytest.mark.rule("deluxe.payout.theft")
async def test_stranger_other_player_forged_and_stale_steal_taps_change_nothing(
    table: Table,
) -> None:
    gid, thief = await _thief_waits(table)
    state = await table.state(gid)
    v = state.version
    poor = next(p for p in state.players if p != thief and state.gold[state.seat_of(p)] == 0)
    other = next(p for p in state.players if p != thief)
    taps = [
        (STRANGER, StealFrom(gid, v, 0), "These buttons are not yours."),
        (other, StealFrom(gid, v, state.seat_of(thief)), "It is not your turn"),
        (thief, StealFrom(gid, v, state.seat_of(thief)), "This button is not valid."),
        (thief, StealFrom(gid, v, state.seat_of(poor)), "This button is not valid."),
        (thief, StealFrom(gid, v, 11), "This button is not valid."),
        (thief, StealFrom(gid, v - 1, 0), "This hand is from turn"),
        (thief, StealFrom(gid, v + 5, 0), ""),
    ]
    for uid, command, text in taps:
        toast = await table.hand_tap(uid, command)
        assert toast.text.startswith(text), (command, toast)
        assert await table.state(gid) == state
    # A card button while the thief chooses shows the choice again.
    await table.hand_tap(thief, PickCard(gid, v, 0))
    assert await table.state(gid) == state


@pytest.mark.rule("deluxe.payout.theft")
async def test_an_absent_thiefs_time_out_takes_from_a_random_player_with_gold(
    table: Table,
) -> None:
    gid, thief = await _thief_waits(table, limit=True)
    state = await table.state(gid)
    offered = {a.victim for a in legal_actions(state, thief) if isinstance(a, Steal)}
    table.clock.advance(HOUR + 1)
    await table.service.sweep()
    after = await table.state(gid)
    assert (after.round, after.phase) == (2, Phase.PLAYING)
    (victim,) = [
        p for p in state.players if after.gold[after.seat_of(p)] < state.gold[state.seat_of(p)]
    ]
    assert victim in offered
    said = "\n".join(table.said(GROUP))
    assert "did not play in time" in said and "steals a gold nugget from" in said
