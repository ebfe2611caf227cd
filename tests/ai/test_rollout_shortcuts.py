"""The rollouts' shortcuts change no choice: discards skipped when none can win, boards memoised."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence

from ai import Rng, heuristic
from ai.search import _Rollout, _situation_of_state
from ai.situation import Situation
from engine import Edition, GameState, apply, legal_actions, new_game
from engine.actions import Action, Discard, PlaceTunnel


def _states(edition: Edition, games: int) -> Iterator[GameState]:
    """Every state of some seeded games played by random legal moves."""
    for seed in range(games):
        pick = random.Random(seed)
        state = new_game([1, 2, 3, 4, 5, 6], edition=edition, seed=seed)
        while state.turn >= 0:
            yield state
            legal = legal_actions(state, state.players[state.turn])
            if not legal:
                break
            state = apply(state, state.players[state.turn], pick.choice(legal)).state


def _every_score(sit: Situation, legal: Sequence[Action], rng: Rng) -> Action:
    """`heuristic.choose` without noise as it was before its shortcut: every action scored."""
    looked = [0]
    best: list[int] = []
    best_s = -1e9
    for i, a in enumerate(legal):
        s = heuristic.score(sit, a, looked)
        if s > best_s + 1e-9:
            best, best_s = [i], s
        elif s >= best_s - 1e-9:
            best.append(i)
    return legal[best[0] if len(best) == 1 else best[rng.below(len(best))]]


def _plain(sit: Situation) -> Situation:
    """The same situation with nothing worked out yet and no board memo."""
    return dataclasses.replace(sit, _reach=None, _striking=None, _vec=None, _keep={}, _after=None)


def test_choose_picks_what_scoring_every_action_picks() -> None:
    discarded = skipped = 0
    for k, state in enumerate(_states(Edition.DELUXE, 12)):
        seat = state.turn
        legal = legal_actions(state, state.players[seat])
        ctx = _Rollout(seat, {g.at: 1 / 3 for g in state.goals}, (0.3,) * 6)
        sit = _situation_of_state(state, seat, ctx)
        want = _every_score(_plain(sit), legal, Rng(k))
        assert heuristic.choose(sit, legal, Rng(k)) == want
        if isinstance(want, Discard):
            discarded += 1
        elif any(isinstance(a, Discard) for a in legal):
            skipped += 1
    # Both ways through the shortcut were taken: a discard the best, and discards passed over.
    assert discarded > 20
    assert skipped > 20


def test_a_board_memo_shared_by_every_seat_scores_as_a_fresh_situation() -> None:
    placements = 0
    for state in _states(Edition.DELUXE, 4):
        # One search's memo, met by situations of every seat on this board (their own roles,
        # gold and stances), scores each placement as a situation without one.
        ctx = _Rollout(state.turn, {g.at: 0.5 for g in state.goals[:2]}, (0.3,) * 6)
        for seat in range(len(state.players)):
            sit = _situation_of_state(state, seat, ctx)
            fresh = _plain(sit)
            for a in legal_actions(state, state.players[state.turn]):
                if isinstance(a, PlaceTunnel):
                    placements += 1
                    assert heuristic.score(sit, a) == heuristic.score(fresh, a)
        assert len(ctx.boards) == 1
    assert placements > 1000


def test_base_game_discards_are_skipped_only_when_none_can_win() -> None:
    for k, state in enumerate(_states(Edition.BASE, 6)):
        seat = state.turn
        legal = legal_actions(state, state.players[seat])
        ctx = _Rollout(seat, {g.at: 1 / 3 for g in state.goals}, (0.3,) * 6)
        sit = _situation_of_state(state, seat, ctx)
        assert heuristic.choose(sit, legal, Rng(k)) == _every_score(_plain(sit), legal, Rng(k))
