"""Pictures for the group come from the public view only: hidden cards never change a pixel."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Card, GameState, Role, player_view, public_view
from engine.model import Goal
from render import render_board, render_private_board, to_png

from . import boards as b
from .pngs import decoded


def _hidden_cards_changed(state: GameState) -> GameState:
    """The same public position with every secret different: goals, hands, roles, deck order."""
    cards = [g.card for g in state.goals if not g.revealed]
    turned = cards[1:] + cards[:1]
    goals = []
    for g in state.goals:
        goals.append(g if g.revealed else Goal(g.at, turned.pop(0)))
    hands = tuple(tuple(Card.MAP for _ in hand) for hand in state.hands)
    roles = tuple(Role.SABOTEUR if r is not Role.SABOTEUR else Role.MINER for r in state.roles)
    return dataclasses.replace(
        state,
        goals=tuple(goals),
        hands=hands,
        roles=roles,
        deck=tuple(reversed(state.deck)),
        cache={},
    )


@pytest.mark.rule("privacy.roles", "privacy.hands")
def test_hidden_cards_do_not_change_the_group_picture() -> None:
    """Two games that differ only in hidden cards give pixel-identical group boards."""
    for state in (b.base(), b.dug(b.base(seed=3), 12, seed=3), b.dug(b.deluxe(seed=4), 10, 4)):
        other = _hidden_cards_changed(state)
        assert [g.card for g in other.goals] != [g.card for g in state.goals]
        mine = decoded(to_png(render_board(public_view(state), names=b.NAMES)))
        theirs = decoded(to_png(render_board(public_view(other), names=b.NAMES)))
        assert mine == theirs


@pytest.mark.rule("privacy.map")
def test_a_peek_shows_only_on_the_peeking_players_board() -> None:
    """The gold a player saw with a map is drawn on their board, not on the group's."""
    state = b.board(b.base(), b.GOLD_REACHED.replace("$", "?$"))
    peeked = tuple(((8, 0),) if p == 1 else () for p in state.players)
    state = dataclasses.replace(state, peeked=peeked, cache={})
    group = decoded(to_png(render_board(public_view(state), names=b.NAMES)))
    assert decoded(to_png(render_private_board(player_view(state, 2), names=b.NAMES))) == group
    assert decoded(to_png(render_private_board(player_view(state, 1), names=b.NAMES))) != group


@pytest.mark.rule("privacy.map")
def test_the_peeked_goal_marked_as_the_last_move_shows_nothing_of_it_to_the_group() -> None:
    """After a map the group's board frames the goal looked at, the same whatever lies under it;
    only the player who looked sees its face."""
    state = b.board(b.base(), b.GOLD_REACHED.replace("$", "?$"))
    peeked = tuple(((8, 0),) if p == 1 else () for p in state.players)
    state = dataclasses.replace(state, peeked=peeked, last_at=(8, 0), cache={})
    other = _hidden_cards_changed(state)
    group = decoded(to_png(render_board(public_view(state), names=b.NAMES)))
    assert decoded(to_png(render_board(public_view(other), names=b.NAMES))) == group
    unmarked = dataclasses.replace(state, last_at=None, cache={})
    assert decoded(to_png(render_board(public_view(unmarked), names=b.NAMES))) != group
    assert decoded(to_png(render_private_board(player_view(state, 1), names=b.NAMES))) != group
