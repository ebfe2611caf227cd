"""Computer moves: a computer player's turn, and the computer's move for an absent player.

The computer decides in a worker thread from the record as loaded (a search takes tens of
milliseconds), then the move is saved through the same `moved`/`after_move` path as a person's,
only if the game still waits for that seat at that version.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from engine import Action, apply, current_player

from .. import computer
from ..clocks import Deadline, DeadlineKind, absent_thief_choice, stand_in_move
from ..records import GameRecord, Status, is_computer_id
from ..store import ContentionError, Decision
from .context import Context
from .turns import after_move, moved

log = logging.getLogger(__name__)

RETRY_SECONDS = 1  # a computer's turn that lost to other saves is tried again this much later


@dataclass(frozen=True, slots=True)
class Planned:
    """A move the computer chose for a seat at a state version."""

    version: int
    player: int
    action: Action

    def fits(self, record: GameRecord) -> bool:
        """Whether the game still waits for this seat at this version."""
        return awaited(record, self.version) == self.player


def awaited(record: GameRecord | None, version: int) -> int | None:
    """The player a game in play waits for, if its state is at `version`."""
    if record is None or record.state is None or record.status is not Status.PLAYING:
        return None
    if record.state.version != version:
        return None
    return current_player(record.state)


async def plan(record: GameRecord, player: int) -> Planned | None:
    """The computer's move for this seat now; None when it has nothing to play."""
    state = record.state
    assert state is not None
    if not is_computer_id(player):
        # A person's theft is their own choice: when they are away, chance chooses, not the AI.
        seed = computer.seed_of(record.game_id, state.seat_of(player), state.version)
        stolen = absent_thief_choice(state, player, seed)
        if stolen is not None:
            return Planned(state.version, player, stolen)
    try:
        action = await asyncio.to_thread(computer.decide, record, player)
    except Exception:
        log.exception("game %s: the computer could not decide; it discards", record.game_id)
        action = stand_in_move(state, player)
    return None if action is None else Planned(state.version, player, action)


async def computer_turn(ctx: Context, gid: str, version: int) -> None:
    """A computer player's turn is due: it decides, and its move is saved and announced."""
    record = await ctx.store.load(gid)
    player = awaited(record, version)
    if record is None or player is None or not is_computer_id(player):
        return
    planned = await plan(record, player)
    if planned is None:
        return
    now = ctx.now()

    def decide(record: GameRecord | None) -> Decision[bool]:
        if record is None or record.state is None or not planned.fits(record):
            return Decision(False)
        transition = apply(record.state, player, planned.action)
        return Decision(True, moved(record, transition, player, now, action=planned.action))

    try:
        done = await ctx.store.update(gid, decide)
    except ContentionError:
        log.warning("game %s: a computer's move kept losing; tried again soon", gid)
        await ctx.deadlines.add(
            [Deadline(gid, version, DeadlineKind.COMPUTER, now + RETRY_SECONDS)]
        )
        return
    if done.result and done.saved and done.record is not None:
        await after_move(ctx, done.record, version)
