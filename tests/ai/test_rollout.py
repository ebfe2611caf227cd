"""The search's rollouts: how the table's view of a seat moves with what it plays there."""

from __future__ import annotations

from ai.search import _Rollout, suspected
from engine import new_game
from engine.actions import Discard, PlayOnPlayer
from engine.cards import Card, Tool

STATE = new_game([1, 2, 3, 4, 5], seed=3)


def _ctx(*p_sab: float) -> _Rollout:
    return _Rollout(0, {}, tuple(p_sab))


def test_breaking_a_likely_miner_s_tool_makes_the_actor_look_like_a_saboteur() -> None:
    ctx = _ctx(0.4, 0.4, 0.1, 0.4, 0.4)
    after = suspected(ctx, STATE, 1, PlayOnPlayer(Card.BREAK_CART, 3))
    assert after.p_sab[1] > 0.5 and after.p_sab[:1] + after.p_sab[2:] == (0.4, 0.1, 0.4, 0.4)


def test_breaking_a_likely_saboteur_s_tool_clears_the_actor() -> None:
    ctx = _ctx(0.4, 0.4, 0.9, 0.4, 0.4)
    assert suspected(ctx, STATE, 1, PlayOnPlayer(Card.BREAK_CART, 3)).p_sab[1] < 0.4


def test_a_repair_makes_the_actor_look_like_its_target() -> None:
    ctx = _ctx(0.4, 0.4, 0.05, 0.4, 0.4)
    move = PlayOnPlayer(Card.REPAIR_CART, 3, Tool.CART)
    assert suspected(ctx, STATE, 1, move).p_sab[1] < 0.4


def test_a_discard_tells_nothing() -> None:
    ctx = _ctx(0.4, 0.4, 0.1, 0.4, 0.4)
    assert suspected(ctx, STATE, 1, Discard((Card.MAP,))) is ctx
