"""Deluxe thefts at a round's end: each thief chooses whom to steal from (docs/rules.md
deluxe.payout.theft and privacy.theft)."""

from __future__ import annotations

from enum import IntEnum

import pytest

from engine import (
    Action,
    Card,
    Discard,
    GameState,
    Phase,
    PlayOnPlayer,
    Reason,
    Role,
    Steal,
    Transition,
    apply,
    current_player,
    from_json,
    legal_actions,
    player_view,
    public_view,
    to_json,
)
from engine.archive import Played, parse_seat_move, public_rounds, seat_move_text
from engine.events import (
    GameEnded,
    GoldStolen,
    HandDealt,
    RoleDealt,
    RoundEnded,
    RoundStarted,
)

from .scenario import act, deluxe_game, end_round, find_gold, of_type, players, refused, setup

P1, P2, P3, P4 = players(4)
BLUE, GREEN, SAB = Role.BLUE_MINER, Role.GREEN_MINER, Role.SABOTEUR
STRANGER = 999


def _thief_waits() -> tuple[Transition, GameState]:
    """P1 reaches the gold (paid 5); P2's theft lies before them; P3 had 2 nuggets."""
    tr = find_gold(
        deluxe_game(4),
        P1,
        roles=[BLUE, SAB, GREEN, GREEN],
        in_front={P2: [Card.THEFT]},
        thefts=[P2],
        gold={P3: 2},
    )
    return tr, tr.state


@pytest.mark.rule("deluxe.payout.theft")
def test_after_the_payout_the_thief_chooses_among_the_other_players_who_have_gold() -> None:
    tr, state = _thief_waits()
    kinds = [type(e).__name__ for e in tr.events]
    assert "RoundEnded" in kinds and "GoldReceived" in kinds
    assert of_type(tr.events, GoldStolen) == [] and of_type(tr.events, RoundStarted) == []
    assert (state.phase, state.round, current_player(state)) == (Phase.THEFT, 1, P2)
    # P1 (just paid) and P3 have gold; P4 has none; never the thief themself.
    assert legal_actions(state, P2) == (Steal(P1), Steal(P3))
    assert all(legal_actions(state, p) == () for p in (P1, P3, P4))
    assert public_view(state).current == P2
    assert public_view(state).phase is Phase.THEFT


@pytest.mark.rule("deluxe.payout.theft")
@pytest.mark.parametrize(("victim", "gold"), [(P3, (5, 1, 1, 0)), (P1, (4, 1, 2, 0))])
def test_the_thief_takes_one_nugget_from_the_player_they_choose_not_the_richest(
    victim: int, gold: tuple[int, ...]
) -> None:
    _, state = _thief_waits()
    tr = apply(state, P2, Steal(victim))
    assert [(e.thief, e.victim) for e in of_type(tr.events, GoldStolen)] == [(P2, victim)]
    assert tr.state.gold == gold
    # The choice settles the round: the next one is dealt after the player who reached the gold.
    (started,) = of_type(tr.events, RoundStarted)
    assert (tr.state.phase, tr.state.round, started.starter) == (Phase.PLAYING, 2, P2)
    assert tr.state.stealing == ()


@pytest.mark.rule("deluxe.payout.theft", "privacy.theft", "privacy.gold")
def test_the_group_learns_who_stole_from_whom_and_no_amount() -> None:
    _, state = _thief_waits()
    tr = apply(state, P2, Steal(P3))
    (stolen,) = of_type(tr.events, GoldStolen)
    assert stolen.audience is None  # public: who from whom
    assert set(stolen.__dataclass_fields__) == {"thief", "victim", "audience"}  # no amount
    for s in (state, tr.state):
        assert public_view(s).final_gold is None
        assert player_view(s, P4).gold == 0
    assert player_view(tr.state, P3).gold == 1 and player_view(tr.state, P2).gold == 1
    # The choice tells no one a total: its only private events deal the next round.
    private = {type(e) for e in tr.events if e.audience is not None}
    assert private == {RoleDealt, HandDealt}


@pytest.mark.rule("deluxe.payout.theft")
def test_while_a_thief_chooses_nothing_else_is_allowed() -> None:
    _, state = _thief_waits()
    assert refused(state, P2, Steal(P2)) is Reason.BAD_TARGET  # not oneself
    assert refused(state, P2, Steal(P4)) is Reason.BAD_TARGET  # no gold
    assert refused(state, P2, Steal(STRANGER)) is Reason.BAD_TARGET
    assert refused(state, P2, Steal(True)) is Reason.NOT_AN_ACTION
    assert refused(state, P2, Steal("x")) is Reason.NOT_AN_ACTION  # type: ignore[arg-type]

    # An int that equals a victim's id is not one: Steal(Card.GOLD) == Steal(1).
    class Alike(IntEnum):
        ONE = P1

    assert Steal(Alike.ONE) == Steal(P1)
    assert refused(state, P2, Steal(Alike.ONE)) is Reason.NOT_AN_ACTION
    assert refused(state, P2, Discard((Card.MAP,))) is Reason.ROUND_OVER
    assert refused(state, P3, Steal(P1)) is Reason.NOT_YOUR_TURN
    assert refused(state, STRANGER, Steal(P1)) is Reason.NOT_A_PLAYER


