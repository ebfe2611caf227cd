"""The one error the engine raises for a move the rules do not allow."""

from __future__ import annotations

from enum import Enum


class Reason(Enum):
    """Why an action was refused."""

    GAME_OVER = "game_over"
    NOT_A_PLAYER = "not_a_player"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_AN_ACTION = "not_an_action"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    WRONG_EDITION = "wrong_edition"
    TOOL_BROKEN = "tool_broken"
    TRAPPED = "trapped"
    CELL_TAKEN = "cell_taken"
    NOT_CONNECTED = "not_connected"
    DOES_NOT_FIT = "does_not_fit"
    ROTATION_NOT_OFFERED = "rotation_not_offered"
    NEXT_TO_GOAL = "next_to_goal"
    BAD_TARGET = "bad_target"
    ALREADY_IN_FRONT = "already_in_front"
    NOTHING_TO_REPAIR = "nothing_to_repair"
    NOT_A_HIDDEN_GOAL = "not_a_hidden_goal"
    NOTHING_TO_REMOVE = "nothing_to_remove"
    BAD_DISCARD = "bad_discard"
    ROUND_OVER = "round_over"  # Deluxe: the round is paid; only a thief's choice remains


class IllegalAction(ValueError):
    """An action the rules refuse; the state it was tried on is unchanged."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        super().__init__(f"{reason.value}: {detail}" if detail else reason.value)
        self.reason = reason
        self.detail = detail
