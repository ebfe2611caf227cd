"""A thief's choice at a round's end (rule deluxe.payout.theft), from public facts only."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, Steal
from engine.views import PlayerView


def victim(view: PlayerView, legal: Sequence[Action]) -> Steal:
    """The likeliest rich rival: the player paid in the most rounds so far (who was paid is
    public, totals are not), on a tie the one paid in the latest round, then seat order."""
    steals = [a for a in legal if isinstance(a, Steal)]
    if not steals:
        raise ValueError("no theft to choose")
    results = view.public.results

    def paid(a: Steal) -> tuple[int, int]:
        rounds = [r.round for r in results if a.victim in r.paid]
        return len(rounds), max(rounds, default=0)

    return max(steals, key=paid)  # max keeps the first of equals: seat order
