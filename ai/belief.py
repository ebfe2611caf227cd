"""A probability over who holds which role and where the gold lies, for one seat.

Hypotheses are whole role assignments (every seat, the spare cards implied) joined with a gold
position. The prior follows the role cards dealt; deduction removes what the seat's own role,
maps and inspections rule out; each public move reweights by how likely it is under each role.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence

from engine.cards import Edition
from engine.model import BASE_COUNTS, DELUXE_ROLES, Coord, Role

from .rng import Rng

CAP = 600  # hypotheses kept; larger role spaces are sampled from the prior instead
_FLOOR = 1e-300

Likelihood = Callable[[tuple[Role, ...], Coord], float]


def role_pool(edition: Edition, players: int) -> Counter[Role]:
    """The role cards dealt from for a player count (one more than the players in base)."""
    if edition is Edition.BASE:
        counts = BASE_COUNTS[players]
        return Counter({Role.SABOTEUR: counts.saboteurs, Role.MINER: counts.miners})
    return Counter(DELUXE_ROLES)


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def count_sequences(pool: Counter[Role], seats: int) -> int:
    """How many distinct role sequences for `seats` seats the pool can deal."""
    ways = [1] + [0] * seats  # ways[j]: sequences of length j from the kinds so far
    for n in pool.values():
        ways = [
            sum(ways[j - k] * math.comb(j, k) for k in range(min(n, j) + 1))
            for j in range(seats + 1)
        ]
    return ways[seats]


def _assignments(
    pool: Counter[Role], seats: int, cap: int, rng: Rng
) -> list[tuple[tuple[Role, ...], float]]:
    """Role sequences for `seats` seats drawn from `pool`, with their prior probabilities."""
    kinds = sorted(pool, key=lambda r: r.value)
    total = sum(pool.values())
    if count_sequences(pool, seats) <= cap:
        out: list[tuple[tuple[Role, ...], float]] = []

        def emit(prefix: list[Role], left: Counter[Role]) -> None:
            if len(prefix) == seats:
                used = Counter(prefix)
                w = math.prod(_falling(pool[r], k) for r, k in used.items())
                out.append((tuple(prefix), w / _falling(total, seats)))
                return
            for r in kinds:
                if left[r] > 0:
                    left[r] -= 1
                    prefix.append(r)
                    emit(prefix, left)
                    prefix.pop()
                    left[r] += 1

        emit([], Counter(pool))
        return out
    # Too many to list: draw from the prior; repeated draws add up their weight.
    drawn: Counter[tuple[Role, ...]] = Counter()
    cards = sorted(pool.elements(), key=lambda r: r.value)
    size = len(cards)
    # `rng.below` inlined (the same SplitMix64 draws, so the same hypotheses): this loop is
    # most of a Deluxe seat's first decision of a round.
    state, mask = rng.state, (1 << 64) - 1
    spans = [size - i for i in range(seats)]
    for _ in range(cap):
        deck = list(cards)
        for i, span in enumerate(spans):  # a partial Fisher-Yates: only the seats' cards drawn
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            j = i + (z ^ (z >> 31)) % span
            deck[i], deck[j] = deck[j], deck[i]
        drawn[tuple(deck[:seats])] += 1
    rng.state = state
    return [(roles, n / cap) for roles, n in sorted(drawn.items(), key=lambda kv: str(kv[0]))]


class Belief:
    """Weighted hypotheses (roles of every seat, gold position) for the seat `me`."""

    def __init__(
        self,
        edition: Edition,
        players: int,
        me: int,
        role: Role,
        gold_spots: Sequence[Coord],
        rng: Rng,
    ) -> None:
        self.edition = edition
        self.players = players
        self.me = me
        self.pool = role_pool(edition, players)
        left = Counter(self.pool)
        left[role] -= 1
        others = _assignments(left, players - 1, max(1, CAP // max(1, len(gold_spots))), rng)
        self.roles: list[tuple[Role, ...]] = []
        self.gold: list[Coord] = []
        self.w: list[float] = []
        self._cols_of: list[tuple[Role, ...]] | None = None
        self._cols: dict[int, list[int]] = {}  # per seat, each hypothesis's role as a number
        self._masks: dict[int, list[bool]] = {}  # per seat, whether each is its saboteur
        for rest, p in others:
            full = (*rest[:me], role, *rest[me:])
            for g in gold_spots:
                self.roles.append(full)
                self.gold.append(g)
                self.w.append(p / len(gold_spots))
        self._normalise()

    def _normalise(self) -> None:
        total = math.fsum(self.w)
        if total <= 0.0 or not math.isfinite(total):
            self.w = [1.0 / len(self.w)] * len(self.w)
        else:
            self.w = [w / total for w in self.w]

    def _keep(self, keep: Sequence[bool]) -> None:
        if not any(keep):  # contradictory evidence: keep the old belief rather than none
            return
        self.roles = [r for r, k in zip(self.roles, keep, strict=True) if k]
        self.gold = [g for g, k in zip(self.gold, keep, strict=True) if k]
        self.w = [w for w, k in zip(self.w, keep, strict=True) if k]
        self._normalise()

    def reweight(self, likelihood: Likelihood) -> None:
        """Bayes' rule with a likelihood of the evidence under each hypothesis."""
        self.w = [
            max(w * likelihood(r, g), _FLOOR)
            for w, r, g in zip(self.w, self.roles, self.gold, strict=True)
        ]
        self._normalise()

    def _cached(self) -> None:
        """Forget the per-seat columns once the hypotheses' roles have changed."""
        if self._cols_of is not self.roles:
            self._cols_of = self.roles
            self._cols, self._masks = {}, {}

    def _column(self, seat: int) -> list[int]:
        """Each hypothesis's role of `seat` as a small number (cached until the roles change)."""
        self._cached()
        col = self._cols.get(seat)
        if col is None:
            ids = {id(r): i for i, r in enumerate(Role)}
            col = [ids[id(r[seat])] for r in self.roles]
            self._cols[seat] = col
        return col

    def reweight_by(self, seats: Sequence[int], likelihood: Likelihood) -> None:
        """`reweight` for a likelihood that reads only these seats' roles and the gold.

        The same floats as `reweight`, with the likelihood asked once per distinct
        (roles of `seats`, gold) rather than once per hypothesis."""
        cols = [self._column(s) for s in seats]
        gold_ids: dict[Coord, int] = {}
        gcol = [gold_ids.setdefault(g, len(gold_ids)) for g in self.gold]
        n_roles = len(Role)
        keys = list(gcol)
        for col in cols:
            keys = [k * n_roles + c for k, c in zip(keys, col, strict=True)]
        table: dict[int, float] = {}
        for i, k in enumerate(keys):
            if k not in table:
                table[k] = likelihood(self.roles[i], self.gold[i])
        self.w = [max(w * table[k], _FLOOR) for w, k in zip(self.w, keys, strict=True)]
        self._normalise()

    def gold_is(self, at: Coord, is_gold: bool) -> None:
        """Deduction: the goal at `at` is (or is not) the gold."""
        self._keep([(g == at) == is_gold for g in self.gold])

    def role_is(self, seat: int, role: Role) -> None:
        """Deduction: a seat holds this role (its own role card, or an inspection)."""
        self._keep([r[seat] is role for r in self.roles])

    def reshuffle(self, seat: int) -> None:
        """Swap your hats: the seat's role is redrawn from the cards nobody holds."""
        merged: dict[tuple[tuple[Role, ...], Coord], float] = {}
        for roles, g, w in zip(self.roles, self.gold, self.w, strict=True):
            spare = self.pool - Counter(roles)
            total = sum(spare.values())
            spare[roles[seat]] += 1  # the old card goes back before the draw
            total += 1
            for r, n in spare.items():
                if n > 0:
                    key = ((*roles[:seat], r, *roles[seat + 1 :]), g)
                    merged[key] = merged.get(key, 0.0) + w * n / total
        best = sorted(merged.items(), key=lambda kv: -kv[1])[:CAP]
        self.roles = [k[0] for k, _ in best]
        self.gold = [k[1] for k, _ in best]
        self.w = [w for _, w in best]
        self._normalise()

    def role_probs(self, seat: int) -> dict[Role, float]:
        """The marginal probability of each role for a seat."""
        out: dict[Role, float] = {}
        for r, w in zip(self.roles, self.w, strict=True):
            out[r[seat]] = out.get(r[seat], 0.0) + w
        return out

    def p_saboteur(self, seat: int) -> float:
        """How likely a seat is a saboteur."""
        self._cached()
        mask = self._masks.get(seat)
        if mask is None:
            mask = self._masks[seat] = [r[seat] is Role.SABOTEUR for r in self.roles]
        # The same weights summed in the same order as a generator would: the same float.
        return sum(itertools.compress(self.w, mask))

    def gold_probs(self) -> dict[Coord, float]:
        """The marginal probability of the gold at each goal spot still possible."""
        out: dict[Coord, float] = {}
        for g, w in zip(self.gold, self.w, strict=True):
            out[g] = out.get(g, 0.0) + w
        return out

    def sample(self, rng: Rng) -> tuple[tuple[Role, ...], Coord]:
        """One hypothesis drawn by weight."""
        i = rng.weighted(self.w)
        return self.roles[i], self.gold[i]

    def spare(self, roles: tuple[Role, ...]) -> list[Role]:
        """The role cards nobody holds under an assignment."""
        return sorted((self.pool - Counter(roles)).elements(), key=lambda r: r.value)

    def __len__(self) -> int:
        return len(self.w)