@pytest.mark.rule("deluxe.payout.theft")
def test_a_theft_is_no_move_during_the_round() -> None:
    state = setup(deluxe_game(4), gold={P2: 3}, turn=P1)
    assert not any(isinstance(a, Steal) for a in legal_actions(state, P1))
    assert refused(state, P1, Steal(P2)) is Reason.NOT_AN_ACTION


@pytest.mark.rule("deluxe.payout.theft")
def test_the_last_theft_played_chooses_first() -> None:
    state = setup(
        deluxe_game(4),
        hands={P1: [Card.THEFT], P2: [Card.THEFT], P3: [Card.MAP]},
        others_empty=True,
        deck=[],
        roles=[BLUE, BLUE, GREEN, GREEN],
        gold={P3: 1},
        turn=P1,
    )
    state = act(state, P1, PlayOnPlayer(Card.THEFT, P1))
    state = act(state, P2, PlayOnPlayer(Card.THEFT, P2))
    tr = apply(state, P3, Discard((Card.MAP,)))
    assert of_type(tr.events, RoundEnded)
    assert current_player(tr.state) == P2
    assert legal_actions(tr.state, P2) == (Steal(P3),)
    state = act(tr.state, P2, Steal(P3))
    # Then P1 can only take it from P2.
    assert current_player(state) == P1 and state.phase is Phase.THEFT
    assert legal_actions(state, P1) == (Steal(P2),)
    tr = apply(state, P1, Steal(P2))
    assert tr.state.gold == (1, 0, 0, 0)
    assert (tr.state.round, tr.state.phase) == (2, Phase.PLAYING)


@pytest.mark.rule("deluxe.payout.theft", "deluxe.payout.trapped")
def test_a_trapped_thief_is_not_asked() -> None:
    tr = find_gold(
        deluxe_game(4),
        P1,
        roles=[BLUE, SAB, GREEN, GREEN],
        in_front={P2: [Card.THEFT, Card.TRAPPED]},
        thefts=[P2],
    )
    assert of_type(tr.events, GoldStolen) == []
    assert (tr.state.phase, tr.state.round, tr.state.gold) == (Phase.PLAYING, 2, (5, 0, 0, 0))


@pytest.mark.rule("deluxe.payout.theft")
def test_a_thief_with_nobody_to_steal_from_is_not_asked() -> None:
    state = setup(
        deluxe_game(4),
        roles=[BLUE, BLUE, GREEN, GREEN],
        in_front={P2: [Card.THEFT]},
        thefts=[P2],
        gold={P2: 3},
    )
    tr = end_round(state, P1)
    assert of_type(tr.events, GoldStolen) == []
    assert (tr.state.phase, tr.state.round, tr.state.gold) == (Phase.PLAYING, 2, (0, 3, 0, 0))


@pytest.mark.rule("deluxe.payout.theft", "deluxe.game.rounds")
def test_the_thefts_of_the_last_round_come_before_the_game_ends() -> None:
    state = setup(
        deluxe_game(4),
        roles=[BLUE, BLUE, GREEN, GREEN],
        in_front={P2: [Card.THEFT]},
        thefts=[P2],
        gold={P1: 2, P2: 2},
        round_no=3,
    )
    tr = end_round(state, P1)
    assert of_type(tr.events, GameEnded) == [] and tr.state.phase is Phase.THEFT
    assert public_view(tr.state).final_gold is None
    tr = apply(tr.state, P2, Steal(P1))
    (over,) = of_type(tr.events, GameEnded)
    assert over.gold == ((P1, 1), (P2, 3), (P3, 0), (P4, 0)) and over.winners == (P2,)
    assert tr.state.phase is Phase.OVER and current_player(tr.state) is None


@pytest.mark.rule("deluxe.payout.theft")
def test_a_state_waiting_for_a_thief_round_trips_through_json() -> None:
    _, state = _thief_waits()
    back = from_json(to_json(state))
    assert back == state and back.stealing == state.stealing == (1,)
    assert legal_actions(back, P2) == legal_actions(state, P2)


@pytest.mark.rule("deluxe.payout.theft")
def test_a_thiefs_choice_is_archived_replayed_and_part_of_the_round_it_ends() -> None:
    first = setup(
        deluxe_game(4),
        hands={P1: [Card.MAP]},
        others_empty=True,
        deck=[],
        roles=[BLUE, BLUE, GREEN, GREEN],
        in_front={P2: [Card.THEFT]},
        thefts=[P2],
        gold={P3: 2},
        turn=P1,
    )
    moves: list[tuple[int, Action]] = [(P1, Discard((Card.MAP,)))]
    state = apply(first, *moves[0]).state
    moves.append((P2, Steal(P3)))
    final = apply(state, *moves[1]).state
    played = [
        Played(b, p, a, apply(b, p, a)) for b, (p, a) in zip((first, state), moves, strict=True)
    ]
    (ended, *_) = public_rounds(played)
    assert ended.round == 1 and ended.ended is not None
    assert len(ended.views) == len(ended.moves) + 1 == 3
    assert [(e.thief, e.victim) for e in of_type(ended.moves[-1], GoldStolen)] == [(P2, P3)]
    assert final.round == 2
    line = seat_move_text(first.players, P2, Steal(P3))
    assert line == "1 S 2" and parse_seat_move(first.players, line) == (P2, Steal(P3))
