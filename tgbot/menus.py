"""Private keyboards: from a game state and a tapped button to the next screen or to a move.

Nothing about a half-made move is stored: every button carries the selection so far (hand
index, numbered spot, seat, tool) and the state version it was drawn for, and each screen is
recomputed from the engine's legal actions of that version, so numbering is stable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from html import escape

from engine import (
    Action,
    Card,
    ClearInFront,
    Discard,
    Edition,
    GameState,
    Kind,
    PlaceTunnel,
    PlayOnPlayer,
    Rockfall,
    Tool,
    UseMap,
    can_dig,
    legal_actions,
    spec,
)
from engine.cards import GOAL_SPOTS
from render.labels import cell_label

from .callback import (
    Back,
    ClearFront,
    Command,
    ConfirmDiscard,
    ConfirmGoal,
    ConfirmSpot,
    ConfirmTarget,
    GameId,
    PickCard,
    PickGoal,
    PickSpot,
    PickTarget,
    PickTool,
    ShowHand,
    StartDiscard,
    ToggleDiscard,
)
from .i18n import Language, card_name, t, tool_name

SPOTS_PER_ROW = 6
MAX_DISCARD_BASE = 1
MAX_DISCARD_DELUXE = 3


@dataclass(frozen=True, slots=True)
class Button:
    """One inline button: a callback command or a URL."""

    label: str
    command: Command | None = None
    url: str | None = None


Keyboard = tuple[tuple[Button, ...], ...]


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


@dataclass(frozen=True, slots=True)
class Play:
    """A confirmed move, ready for the engine."""

    action: Action


@dataclass(frozen=True, slots=True)
class Refusal:
    """A tap that changes nothing, answered with a toast (a catalog key and its values)."""

    key: str
    params: tuple[tuple[str, str], ...] = ()


Outcome = Screen | Play | Refusal


@dataclass(frozen=True, slots=True)
class Seat:
    """What the menus need of the table: the game, the player, names, the language."""

    game: GameId
    state: GameState
    player: int
    names: Mapping[int, str]
    lang: Language

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
        return s.phase.value == "playing" and s.players[s.turn] == self.player

    def name(self, player: int) -> str:
        """A player's display name, HTML-escaped."""
        return escape(self.names.get(player, str(player)))


def card_options(state: GameState, player: int, card: Card) -> tuple[Action, ...]:
    """The legal moves of one card, in the engine's order (the numbering of the spots)."""
    out: list[Action] = []
    for a in legal_actions(state, player):
        if (
            (isinstance(a, PlaceTunnel | PlayOnPlayer) and a.card is card)
            or (isinstance(a, UseMap) and card is Card.MAP)
            or (isinstance(a, Rockfall) and card is Card.ROCKFALL)
        ):
            out.append(a)
    return tuple(out)


def home(seat: Seat, prompt: Sequence[str] = ()) -> Screen:
    """The hand: on the player's turn one button per card, discard, and refresh."""
    g, v = seat.game, seat.version
    rows: list[tuple[Button, ...]] = []
    if seat.is_turn and seat.hand:
        cards = [
            Button(
                t(seat.lang, "button.card", number=i + 1, card=card_name(seat.lang, c)),
                PickCard(g, v, i),
            )
            for i, c in enumerate(seat.hand)
        ]
        rows += [tuple(cards[i : i + 2]) for i in range(0, len(cards), 2)]
        rows.append((Button(t(seat.lang, "button.discard"), StartDiscard(g, v)),))
        lines = tuple(prompt) or (t(seat.lang, "prompt.pick_card"),)
    else:
        lines = tuple(prompt)
    rows.append((Button(t(seat.lang, "button.refresh"), ShowHand(g, v)),))
    return Screen(Picture.HOME, lines, tuple(rows))


