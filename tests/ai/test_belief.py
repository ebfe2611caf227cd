"""The belief: a distribution that respects the role cards, its own knowledge and the evidence."""

from __future__ import annotations

import dataclasses
import math

import pytest

from ai import Bot, Level, visible
from ai.geometry import DEAD_ENDS
from engine import (
    Action,
    Card,
    Discard,
    Edition,
    GameState,
    PlaceTunnel,
    PlayOnPlayer,
    Role,
    UseMap,
    apply,
    legal_actions,
    new_game,
    player_view,
)

IDS = [100, 101, 102, 103, 104]


def with_hand(state: GameState, cards: tuple[Card, ...]) -> GameState:
    """The state with the hand of the seat to move replaced (a fresh cache comes with it)."""
    hands = list(state.hands)
    hands[state.turn] = tuple(sorted(cards))
    return dataclasses.replace(state, hands=tuple(hands))


def eastmost(state: GameState, cards: frozenset[Card]) -> Action:
    """The placement of one of `cards` furthest east (toward the goals), nearest the middle row."""
    player = state.players[state.turn]
    places = [
        a
        for a in legal_actions(state, player)
        if isinstance(a, PlaceTunnel) and a.card in cards and a.at[0] < 7
    ]
    return max(places, key=lambda a: (a.at[0], -abs(a.at[1]), a.rotated))


def miner_game(seed: int = 0) -> tuple[GameState, int]:
    """A 5-player base game and a seat holding a miner."""
    for s in range(seed, seed + 50):
        state = new_game(IDS, edition=Edition.BASE, seed=s)
        seats = [i for i, r in enumerate(state.roles) if r is Role.MINER and i != state.turn]
        if seats:
            return state, seats[0]
    raise AssertionError("no miner seat")


def test_dead_ends_toward_the_gold_make_a_saboteur() -> None:
    """A player who keeps closing the tunnel's front ends up the likeliest saboteur."""
    state, me = miner_game()
    n = len(IDS)
    blocker, digger = (me + 1) % n, (me + 2) % n
    bot = Bot(IDS[me], seed=3, level=Level.HEURISTIC)
    dead = frozenset(DEAD_ENDS)
    for _ in range(4 * n):
        seat = state.turn
        if seat == blocker:
            state = with_hand(state, tuple(sorted(dead))[:5])
            action = eastmost(state, dead)
        elif seat == digger:
            state = with_hand(state, (Card.CROSS,) * 5)
            action = eastmost(state, frozenset({Card.CROSS}))
        else:
            state = with_hand(state, (Card.MAP, Card.CROSS, Card.CROSS, Card.T_NES, Card.T_NEW))
            action = Discard((Card.T_NES,))
            if seat == me:
                bot.choose(player_view(state, IDS[me]), legal_actions(state, IDS[me]))
        t = apply(state, IDS[seat], action)
        bot.observe(visible(t.events, IDS[me]))
        state = t.state
    belief = bot.memory.sync(player_view(state, IDS[me]))
    p = [belief.p_saboteur(s) for s in range(n)]
    assert p[me] == 0.0
    assert p[blocker] == max(p)
    assert p[blocker] > 0.8 > 0.2 > p[digger]
    # Probabilities sum to 1, and the seat's own role card is certain.
    for s in range(n):
        assert math.isclose(sum(belief.role_probs(s).values()), 1.0)
    assert list(belief.role_probs(me)) == [Role.MINER]
    assert math.isclose(sum(belief.gold_probs().values()), 1.0)


def test_own_map_and_role_are_respected() -> None:
    """What the seat's map showed is certain; a saboteur counts the other saboteurs right."""
    for seed in range(6):
        state = new_game(IDS, edition=Edition.BASE, seed=seed)
        me = state.turn
        bot = Bot(IDS[me], seed=seed, level=Level.HEURISTIC)
        state = with_hand(state, (Card.MAP, Card.CROSS, Card.CROSS, Card.T_NES, Card.T_NEW))
        bot.choose(player_view(state, IDS[me]), legal_actions(state, IDS[me]))
        t = apply(state, IDS[me], UseMap((8, 0)))
        bot.observe(visible(t.events, IDS[me]))
        after = t.state
        view = player_view(after, IDS[me])
        belief = bot.memory.sync(view)
        gold_here = next(g.card for g in after.goals if g.at == (8, 0)) is Card.GOLD
        assert math.isclose(belief.gold_probs().get((8, 0), 0.0), 1.0 if gold_here else 0.0)
        expected = sum(1 for r in after.roles if r is Role.SABOTEUR)
        total = sum(belief.p_saboteur(s) for s in range(len(IDS)))
        if after.roles[me] is Role.SABOTEUR:
            assert math.isclose(belief.p_saboteur(me), 1.0)
            assert 1.0 <= total <= 2.0  # two saboteur cards among six, one maybe unused
        else:
            assert belief.p_saboteur(me) == 0.0
            assert 0.0 < total <= 2.0
        assert expected <= 2


