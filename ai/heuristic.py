"""The fast rule-based player: every legal action gets a score from the seat's knowledge."""

from __future__ import annotations

from collections.abc import Sequence

from engine import board as bd
from engine.actions import (
    Action,
    Discard,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    Steal,
    UseMap,
)
from engine.cards import CARDS, Card, Door, Edition, Kind
from engine.model import Role

from .geometry import DEAD_ENDS, after_place, after_remove, is_dead_end, weighted
from .rng import Rng
from .situation import Situation, Stance

_TEAM_DOOR: dict[Role, Door] = {Role.BLUE_MINER: Door.BLUE, Role.GREEN_MINER: Door.GREEN}
_BLOCKING = frozenset({Card.BREAK_PICKAXE, Card.BREAK_LANTERN, Card.BREAK_CART, Card.TRAPPED})
# Against miners who rebuild a cut path, hiding buys a saboteur less than the turns it costs:
# base 5 H v H, seeds 1-1200, miners won 61.4% against saboteurs striking from 6, 58.2% from 8,
# 56.8% from 10 (the start's frontier is 7 to 9 from the goals: from the first turn).
STRIKE_DISTANCE = 10.0
STRIKE_DECK = 10
# A saboteur breaks the seats about to play first: a tool broken just before its owner's turn
# costs that turn, since nobody can repair it in between (base 5 H v H, seeds 1-1200: miners
# won 59.4% without it, 56.8% with 1.0, 58.2% with 2.0).
NEXT_BONUS = 1.0
# A saboteur keeps its rockfalls (and dead ends that block nothing yet) until the deck is this
# low, unless a cut is worth it now: a gap the miners cannot draw a card for any more is
# mended late or never.
HOLD_DECK = 3
HOLD_ROCKFALL = 1.5
HOLD_DEAD_END = 0.6
# A cut's worth is scaled by how scarce the cards that could fill its gap are: x0.5 when this
# many copies or more are left (a base deck's tunnels less those on the board), up to x1.5.
REFILL_PLENTY = 12.0
# A digging seat breaks only a player it believes against it with this probability or more;
# below, a break scores under discarding the card. Random saboteurs look hostile less surely
# than the heuristic's, and a tool broken on a fellow miner costs the miners turns: base 5,
# seeds 1-2,000 / 100,001-102,000, miners won 85.2% / 84.8% of H v R rounds before, 87.0% /
# 87.9% with 0.7, and 56.2% / 54.9% of H v H before, 55.8% / 54.9% with it (base 7 H v R
# 80.5% -> 83.2%, H v H 44.4% -> 44.2%; Deluxe 6 unchanged, 98.8% and 94.8% -> 94.9%).
BREAK_SURE = 0.7
BREAK_UNSURE = 2.0
_UNSEEN = (-1,)  # a board memo's answer for a placement not worked out yet
_ROCKFALL_LOOKS = 8  # rockfall cells looked at per decision: each costs a network rebuild


def striking(sit: Situation) -> bool:
    """Whether a saboteur should stop hiding: the gold is near or the cards run out."""
    if sit.strike is not None:
        return sit.strike
    hit = sit._striking
    if hit is None:
        r = sit.reach
        hit = (
            sit.edition is Edition.DELUXE  # outnumbered about four to one: no time to hide
            or weighted(r.best, r.goals, sit.gold) <= STRIKE_DISTANCE
            or sit.deck_size <= STRIKE_DECK
        )
        sit._striking = hit
    return hit


def _vectors(sit: Situation) -> tuple[tuple[float, ...], tuple[float, ...], float, float]:
    """Gold and coal probabilities per hidden goal, and the distances they weigh, before a move."""
    hit = sit._vec
    if hit is None:
        r = sit.reach
        gold = tuple(sit.gold.get(g, 0.0) for g in r.goals)
        coal_raw = [1.0 - p for p in gold]
        total = sum(coal_raw) or 1.0
        coal = tuple(p / total for p in coal_raw)
        before = sum(p * d for p, d in zip(gold, r.best, strict=True))
        fake = sum(p * d for p, d in zip(coal, r.best, strict=True))
        hit = (gold, coal, before, fake)
        sit._vec = hit
    return hit


def keep_value(sit: Situation, card: Card) -> float:
    """How much a card is worth keeping in this seat's hand (worked out once per card and
    situation: a Deluxe hand's discards of one to three cards ask about 90 times a decision)."""
    value = sit._keep.get(card)
    if value is None:
        value = sit._keep[card] = _keep_value(sit, card)
    return value


