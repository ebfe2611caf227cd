"""The rule-based player in constructed positions: a straight tunnel from the start east."""

from __future__ import annotations

from ai import Rng, heuristic
from ai.geometry import after_place, reach
from ai.situation import Situation
from engine import Card, Edition, PlayOnPlayer, Role
from engine import board as bd
from engine.actions import Action, Discard, Rockfall
from engine.cards import START_AT
from engine.model import Coord

GOALS: tuple[Coord, ...] = ((8, -2), (8, 0), (8, 2))
IDS = (100, 101, 102, 103, 104)
STRAIGHT = bd.code(Card.STRAIGHT_EW, False)


def tunnel(upto: int, gap: int | None = None) -> dict[Coord, int]:
    """The start and straight east-west cards from (1, 0) to (upto, 0), less the one at `gap`."""
    maze = {START_AT: bd.START_CODE}
    for x in range(1, upto + 1):
        if x != gap:
            maze[(x, 0)] = STRAIGHT
    return maze


def saboteur(maze: dict[Coord, int], hand: tuple[Card, ...], in_front: int = -1) -> Situation:
    """Seat 0, a saboteur sure every other seat is a miner, gold equally likely anywhere."""
    return Situation(
        edition=Edition.BASE,
        players=IDS,
        seat=0,
        role=Role.SABOTEUR,
        hand=hand,
        maze=maze,
        net=bd.build_net(maze, GOALS),
        hidden=GOALS,
        gold={g: 1 / 3 for g in GOALS},
        in_front=tuple((Card.BREAK_CART,) if s == in_front else () for s in range(5)),
        hostile=(0.0, 0.9, 0.9, 0.9, 0.9),
        deck_size=30,
        hand_sizes=(6,) * 5,
    )


def best(sit: Situation, legal: list[Action]) -> Action:
    """The heuristic's choice."""
    return heuristic.choose(sit, legal, Rng(7))


def test_a_card_filling_a_cut_counts_the_tunnel_beyond_it() -> None:
    """A rockfall at (1, 0) leaves the cards from (2, 0) to (5, 0) cut off; a straight card put
    back into the gap joins them again, so the way to (8, 0) is 2 cards again, not 7."""
    maze = tunnel(5, gap=1)
    net = bd.build_net(maze, GOALS)
    r = reach(net, GOALS)
    assert r.best[1] == 7  # only the gap itself is open to the start
    after = after_place(r, maze, net, (1, 0), STRAIGHT)
    assert after is not None
    assert after[1] == reach(bd.build_net(tunnel(5), GOALS), GOALS).best[1] == 2


def test_a_saboteur_cuts_the_path_where_it_loses_most() -> None:
    """With a rockfall in hand, a saboteur removes the card next to the start (the whole tunnel
    is cut off), not the one at its front: though far from the goals, it costs the most."""
    sit = saboteur(tunnel(5), (Card.ROCKFALL,))
    legal: list[Action] = [Rockfall((x, 0)) for x in range(1, 6)]
    legal.append(Discard((Card.ROCKFALL,)))
    assert best(sit, legal) == Rockfall((1, 0))


def test_a_saboteur_breaks_the_seat_that_plays_next() -> None:
    """Among miners alike, the break goes to the next to play: nobody can repair it in time."""
    sit = saboteur(tunnel(3), (Card.BREAK_PICKAXE,))
    legal: list[Action] = [PlayOnPlayer(Card.BREAK_PICKAXE, p) for p in IDS[1:]]
    assert best(sit, legal) == PlayOnPlayer(Card.BREAK_PICKAXE, 101)


def test_a_saboteur_does_not_break_a_miner_who_cannot_dig_already() -> None:
    """The next seat's cart is broken already: the break goes to the seat after it."""
    sit = saboteur(tunnel(3), (Card.BREAK_PICKAXE,), in_front=1)
    legal: list[Action] = [PlayOnPlayer(Card.BREAK_PICKAXE, p) for p in IDS[1:]]
    assert best(sit, legal) == PlayOnPlayer(Card.BREAK_PICKAXE, 102)
