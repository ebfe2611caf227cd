"""Information-set Monte Carlo: sample hidden worlds from the belief, play each candidate out."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import board as bd
from engine.actions import Action, Discard, PlaceTunnel, PlayOnPlayer, Rockfall, UseMap
from engine.cards import CARDS, Card, Kind
from engine.errors import IllegalAction
from engine.events import RoundEnded
from engine.model import GameState, Role, Side
from engine.rules import apply, can_dig, legal_actions
from engine.views import PlayerView

from . import heuristic
from .belief import Belief
from .geometry import Reach, is_dead_end, reach
from .memory import Memory
from .rng import Rng
from .situation import STANCE, Situation, Stance
from .world import determinize, sample_world

Clock = Callable[[], float]
MAX_DEPTH = 6  # big tables would otherwise spend seconds a move
PRIOR = 0.02  # a heuristic point's worth in a rollout value (0 to 1): it breaks near-ties


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a search decision may do: worlds sampled, moves tried, rollout depth."""

    worlds: int = 16
    width: int = 6
    depth: int | None = None  # turns simulated after the move; None: one of each other seat, <= 6
    seconds: float | None = None  # a wall-clock cap, honoured only when a clock is given
    noise: float = 0.0  # how often rollout players take their second-best move


def situation_of_view(view: PlayerView, memory: Memory, belief: Belief) -> Situation:
    """The deciding seat's knowledge, from its view and its memory."""
    pub = view.public
    seat = pub.players.index(view.me)
    gold = belief.gold_probs()
    return Situation(
        edition=pub.edition,
        players=pub.players,
        seat=seat,
        role=view.role,
        hand=view.hand,
        maze=memory.maze,
        net=memory.net,
        hidden=tuple(memory.hidden),
        gold=gold,
        in_front=tuple(s.in_front for s in pub.seats),
        hostile=hostility(view.role, seat, [belief.p_saboteur(s) for s in range(len(pub.seats))]),
        deck_size=pub.deck_size,
        hand_sizes=tuple(s.hand_size for s in pub.seats),
    )


def hostility(role: Role, seat: int, p_sab: Sequence[float]) -> tuple[float, ...]:
    """Per seat, how likely it works against a player of `role` at `seat`."""
    stance = STANCE[role]
    out: list[float] = []
    for s, p in enumerate(p_sab):
        if s == seat:
            out.append(0.0)
        elif stance is Stance.BLOCK:
            out.append(1.0 - p)
        elif stance is Stance.DIG:
            out.append(p)
        else:
            out.append(0.5)
    return tuple(out)


_Board = tuple[frozenset[tuple[tuple[int, int], int]], tuple[tuple[int, int], ...]]
_Memo = tuple[Reach, dict[tuple[tuple[int, int], int], tuple[int, ...] | None]]


@dataclass(frozen=True, slots=True)
class _Rollout:
    root: int
    root_gold: dict[tuple[int, int], float]
    p_sab: tuple[float, ...]  # the root's belief, with the root itself at the base rate
    # Per board seen in this search (the maze and its hidden goals): its reach and the
    # placements scored on it. The worlds differ in hands and roles, not in the board.
    boards: dict[_Board, _Memo] = field(default_factory=dict)


def _situation_of_state(state: GameState, seat: int, ctx: _Rollout) -> Situation:
    hidden = tuple(g.at for g in state.goals if not g.revealed)
    gold: dict[tuple[int, int], float]
    seen = set(state.peeked[seat])
    found = [g.at for g in state.goals if not g.revealed and g.at in seen and g.card is Card.GOLD]
    if found:
        raw = {found[0]: 1.0}
    elif seat == ctx.root:  # the root's belief, less the coal its maps showed in this world
        raw = {g: ctx.root_gold.get(g, 0.0) for g in hidden if g not in seen}
    else:
        rest = [g for g in hidden if g not in seen] or list(hidden)
        raw = {g: 1.0 for g in rest}
    total = sum(raw.values())
    gold = (
        {g: p / total for g, p in raw.items()}
        if total > 0
        else {g: 1 / len(hidden) for g in hidden}
    )
    key = (frozenset(state.maze.items()), hidden)
    memo = ctx.boards.get(key)
    if memo is None:
        memo = ctx.boards[key] = (reach(state.net, hidden), {})
    return Situation(
        edition=state.edition,
        players=state.players,
        seat=seat,
        role=state.roles[seat],
        hand=state.hands[seat],
        maze=state.maze,
        net=state.net,
        hidden=hidden,
        gold=gold,
        in_front=state.in_front,
        hostile=hostility(state.roles[seat], seat, ctx.p_sab),
        deck_size=len(state.deck),
        hand_sizes=tuple(len(h) for h in state.hands),
        _reach=memo[0],
        _after=memo[1],
    )


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def outcome_value(role: Role, winners: Sequence[Side], crystals: int) -> float:
    """How good a finished round is for a role, 0 to 1."""
    side = winners[0]
    if role is Role.PROFITEER:
        return 1.0
    if role is Role.GEOLOGIST:
        return min(1.0, crystals / 6.0)
    if role is Role.SABOTEUR:
        return 1.0 if side is Side.SABOTEURS else 0.0
    if role is Role.MINER:
        return 1.0 if side is Side.MINERS else 0.0
    if role is Role.BOSS:
        return 0.0 if side is Side.SABOTEURS else 1.0
    team = Side.BLUE if role is Role.BLUE_MINER else Side.GREEN
    return 1.0 if side in (team, Side.BOTH_TEAMS) else 0.0


