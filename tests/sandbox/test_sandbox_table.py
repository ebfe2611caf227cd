"""The sandbox's view of the group (no browser): a seat's ephemeral messages are in that seat's
view alone, never in the group's messages or another seat's view; a seat presses only its own."""

from __future__ import annotations

import pytest

from emulator import EmulatorState, ManualClock, SimulationError, botapi
from emulator.params import Params
from sandbox.table import Table


def test_an_ephemeral_message_is_in_its_seat_s_view_alone() -> None:
    state = EmulatorState(clock=ManualClock())
    table = Table.open(state, store="memory", is_embedded=True)
    alice = table.add_seat("Alice", "en")["id"]
    bob = table.add_seat("Bob", "ko")["id"]
    markup = {"inline_keyboard": [[{"text": "Pick", "callback_data": "p"}]]}
    sent = botapi.call(
        state,
        "sendMessage",
        Params(
            {
                "chat_id": table.group_id,
                "text": "Alice's hand",
                "reply_markup": markup,
                "ephemeral_message_parameters": {"receiver_user_id": alice},
            }
        ),
    )
    assert isinstance(sent, dict)
    view = table.view()
    seats = {seat["id"]: seat for seat in view["seats"]}
    (panel,) = seats[alice]["group_ephemeral"]
    assert panel["text"] == "Alice's hand" and panel["emulator"]["ephemeral"] is True
    assert seats[bob]["group_ephemeral"] == []
    everything = str(view["group"]) + str(seats[bob])
    assert "Alice's hand" not in everything
    number = sent["ephemeral_message_id"]
    query = table.press_ephemeral(alice, number, "p")
    assert state.callback_queries[query].user_id == alice
    with pytest.raises(SimulationError):
        table.press_ephemeral(bob, number, "p")
