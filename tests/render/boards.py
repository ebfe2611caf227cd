"""Views to draw in the render tests: seeded games and boards written in the notation."""

from __future__ import annotations

import dataclasses
import random

from engine import (
    Card,
    Edition,
    GameState,
    PlaceTunnel,
    PlayerId,
    apply,
    current_player,
    legal_actions,
    new_game,
)
from engine.notation import with_board

NAMES: dict[PlayerId, str] = {1: "Alice", 2: "Bob", 3: "Chloé", 4: "Dmitri", 5: "Eun"}
KOREAN: dict[PlayerId, str] = {
    1: "김민준",
    2: "이서연",
    3: "박지호",
    4: "최수아",
    5: "정예준",
    6: "강하은",
    7: "조은우",
    8: "윤지우 🐻‍❄️",
    9: "장도윤 (Doyun)",
    10: "임서윤아주긴이름입니다",
}


def base(players: int = 5, seed: int = 1) -> GameState:
    """A freshly dealt base game with players 1..n."""
    return new_game(list(range(1, players + 1)), seed=seed)


def deluxe(players: int = 5, seed: int = 1) -> GameState:
    """A freshly dealt Deluxe game with players 1..n."""
    return new_game(list(range(1, players + 1)), edition=Edition.DELUXE, seed=seed)


def dug(state: GameState, tunnels: int, seed: int) -> GameState:
    """Play seeded turns, digging toward the goals when possible, until `tunnels` are laid."""
    rng = random.Random(seed)
    while len(state.maze) - 1 < tunnels:
        player = current_player(state)
        assert player is not None
        actions = legal_actions(state, player)
        digs = [a for a in actions if isinstance(a, PlaceTunnel) and a.at[0] < 8]
        after = apply(state, player, rng.choice(digs or list(actions))).state
        assert after.round == state.round, "the round ended; pick another seed"
        state = after
    return state


def board(state: GameState, text: str) -> GameState:
    """The state with the maze written in the notation."""
    return with_board(state, text)


def in_front(state: GameState, cards: dict[PlayerId, tuple[Card, ...]]) -> GameState:
    """The state with these cards lying in front of these players."""
    fronts = tuple(cards.get(p, ()) for p in state.players)
    return dataclasses.replace(state, in_front=fronts, cache={})


def holding(state: GameState, player: PlayerId, cards: tuple[Card, ...]) -> GameState:
    """The state with `player` to act and holding exactly `cards`."""
    seat = state.players.index(player)
    hands = list(state.hands)
    hands[seat] = cards
    return dataclasses.replace(state, hands=tuple(hands), turn=seat, cache={})


COAL_REVEALED = """
.  .  .  .  .  .  .  ES %SW
.  .  .  .  .  .  .  NS .
@  EW EW EW EW EW EW NW ?$
.  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  ?%NW
"""

GOLD_REACHED = """
.  .  .  .  .  .  .  .  ?%NE
.  .  .  .  .  .  .  .  .
@  EW EW EW EW NEW EW EW $
.  .  .  .  .  NS .  .  .
.  .  .  .  .  .  .  .  ?%NW
"""

DEAD_ENDS = """
.  .  ne  .  .  .  .  .  .
.  nsw NESW ns .  .  .  .  .
nes @  new  EW  esw ew .  .  .
.  n  NS  .  ns  .  .  .  .
.  .  nesw .  nw  .  .  .  .
"""

DOORS = """
.  .  .  .  .  .   .   .  .
.  .  .  GNS .  .  .   .  .
@  EW BEW NESW EW BNW .  .  .
.  .  .  GNSe .  GNE  EW  .  .
.  .  .  NE  EW  NW  .   .  .
"""

CRYSTALS_LADDERS_BRIDGES = """
.  .    *e   .     .     .     .  .  .
.  #N   *NS  .     .     .     .  .  .
@  *NESW NS|EW NW|ES *ESWn EW  #E .  .
.  *NESw *NES  NS|EW *NS  .     .  .  .
.  .    #NE  NE    *NEW  #NW   .  .  .
"""