def _keep_value(sit: Situation, card: Card) -> float:
    kind = CARDS[card].kind
    dig = sit.stance is not Stance.BLOCK
    if kind is Kind.TUNNEL:
        if is_dead_end(card):
            return 0.1 if dig else 0.8
        if sit.stance is Stance.CRYSTALS and CARDS[card].crystal:
            return 0.9
        return 0.6 if dig else 0.3
    if kind is Kind.BREAK:
        return 0.4 if dig else 0.8
    if kind is Kind.REPAIR:
        return 0.5
    if kind is Kind.MAP:
        return 0.1 if sit.gold_known() else 0.6
    if kind is Kind.ROCKFALL:
        if dig:
            return 0.3
        return 0.9 if sit.deck_size > HOLD_DECK else 0.6
    return 0.3


def _place(sit: Situation, a: PlaceTunnel) -> float:
    r = sit.reach
    c = bd.code(a.card, a.rotated)
    memo = sit._after
    if memo is None:
        after = after_place(r, sit.maze, sit.net, a.at, c)
    else:
        key = (a.at, c)
        after = memo.get(key, _UNSEEN)
        if after is _UNSEEN:
            after = memo[key] = after_place(r, sit.maze, sit.net, a.at, c)
    if after is None:  # a ladder or a card joined to nothing moves nothing forward
        return -0.5
    gold, coal, before, before_fake = sit._vec or _vectors(sit)
    delta = before
    reaches_gold = 0.0
    for p, d in zip(gold, after, strict=False):  # (one per hidden goal: as long as each other)
        delta -= p * d
        if d == 0:
            reaches_gold += p
    spec = CARDS[a.card]
    dead = a.card in DEAD_ENDS
    stance = sit.stance
    if stance is Stance.BLOCK:
        if striking(sit):
            score = -2.0 * delta - 8.0 * reaches_gold + (0.3 if dead else 0.0)
            if dead and -1e-9 < delta < 1e-9 and sit.deck_size > HOLD_DECK:
                score -= HOLD_DEAD_END  # kept for the front
            return score
        # Hiding: dig toward a goal the seat thinks is coal, never toward the gold.
        fake = before_fake - sum(p * d for p, d in zip(coal, after, strict=True))
        return 0.7 * fake - 1.2 * max(delta, 0.0) - 6.0 * reaches_gold - 0.2
    score = 2.0 * delta + 10.0 * reaches_gold
    if delta <= 0.0:
        score -= 0.4 + (0.5 if dead else 0.0)
    if spec.door is not None and sit.role in _TEAM_DOOR:
        score += 0.4 if spec.door is _TEAM_DOOR[sit.role] else -1.2
    if stance is Stance.CRYSTALS:
        score = 0.4 * score + (1.2 if spec.crystal else -0.2)
    elif stance is Stance.ANY:
        score *= 0.5
    return score


def _rockfall(sit: Situation, a: Rockfall, looked: list[int]) -> float:
    card = bd.card_of(sit.maze[a.at])
    dig = sit.stance is not Stance.BLOCK
    if dig and not is_dead_end(card):
        return -2.0
    r = sit.reach
    if not dig and not striking(sit):
        return -1.5
    if looked[0] >= _ROCKFALL_LOOKS:
        return -1.0
    looked[0] += 1
    # A saboteur cuts wherever the path's loss is largest, most often near the start: the
    # cards beyond the cut count again only once a card fitting the gap is found.
    after = after_remove(sit.maze, sit.hidden, a.at)
    delta = weighted(r.best, r.goals, sit.gold) - weighted(after, r.goals, sit.gold)
    if dig:
        return 2.0 * delta - 0.3
    hold = HOLD_ROCKFALL if sit.deck_size > HOLD_DECK else 0.0
    if delta >= 0.0:
        return -2.0 * delta - 0.3 - hold
    # The miners mend a cut with one card that fits its gap: a cut is worth more the fewer
    # such cards are left (base 5 H v H, seeds 1-2,000: miners won 57.5% before, 56.2% with
    # this and the holding above).
    rest = {k: v for k, v in sit.maze.items() if k != a.at}
    must_open, must_closed = bd.constraints(rest, a.at)
    copies = _refill_copies(must_open, must_closed)
    for v in rest.values():
        if _refills(bd.card_of(v), must_open, must_closed):
            copies -= 1
    scarce = max(0.0, 1.0 - copies / REFILL_PLENTY)
    return -2.0 * delta * (0.5 + scarce) - 0.3 - hold


_REFILL: dict[tuple[int, int], int] = {}


def _refills(card: Card, must_open: int, must_closed: int) -> bool:
    """Whether a tunnel card (not a dead end) fits a gap with these edges, in some orientation."""
    spec = CARDS[card]
    if spec.kind is not Kind.TUNNEL or spec.ladder or card in DEAD_ENDS:
        return False
    return any(bd.fits(c, must_open, must_closed) for c in bd.OFFERED[card])


