"""The round's who-did-what (engine/timeline.py): hand-made rounds, and seeded games."""

from __future__ import annotations

import pytest

from engine import (
    Card,
    ClearInFront,
    Discard,
    Edition,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    Role,
    Tool,
    UseMap,
    apply,
)
from engine.archive import archive_of, public_rounds, transitions
from engine.events import Event, GoalPeeked, MapUsed, RockfallPlayed, RoleSeen
from engine.timeline import Deed, Entry, is_dead_end, timeline

from .playout import played
from .scenario import GOLD_NEXT, base_game, deluxe_game, setup

A, B, C, D = 101, 102, 103, 104


def _play(state: object, moves: list[tuple[int, object]]) -> list[tuple[Event, ...]]:
    out = []
    for player, action in moves:
        t = apply(state, player, action)  # type: ignore[arg-type]
        out.append(t.events)
        state = t.state
    return out


def test_a_hand_made_base_round_reads_as_played() -> None:
    """Break, map, dead end, rockfall, repair, discard, then the gold: each deed, in order."""
    state = setup(
        base_game(4),
        board=GOLD_NEXT,
        hands={
            A: [Card.BREAK_PICKAXE, Card.REPAIR_PICKAXE_LANTERN],
            B: [Card.MAP, Card.CROSS],
            C: [Card.DEAD_N, Card.STRAIGHT_EW],
            D: [Card.ROCKFALL, Card.CROSS],
        },
        deck=[Card.CROSS] * 10,
        turn=A,
    )
    moves = _play(
        state,
        [
            (A, PlayOnPlayer(Card.BREAK_PICKAXE, B)),
            (B, UseMap((8, 0))),
            (C, PlaceTunnel(Card.DEAD_N, (0, 1))),
            (D, Rockfall((0, 1))),
            (A, PlayOnPlayer(Card.REPAIR_PICKAXE_LANTERN, B, Tool.PICKAXE)),
            (B, Discard((Card.CROSS,))),
            (C, PlaceTunnel(Card.STRAIGHT_EW, (7, 0))),
        ],
    )
    assert timeline(moves) == (
        Entry(1, A, Deed.BROKE, target=B, tool=Tool.PICKAXE),
        Entry(2, B, Deed.PEEKED, at=(8, 0)),
        Entry(3, C, Deed.DEAD_END, card=Card.DEAD_N, at=(0, 1)),
        Entry(4, D, Deed.ROCKFALL, card=Card.DEAD_N, at=(0, 1)),
        Entry(5, A, Deed.REPAIRED, target=B, tool=Tool.PICKAXE),
        Entry(6, B, Deed.DISCARDED, count=1),
        Entry(7, C, Deed.TUNNEL, card=Card.STRAIGHT_EW, at=(7, 0)),
        Entry(7, C, Deed.REACHED, card=Card.GOLD, at=(8, 0)),
    )
    # The map's private event named the card; the timeline entry does not.
    assert any(isinstance(e, GoalPeeked) for e in moves[1])


def test_a_hand_made_deluxe_round_reads_as_played() -> None:
    """Theft, trapped, a cleared card, inspection, free, a map, swapped hats and hands, passes."""
    state = setup(
        deluxe_game(4),
        hands={
            A: [Card.THEFT, Card.INSPECTION, Card.MAP, Card.CROSS],
            B: [Card.TRAPPED, Card.TRAPPED, Card.SWAP_HATS, Card.CROSS],
            C: [Card.CROSS, Card.CROSS, Card.FREE, Card.SWAP_HAND],
            D: [Card.CROSS],
        },
        spare_roles=[Role.SABOTEUR, Role.BOSS],
        deck=[],
        turn=A,
    )
    moves = _play(
        state,
        [
            (A, PlayOnPlayer(Card.THEFT, A)),
            (B, PlayOnPlayer(Card.TRAPPED, C)),
            (C, ClearInFront((Card.CROSS, Card.CROSS), Card.TRAPPED)),
            (D, Discard((Card.CROSS,))),  # D's hand is empty now: skipped from here on
            (A, PlayOnPlayer(Card.INSPECTION, B)),
            (B, PlayOnPlayer(Card.TRAPPED, A)),
            (C, PlayOnPlayer(Card.FREE, A)),
            (A, UseMap((8, 0))),
            (B, PlayOnPlayer(Card.SWAP_HATS, B)),
            (C, PlayOnPlayer(Card.SWAP_HAND, A)),
        ],
    )
    # Clearing is announced as a discard of two and the clearing: it reads as one deed.
    assert timeline(moves) == (
        Entry(1, A, Deed.THEFT, target=A),
        Entry(2, B, Deed.TRAPPED, target=C),
        Entry(3, C, Deed.CLEARED, card=Card.TRAPPED),
        Entry(4, D, Deed.DISCARDED, count=1),
        Entry(5, A, Deed.INSPECTED, target=B),
        Entry(6, B, Deed.TRAPPED, target=A),
        Entry(7, C, Deed.FREED, target=A),
        Entry(7, D, Deed.PASSED),
        Entry(8, A, Deed.PEEKED, at=(8, 0)),
        Entry(9, B, Deed.SWAPPED_HATS, target=B),
        Entry(10, C, Deed.SWAPPED_HANDS, target=A),
        Entry(10, D, Deed.PASSED),
        Entry(10, A, Deed.PASSED),  # A got C's empty hand
    )
    # What the inspection showed and the new hat went to one player each, never to the timeline.
    assert any(isinstance(e, RoleSeen) for e in moves[4])


