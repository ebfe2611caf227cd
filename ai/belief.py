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
from operator import itemgetter

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


# The roles in the order of their reprs. A repr is never a prefix of another (each ends with
# "'>"), so comparing two tuples' `str` is comparing their ranks here one by one.
_BY_REPR: tuple[Role, ...] = tuple(sorted(Role, key=repr))
_REPR_RANK: dict[Role, int] = {r: i for i, r in enumerate(_BY_REPR)}
# A role as a small number, looked up by identity (Enum hashing is Python code).
_ROLE_NUMBER: dict[int, int] = {id(r): i for i, r in enumerate(Role)}
_SABOTEUR_NUMBER = _ROLE_NUMBER[id(Role.SABOTEUR)]


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
    # Too many to list: draw from the prior; repeated draws add up their weight. The cards are
    # drawn as their ranks in `_BY_REPR`, so the draws are tuples of small ints (hashed and
    # sorted in C, where tuples of Roles hash through Enum.__hash__) in the order of their
    # `str`, the order the hypotheses have always been listed in.
    drawn: Counter[tuple[int, ...]] = Counter()
    cards = [_REPR_RANK[r] for r in sorted(pool.elements(), key=lambda r: r.value)]
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
    return [
        (tuple(map(_BY_REPR.__getitem__, ranks)), n / cap) for ranks, n in sorted(drawn.items())
    ]


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
        self._gcol_of: list[Coord] | None = None
        self._gcol: list[int] | None = None  # each hypothesis's gold spot as a number
        self._spots: list[Coord] = []  # the gold spots those numbers stand for
        self._gmasks: list[list[bool]] | None = None  # per spot number, whether each is there
        self._cols: dict[int, list[int]] = {}  # per seat, each hypothesis's role as a number
        self._masks: dict[int, list[bool]] = {}  # per seat, whether each is its saboteur
        spots = list(gold_spots)
        k = len(spots)
        for rest, p in others:
            self.roles += [(*rest[:me], role, *rest[me:])] * k
            self.gold += spots
            self.w += [p / k] * k
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
        if self._cols_of is not self.roles or self._gcol_of is not self.gold:
            self._cols_of, self._gcol_of = self.roles, self.gold
            self._cols, self._masks, self._gcol, self._gmasks = {}, {}, None, None

    def _column(self, seat: int) -> list[int]:
        """Each hypothesis's role of `seat` as a small number (cached until the roles change)."""
        self._cached()
        col = self._cols.get(seat)
        if col is None:
            col = list(map(_ROLE_NUMBER.__getitem__, map(id, map(itemgetter(seat), self.roles))))
            self._cols[seat] = col
        return col

    def reweight_by(self, seats: Sequence[int], likelihood: Likelihood) -> None:
        """`reweight` for a likelihood that reads only these seats' roles and the gold.

        The same floats as `reweight`, with the likelihood asked once per distinct
        (roles of `seats`, gold) rather than once per hypothesis."""
        keys = self._gold_column()
        n_roles = len(Role)
        for s in seats:
            keys = [k * n_roles + c for k, c in zip(keys, self._column(s), strict=True)]
        # Each key's first hypothesis (a later index would be overwritten by an earlier one).
        first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))
        roles, gold = self.roles, self.gold
        table = {k: likelihood(roles[i], gold[i]) for k, i in first.items()}
        # max(w * f, _FLOOR) without a call per hypothesis (the same float, as max picks it).
        self.w = [
            _FLOOR if (x := w * f) < _FLOOR else x
            for w, f in zip(self.w, map(table.__getitem__, keys), strict=True)
        ]
        self._normalise()

    def _gold_column(self) -> list[int]:
        """Each hypothesis's gold spot as a small number (cached until the hypotheses change)."""
        self._cached()
        if self._gcol is None:
            self._spots = list(dict.fromkeys(self.gold))  # by first appearance
            ids = {g: i for i, g in enumerate(self._spots)}
            self._gcol = list(map(ids.__getitem__, self.gold))
        return self._gcol

    def gold_is(self, at: Coord, is_gold: bool) -> None:
        """Deduction: the goal at `at` is (or is not) the gold."""
        self._keep([(g == at) == is_gold for g in self.gold])

    def role_is(self, seat: int, role: Role) -> None:
        """Deduction: a seat holds this role (its own role card, or an inspection)."""
        self._keep([r[seat] is role for r in self.roles])

    def reshuffle(self, seat: int) -> None:
        """Swap your hats: the seat's role is redrawn from the cards nobody holds."""
        # Each distinct assignment's redraws are worked out once, and the merged hypotheses
        # are numbered (the other seats' roles, the seat's new role, the gold spot), so that
        # merging hashes ints, not tuples of Roles: the same sums in the same order as merging
        # by (assignment after the draw, gold spot) itself.
        gcol = self._gold_column()
        spots = self._spots
        n_spots, n_roles = len(spots), len(_ROLE_NUMBER)
        rest_ids: dict[tuple[Role, ...], int] = {}  # the other seats' roles, numbered
        after_of: dict[int, tuple[Role, ...]] = {}  # a numbered assignment after the draw
        # by the assignment's identity: hypotheses share their tuple (equal ones made apart
        # are worked out twice, to the same numbers)
        draws: dict[int, list[tuple[int, int, int]]] = {}
        merged: dict[int, float] = {}
        for roles, gid, w in zip(self.roles, gcol, self.w, strict=True):
            options = draws.get(id(roles))
            if options is None:
                spare = self.pool - Counter(roles)
                total = sum(spare.values())
                spare[roles[seat]] += 1  # the old card goes back before the draw
                total += 1
                head, tail = roles[:seat], roles[seat + 1 :]
                rest = rest_ids.setdefault(head + tail, len(rest_ids)) * n_roles
                options = []
                for r, n in spare.items():
                    if n > 0:
                        after = rest + _ROLE_NUMBER[id(r)]
                        if after not in after_of:
                            after_of[after] = (*head, r, *tail)
                        options.append((after * n_spots, n, total))
                draws[id(roles)] = options
            for base, n, total in options:
                key = base + gid
                merged[key] = merged.get(key, 0.0) + w * n / total
        best = sorted(merged.items(), key=lambda kv: -kv[1])[:CAP]
        self.roles = [after_of[k // n_spots] for k, _ in best]
        self.gold = [spots[k % n_spots] for k, _ in best]
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
            mask = self._masks[seat] = list(map(_SABOTEUR_NUMBER.__eq__, self._column(seat)))
        # The same weights summed in the same order as a generator would: the same float.
        return sum(itertools.compress(self.w, mask))

    def gold_probs(self) -> dict[Coord, float]:
        """The marginal probability of the gold at each goal spot still possible."""
        col = self._gold_column()
        if self._gmasks is None:
            self._gmasks = [list(map(i.__eq__, col)) for i in range(len(self._spots))]
        # Each spot's weights summed in the order of the hypotheses, spots by first appearance.
        return {
            g: sum(itertools.compress(self.w, m))
            for g, m in zip(self._spots, self._gmasks, strict=True)
        }

    def sample(self, rng: Rng) -> tuple[tuple[Role, ...], Coord]:
        """One hypothesis drawn by weight."""
        i = rng.weighted(self.w)
        return self.roles[i], self.gold[i]

    def spare(self, roles: tuple[Role, ...]) -> list[Role]:
        """The role cards nobody holds under an assignment."""
        return sorted((self.pool - Counter(roles)).elements(), key=lambda r: r.value)

    def __len__(self) -> int:
        return len(self.w)
