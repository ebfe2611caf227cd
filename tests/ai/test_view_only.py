"""The bot sees only its seat's view and events; hidden changes do not change its choice."""

from __future__ import annotations

import dataclasses

import pytest

from ai import Bot, Budget, Level, Rng, determinize, sample_world, visible
from engine import (
    Discard,
    Edition,
    Event,
    GameState,
    apply,
    current_player,
    legal_actions,
    new_game,
    player_view,
)
from engine.events import RoleDealt
from engine.model import Goal

from ..engine.test_properties import cards_in_play

BUDGET = Budget(worlds=3, width=3, depth=3)


def midgame(players: int, edition: Edition, seed: int, turns: int) -> tuple[GameState, list[Event]]:
    """A state after some heuristic turns, and every event the seat to move may see."""
    ids = [100 + i for i in range(players)]
    state = new_game(ids, edition=edition, seed=seed)
    bots = {p: Bot(p, seed=i, level=Level.HEURISTIC) for i, p in enumerate(ids)}
    history: list[Event] = []
    for _ in range(turns):
        player = current_player(state)
        assert player is not None
        action = bots[player].choose(player_view(state, player), legal_actions(state, player))
        t = apply(state, player, action)
        for p, bot in bots.items():
            bot.observe(visible(t.events, p))
        history += t.events
        state = t.state
    me = current_player(state)
    assert me is not None
    return state, list(visible(history, me))


def hidden_changed(state: GameState, seed: int) -> GameState:
    """The same state for the seat to move, with other hands, roles and goal cards redealt."""
    rng = Rng(seed)
    me = state.turn
    others = [s for s in range(len(state.players)) if s != me]
    pool = list(state.deck) + [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s] = tuple(sorted(pool[: len(state.hands[s])]))
        del pool[: len(state.hands[s])]
    roles = [state.roles[s] for s in others] + list(state.spare_roles)
    rng.shuffle(roles)
    new_roles = list(state.roles)
    for s in others:
        new_roles[s] = roles.pop()
    free = [i for i, g in enumerate(state.goals) if not g.revealed and g.at not in state.peeked[me]]
    cards = [state.goals[i].card for i in free]
    rng.shuffle(cards)
    goals = list(state.goals)
    for i, c in zip(free, cards, strict=True):
        goals[i] = Goal(goals[i].at, c)
    return dataclasses.replace(
        state,
        hands=tuple(hands),
        deck=tuple(pool),
        roles=tuple(new_roles),
        spare_roles=tuple(roles),
        goals=tuple(goals),
    )


CASES = [(5, Edition.BASE, 3, 9), (7, Edition.BASE, 4, 14), (6, Edition.DELUXE, 5, 10)]


@pytest.mark.parametrize(("players", "edition", "seed", "turns"), CASES)
def test_hidden_changes_do_not_change_the_choice(
    players: int, edition: Edition, seed: int, turns: int
) -> None:
    """Two states alike from the seat's view, unlike behind it: the same seeded choice."""
    state, seen = midgame(players, edition, seed, turns)
    me = current_player(state)
    assert me is not None
    changed = [hidden_changed(state, seed * 10 + k) for k in range(3)]
    assert any(c.hands != state.hands or c.roles != state.roles for c in changed)
    view = player_view(state, me)
    legal = legal_actions(state, me)
    choices = set()
    for other in [state, *changed]:
        assert player_view(other, me) == view
        assert legal_actions(other, me) == legal
        for level in (Level.HEURISTIC, Level.SEARCH):
            bot = Bot(me, seed=42, level=level, budget=BUDGET)
            bot.observe(seen)
            choices.add((level, bot.choose(player_view(other, me), legal_actions(other, me))))
    assert len(choices) == 2  # one per level


def test_private_events_of_others_are_refused() -> None:
    """Handing a bot another seat's private event is an error, not a leak."""
    bot = Bot(1, seed=0)
    with pytest.raises(ValueError):
        bot.observe([RoleDealt(2, new_game([1, 2, 3], seed=0).roles[1], audience=2)])


@pytest.mark.parametrize(("players", "edition", "seed", "turns"), CASES)
def test_determinized_state_looks_the_same(
    players: int, edition: Edition, seed: int, turns: int
) -> None:
    """A state built from a view and a sampled world shows the seat exactly that view."""
    state, seen = midgame(players, edition, seed, turns)
    me = current_player(state)
    assert me is not None
    bot = Bot(me, seed=1, level=Level.HEURISTIC)
    bot.observe(seen)
    view = player_view(state, me)
    rng = Rng(5)
    for k in range(4):
        world = sample_world(view, bot.memory, rng)
        built = determinize(view, world, bot.memory, k)
        assert player_view(built, me) == view
        assert legal_actions(built, me) == legal_actions(state, me)
        assert cards_in_play(built) == cards_in_play(state)


def test_a_bot_rebuilt_from_the_history_knows_what_the_live_bot_knows() -> None:
    """`recall` of its own earlier moves plus the events seen: the memory of a bot that played."""
    ids = [100 + i for i in range(5)]
    state = new_game(ids, edition=Edition.BASE, seed=8)
    live = {p: Bot(p, seed=i, level=Level.HEURISTIC) for i, p in enumerate(ids)}
    me = ids[0]
    steps: list[tuple[tuple[object, object] | None, tuple[Event, ...]]] = []
    for _ in range(14):
        player = current_player(state)
        assert player is not None
        view = player_view(state, player)
        action = live[player].choose(view, legal_actions(state, player))
        t = apply(state, player, action)
        for p, bot in live.items():
            bot.observe(visible(t.events, p))
        steps.append(((view, action) if player == me else None, visible(t.events, me)))
        state = t.state
    rebuilt = Bot(me, seed=99, level=Level.HEURISTIC)
    for own, events in steps:
        if own is not None:
            rebuilt.recall(*own)  # type: ignore[arg-type]
        rebuilt.observe(events)
    view = player_view(state, me)
    a, b = live[me].memory, rebuilt.memory
    a.sync(view)
    b.sync(view)
    assert a.my_discards == b.my_discards and a.maze == b.maze and a.peeks == b.peeks
    belief_a, belief_b = live[me].belief(), rebuilt.belief()
    assert belief_a is not None and belief_b is not None
    assert [belief_a.p_saboteur(s) for s in range(5)] == pytest.approx(
        [belief_b.p_saboteur(s) for s in range(5)]
    )
    with pytest.raises(ValueError):
        other = player_view(state, ids[1])
        rebuilt.recall(other, Discard((other.hand[0],)))
