"""Turn clocks, as pure decisions: when to remind, when time is up, what to play for the absent.

A game with a time per turn owes two deadlines for the current turn: a private reminder a while
before the end, and the timeout. Both are named by the game, the state version they belong to
and their kind, so a deadline of a turn that has since been played is recognised as stale.
A computer player's turn owes one instead: its move, after a short pause.
A lobby owes one: it expires a day after its set-up last changed, named by the lobby's revision.
A practice game owes one at its player's turn: it ends after `PRACTICE_IDLE_SECONDS` without
their move (they walked away, or blocked the bot), freeing their private chat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum

from engine import Action, Discard, GameState, Phase, legal_actions

MISSES_FOR_AUTO = 2  # after this many timeouts in a row, the game plays for the player
AUTO_DELAY_SECONDS = 5  # a player on automatic is played for after this pause
LOBBY_IDLE_SECONDS = 24 * 3600  # a lobby nobody joined, left or set up for this long expires
# A claimed deadline is held this long: one whose process died before serving it is due again
# then (a computer's move takes a second or two at worst; serving twice makes the move once).
CLAIM_LEASE_SECONDS = 60
PRACTICE_IDLE_SECONDS = 2 * 24 * 3600  # a practice game waiting this long for its player ends
CLAIMED = "claimed|"  # a claim's member in the deadline index: this, then the deadline's name


class DeadlineKind(Enum):
    """What happens when a deadline is reached."""

    REMIND = "remind"
    TIMEOUT = "timeout"
    EXPIRE = "expire"  # of a lobby; its "version" is the lobby's revision
    COMPUTER = "computer"  # a computer player's move
    IDLE = "idle"  # a practice game waited too long for its player: it ends


@dataclass(frozen=True, slots=True)
class Deadline:
    """A moment at which a game owes a reminder or a timeout for the turn of `version` (or
    a lobby's expiry, for its revision `version`)."""

    game: str
    version: int
    kind: DeadlineKind
    at: float

    @property
    def member(self) -> str:
        """Its name in the deadline index."""
        return f"{self.game}:{self.version}:{self.kind.value}"


def parse_member(member: str) -> tuple[str, int, DeadlineKind] | None:
    """A deadline's game, version and kind from its name in the index, or None."""
    parts = member.split(":")
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    try:
        return parts[0], int(parts[1]), DeadlineKind(parts[2])
    except ValueError:
        return None


def lobby_expiry(game: str, revision: int, changed_at: float) -> Deadline:
    """When a lobby expires if its set-up stays at this revision."""
    return Deadline(game, revision, DeadlineKind.EXPIRE, changed_at + LOBBY_IDLE_SECONDS)


def reminder_lead(limit_seconds: float) -> float:
    """How long before the timeout the reminder comes: a quarter of the limit, at most 2 hours."""
    return min(limit_seconds / 4, 2 * 3600)


def deadlines(
    game: str,
    state: GameState,
    *,
    turn_started_at: float,
    limit_hours: int | None,
    automatic: bool,
    computer_pause: float | None = None,
    practice: bool = False,
) -> tuple[Deadline, ...]:
    """The deadlines owed for the current turn (none when over or without a limit); a computer
    player's turn (`computer_pause` given) owes its move after that pause, a practice game's
    person's turn its end after `PRACTICE_IDLE_SECONDS`."""
    if state.phase is Phase.OVER:
        return ()
    if computer_pause is not None:
        return (
            Deadline(game, state.version, DeadlineKind.COMPUTER, turn_started_at + computer_pause),
        )
    if practice and not automatic and limit_hours is None:
        idle = turn_started_at + PRACTICE_IDLE_SECONDS
        return (Deadline(game, state.version, DeadlineKind.IDLE, idle),)
    if automatic:
        return (
            Deadline(
                game, state.version, DeadlineKind.TIMEOUT, turn_started_at + AUTO_DELAY_SECONDS
            ),
        )
    if limit_hours is None:
        return ()
    limit = limit_hours * 3600.0
    end = turn_started_at + limit
    return (
        Deadline(game, state.version, DeadlineKind.REMIND, end - reminder_lead(limit)),
        Deadline(game, state.version, DeadlineKind.TIMEOUT, end),
    )


def absent_thief_choice(state: GameState, player: int, seed: int) -> Action | None:
    """An absent thief's victim (rule deluxe.payout.theft): a random other player with gold,
    drawn from this decision's seed, never the richest; None when `player` is no thief now."""
    if state.phase is not Phase.THEFT:
        return None
    legal = legal_actions(state, player)
    return legal[random.Random(seed).randrange(len(legal))] if legal else None


def stand_in_move(state: GameState, player: int) -> Action | None:
    """The fallback when the computer player cannot decide (it should not happen): discard
    one card, which helps no side; else the first legal move.

    The card discarded is the first of the hand in the engine's order, so a replay is stable.
    """
    legal = legal_actions(state, player)
    for action in legal:
        if isinstance(action, Discard) and len(action.cards) == 1:
            return action
    return legal[0] if legal else None
