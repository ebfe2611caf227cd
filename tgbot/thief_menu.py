"""The thief's screen of the private menus (Deluxe, at a round's end): whom to take a gold
nugget from (rule deluxe.payout.theft)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Steal, legal_actions

from .buttons import Command, ShowHand, StealFrom
from .menu_types import Button, Outcome, Picture, Play, Screen, Seat, Style, forged


def thief(seat: Seat, prompt: Sequence[str] = ()) -> Screen:
    """One button per player the thief may steal from; they have gold, how much is not shown."""
    g, v, tr = seat.game, seat.version, seat.tr
    victims = [
        (seat.state.seat_of(a.victim), a.victim)
        for a in legal_actions(seat.state, seat.player)
        if isinstance(a, Steal)
    ]
    rows: list[tuple[Button, ...]] = [
        (
            Button(
                tr.pgettext("button", "💰 Steal from {name}", name=seat.name(p)),
                StealFrom(g, v, i),
                style=Style.DANGER,
            ),
        )
        for i, p in victims
    ]
    rows.append((Button(tr.pgettext("button", "🔄 Refresh"), ShowHand(g, v)),))
    choose = tr.gettext(
        "The round is over and your theft card is in play: choose whom to take 1 gold"
        " nugget from. Everyone will see who you stole from, not how much anyone has."
    )
    lines = (*prompt, choose) if choose not in prompt else tuple(prompt)
    return Screen(Picture.HOME, lines, tuple(rows))


def steal(seat: Seat, command: Command) -> Outcome:
    """The thief's tap: the steal it names, if legal; any other button shows the choice again."""
    if not isinstance(command, StealFrom):
        return thief(seat)
    players = seat.state.players
    if not 0 <= command.seat < len(players):
        return forged(seat)
    action = Steal(players[command.seat])
    if action not in legal_actions(seat.state, seat.player):
        return forged(seat)
    return Play(action)
