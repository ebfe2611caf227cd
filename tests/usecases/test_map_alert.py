"""The map's moment: the one who looked gets an alert saying what lies under the goal card."""

from __future__ import annotations

import dataclasses

from engine import Card
from tgbot.buttons import ConfirmGoal
from tgbot.records import GameRecord

from .conftest import GROUP, Table


async def _holding_a_map(table: Table, gid: str) -> int:
    player = await table.to_act(gid)

    def give(record: GameRecord) -> GameRecord:
        state = record.state
        assert state is not None
        seat = state.seat_of(player)
        hands = list(state.hands)
        hands[seat] = (Card.MAP, *hands[seat][1:])
        state = dataclasses.replace(state, hands=tuple(hands), cache={})
        return dataclasses.replace(record, state=state)

    assert await table.ctx.change(gid, give) is not None
    return player


async def test_the_map_result_is_an_alert_naming_the_goal(table: Table) -> None:
    gid = await table.start()
    player = await _holding_a_map(table, gid)
    state = await table.state(gid)
    middle = next(g for g in state.goals if g.at == (8, 0))
    toast = await table.hand_tap(player, ConfirmGoal(gid, state.version, 0, 1))
    assert toast.alert
    if middle.card is Card.GOLD:
        assert toast.text.startswith("🗺 The middle goal card is the gold!")
    else:
        assert toast.text.startswith("🗺 The middle goal card is coal")
    assert "marked on your board" in toast.text
    # the group learns only that the player looked
    said = table.said(GROUP)
    assert any("looked at the middle goal card" in t for t in said)
    assert not any("gold!" in t or "coal:" in t for t in said)
