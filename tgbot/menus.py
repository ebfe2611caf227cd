"""Private keyboards: from a game state and a tapped button to the next screen or to a move.

Nothing about a half-made move is stored: every button carries the selection so far (hand
index, numbered spot, seat, tool) and the state version it was drawn for, and each screen is
recomputed from the engine's legal actions of that version, so numbering is stable. The types
(buttons, screens, a seat) are in `tgbot.menu_types`, the discard screens in
`tgbot.discard_menu`.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from engine import (
    Action,
    Card,
    GameState,
    Kind,
    Phase,
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

from .buttons import (
    Back,
    ClearFront,
    Command,
    ConfirmDiscard,
    ConfirmGoal,
    ConfirmSpot,
    ConfirmTarget,
    PickCard,
    PickGoal,
    PickSpot,
    PickTarget,
    PickTool,
    ShowHand,
    StartDiscard,
    StealFrom,
    ToggleDiscard,
    TurnCard,
)
from .discard_menu import discard
from .menu_types import (
    BLOCKED,
    SELECTED,
    UNSELECTED,
    Button,
    Keyboard,
    Outcome,
    Picture,
    Play,
    Refusal,
    Screen,
    Seat,
    Style,
    back_row,
    forged,
    marked_label,
)
from .names import card_name, goal_name, placed_card_name, tool_name
from .thief_menu import steal, thief

# The menus' types are used as `menus.Screen` and so on.
__all__ = [
    "BLOCKED",
    "SELECTED",
    "UNSELECTED",
    "Button",
    "Keyboard",
    "Outcome",
    "Picture",
    "Play",
    "Refusal",
    "Screen",
    "Seat",
    "Style",
    "card_options",
    "home",
    "marked_label",
    "respond",
    "unplayable_reason",
]

SPOTS_PER_ROW = 3


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
    if out and isinstance(out[0], PlaceTunnel | Rockfall):
        # Spots are numbered in reading order: north to south, west to east, upright first.
        out.sort(key=_reading_order)
    return tuple(out)


def _reading_order(a: Action) -> tuple[int, int, bool]:
    assert isinstance(a, PlaceTunnel | Rockfall)
    return a.at[1], a.at[0], isinstance(a, PlaceTunnel) and a.rotated


def both_turns(options: Sequence[Action]) -> bool:
    """Whether a tunnel card's moves lie in both orientations (then each is shown on its own)."""
    turns = {a.rotated for a in options if isinstance(a, PlaceTunnel)}
    return len(turns) == 2


def shown_spots(options: Sequence[Action], turned: bool) -> tuple[tuple[int, Action], ...]:
    """The spots a preview shows, each with its number among all the card's moves: all of them,
    or, for a card that fits in both orientations, those of one orientation."""
    numbered = tuple(enumerate(options, start=1))
    if not both_turns(options):
        return numbered
    return tuple((k, a) for k, a in numbered if isinstance(a, PlaceTunnel) and a.rotated == turned)


def home(seat: Seat, prompt: Sequence[str] = ()) -> Screen:
    """The hand: on the player's turn one button per card (🚫 on those that cannot be played
    now, with the reasons under the prompt), discard, and refresh."""
    g, v, tr = seat.game, seat.version, seat.tr
    rows: list[tuple[Button, ...]] = []
    blocked: dict[int, str] = {}
    if seat.is_turn and seat.state.phase is Phase.THEFT:
        return thief(seat, prompt)
    if seat.is_turn and seat.hand:
        for i, c in enumerate(seat.hand):
            reason = unplayable_reason(seat, c)
            if reason is not None:
                blocked[i] = reason
        cards = [
            Button(
                (f"{BLOCKED} " if i in blocked else "")
                + tr.pgettext("button", "{number}. {card}", number=i + 1, card=card_name(tr, c)),
                PickCard(g, v, i),
            )
            for i, c in enumerate(seat.hand)
        ]
        rows += [tuple(cards[i : i + 2]) for i in range(0, len(cards), 2)]
        rows.append((Button(tr.pgettext("button", "🗑 Discard"), StartDiscard(g, v)),))
        lines = tuple(prompt) or (tr.gettext("Pick a card to play."),)
        if blocked and not prompt:
            lines += tuple(
                f"{BLOCKED} {i + 1}. {_card(seat, seat.hand[i])}: {reason}"
                for i, reason in blocked.items()
            )
    else:
        lines = tuple(prompt)
    again = tr.pgettext("button", "🙋 Take my seat back") if seat.away else None
    rows.append((Button(again or tr.pgettext("button", "🔄 Refresh"), ShowHand(g, v)),))
    return Screen(Picture.HOME, lines, tuple(rows), blocked=frozenset(blocked))


