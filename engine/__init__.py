"""Saboteur and Saboteur Deluxe rules (docs/rules.md): a pure core with no I/O."""

from .actions import (
    Action,
    ClearInFront,
    Discard,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    Steal,
    UseMap,
)
from .cards import CARDS, Card, Door, Edition, Kind, Tool, spec
from .codec import from_json, state_from_doc, state_to_doc, to_json
from .errors import IllegalAction, Reason
from .events import Event
from .model import Coord, GameState, GoldRule, Options, Phase, PlayerId, Role, RoundResult, Side
from .rules import Transition, apply, can_dig, current_player, legal_actions, new_game
from .views import (
    BoardView,
    GoalView,
    PlacedCard,
    PlayerView,
    PublicView,
    SeatView,
    player_view,
    public_view,
)

__all__ = [
    "CARDS",
    "Action",
    "BoardView",
    "Card",
    "ClearInFront",
    "Coord",
    "Discard",
    "Door",
    "Edition",
    "Event",
    "GameState",
    "GoalView",
    "GoldRule",
    "IllegalAction",
    "Kind",
    "Options",
    "Phase",
    "PlaceTunnel",
    "PlacedCard",
    "PlayOnPlayer",
    "PlayerId",
    "PlayerView",
    "PublicView",
    "Reason",
    "Rockfall",
    "Role",
    "RoundResult",
    "SeatView",
    "Side",
    "Steal",
    "Tool",
    "Transition",
    "UseMap",
    "apply",
    "can_dig",
    "current_player",
    "from_json",
    "legal_actions",
    "new_game",
    "player_view",
    "public_view",
    "spec",
    "state_from_doc",
    "state_to_doc",
    "to_json",
]