def respond(seat: Seat, command: Command) -> Outcome:
    """The next screen or the move for a tapped button (version and turn already checked)."""
    if isinstance(command, ShowHand | Back):
        return home(seat)
    if isinstance(command, StartDiscard | ToggleDiscard | ConfirmDiscard | ClearFront):
        return _discard(seat, command)
    index = getattr(command, "card", None)
    if not isinstance(index, int) or not 0 <= index < len(seat.hand):
        return Refusal("toast.forged")
    card = seat.hand[index]
    options = card_options(seat.state, seat.player, card)
    if isinstance(command, PickCard):
        return _pick_card(seat, index, card, options)
    if isinstance(command, PickSpot | ConfirmSpot):
        if not options or not isinstance(options[0], PlaceTunnel | Rockfall):
            return Refusal("toast.forged")
        if not 1 <= command.spot <= len(options):
            return Refusal("toast.forged")
        chosen = options[command.spot - 1]
        if isinstance(command, ConfirmSpot):
            return Play(chosen)
        assert isinstance(chosen, PlaceTunnel | Rockfall)  # every option is, like the first
        key = "prompt.confirm_rockfall" if card is Card.ROCKFALL else "prompt.confirm_place"
        confirm = ConfirmSpot(seat.game, seat.version, index, command.spot)
        return _confirm(
            seat,
            index,
            chosen,
            confirm,
            t(
                seat.lang,
                key,
                card=_card(seat, card),
                spot=command.spot,
                cell=cell_label(chosen.at),
            ),
        )
    if isinstance(command, PickTarget | PickTool | ConfirmTarget):
        return _target(seat, index, card, options, command)
    if isinstance(command, PickGoal | ConfirmGoal):
        if not 0 <= command.goal < len(GOAL_SPOTS):
            return Refusal("toast.forged")
        chosen_map = UseMap(GOAL_SPOTS[command.goal])
        if chosen_map not in options:
            return Refusal("toast.forged")
        if isinstance(command, ConfirmGoal):
            return Play(chosen_map)
        text = t(seat.lang, "prompt.confirm_goal", goal=t(seat.lang, f"goal.{command.goal}"))
        confirm_goal = ConfirmGoal(seat.game, seat.version, index, command.goal)
        return _confirm(seat, index, chosen_map, confirm_goal, text)
    return Refusal("toast.forged")


def _card(seat: Seat, card: Card) -> str:
    return escape(card_name(seat.lang, card))


def _back_row(seat: Seat, command: Command | None = None) -> tuple[Button, ...]:
    return (Button(t(seat.lang, "button.back"), command or Back(seat.game, seat.version)),)


def _confirm(seat: Seat, index: int, chosen: Action, confirm: Command, text: str) -> Screen:
    back = PickCard(seat.game, seat.version, index)
    picture = Picture.CONFIRM if isinstance(chosen, PlaceTunnel | Rockfall) else Picture.HOME
    keyboard = ((Button(t(seat.lang, "button.confirm"), confirm),), _back_row(seat, back))
    return Screen(picture, (text,), keyboard, chosen=chosen, highlight=index)


def _pick_card(seat: Seat, index: int, card: Card, options: tuple[Action, ...]) -> Screen:
    g, v, lang = seat.game, seat.version, seat.lang
    kind = spec(card).kind
    name = _card(seat, card)
    if not options:
        if kind is Kind.TUNNEL and not can_dig(seat.state, seat.state.seat_of(seat.player)):
            front = seat.state.in_front[seat.state.seat_of(seat.player)]
            if Card.TRAPPED in front:
                return home(seat, (t(lang, "prompt.trapped"),))
            tools = ", ".join(
                tool_name(lang, s.tools[0]) for s in map(spec, front) if s.kind is Kind.BREAK
            )
            return home(seat, (t(lang, "prompt.cannot_dig", tools=tools),))
        return home(seat, (t(lang, "prompt.no_spot", card=name),))
    if isinstance(options[0], PlaceTunnel | Rockfall):
        buttons = [
            Button(t(lang, "button.spot", spot=k), PickSpot(g, v, index, k))
            for k in range(1, len(options) + 1)
        ]
        rows = [
            tuple(buttons[i : i + SPOTS_PER_ROW]) for i in range(0, len(buttons), SPOTS_PER_ROW)
        ]
        key = "prompt.pick_rockfall" if card is Card.ROCKFALL else "prompt.pick_spot"
        return Screen(
            Picture.PREVIEW,
            (t(lang, key, card=name),),
            (*rows, _back_row(seat)),
            spots=options,
            highlight=index,
        )
    if isinstance(options[0], UseMap):
        goal_buttons = tuple(
            Button(
                t(lang, "button.goal", goal=t(lang, f"goal.{GOAL_SPOTS.index(a.at)}")),
                PickGoal(g, v, index, GOAL_SPOTS.index(a.at)),
            )
            for a in options
            if isinstance(a, UseMap)
        )
        return Screen(
            Picture.HOME,
            (t(lang, "prompt.pick_goal"),),
            (goal_buttons, _back_row(seat)),
            highlight=index,
        )
    seats: list[int] = []
    for a in options:
        if isinstance(a, PlayOnPlayer):
            s = seat.state.seat_of(a.target)
            if s not in seats:
                seats.append(s)
    buttons = [
        Button(_target_label(seat, seat.state.players[s]), PickTarget(g, v, index, s))
        for s in seats
    ]
    rows = [tuple(buttons[i : i + 2]) for i in range(0, len(buttons), 2)]
    return Screen(
        Picture.HOME,
        (t(lang, "prompt.pick_target", card=name),),
        (*rows, _back_row(seat)),
        highlight=index,
    )