def _crystals(state: GameState) -> int:
    return sum(1 for c in state.maze.values() if CARDS[bd.card_of(c)].crystal)


# A logistic fit of "the gold is reached" on positions of heuristic-only rounds (base 4, 5, 7, 9
# and Deluxe 6 players) with the form fixed by hand: fitting tool counts freely learnt that broken
# miners help miners (breaks come when the tunnel goes well), which a search would then act on.
# bench/fit_leaf.py refits the weights of this form and checks them on rounds it did not fit.
_LEAF = (-0.1109, -0.2396, 0.3963)
_STOPPED_SABOTEUR = 0.6  # a saboteur who cannot dig still breaks tools


def leaf_features(state: GameState) -> tuple[float, float, float]:
    """The leaf's inputs, weighed by `_LEAF`: 1, the distance from the tunnels' frontier to the
    gold (12 without either), and the cards left per player times the digging force per player
    (working diggers count 1, saboteurs -0.8, or -0.8 x `_STOPPED_SABOTEUR` when broken)."""
    gold = next((g.at for g in state.goals if g.card is Card.GOLD), None)
    d = 12
    if gold is not None:
        d = min((abs(f[0] - gold[0]) + abs(f[1] - gold[1]) for f in state.net.frontier), default=12)
    n = len(state.players)
    left = (len(state.deck) + sum(len(h) for h in state.hands)) / n
    force = 0.0
    for s in range(n):
        st = STANCE[state.roles[s]]
        if st is Stance.DIG:
            force += 1.0 if can_dig(state, s) else 0.0
        elif st is Stance.BLOCK:
            force -= 0.8 if can_dig(state, s) else 0.8 * _STOPPED_SABOTEUR
    return 1.0, float(d), left * force / n


def reach_probability(features: Sequence[float], weights: Sequence[float] = _LEAF) -> float:
    """The logistic guess that the gold is reached, from `leaf_features`."""
    z = sum(w * x for w, x in zip(weights, features, strict=True))
    return _sigmoid(max(-30.0, min(30.0, z)))


def leaf_value(state: GameState, seat: int) -> float:
    """A quick guess of how good an unfinished round is for a seat, 0 to 1."""
    role = state.roles[seat]
    stance = STANCE[role]
    if stance is Stance.ANY:
        return 1.0
    if stance is Stance.CRYSTALS:
        return min(1.0, _crystals(state) / 6.0)
    p = reach_probability(leaf_features(state))
    return 1.0 - p if stance is Stance.BLOCK else p


SUSPICION = 0.3  # how far a hostile-looking move in a rollout moves the table's view of its actor


def suspected(ctx: _Rollout, state: GameState, seat: int, action: Action) -> _Rollout:
    """The table's view after `seat` played `action` in a rollout: breaking a likely miner's
    tool, or a rockfall or dead end, makes the actor look like a saboteur; a repair makes it
    look like its target. So a rollout sees what a hostile move costs its actor's cover."""
    p = ctx.p_sab[seat]
    if isinstance(action, PlayOnPlayer):
        kind = CARDS[action.card].kind
        target = ctx.p_sab[state.players.index(action.target)]
        if kind is Kind.BREAK:
            p += SUSPICION * (1.0 - target) * (1.0 - p) - SUSPICION * target * p
        elif kind is Kind.REPAIR and action.target != state.players[seat]:
            p += SUSPICION * (target - p)
        else:
            return ctx
    elif isinstance(action, Rockfall) or (
        isinstance(action, PlaceTunnel) and is_dead_end(action.card)
    ):
        p += 0.5 * SUSPICION * (1.0 - p)
    else:
        return ctx
    p_sab = list(ctx.p_sab)
    p_sab[seat] = min(0.97, max(0.03, p))
    return _Rollout(ctx.root, ctx.root_gold, tuple(p_sab), ctx.boards)


