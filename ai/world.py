"""Hidden worlds: one guess at everything a seat cannot see, and the playable state it implies."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine import board as bd
from engine.cards import CARDS, GOAL_CARDS, Card, Edition, Kind, deck_cards
from engine.model import DELUXE_REMOVED, Coord, GameState, Goal, Phase, Role
from engine.views import PlayerView

from .memory import Memory
from .rng import Rng


@dataclass(frozen=True, slots=True)
class World:
    """What a seat cannot see: every role, the spare roles, the goal cards, hands and the deck."""

    roles: tuple[Role, ...]
    spare_roles: tuple[Role, ...]
    goal_cards: tuple[tuple[Coord, Card], ...]  # every goal spot still face down
    hands: tuple[tuple[Card, ...], ...]  # the viewer's own hand included, as it is
    deck: tuple[Card, ...]  # the top card last
    removed: tuple[Card, ...]
    hidden_discards: tuple[Card, ...]


def unseen_cards(view: PlayerView, memory: Memory) -> list[Card]:
    """Cards of the round whose place the viewer does not know, in card order."""
    pub = view.public
    left: Counter[Card] = Counter(deck_cards(pub.edition))
    left.subtract(view.hand)
    for c in view.board.cards:
        if CARDS[c.card].kind is Kind.TUNNEL:
            left[c.card] -= 1
    for seat in pub.seats:
        left.subtract(seat.in_front)
    left.subtract(memory.cards_seen())
    return sorted(c for c, n in left.items() for _ in range(max(n, 0)))


def sample_world(view: PlayerView, memory: Memory, rng: Rng) -> World:
    """A hidden world drawn from the seat's belief and the cards it has not seen."""
    belief = memory.sync(view)
    roles, gold = belief.sample(rng)
    spare = belief.spare(roles)
    rng.shuffle(spare)
    left = list(GOAL_CARDS)
    for g in view.board.goals:
        if g.card is not None:  # revealed, or seen with this seat's map
            left.remove(g.card)
    coal = [c for c in left if c is not Card.GOLD]
    rng.shuffle(coal)
    goal_cards: list[tuple[Coord, Card]] = []
    for g in view.board.goals:
        if g.revealed:
            continue
        if g.card is not None:
            goal_cards.append((g.at, g.card))
        elif g.at == gold and Card.GOLD in left:
            goal_cards.append((g.at, Card.GOLD))
        else:
            goal_cards.append((g.at, coal.pop() if coal else Card.COAL_NE))
    pool = unseen_cards(view, memory)
    rng.shuffle(pool)
    pub = view.public
    me = pub.players.index(view.me)
    hands: list[tuple[Card, ...]] = []
    for i, seat in enumerate(pub.seats):
        if i == me:
            hands.append(view.hand)
        else:
            hands.append(tuple(sorted(pool[: seat.hand_size])))
            del pool[: seat.hand_size]
    deck = tuple(pool[: pub.deck_size])
    del pool[: pub.deck_size]
    removed: tuple[Card, ...] = ()
    if pub.edition is Edition.DELUXE:
        removed = tuple(pool[:DELUXE_REMOVED])
        del pool[:DELUXE_REMOVED]
    return World(
        roles=roles,
        spare_roles=tuple(spare),
        goal_cards=tuple(goal_cards),
        hands=tuple(hands),
        deck=deck,
        removed=removed,
        hidden_discards=tuple(pool),
    )


def determinize(view: PlayerView, world: World, memory: Memory, seed: int) -> GameState:
    """A playable state that looks exactly like `view` to its seat, with `world` behind it."""
    pub = view.public
    n = len(pub.players)
    me = pub.players.index(view.me)
    maze = {c.at: bd.code(c.card, c.rotated) for c in view.board.cards}
    placed = dict(world.goal_cards)
    goals: list[Goal] = []
    for g in view.board.goals:
        if g.revealed and g.card is not None:
            maze[g.at] = bd.code(g.card, g.rotated)
            goals.append(Goal(g.at, g.card, revealed=True, rotated=g.rotated))
        else:
            goals.append(Goal(g.at, placed[g.at]))
    hidden = [g.at for g in goals if not g.revealed]
    in_front = tuple(s.in_front for s in pub.seats)
    mine = {g.at for g in view.board.goals if g.peeked}
    peeked = tuple(
        tuple(
            sorted(
                (memory.peeks[s] if s < len(memory.peeks) else set()) | (mine if s == me else set())
            )
        )
        for s in range(n)
    )
    inspected = tuple(
        tuple((pub.players.index(p), r) for p, r in view.inspected) if s == me else ()
        for s in range(n)
    )
    turn = pub.players.index(pub.current) if pub.current is not None else me
    discards = tuple(sorted(memory.cards_seen().elements())) + world.hidden_discards
    return GameState(
        edition=pub.edition,
        options=pub.options,
        players=pub.players,
        seed=seed,
        rng=seed,
        version=pub.version,
        round=pub.round,
        phase=Phase.PLAYING,
        turn=turn,
        roles=world.roles,
        spare_roles=world.spare_roles,
        hands=world.hands,
        deck=world.deck,
        removed=world.removed,
        discards=discards,
        maze=maze,
        goals=tuple(goals),
        in_front=in_front,
        peeked=peeked,
        inspected=inspected,
        gold=tuple(view.gold if s == me else 0 for s in range(n)),
        gold_deck=(),
        last_seat=(turn - 1) % n,
        last_at=view.board.last_at,
        results=pub.results,
        thefts=tuple(s for s in range(n) if Card.THEFT in in_front[s]),
        net=bd.build_net(maze, hidden),
        cache={},
    )
