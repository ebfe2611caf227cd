"""The board notation (docs/notation.md) names every card and orientation once and round-trips."""

from __future__ import annotations

import pytest

from engine import CARDS, Kind, new_game, public_view
from engine import board as bd
from engine.notation import CODE_OF_TOKEN, board_text, parse_board, token, with_board


def test_every_orientation_has_one_token_and_back() -> None:
    """Each card and orientation reads back as itself (symmetric ones as 0 degrees)."""
    for s in CARDS:
        if not s.tunnels:
            continue
        for rot in (False, True):
            c = bd.code(s.card, rot)
            back = CODE_OF_TOKEN[token(c)]
            assert bd.card_of(back) == s.card or s.kind is Kind.START
            assert bd.OPEN[back] == bd.OPEN[c]


def test_distinct_cards_have_distinct_tokens() -> None:
    """Two different cards never share a token."""
    seen: dict[str, object] = {}
    for s in CARDS:
        if not s.tunnels:
            continue
        for rot in (False, True):
            tok = token(bd.code(s.card, rot))
            assert seen.setdefault(tok, s.card) == s.card, tok


def test_board_round_trips_through_text() -> None:
    """A board written and read again is the same board."""
    text = """
    . . . . . . . . ?%NE
    . ns . . . . . . .
    @ EW NS|EW *NES BEW GNSe #N . ?$
    . . . . . . . . .
    . . . . . . . . ?%NW
    """
    state = with_board(new_game([1, 2, 3], seed=1), text)
    maze, _goals = parse_board(text)
    assert state.maze == maze
    written = board_text(public_view(state).board)
    assert written.split() == [
        t.replace("?%NE", "?").replace("?%NW", "?").replace("?$", "?") for t in text.split()
    ]


@pytest.mark.parametrize("bad", ["EW EW", "@ XYZ", "@ ?NS"])
def test_bad_boards_are_refused(bad: str) -> None:
    """No start, an unknown token, a face-down non-goal: ValueError."""
    with pytest.raises(ValueError):
        parse_board(bad)