def unplayable_reason(seat: Seat, card: Card) -> str | None:
    """Why a card cannot be played now (a short clause), or None when it can."""
    if card_options(seat.state, seat.player, card):
        return None
    tr = seat.tr
    kind = spec(card).kind
    me = seat.state.seat_of(seat.player)
    if kind is Kind.TUNNEL:
        if can_dig(seat.state, me):
            return tr.gettext("it fits nowhere on the board right now")
        front = seat.state.in_front[me]
        if Card.TRAPPED in front:
            return tr.gettext("you are trapped, so you cannot place tunnel cards")
        tools = ", ".join(
            tool_name(tr, s.tools[0]) for s in map(spec, front) if s.kind is Kind.BREAK
        )
        return tr.gettext("a broken tool ({tools}) stops you placing tunnel cards", tools=tools)
    if kind is Kind.REPAIR:
        return tr.gettext("no one has a broken tool it repairs")
    if kind is Kind.BREAK:
        return tr.gettext("no one can take it: that tool is already broken everywhere")
    if kind is Kind.MAP:
        return tr.gettext("every goal card is already face up")
    if kind is Kind.ROCKFALL:
        return tr.gettext("there is no tunnel card it can remove")
    if kind is Kind.FREE:
        return tr.gettext("no one is trapped")
    return tr.gettext("no one can take it right now")


def respond(seat: Seat, command: Command) -> Outcome:
    """The next screen or the move for a tapped button (version and turn already checked)."""
    if isinstance(command, ShowHand | Back):
        return home(seat)
    if seat.state.phase is Phase.THEFT:
        return steal(seat, command)
    if isinstance(command, StealFrom):
        return forged(seat)
    if isinstance(command, StartDiscard | ToggleDiscard | ConfirmDiscard | ClearFront):
        return discard(seat, command)
    index = getattr(command, "card", None)
    if not isinstance(index, int) or not 0 <= index < len(seat.hand):
        return forged(seat)
    card = seat.hand[index]
    options = card_options(seat.state, seat.player, card)
    if isinstance(command, PickCard):
        return _pick_card(seat, index, card, options)
    if isinstance(command, TurnCard):
        if not both_turns(options):
            return forged(seat)
        return _spots(seat, index, card, options, turned=True)
    if isinstance(command, PickSpot | ConfirmSpot):
        if not options or not isinstance(options[0], PlaceTunnel | Rockfall):
            return forged(seat)
        if not 1 <= command.spot <= len(options):
            return forged(seat)
        if isinstance(command, ConfirmSpot):
            return Play(options[command.spot - 1])
        return _spot_confirm(seat, index, card, options, command.spot)
    if isinstance(command, PickTarget | PickTool | ConfirmTarget):
        return _target(seat, index, card, options, command)
    if isinstance(command, PickGoal | ConfirmGoal):
        if not 0 <= command.goal < len(GOAL_SPOTS):
            return forged(seat)
        if UseMap(GOAL_SPOTS[command.goal]) not in options:
            return forged(seat)
        if isinstance(command, ConfirmGoal):
            return Play(UseMap(GOAL_SPOTS[command.goal]))
        return _map_confirm(seat, index, options, command.goal)
    return forged(seat)