def test_deluxe_inspection_is_certain() -> None:
    """A role seen with an inspection card is the only one left for that player."""
    ids = [1, 2, 3, 4, 5, 6]
    state = new_game(ids, edition=Edition.DELUXE, seed=4)
    me = state.turn
    target = (me + 2) % len(ids)
    bot = Bot(ids[me], seed=1, level=Level.HEURISTIC)
    state = with_hand(
        state, (Card.INSPECTION, Card.CROSS, Card.CROSS, Card.MAP, Card.MAP, Card.MAP)
    )
    bot.choose(player_view(state, ids[me]), legal_actions(state, ids[me]))
    t = apply(state, ids[me], PlayOnPlayer(Card.INSPECTION, ids[target]))
    bot.observe(visible(t.events, ids[me]))
    belief = bot.memory.sync(player_view(t.state, ids[me]))
    for seat in (target, me):
        probs = belief.role_probs(seat)
        assert list(probs) == [state.roles[seat]]
        assert math.isclose(probs[state.roles[seat]], 1.0)


def test_a_seats_own_break_is_no_evidence_to_itself() -> None:
    """A miner who breaks a player's tool does not grow surer that player is a saboteur from
    its own card (it knows why it played it); the same card from another seat is evidence."""
    state, me = miner_game()
    n = len(IDS)
    target, other = (me + 2) % n, (me + 3) % n
    bot = Bot(IDS[me], seed=5, level=Level.HEURISTIC)
    breaks = {me: Card.BREAK_PICKAXE, other: Card.BREAK_LANTERN}
    judged: list[int] = []
    for _ in range(n):
        seat = state.turn
        if seat in breaks:
            state = with_hand(state, (breaks[seat], Card.CROSS, Card.CROSS, Card.MAP))
            view = player_view(state, IDS[me])
            if seat == me:
                bot.choose(view, legal_actions(state, IDS[me]))
            before = bot.memory.sync(view).p_saboteur(target)
            action: Action = PlayOnPlayer(breaks[seat], IDS[target])
        else:
            state = with_hand(state, (Card.CROSS, Card.CROSS, Card.T_NES, Card.T_NEW))
            action = Discard((Card.T_NES,))
        t = apply(state, IDS[seat], action)
        bot.observe(visible(t.events, IDS[me]))
        state = t.state
        if isinstance(action, PlayOnPlayer):
            after = bot.memory.sync(player_view(state, IDS[me])).p_saboteur(target)
            judged.append(seat)
            if seat == me:
                assert math.isclose(after, before)
            else:
                assert after > before + 0.05
    assert sorted(judged) == sorted([me, other])


def test_reweight_by_gives_the_same_floats_as_reweight() -> None:
    """The grouped reweight asks each distinct key once, yet every weight is the plain one's."""
    from ai.belief import Belief
    from ai.rng import Rng
    from engine.model import Coord

    gold: list[Coord] = [(8, -2), (8, 0), (8, 2)]
    calls: list[int] = []

    def lik(r: tuple[Role, ...], g: Coord) -> float:
        calls.append(1)
        return (0.7 if r[2] is Role.SABOTEUR else 0.2) * (1.5 if r[4] is r[2] else 1.0) + g[1] / 10

    for edition, players, me in (
        (Edition.BASE, 5, Role.MINER),
        (Edition.DELUXE, 6, Role.BLUE_MINER),
    ):
        a = Belief(edition, players, 0, me, gold, Rng(7))
        b = Belief(edition, players, 0, me, gold, Rng(7))
        a.reweight(lik)
        calls.clear()
        b.reweight_by((2, 4), lik)
        assert b.w == a.w and b.roles == a.roles
        assert len(calls) < len(b)  # asked once per distinct key, not per hypothesis
        a.role_is(3, a.roles[0][3])  # the roles change: the cached columns must follow
        b.role_is(3, b.roles[0][3])
        a.reweight(lik)
        b.reweight_by((2, 4), lik)
        assert b.w == a.w
        a.gold_is((8, 2), False)  # the gold spots change: the cached gold column must follow
        b.gold_is((8, 2), False)
        a.reweight(lik)
        b.reweight_by((2, 4), lik)
        assert b.w == a.w and b.gold == a.gold