def _target_label(seat: Seat, player: int) -> str:
    name = seat.names.get(player, str(player))
    key = "button.target_self" if player == seat.player else "button.target"
    return t(seat.lang, key, name=name)


def _target(
    seat: Seat,
    index: int,
    card: Card,
    options: tuple[Action, ...],
    command: PickTarget | PickTool | ConfirmTarget,
) -> Outcome:
    g, v, lang = seat.game, seat.version, seat.lang
    if not 0 <= command.seat < len(seat.state.players):
        return Refusal("toast.forged")
    target = seat.state.players[command.seat]
    moves = [a for a in options if isinstance(a, PlayOnPlayer) and a.target == target]
    if not moves:
        return Refusal("toast.forged")
    tool: Tool | None
    if isinstance(command, PickTarget):
        if len(moves) > 1:
            buttons = tuple(
                Button(
                    t(lang, "button.tool", tool=tool_name(lang, m.tool)),
                    PickTool(g, v, index, command.seat, m.tool),
                )
                for m in moves
                if m.tool is not None
            )
            text = t(lang, "prompt.pick_tool", card=_card(seat, card), name=seat.name(target))
            return Screen(
                Picture.HOME,
                (text,),
                (buttons, _back_row(seat, PickCard(g, v, index))),
                highlight=index,
            )
        tool = moves[0].tool
    else:
        tool = command.tool
    chosen = PlayOnPlayer(card, target, tool)
    if chosen not in moves:
        return Refusal("toast.forged")
    if isinstance(command, ConfirmTarget):
        return Play(chosen)
    if tool is not None:
        text = t(
            lang,
            "prompt.confirm_repair",
            name=seat.name(target),
            tool=tool_name(lang, tool),
            card=_card(seat, card),
        )
    else:
        text = t(lang, "prompt.confirm_target", card=_card(seat, card), name=seat.name(target))
    return _confirm(seat, index, chosen, ConfirmTarget(g, v, index, command.seat, tool), text)


def _discard(
    seat: Seat, command: StartDiscard | ToggleDiscard | ConfirmDiscard | ClearFront
) -> Outcome:
    deluxe = seat.state.edition is Edition.DELUXE
    limit = MAX_DISCARD_DELUXE if deluxe else MAX_DISCARD_BASE
    hand = seat.hand
    if isinstance(command, StartDiscard):
        selected: frozenset[int] = frozenset()
    else:
        selected = command.selected
    if any(not 0 <= i < len(hand) for i in selected):
        return Refusal("toast.forged")
    if isinstance(command, ToggleDiscard):
        if not 0 <= command.card < len(hand):
            return Refusal("toast.forged")
        if command.card in selected:
            selected = selected - {command.card}
        elif limit == 1:
            selected = frozenset({command.card})
        elif len(selected) >= limit:
            return Refusal("toast.too_many_cards", (("max", str(limit)),))
        else:
            selected = selected | {command.card}
    cards = tuple(hand[i] for i in sorted(selected))
    legal = set(legal_actions(seat.state, seat.player))
    if isinstance(command, ConfirmDiscard):
        if not cards:
            return Refusal("toast.pick_cards_first")
        action: Action = Discard(cards)
        return Play(action) if action in legal else Refusal("toast.forged")
    me = seat.state.seat_of(seat.player)
    front = seat.state.in_front[me]
    if isinstance(command, ClearFront):
        if len(cards) != 2 or not 0 <= command.item < len(front):
            return Refusal("toast.forged")
        action = ClearInFront((cards[0], cards[1]), front[command.item])
        return Play(action) if action in legal else Refusal("toast.forged")
    g, v, lang = seat.game, seat.version, seat.lang
    toggles = [
        Button(
            t(
                lang,
                "button.discard_toggle",
                mark=t(lang, "button.selected" if i in selected else "button.unselected"),
                card=card_name(lang, c),
            ),
            ToggleDiscard(g, v, i, selected),
        )
        for i, c in enumerate(hand)
    ]
    rows: list[tuple[Button, ...]] = [tuple(toggles[i : i + 2]) for i in range(0, len(toggles), 2)]
    if cards:
        label = (
            t(lang, "button.discard_confirm_one")
            if limit == 1
            else t(lang, "button.discard_confirm", count=len(cards))
        )
        rows.append((Button(label, ConfirmDiscard(g, v, selected)),))
    if deluxe and len(cards) == 2:
        for item, c in enumerate(front):
            if ClearInFront((cards[0], cards[1]), c) in legal:
                rows.append(
                    (
                        Button(
                            t(lang, "button.clear_front", card=card_name(lang, c)),
                            ClearFront(g, v, selected, item),
                        ),
                    )
                )
    rows.append(_back_row(seat))
    key = "prompt.discard_deluxe" if deluxe else "prompt.discard_base"
    return Screen(Picture.HOME, (t(lang, key),), tuple(rows))
