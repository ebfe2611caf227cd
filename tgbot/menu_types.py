"""The types of the private menus: buttons and keyboards, a screen, a tap's outcome, a seat.

Shared by the menus (`tgbot.menus`), the texts that carry keyboards, the pictures and the
sender; they hold no game logic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from html import escape

from engine import Action, Card, GameState, Phase

from .buttons import Back, Command
from .game_ids import GameId
from .i18n import Language, Texts, texts

SELECTED = "✅"
UNSELECTED = "▫️"
BLOCKED = "🚫"


class Style(Enum):
    """A button's colour (Bot API 9.4 `style`): green for going ahead, red for destroying."""

    SUCCESS = "success"
    DANGER = "danger"
    PRIMARY = "primary"


@dataclass(frozen=True, slots=True)
class Button:
    """One inline button: a callback command or a URL, in the app's style or a given one."""

    label: str
    command: Command | None = None
    url: str | None = None
    style: Style | None = None


Keyboard = tuple[tuple[Button, ...], ...]


def marked_label(on: bool, label: str) -> str:
    """A switch's label with its mark: selected or not."""
    return f"{SELECTED if on else UNSELECTED} {label}"


class Picture(Enum):
    """Which image the private message shows."""

    HOME = "home"  # the player's board and hand
    PREVIEW = "preview"  # numbered spots for a tunnel card or a rockfall
    CONFIRM = "confirm"  # the chosen move drawn in place


@dataclass(frozen=True, slots=True)
class Screen:
    """What the live private message shows next."""

    picture: Picture
    prompt: tuple[str, ...]
    keyboard: Keyboard
    spots: tuple[Action, ...] = ()
    chosen: Action | None = None
    highlight: int | None = None  # hand index of the card being played
    turned: bool = False  # the highlighted card is drawn turned (its spots are of that turn)
    blocked: frozenset[int] = frozenset()  # hand indexes of cards that cannot be played now


@dataclass(frozen=True, slots=True)
class Play:
    """A confirmed move, ready for the engine."""

    action: Action


@dataclass(frozen=True, slots=True)
class Refusal:
    """A tap that changes nothing, answered with a toast (plain text)."""

    text: str


Outcome = Screen | Play | Refusal


@dataclass(frozen=True, slots=True)
class Seat:
    """What the menus need of the table: the game, the player, names, the language."""

    game: GameId
    state: GameState
    player: int
    names: Mapping[int, str]
    lang: Language
    away: bool = False  # the computer plays for this player until they tap a button

    @property
    def tr(self) -> Texts:
        """The player's texts."""
        return texts(self.lang)

    @property
    def hand(self) -> tuple[Card, ...]:
        """The player's cards."""
        return self.state.hands[self.state.seat_of(self.player)]

    @property
    def version(self) -> int:
        """The state version the buttons are drawn for."""
        return self.state.version

    @property
    def is_turn(self) -> bool:
        """Whether the player is to act."""
        s = self.state
        return s.phase is not Phase.OVER and s.players[s.turn] == self.player

    def name(self, player: int) -> str:
        """A player's display name, HTML-escaped."""
        return escape(self.names.get(player, str(player)))


def forged(seat: Seat) -> Refusal:
    """The answer to a button no screen offered."""
    return Refusal(seat.tr.pgettext("toast", "This button is not valid."))


def back_row(seat: Seat, command: Command | None = None) -> tuple[Button, ...]:
    """A row with the Back button (to the hand, or to `command`'s screen)."""
    back = command or Back(seat.game, seat.version)
    return (Button(seat.tr.pgettext("button", "↩️ Back"), back),)
