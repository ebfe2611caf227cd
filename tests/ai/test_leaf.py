"""The search's leaf: the fitted guess of whether the gold is reached, and its fitting tool."""

from __future__ import annotations

import dataclasses
import math

from ai.rng import Rng
from ai.search import _STOPPED_SABOTEUR, leaf_features, leaf_value, reach_probability
from bench.fit_leaf import Sample, fit
from engine import new_game
from engine.cards import Card
from engine.model import GameState, Role

STATE = new_game([1, 2, 3, 4, 5], seed=3)


def _broken(state: GameState, seat: int) -> GameState:
    fronts = list(state.in_front)
    fronts[seat] = (Card.BREAK_CART,)
    return dataclasses.replace(state, in_front=tuple(fronts))


def test_a_broken_tool_takes_its_owner_s_digging_force_from_the_leaf() -> None:
    share = (len(STATE.deck) + sum(len(h) for h in STATE.hands)) / 25  # cards left / n, per seat
    before = leaf_features(STATE)
    miner = leaf_features(_broken(STATE, STATE.roles.index(Role.MINER)))
    saboteur = leaf_features(_broken(STATE, STATE.roles.index(Role.SABOTEUR)))
    assert before[:2] == miner[:2] == saboteur[:2]
    assert math.isclose(before[2] - miner[2], share)  # a broken miner digs no more
    assert math.isclose(saboteur[2] - before[2], 0.8 * (1 - _STOPPED_SABOTEUR) * share)
    assert leaf_value(_broken(STATE, STATE.roles.index(Role.MINER)), 0) != leaf_value(STATE, 0)


def test_the_fit_finds_the_weights_that_made_the_outcomes() -> None:
    rng = Rng(11)
    truth = (-1.0, -0.3, 0.8)
    samples: list[Sample] = []
    for _ in range(4000):
        x = (1.0, float(rng.below(12)), 6.0 * rng.random())
        samples.append((x, rng.random() < reach_probability(x, truth)))
    got = fit(samples, (0.0, 0.0, 0.0))
    assert all(abs(g - t) < 0.2 for g, t in zip(got, truth, strict=True))