def _spot_confirm(
    seat: Seat, index: int, card: Card, options: tuple[Action, ...], spot: int
) -> Screen:
    """The chosen spot drawn in place, its cell named (and the turn, for a turned card)."""
    g, v, tr = seat.game, seat.version, seat.tr
    chosen = options[spot - 1]
    assert isinstance(chosen, PlaceTunnel | Rockfall)  # every option is, like the first
    cell = cell_label(chosen.at)
    turned = isinstance(chosen, PlaceTunnel) and chosen.rotated
    back: Command = PickCard(g, v, index)
    if len(options) == 1:
        back = Back(g, v)
    elif turned and both_turns(options):
        back = TurnCard(g, v, index)
    if isinstance(chosen, Rockfall):
        text = tr.gettext("Remove the tunnel card at {cell}?", cell=cell)
    elif turned and not spec(card).is_symmetric:
        text = tr.gettext(
            "Place {card}, turned, at {cell}?",
            card=escape(placed_card_name(tr, card, True)),
            cell=cell,
        )
    else:
        text = tr.gettext("Place {card} at {cell}?", card=_card(seat, card), cell=cell)
    confirm = ConfirmSpot(g, v, index, spot)
    return _confirm(seat, index, chosen, confirm, text, back=back, turned=turned)


def _map_confirm(seat: Seat, index: int, options: tuple[Action, ...], goal: int) -> Screen:
    g, v, tr = seat.game, seat.version, seat.tr
    text = tr.gettext("Look at the {goal} goal card?", goal=goal_name(tr, goal))
    back = Back(g, v) if len(options) == 1 else PickCard(g, v, index)
    chosen = UseMap(GOAL_SPOTS[goal])
    return _confirm(seat, index, chosen, ConfirmGoal(g, v, index, goal), text, back=back)


def _card(seat: Seat, card: Card) -> str:
    return escape(card_name(seat.tr, card))


def _confirm(
    seat: Seat,
    index: int,
    chosen: Action,
    confirm: Command,
    text: str,
    *,
    back: Command | None = None,
    turned: bool = False,
) -> Screen:
    back = back or PickCard(seat.game, seat.version, index)
    picture = Picture.CONFIRM if isinstance(chosen, PlaceTunnel | Rockfall) else Picture.HOME
    ok = Button(seat.tr.pgettext("button", "✅ Confirm"), confirm, style=Style.SUCCESS)
    keyboard = ((ok,), back_row(seat, back))
    return Screen(picture, (text,), keyboard, chosen=chosen, highlight=index, turned=turned)


def _pick_card(seat: Seat, index: int, card: Card, options: tuple[Action, ...]) -> Screen:
    g, v, tr = seat.game, seat.version, seat.tr
    name = _card(seat, card)
    if not options:
        reason = unplayable_reason(seat, card) or ""
        return home(seat, (f"{BLOCKED} {name}: {reason}",))
    # A choice with one option is skipped: one spot or goal straight to Confirm, one player
    # straight to the tool (or to Confirm); Back from there goes to the hand.
    if len(options) == 1 and isinstance(options[0], PlaceTunnel | Rockfall):
        return _spot_confirm(seat, index, card, options, 1)
    if len(options) == 1 and isinstance(options[0], UseMap):
        return _map_confirm(seat, index, options, GOAL_SPOTS.index(options[0].at))
    targets = {a.target for a in options if isinstance(a, PlayOnPlayer)}
    if len(targets) == 1 and isinstance(options[0], PlayOnPlayer):
        pick = PickTarget(g, v, index, seat.state.seat_of(options[0].target))
        screen = _target(seat, index, card, options, pick)
        assert isinstance(screen, Screen)  # the command is one this screen draws
        return screen
    if isinstance(options[0], PlaceTunnel | Rockfall):
        return _spots(seat, index, card, options, turned=False)
    if isinstance(options[0], UseMap):
        goal_buttons = tuple(
            Button(
                goal_name(tr, GOAL_SPOTS.index(a.at)),
                PickGoal(g, v, index, GOAL_SPOTS.index(a.at)),
            )
            for a in options
            if isinstance(a, UseMap)
        )
        return Screen(
            Picture.HOME,
            (tr.gettext("Which goal card do you look at?"),),
            (goal_buttons, back_row(seat)),
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
        (tr.gettext("Who gets {card}?", card=name),),
        (*rows, back_row(seat)),
        highlight=index,
    )


