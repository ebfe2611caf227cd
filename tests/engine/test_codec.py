"""The state codec: every kind of state round-trips; a wrong card, role or shape is a ValueError."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import Edition, GameState, apply, current_player, legal_actions, new_game
from engine.codec import from_json, to_json


def _states(players: int, edition: Edition, seed: int) -> list[GameState]:
    """Every tenth state of one random whole game, and its end."""
    rng = random.Random(seed)
    state = new_game(list(range(1, players + 1)), edition=edition, seed=seed)
    out = []
    turn = 0
    while (player := current_player(state)) is not None:
        if turn % 10 == 0:
            out.append(state)
        actions = legal_actions(state, player)
        state = apply(state, player, actions[rng.randrange(len(actions))]).state
        turn += 1
    return [*out, state]


@pytest.mark.parametrize(("players", "edition"), [(5, Edition.BASE), (12, Edition.DELUXE)])
def test_states_of_whole_games_round_trip(players: int, edition: Edition) -> None:
    for state in _states(players, edition, seed=7):
        text = to_json(state)
        back = from_json(text)
        assert back == state
        assert to_json(back) == text
        player = current_player(state)
        if player is not None:
            assert legal_actions(back, player) == legal_actions(state, player)


def _doc() -> dict[str, Any]:
    state = _states(8, Edition.DELUXE, seed=3)[3]
    doc: dict[str, Any] = json.loads(to_json(state))
    return doc


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d["hands"][0].append("NO_SUCH_CARD"),
        lambda d: d["deck"].append(7),
        lambda d: d["roles"].__setitem__(0, "wizard"),
        lambda d: d["roles"].__setitem__(0, ["miner"]),
        lambda d: d["maze"].append([1, 1, "NO_SUCH_CARD", 0]),
        lambda d: d["maze"].append([1, 1, "CROSS"]),
        lambda d: d["goals"][0].__setitem__(2, None),
        lambda d: d["inspected"].__setitem__(0, [[1, "nobody"]]),
    ],
)
def test_a_wrong_card_role_or_shape_is_a_value_error(spoil: Any) -> None:
    doc = _doc()
    spoil(doc)
    with pytest.raises(ValueError):
        from_json(json.dumps(doc))
