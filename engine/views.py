"""What the group may know (public_view) and what one player may know (player_view)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import board as bd
from .cards import BROKEN_CARD, CARDS, START_AT, Card, Edition, Tool
from .model import Coord, GameState, Goal, Options, Phase, PlayerId, Role, RoundResult


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """A face-up card in the maze."""

    at: Coord
    card: Card
    rotated: bool


@dataclass(frozen=True, slots=True)
class GoalView:
    """A goal spot as a viewer knows it: `card` is None while unknown to them."""

    at: Coord
    card: Card | None
    rotated: bool
    revealed: bool
    peeked: bool = False  # seen by this viewer with a map, still face down for the others


@dataclass(frozen=True, slots=True)
class BoardView:
    """The maze: face-up cards (start, tunnels, revealed goals), goal spots, the last move."""

    cards: tuple[PlacedCard, ...]
    goals: tuple[GoalView, ...]
    last_at: Coord | None
    start: Coord = START_AT

    def bounds(self) -> tuple[int, int, int, int]:
        """min x, min y, max x, max y of every card and goal."""
        xs = [c.at[0] for c in self.cards] + [g.at[0] for g in self.goals]
        ys = [c.at[1] for c in self.cards] + [g.at[1] for g in self.goals]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player as everyone sees them."""

    player: PlayerId
    hand_size: int
    in_front: tuple[Card, ...]  # broken tools, theft, trapped!

    @property
    def broken(self) -> tuple[Tool, ...]:
        """The tools broken in front of this player."""
        return tuple(t for t, c in BROKEN_CARD.items() if c in self.in_front)

    @property
    def is_trapped(self) -> bool:
        """Deluxe: a trapped! card lies in front of this player."""
        return Card.TRAPPED in self.in_front


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything the group may know: no hand, no role in play, no gold before the end."""

    edition: Edition
    options: Options
    version: int
    round: int
    phase: Phase
    current: PlayerId | None
    seats: tuple[SeatView, ...]
    deck_size: int
    discard_size: int
    board: BoardView
    results: tuple[RoundResult, ...]
    final_gold: tuple[tuple[PlayerId, int], ...] | None  # only once the game is over
    crystals: int  # Deluxe: crystals visible in the maze
    last_target: PlayerId | None = None  # the player the last move's card was played on

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Players in turn order."""
        return tuple(s.player for s in self.seats)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one player may know: the public view plus their role, hand, gold and discoveries."""

    public: PublicView
    me: PlayerId
    role: Role
    hand: tuple[Card, ...]
    gold: int
    board: BoardView  # the public board with this player's peeked goals filled in
    inspected: tuple[tuple[PlayerId, Role], ...]


def _board(state: GameState, peeked: tuple[Coord, ...] = ()) -> BoardView:
    return board_view(state.maze, state.goals, state.last_at, peeked)


def board_view(
    maze: Mapping[Coord, int],
    goals: Sequence[Goal],
    last_at: Coord | None,
    peeked: Sequence[Coord] = (),
) -> BoardView:
    """The maze as a viewer sees it: face-down goals hidden unless this viewer peeked."""
    goal_spots = {g.at for g in goals}
    cards = tuple(
        PlacedCard(at, bd.card_of(c), bd.is_rotated(c))
        for at, c in sorted(maze.items())
        if at not in goal_spots
    )
    goal_views = tuple(
        GoalView(
            g.at,
            g.card if (g.revealed or g.at in peeked) else None,
            g.rotated if g.revealed else False,
            g.revealed,
            peeked=(not g.revealed and g.at in peeked),
        )
        for g in goals
    )
    return BoardView(cards, goal_views, last_at)


_PUBLIC = "public_view"  # keys of the views kept in a state's cache (views are frozen)
_PLAYER = "player_view"


def public_view(state: GameState) -> PublicView:
    """The view of the group chat (made once per state)."""
    kept = state.cache.get(_PUBLIC)
    if isinstance(kept, PublicView):
        return kept
    view = state.cache[_PUBLIC] = _public_view(state)
    return view


def _public_view(state: GameState) -> PublicView:
    over = state.phase is Phase.OVER
    return PublicView(
        edition=state.edition,
        options=state.options,
        version=state.version,
        round=state.round,
        phase=state.phase,
        current=None if over else state.players[state.turn],
        seats=tuple(
            SeatView(p, len(state.hands[i]), state.in_front[i]) for i, p in enumerate(state.players)
        ),
        deck_size=len(state.deck),
        discard_size=len(state.discards),
        board=_board(state),
        results=state.results,
        final_gold=tuple(zip(state.players, state.gold, strict=True)) if over else None,
        crystals=sum(1 for c in state.maze.values() if CARDS[bd.card_of(c)].crystal),
        last_target=state.last_target,
    )


def player_view(state: GameState, player: PlayerId) -> PlayerView:
    """The view of one player (made once per state); raises ValueError for someone not in the
    game."""
    key = (_PLAYER, player)
    kept = state.cache.get(key)
    if isinstance(kept, PlayerView):
        return kept
    seat = state.seat_of(player)
    if seat < 0:
        raise ValueError(f"{player} does not play in this game")
    view = state.cache[key] = PlayerView(
        public=public_view(state),
        me=player,
        role=state.roles[seat],
        hand=state.hands[seat],
        gold=state.gold[seat],
        board=_board(state, state.peeked[seat]),
        inspected=tuple((state.players[s], r) for s, r in state.inspected[seat]),
    )
    return view
