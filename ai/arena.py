"""Whole rounds between computer players, for tests and the benchmark (no I/O; clock injected)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from engine.actions import Action
from engine.cards import Edition
from engine.errors import IllegalAction
from engine.events import ActionPlayed, MapUsed, RockfallPlayed, RoundEnded, TunnelPlaced
from engine.model import Role, Side
from engine.rules import apply, current_player, legal_actions, new_game
from engine.views import player_view

from .player import Bot, Level, visible
from .search import Budget, Clock
from .situation import STANCE, Stance


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """How one round between bots went."""

    winners: tuple[Side, ...]
    roles: tuple[Role, ...]
    levels: tuple[Level, ...]
    turns: int
    illegal: int
    times: tuple[tuple[Level, float], ...]  # seconds per decision (empty without a clock)
    ranked: tuple[bool, ...]  # per miner seat judged: every saboteur above every other player
    ranking_counts: bool  # every saboteur played at least three cards face up
    trace: str = ""  # a digest of the moves made in order: equal traces, the same round

    @property
    def diggers_won(self) -> bool:
        """Whether the gold was reached (the side of every role but the saboteurs won)."""
        return self.winners[0] is not Side.SABOTEURS


def play_round(
    players: int,
    edition: Edition,
    seed: int,
    levels: Mapping[bool, Level],
    budget: Budget = Budget(),
    clock: Clock | None = None,
) -> RoundRecord:
    """Play round 1 of a seeded game; `levels[True]` plays the saboteurs, `[False]` the rest."""
    ids = [100 + i for i in range(players)]
    state = new_game(ids, edition=edition, seed=seed)
    roles = state.roles
    seat_levels = tuple(levels[r is Role.SABOTEUR] for r in roles)
    bots = {
        p: Bot(p, seed=seed * 1009 + i, level=seat_levels[i], budget=budget, clock=clock)
        for i, p in enumerate(ids)
    }
    played = [0] * players
    times: list[tuple[Level, float]] = []
    illegal = 0
    turns = 0
    digest = hashlib.sha256()
    while True:
        player = current_player(state)
        assert player is not None
        legal = legal_actions(state, player)
        seat = ids.index(player)
        start = clock() if clock is not None else 0.0
        action: Action = bots[player].choose(player_view(state, player), legal)
        if clock is not None:
            times.append((seat_levels[seat], clock() - start))
        turns += 1
        try:
            t = apply(state, player, action)
        except IllegalAction:
            illegal += 1
            action = legal[0]
            t = apply(state, player, action)
        digest.update(f"{seat}:{action!r};".encode())
        end = next((i for i, e in enumerate(t.events) if isinstance(e, RoundEnded)), None)
        upto = t.events if end is None else t.events[:end]
        for e in upto:
            if isinstance(e, TunnelPlaced | ActionPlayed | MapUsed | RockfallPlayed):
                played[ids.index(e.player)] += 1
        for p, b in bots.items():
            b.observe(visible(upto, p))
        if end is not None:
            ended = t.events[end]
            assert isinstance(ended, RoundEnded)
            break
        state = t.state
    saboteurs = [s for s in range(players) if roles[s] is Role.SABOTEUR]
    ranked: list[bool] = []
    for s in range(players):
        if STANCE[roles[s]] is not Stance.DIG or seat_levels[s] is Level.RANDOM:
            continue
        belief = bots[ids[s]].belief()
        if belief is None or not saboteurs:
            continue
        prob = [belief.p_saboteur(o) for o in range(players)]
        others = [o for o in range(players) if o != s and o not in saboteurs]
        ranked.append(min(prob[o] for o in saboteurs) > max((prob[o] for o in others), default=0.0))
    return RoundRecord(
        winners=ended.result.winners,
        roles=roles,
        levels=seat_levels,
        turns=turns,
        illegal=illegal,
        times=tuple(times),
        ranked=tuple(ranked),
        ranking_counts=bool(saboteurs) and all(played[s] >= 3 for s in saboteurs),
        trace=digest.hexdigest()[:16],
    )