def _spots(
    seat: Seat, index: int, card: Card, options: tuple[Action, ...], *, turned: bool
) -> Screen:
    """The numbered spots of a tunnel card (of one orientation when it fits in both) or a
    rockfall: each button numbered as on the board and naming its cell, in reading order."""
    g, v, tr = seat.game, seat.version, seat.tr
    shown = shown_spots(options, turned)
    buttons = [
        Button(
            tr.pgettext("button", "{number} · {cell}", number=n, cell=cell_label(a.at)),
            PickSpot(g, v, index, k),
        )
        for n, (k, a) in enumerate(shown, start=1)
        if isinstance(a, PlaceTunnel | Rockfall)
    ]
    rows = [tuple(buttons[i : i + SPOTS_PER_ROW]) for i in range(0, len(buttons), SPOTS_PER_ROW)]
    name = _card(seat, card)
    if card is Card.ROCKFALL:
        text = tr.gettext("Which tunnel card does the rockfall remove? Pick a numbered spot.")
    elif turned:
        text = tr.gettext(
            "Where does {card} go, turned? Pick a numbered spot on the board.",
            card=escape(placed_card_name(tr, card, True)),
        )
    else:
        text = tr.gettext("Where does {card} go? Pick a numbered spot on the board.", card=name)
    if both_turns(options):
        turn: Command = PickCard(g, v, index) if turned else TurnCard(g, v, index)
        rows.append((Button(tr.pgettext("button", "↻ Turn the card"), turn),))
    rows.append(back_row(seat))
    spots = tuple(a for _, a in shown)
    return Screen(
        Picture.PREVIEW, (text,), tuple(rows), spots=spots, highlight=index, turned=turned
    )


def _target_label(seat: Seat, player: int) -> str:
    name = seat.names.get(player, str(player))
    if player == seat.player:
        return seat.tr.pgettext("button", "{name} (you)", name=name)
    return name


def _target(
    seat: Seat,
    index: int,
    card: Card,
    options: tuple[Action, ...],
    command: PickTarget | PickTool | ConfirmTarget,
) -> Outcome:
    g, v, tr = seat.game, seat.version, seat.tr
    if not 0 <= command.seat < len(seat.state.players):
        return forged(seat)
    target = seat.state.players[command.seat]
    moves = [a for a in options if isinstance(a, PlayOnPlayer) and a.target == target]
    if not moves:
        return forged(seat)
    tool: Tool | None
    one_target = len({a.target for a in options if isinstance(a, PlayOnPlayer)}) == 1
    if isinstance(command, PickTarget):
        if len(moves) > 1:
            back = Back(g, v) if one_target else PickCard(g, v, index)
            buttons = tuple(
                Button(tool_name(tr, m.tool), PickTool(g, v, index, command.seat, m.tool))
                for m in moves
                if m.tool is not None
            )
            return Screen(
                Picture.HOME,
                (_pick_tool_text(seat, card, target),),
                (buttons, back_row(seat, back)),
                highlight=index,
            )
        tool = moves[0].tool
    else:
        tool = command.tool
    chosen = PlayOnPlayer(card, target, tool)
    if chosen not in moves:
        return forged(seat)
    if isinstance(command, ConfirmTarget):
        return Play(chosen)
    text = _confirm_target_text(seat, card, target, tool)
    confirm = ConfirmTarget(g, v, index, command.seat, tool)
    back_to: Command = Back(g, v) if len(options) == 1 else PickCard(g, v, index)
    return _confirm(seat, index, chosen, confirm, text, back=back_to)


def _pick_tool_text(seat: Seat, card: Card, target: int) -> str:
    """Which tool a repair card mends: the player's own, or another's."""
    if target == seat.player:
        return seat.tr.gettext("Which of your tools does {card} repair?", card=_card(seat, card))
    return seat.tr.gettext(
        "Which tool does {card} repair for {name}?", card=_card(seat, card), name=seat.name(target)
    )


def _confirm_target_text(seat: Seat, card: Card, target: int, tool: Tool | None) -> str:
    """The question before a card is played at a player: at oneself, or at another."""
    tr, mine = seat.tr, target == seat.player
    card_text = _card(seat, card)
    if tool is not None:
        tool_text = tool_name(tr, tool)
        if mine:
            return tr.gettext("Repair your {tool} with {card}?", tool=tool_text, card=card_text)
        return tr.gettext(
            "Repair {name}'s {tool} with {card}?",
            name=seat.name(target),
            tool=tool_text,
            card=card_text,
        )
    if mine:
        return tr.gettext("Play {card} on yourself?", card=card_text)
    return tr.gettext("Play {card} on {name}?", card=card_text, name=seat.name(target))