def test_sampled_role_assignments_are_the_seeded_partial_shuffles() -> None:
    """A role space too large to list is drawn by partial Fisher-Yates shuffles of the role
    cards, with the generator's own `below` draws (its inlined form must not change them)."""
    from collections import Counter

    from ai.belief import _assignments
    from ai.rng import Rng
    from engine.model import Role

    pool = Counter(
        {Role.SABOTEUR: 3, Role.BLUE_MINER: 4, Role.GREEN_MINER: 4, Role.BOSS: 1, Role.GEOLOGIST: 2}
    )
    rng, ref = Rng(77), Rng(77)
    got = _assignments(pool, 5, 300, rng)
    cards = sorted(pool.elements(), key=lambda r: r.value)
    drawn: Counter[tuple[Role, ...]] = Counter()
    for _ in range(300):
        deck = list(cards)
        for i in range(5):
            j = i + ref.below(len(cards) - i)
            deck[i], deck[j] = deck[j], deck[i]
        drawn[tuple(deck[:5])] += 1
    want = [(roles, n / 300) for roles, n in sorted(drawn.items(), key=lambda kv: str(kv[0]))]
    assert got == want
    assert rng.state == ref.state  # the stream goes on where the draws left it
    assert math.isclose(sum(p for _, p in got), 1.0)


def test_p_saboteur_is_the_plain_sum_as_the_hypotheses_change() -> None:
    """The cached saboteur masks give the plain sum, also after weights and roles change."""
    from ai.belief import Belief
    from ai.rng import Rng
    from engine.model import Coord

    gold: list[Coord] = [(8, -2), (8, 0), (8, 2)]
    b = Belief(Edition.DELUXE, 6, 0, Role.BLUE_MINER, gold, Rng(3))

    def plain(seat: int) -> float:
        return sum(w for r, w in zip(b.roles, b.w, strict=True) if r[seat] is Role.SABOTEUR)

    assert all(b.p_saboteur(s) == plain(s) for s in range(6))
    b.reweight(lambda r, g: 0.9 if r[2] is Role.SABOTEUR else 0.1)  # weights only
    assert b.p_saboteur(2) == plain(2) and b.p_saboteur(2) > 0.3
    b.role_is(2, Role.SABOTEUR)  # the roles change: the masks must follow
    assert b.p_saboteur(2) == plain(2) == pytest.approx(1.0)
    assert all(b.p_saboteur(s) == plain(s) for s in range(6))

    def plain_gold() -> dict[Coord, float]:
        spots = list(dict.fromkeys(b.gold))
        return {g: sum(w for h, w in zip(b.gold, b.w, strict=True) if h == g) for g in spots}

    assert b.gold_probs() == plain_gold() and len(b.gold_probs()) == 3
    b.reweight(lambda r, g: 0.9 if g == (8, 0) else 0.2)  # weights only
    assert b.gold_probs() == plain_gold() and b.gold_probs()[(8, 0)] > 0.5
    b.gold_is((8, 0), False)  # the spots change: the gold masks must follow
    assert b.gold_probs() == plain_gold() and set(b.gold_probs()) == {(8, -2), (8, 2)}


def test_swap_your_hats_redraws_a_role_from_the_spare_cards() -> None:
    """Reshuffling a seat gives, hypothesis by hypothesis, what a plain merge over the spare role
    cards gives (the same weights in the same order), keeps the seat's old card in the draw,
    and leaves every other seat's role as it was."""
    from collections import Counter

    from ai.belief import CAP, Belief
    from ai.rng import Rng
    from engine.model import Coord

    gold: list[Coord] = [(8, -2), (8, 0), (8, 2)]

    def plain(b: Belief, seat: int) -> tuple[list[tuple[Role, ...]], list[Coord], list[float]]:
        merged: dict[tuple[tuple[Role, ...], Coord], float] = {}
        for roles, g, w in zip(b.roles, b.gold, b.w, strict=True):
            spare = b.pool - Counter(roles)
            total = sum(spare.values()) + 1
            spare[roles[seat]] += 1
            for r, n in spare.items():
                if n > 0:
                    key = ((*roles[:seat], r, *roles[seat + 1 :]), g)
                    merged[key] = merged.get(key, 0.0) + w * n / total
        best = sorted(merged.items(), key=lambda kv: -kv[1])[:CAP]
        weights = [v for _, v in best]
        whole = math.fsum(weights)
        return [k[0] for k, _ in best], [k[1] for k, _ in best], [v / whole for v in weights]

    for edition, players in ((Edition.DELUXE, 6), (Edition.BASE, 5)):
        me = Role.BLUE_MINER if edition is Edition.DELUXE else Role.MINER
        b = Belief(edition, players, 1, me, gold, Rng(11))
        b.reweight(lambda r, g: 0.8 if r[3] is Role.SABOTEUR else 0.3 + g[1] / 20)
        b.gold_is((8, 2), False)
        for seat in (3, 1, 4):
            want = plain(b, seat)
            before = {(r[:seat] + r[seat + 1 :], g) for r, g in zip(b.roles, b.gold, strict=True)}
            b.reshuffle(seat)
            assert (b.roles, b.gold, b.w) == want
            assert all(len(r) == players for r in b.roles) and len(b) <= CAP
            after = {(r[:seat] + r[seat + 1 :], g) for r, g in zip(b.roles, b.gold, strict=True)}
            assert after <= before  # only the reshuffled seat's role changed
        assert {r[1] for r in b.roles} != {me}  # seat 1's own card could be swapped away