def rollout(state: GameState, ctx: _Rollout, depth: int, rng: Rng, noise: float) -> float:
    """Play `depth` turns with the heuristic for every seat; the root's value at the end."""
    for _ in range(depth):
        seat = state.turn
        if seat < 0:
            break
        player = state.players[seat]
        legal = legal_actions(state, player)
        if not legal:
            break
        sit = _situation_of_state(state, seat, ctx)
        action = heuristic.choose(sit, legal, rng, noise)
        if SUSPICION:
            ctx = suspected(ctx, state, seat, action)
        t = apply(state, player, action)
        ended = next((e for e in t.events if isinstance(e, RoundEnded)), None)
        if ended is not None:
            crystals = sum(1 for c in ended.board.cards if CARDS[c.card].crystal)
            return outcome_value(state.roles[ctx.root], ended.result.winners, crystals)
        state = t.state
    return leaf_value(state, ctx.root)


def world_values(
    state: GameState,
    cands: Sequence[Action],
    ctx: _Rollout,
    depth: int,
    seed: int,
    noise: float,
) -> list[float]:
    """Each candidate's value to the deciding seat in one sampled world, every rollout from the
    same seed. A candidate the world makes illegal (it disagrees with the view) gets the mean
    of the others' values there: no evidence for or against it, whatever that world is worth
    (a fixed 0.5 would favour it in a world that is lost anyway, and punish it in one that is
    won)."""
    seat = ctx.root
    me = state.players[seat]
    role = state.roles[seat]
    values: list[float | None] = []
    for a in cands:
        try:
            t = apply(state, me, a)
        except IllegalAction:
            values.append(None)
            continue
        ended = next((e for e in t.events if isinstance(e, RoundEnded)), None)
        if ended is not None:
            crystals = sum(1 for c in ended.board.cards if CARDS[c.card].crystal)
            values.append(outcome_value(role, ended.result.winners, crystals))
            continue
        start = suspected(ctx, state, seat, a) if SUSPICION else ctx
        values.append(rollout(t.state, start, depth, Rng(seed), noise))
    known = [v for v in values if v is not None]
    neutral = sum(known) / len(known) if known else 0.5
    return [neutral if v is None else v for v in values]


def search(
    view: PlayerView,
    memory: Memory,
    legal: tuple[Action, ...],
    rng: Rng,
    budget: Budget,
    clock: Clock | None = None,
) -> Action:
    """The candidate move with the best average rollout value over sampled worlds."""
    belief = memory.sync(view)
    sit = situation_of_view(view, memory, belief)
    ranked = heuristic.ranked(sit, legal, rng)
    if len(ranked) == 1 or ranked[0][0] >= 8.0:  # one choice, or the gold in reach
        return ranked[0][1]
    cands: list[Action] = []
    prior: list[float] = []
    kinds: dict[object, int] = {}
    for sc, a in ranked:
        # Moves alike (maps, discards) take at most two places, so the others get looked at.
        kind = type(a) if isinstance(a, UseMap | Discard) else a
        if kinds.get(kind, 0) >= 2:
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        cands.append(a)
        prior.append(sc)
        if len(cands) >= budget.width:
            break
    if sit.stance is Stance.BLOCK and not heuristic.striking(sit):
        # A hiding saboteur also weighs its best strikes: the rollouts judge when to stop hiding.
        bold = situation_of_view(view, memory, belief)
        bold.strike = True
        extra = [a for _, a in heuristic.ranked(bold, legal, rng) if a not in cands]
        for a in extra[:2]:
            cands.append(a)
            prior.append(min(prior))
    n = len(view.public.players)
    seat = sit.seat
    p_sab = [belief.p_saboteur(s) for s in range(n)]
    saboteurs = sum(1 for r in belief.pool.elements() if r is Role.SABOTEUR)
    p_sab[seat] = saboteurs / sum(belief.pool.values())
    ctx = _Rollout(seat, dict(sit.gold), tuple(p_sab))
    depth = budget.depth if budget.depth is not None else min(n - 1, MAX_DEPTH)
    deadline = None
    if clock is not None and budget.seconds is not None:
        deadline = clock() + budget.seconds
    totals = [0.0] * len(cands)
    worlds = 0
    for _ in range(budget.worlds):
        if deadline is not None and clock is not None and worlds > 0 and clock() > deadline:
            break
        world = sample_world(view, memory, rng)
        state = determinize(view, world, memory, rng.bits())
        seed = rng.bits()
        worlds += 1
        for k, v in enumerate(world_values(state, cands, ctx, depth, seed, budget.noise)):
            totals[k] += v
    top = max(prior)
    scores = [totals[k] / max(worlds, 1) + PRIOR * (prior[k] - top) for k in range(len(cands))]
    best = max(range(len(cands)), key=lambda k: (scores[k], -k))
    return cands[best]