def _refill_copies(must_open: int, must_closed: int) -> int:
    """Copies in a base deck of the tunnel cards (not dead ends) that fit a gap."""
    key = (must_open, must_closed)
    n = _REFILL.get(key)
    if n is None:
        n = sum(s.base_copies for s in CARDS if _refills(s.card, must_open, must_closed))
        _REFILL[key] = n
    return n


def _at_player(sit: Situation, a: PlayOnPlayer) -> float:
    kind = CARDS[a.card].kind
    target = sit.players.index(a.target)
    me = target == sit.seat
    hostile = sit.hostile[target]
    front = sit.in_front[target]
    block = sit.stance is Stance.BLOCK
    if kind in (Kind.BREAK, Kind.TRAPPED):
        if me:
            return -10.0
        can_dig = not any(c in _BLOCKING for c in front)
        bonus = 0.5 if can_dig else -0.3
        if block:
            n = len(sit.players)
            order = (target - sit.seat) % n  # 1: the next to play
            bonus += NEXT_BONUS * (n - 1 - order) / max(n - 2, 1)
        if block and not striking(sit):
            return 2.0 * (hostile - 0.75) + bonus
        score = 3.0 * (hostile - 0.55) + bonus
        if not block and hostile < BREAK_SURE:
            score -= BREAK_UNSURE  # below discarding the card
        return score
    if kind in (Kind.REPAIR, Kind.FREE):
        if me:
            return 2.5 if (not block or striking(sit)) else 1.2
        return 2.5 * (1.0 - hostile) - 1.1
    if kind is Kind.THEFT:
        return 0.8
    if kind is Kind.HANDS_OFF:
        return -5.0 if me else 0.2
    if kind is Kind.INSPECTION:
        return 0.4 + 0.8 * (1.0 - abs(2.0 * hostile - 1.0))
    if kind is Kind.SWAP_HATS:
        return -1.0 if me else 2.0 * (hostile - 0.65)
    return -0.6  # swap your hand: rarely worth a card


def score(sit: Situation, a: Action, looked: list[int] | None = None) -> float:
    """How good an action looks to this seat; higher is better."""
    if isinstance(a, PlaceTunnel):
        return _place(sit, a)
    if isinstance(a, PlayOnPlayer):
        return _at_player(sit, a)
    if isinstance(a, UseMap):
        if sit.gold_known():
            return -1.0
        p = sit.gold.get(a.at, 0.0)
        return 1.4 + 0.6 * p
    if isinstance(a, Rockfall):
        return _rockfall(sit, a, looked if looked is not None else [0])
    if isinstance(a, Discard):
        kept = sit._keep
        total = 0.0  # (added in order, as `sum` adds floats before Python 3.12)
        for c in a.cards:
            value = kept.get(c)
            if value is None:
                value = keep_value(sit, c)
            total += 0.25 - value
        return total - 0.3
    if isinstance(a, Steal):  # a round-end choice, decided by ai.theft
        return 0.0
    if a.removes is Card.THEFT:  # clearing in front (Deluxe)
        return -5.0
    return 1.0 - 0.5 * sum(keep_value(sit, c) for c in a.discards)


def ranked(sit: Situation, legal: Sequence[Action], rng: Rng) -> list[tuple[float, Action]]:
    """Legal actions with their scores, best first; ties broken by a seeded jitter."""
    looked = [0]
    out = [(score(sit, a, looked) + 1e-6 * rng.random(), i) for i, a in enumerate(legal)]
    out.sort(reverse=True)
    return [(s, legal[i]) for s, i in out]


def _best_discard(sit: Situation) -> float:
    """The highest score any discard of one to three cards (one in the base game) can have."""
    gains = sorted((0.25 - keep_value(sit, c) for c in sit.hand), reverse=True)
    most = 3 if sit.edition is Edition.DELUXE else 1
    total, best = 0.0, -1e9
    for g in gains[:most]:
        total += g
        best = max(best, total)
    return best - 0.3


def choose(sit: Situation, legal: Sequence[Action], rng: Rng, noise: float = 0.0) -> Action:
    """The best-scoring action (ties to a seeded pick), or with probability `noise` the second."""
    looked = [0]
    best: list[int] = []
    best_s = -1e9
    second_s = -1e9
    second = 0
    bound = noise <= 0.0  # without noise, the discards (last) need scoring only if one may win
    for i, a in enumerate(legal):
        if bound and type(a) is Discard:
            if best and _best_discard(sit) < best_s - 1e-6:
                break
            bound = False
        s = _place(sit, a) if type(a) is PlaceTunnel else score(sit, a, looked)
        if s > best_s + 1e-9:
            if best:
                second, second_s = best[0], best_s
            best, best_s = [i], s
        elif s >= best_s - 1e-9:
            best.append(i)
        elif s > second_s:
            second, second_s = i, s
    if noise > 0.0 and second_s > -1e9 and rng.random() < noise:
        return legal[second]
    return legal[best[0] if len(best) == 1 else best[rng.below(len(best))]]
