"""One seat's memory of a round: the board replayed from events, public history, the belief."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from engine import board as bd
from engine.actions import Action, ClearInFront, Discard
from engine.cards import BROKEN_CARD, CARDS, START_AT, Card, Door, Edition, Kind
from engine.events import (
    ActionPlayed,
    CardsDiscarded,
    Event,
    GoalPeeked,
    GoalRevealed,
    InFrontCleared,
    MapUsed,
    RockfallPlayed,
    RoleDealt,
    RoleSeen,
    RoundStarted,
    TunnelPlaced,
)
from engine.model import Coord, Net, PlayerId, Role
from engine.views import PlayerView

from .belief import Belief
from .geometry import after_place, after_remove, reach
from .rng import Rng
from .situation import STANCE, Stance

_TEAM_DOOR: dict[Role, Door] = {Role.BLUE_MINER: Door.BLUE, Role.GREEN_MINER: Door.GREEN}


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def dig_likelihood(delta: float) -> float:
    """How likely a digger makes a move that brings its target `delta` cards closer."""
    return 0.1 + 0.8 * _sigmoid(2.5 * delta)


def move_likelihood(role: Role, delta: float) -> float:
    """How likely a role makes a tunnel move (placement or rockfall) of this progress."""
    stance = STANCE[role]
    dig = dig_likelihood(delta)
    if stance is Stance.DIG:
        return dig
    if stance is Stance.BLOCK:
        # Saboteurs hide part of the time: a mixture of digging and blocking.
        return 0.35 * dig + 0.65 * dig_likelihood(-delta)
    if stance is Stance.ANY:
        return 0.7 * dig + 0.15
    return 0.5 * dig + 0.25


def hostile(a: Role, b: Role) -> bool | None:
    """Whether role a works against role b; None when a does not care."""
    sa, sb = STANCE[a], STANCE[b]
    if sa in (Stance.ANY, Stance.CRYSTALS):
        return None
    if sa is Stance.BLOCK:
        return sb is not Stance.BLOCK
    return sb is Stance.BLOCK


def _first_role(events: list[Event], me: PlayerId) -> Role | None:
    """The role card dealt to `me` at the start of the round, if the events show it."""
    for e in events:
        if isinstance(e, RoleDealt) and e.player == me:
            return e.role
        if isinstance(e, ActionPlayed) and e.card is Card.SWAP_HATS:
            return None
    return None


class Memory:
    """What one seat has seen this round, kept up to date from its events."""

    def __init__(self, me: PlayerId, rng: Rng) -> None:
        self.me = me
        self.rng = rng
        self.round = -1
        self.players: tuple[PlayerId, ...] = ()
        self.seat = -1
        self.edition = Edition.BASE
        self.role = Role.MINER
        self.maze: dict[Coord, int] = {}
        self.goal_spots: tuple[Coord, ...] = ()
        self.hidden: list[Coord] = []
        self.net = Net({}, {})
        self.peeks: list[set[Coord]] = []  # per seat: goals it looked at (public)
        self.known_gold: dict[Coord, bool] = {}  # what this seat saw with its maps
        self.public_discards: Counter[Card] = Counter()
        self.my_discards: Counter[Card] = Counter()
        self.played: list[int] = []  # per seat: cards played face up this round
        self.inspected: dict[int, Role] = {}
        self.belief: Belief | None = None
        self.last: Action | None = None
        self.pending: list[Event] = []  # events of this round seen before the first sync

    # ------------------------------------------------------------ syncing with the view

    def sync(self, view: PlayerView) -> Belief:
        """Catch up with the view: replay the round's events so far, or take the board as it is."""
        pub = view.public
        if self.belief is None or self.round != pub.round:
            self._reset(view)
        if self.role is not view.role:  # a missed swap of hats: start the belief again
            self._start_belief(view.role)
        maze = {c.at: bd.code(c.card, c.rotated) for c in view.board.cards}
        for g in view.board.goals:
            if g.revealed and g.card is not None:
                maze[g.at] = bd.code(g.card, g.rotated)
        if maze != self.maze:  # missed events (a restart): take the board as it is
            self.maze = maze
            self.hidden = [g.at for g in view.board.goals if not g.revealed]
            self.net = bd.build_net(self.maze, self.hidden)
        b = self._belief()
        for g in view.board.goals:
            if g.card is not None and self.known_gold.get(g.at) is not (g.card is Card.GOLD):
                self.known_gold[g.at] = g.card is Card.GOLD
                b.gold_is(g.at, g.card is Card.GOLD)
            if g.peeked:
                self.peeks[self.seat].add(g.at)
        return b

    def _belief(self) -> Belief:
        assert self.belief is not None
        return self.belief

    def _reset(self, view: PlayerView) -> None:
        """Start the round from its first position, then replay the events kept since."""
        pub = view.public
        self.round = pub.round
        self.players = pub.players
        self.seat = self.players.index(self.me)
        self.edition = pub.edition
        n = len(self.players)
        self.maze = {START_AT: bd.START_CODE}
        self.goal_spots = tuple(g.at for g in view.board.goals)
        self.hidden = list(self.goal_spots)
        self.known_gold = {}
        self.net = bd.build_net(self.maze, self.hidden)
        self.peeks = [set() for _ in range(n)]
        self.public_discards = Counter()
        self.my_discards = Counter()
        self.played = [0] * n
        self.inspected = {}
        pending, self.pending = self.pending, []
        self._start_belief(_first_role(pending, self.me) or view.role)
        for e in pending:
            self._one(e)
        for p, r in view.inspected:
            seat = self.players.index(p)
            if self.inspected.get(seat) is not r:
                self.inspected[seat] = r
                self._belief().role_is(seat, r)

    def _start_belief(self, role: Role) -> None:
        self.role = role
        b = Belief(self.edition, len(self.players), self.seat, role, self.goal_spots, self.rng)
        for at, is_gold in self.known_gold.items():
            b.gold_is(at, is_gold)
        for seat, r in self.inspected.items():
            b.role_is(seat, r)
        self.belief = b

    # ------------------------------------------------------------ events

    def chose(self, action: Action) -> None:
        """Remember this seat's own move (what it discards face down only it knows)."""
        self.last = action

    def observe(self, events: Iterable[Event]) -> None:
        """Take in events this seat may see; refuses another player's private events."""
        for e in events:
            if e.audience is not None and e.audience != self.me:
                raise ValueError(f"event for player {e.audience} shown to {self.me}")
            if isinstance(e, RoundStarted):
                self.belief = None
                self.round = e.round
                self.pending = []
            elif self.belief is None:
                self.pending.append(e)
            else:
                self._one(e)

    def _seat(self, player: PlayerId) -> int:
        return self.players.index(player)

    def _one(self, e: Event) -> None:
        if isinstance(e, RoleDealt):
            if self.belief is not None and e.player == self.me:
                self.role = e.role
                self.belief.role_is(self.seat, e.role)
            return
        b = self.belief
        if b is None or not self.players:
            return
        if isinstance(e, TunnelPlaced):
            seat = self._seat(e.player)
            self.played[seat] += 1
            c = bd.code(e.card, e.rotated)
            self._reweight_move(
                seat,
                after_place(reach(self.net, self.hidden), self.maze, self.net, e.at, c),
                door=CARDS[e.card].door,
            )
            self.maze[e.at] = c
            self.net = bd.build_net(self.maze, self.hidden)
        elif isinstance(e, GoalRevealed):
            if e.at in self.hidden:
                self.hidden.remove(e.at)
            self.maze[e.at] = bd.code(e.card, e.rotated)
            self.known_gold[e.at] = e.card is Card.GOLD
            b.gold_is(e.at, e.card is Card.GOLD)
            self.net = bd.build_net(self.maze, self.hidden)
        elif isinstance(e, RockfallPlayed):
            seat = self._seat(e.player)
            self.played[seat] += 1
            self.public_discards.update((Card.ROCKFALL, e.removed))
            if e.at in self.maze:
                self._reweight_move(seat, after_remove(self.maze, self.hidden, e.at))
                del self.maze[e.at]
                self.net = bd.build_net(self.maze, self.hidden)
        elif isinstance(e, MapUsed):
            seat = self._seat(e.player)
            self.played[seat] += 1
            self.peeks[seat].add(e.at)
            self.public_discards[Card.MAP] += 1
            b.reweight_by((seat,), lambda r, g: 0.6 if STANCE[r[seat]] is Stance.DIG else 0.45)
        elif isinstance(e, GoalPeeked):
            if e.player == self.me:
                self.known_gold[e.at] = e.card is Card.GOLD
                b.gold_is(e.at, e.card is Card.GOLD)
        elif isinstance(e, ActionPlayed):
            self._action(e)
        elif isinstance(e, RoleSeen):
            if e.player == self.me:
                seat = self._seat(e.target)
                self.inspected[seat] = e.role
                b.role_is(seat, e.role)
        elif isinstance(e, CardsDiscarded):
            # The group learns how many only; this seat knows its own cards.
            if e.player == self.me and self.last is not None:
                if isinstance(self.last, Discard):
                    self.my_discards.update(self.last.cards)
                elif isinstance(self.last, ClearInFront):
                    self.my_discards.update(self.last.discards)
        elif isinstance(e, InFrontCleared):
            self.public_discards[e.card] += 1

    def _subjective(self, seat: int, gold: Coord) -> dict[Coord, float]:
        """Where a seat thinks the gold lies if it is truly at `gold`, from its public peeks."""
        seen = self.peeks[seat] & set(self.hidden)
        if gold in seen:
            return {gold: 1.0}
        rest = [g for g in self.hidden if g not in seen] or list(self.hidden)
        return {g: 1.0 / len(rest) for g in rest}

    def _reweight_move(
        self, seat: int, after: tuple[int, ...] | None, door: Door | None = None
    ) -> None:
        b = self._belief()
        if after is None or not self.hidden:
            return
        if seat == self.seat:  # its own move tells a seat nothing it did not know
            return
        before = reach(self.net, self.hidden).best
        gains = [bf - af for bf, af in zip(before, after, strict=True)]
        delta: dict[Coord, float] = {}
        for g in set(b.gold):
            probs = self._subjective(seat, g)
            delta[g] = sum(probs.get(h, 0.0) * d for h, d in zip(self.hidden, gains, strict=True))
        table: dict[tuple[Role, Coord], float] = {}

        def lik(r: tuple[Role, ...], g: Coord) -> float:
            key = (r[seat], g)
            v = table.get(key)
            if v is None:
                v = move_likelihood(r[seat], delta.get(g, 0.0))
                team = _TEAM_DOOR.get(r[seat])
                if door is not None and team is not None:
                    v *= 1.2 if door is team else 0.5
                table[key] = v
            return v

        b.reweight_by((seat,), lik)

    def _action(self, e: ActionPlayed) -> None:
        b = self._belief()
        seat = self._seat(e.player)
        target = self._seat(e.target)
        self.played[seat] += 1
        kind = CARDS[e.card].kind
        if kind not in (Kind.BREAK, Kind.TRAPPED, Kind.THEFT):
            self.public_discards[e.card] += 1
        if kind is Kind.REPAIR and e.tool is not None:
            self.public_discards[BROKEN_CARD[e.tool]] += 1
        elif kind is Kind.HANDS_OFF:
            self.public_discards[Card.THEFT] += 1
        elif kind is Kind.FREE:
            self.public_discards[Card.TRAPPED] += 1
        if kind is Kind.SWAP_HATS:
            b.reshuffle(target)  # for this seat itself, its RoleDealt event follows
            return
        if target == seat:
            return
        if seat == self.seat:
            return
        if kind in (Kind.BREAK, Kind.TRAPPED):
            yes, no = 0.55, 0.15
        elif kind in (Kind.REPAIR, Kind.FREE):
            yes, no = 0.15, 0.55
        else:
            return

        def lik(r: tuple[Role, ...], g: Coord) -> float:
            h = hostile(r[seat], r[target])
            return 0.35 if h is None else (yes if h else no)

        b.reweight_by((seat, target), lik)

    # ------------------------------------------------------------ queries

    def cards_seen(self) -> Counter[Card]:
        """Cards this seat knows are out of the draw: public discards and its own face-down ones."""
        return self.public_discards + self.my_discards
