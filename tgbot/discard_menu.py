"""The discard screens of the private menus: pick cards to discard (Deluxe: or to clear a card
lying in front of the player), then confirm."""

from __future__ import annotations

from engine import Action, ClearInFront, Discard, Edition, legal_actions

from .buttons import ClearFront, ConfirmDiscard, StartDiscard, ToggleDiscard
from .menu_types import (
    Button,
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
from .names import card_name

MAX_DISCARD_BASE = 1
MAX_DISCARD_DELUXE = 3


def discard(
    seat: Seat, command: StartDiscard | ToggleDiscard | ConfirmDiscard | ClearFront
) -> Outcome:
    """The discard screen for a tap, or the discard (or clearing) it confirms."""
    deluxe = seat.state.edition is Edition.DELUXE
    limit = MAX_DISCARD_DELUXE if deluxe else MAX_DISCARD_BASE
    hand = seat.hand
    tr = seat.tr
    if isinstance(command, StartDiscard):
        selected: frozenset[int] = frozenset()
    else:
        selected = command.selected
    if any(not 0 <= i < len(hand) for i in selected):
        return forged(seat)
    if isinstance(command, ToggleDiscard):
        if not 0 <= command.card < len(hand):
            return forged(seat)
        if command.card in selected:
            selected = selected - {command.card}
        elif limit == 1:
            selected = frozenset({command.card})
        elif len(selected) >= limit:
            return Refusal(
                tr.npgettext(
                    "toast",
                    "You can discard at most {max} card.",
                    "You can discard at most {max} cards.",
                    limit,
                    max=limit,
                )
            )
        else:
            selected = selected | {command.card}
    cards = tuple(hand[i] for i in sorted(selected))
    legal = set(legal_actions(seat.state, seat.player))
    if isinstance(command, ConfirmDiscard):
        if not cards:
            return Refusal(tr.pgettext("toast", "Pick the cards to discard first."))
        action: Action = Discard(cards)
        return Play(action) if action in legal else forged(seat)
    me = seat.state.seat_of(seat.player)
    front = seat.state.in_front[me]
    if isinstance(command, ClearFront):
        if len(cards) != 2 or not 0 <= command.item < len(front):
            return forged(seat)
        action = ClearInFront((cards[0], cards[1]), front[command.item])
        return Play(action) if action in legal else forged(seat)
    g, v = seat.game, seat.version
    toggles = [
        Button(marked_label(i in selected, card_name(tr, c)), ToggleDiscard(g, v, i, selected))
        for i, c in enumerate(hand)
    ]
    rows: list[tuple[Button, ...]] = [tuple(toggles[i : i + 2]) for i in range(0, len(toggles), 2)]
    if cards:
        if limit == 1:
            label = tr.pgettext("button", "🗑 Discard this card")
        else:
            label = tr.npgettext(
                "button",
                "🗑 Discard {count} and draw {count}",
                "🗑 Discard {count} and draw {count}",
                len(cards),
                count=len(cards),
            )
        rows.append((Button(label, ConfirmDiscard(g, v, selected), style=Style.DANGER),))
    if deluxe and len(cards) == 2:
        for item, c in enumerate(front):
            if ClearInFront((cards[0], cards[1]), c) in legal:
                label = tr.pgettext(
                    "button", "🧹 Discard 2 to remove {card}", card=card_name(tr, c)
                )
                rows.append((Button(label, ClearFront(g, v, selected, item), style=Style.DANGER),))
    rows.append(back_row(seat))
    if deluxe:
        prompt = tr.gettext(
            "Pick 1 to 3 cards to discard and draw as many, "
            "or pick 2 to remove a card lying in front of you."
        )
    else:
        prompt = tr.gettext("Pick one card to discard face down. You then draw one.")
    return Screen(Picture.HOME, (prompt,), tuple(rows))