def test_private_events_never_reach_the_timeline() -> None:
    """Events addressed to one player are skipped, whatever they say."""
    assert timeline([[GoalPeeked(A, (8, 0), Card.GOLD, audience=A)]]) == ()
    assert timeline([[RoleSeen(A, B, Role.SABOTEUR, audience=A)]]) == ()
    assert timeline([[MapUsed(A, (8, 0), audience=A)]]) == ()
    assert timeline([[MapUsed(A, (8, 0))]]) == (Entry(1, A, Deed.PEEKED, at=(8, 0)),)


def test_dead_ends_are_the_cards_that_lead_nowhere() -> None:
    """Stub-only cards (crystal ones too) are dead ends; ladders, doors, the start are not."""
    assert is_dead_end(Card.DEAD_NESW) and is_dead_end(Card.DEAD_N) and is_dead_end(Card.CRYSTAL_N)
    for card in (Card.LADDER_N, Card.GREEN_DOOR_NS_E, Card.CROSS, Card.START, Card.MAP):
        assert not is_dead_end(card)


@pytest.mark.parametrize(
    ("players", "edition", "seed", "dig"),
    [(5, Edition.BASE, 5, 0.7), (5, Edition.DELUXE, 5, 0.7), (12, Edition.DELUXE, 5, 0.0)],
)
def test_seeded_rounds_give_one_deed_or_more_per_move(
    players: int, edition: Edition, seed: int, dig: float
) -> None:
    """Every move of every round has a deed by the player who moved; private events add none."""
    steps = played(players, edition, seed, dig)
    archive = archive_of(steps[-1].transition.state, [(s.player, s.action) for s in steps])
    i = 0
    for r in public_rounds(transitions(archive)):
        deeds = timeline(r.moves)
        everything = timeline(s.transition.events for s in steps[i : i + len(r.moves)])
        assert deeds == everything
        for number in range(1, len(r.moves) + 1):
            mover = steps[i + number - 1].player
            assert any(
                e.player == mover and e.deed is not Deed.PASSED for e in deeds if e.move == number
            )
        peeks = [e for e in deeds if e.deed is Deed.PEEKED]
        assert all(e.card is None for e in peeks)
        i += len(r.moves)


def test_a_rockfall_names_the_removed_card_as_it_lay() -> None:
    """A turned card removed by a rockfall is told turned (the event and the deed say so)."""
    state = setup(
        base_game(4),
        hands={A: [Card.CURVE_NE, Card.CROSS], B: [Card.ROCKFALL, Card.CROSS]},
        deck=[Card.CROSS] * 10,
        turn=A,
    )
    moves = _play(
        state, [(A, PlaceTunnel(Card.CURVE_NE, (1, 0), rotated=True)), (B, Rockfall((1, 0)))]
    )
    (rockfall,) = [e for e in moves[1] if isinstance(e, RockfallPlayed)]
    assert (rockfall.removed, rockfall.rotated) == (Card.CURVE_NE, True)
    assert timeline(moves)[-1] == Entry(
        2, B, Deed.ROCKFALL, card=Card.CURVE_NE, at=(1, 0), rotated=True
    )
