"""A round's replay as an animated GIF of at most 1 MB: the `Animator` port and its real painter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine import PublicView
from render import render_round_replay

MAX_BYTES = 1024 * 1024  # what the group is sent at most (Telegram takes far more)
WIDTHS = (800, 600, 440)  # tried in turn until the picture fits


class Animator(Protocol):
    """Animated pictures from the group's views."""

    def round_replay(self, views: Sequence[PublicView]) -> bytes | None:
        """A round's replay (a GIF) from its public views, or None if none fits the size."""
        ...


class Animations:
    """The real animations, drawn by render/ (about 0.1 s for a round of 60 moves)."""

    def __init__(self, *, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes

    def round_replay(self, views: Sequence[PublicView]) -> bytes | None:
        """The round's GIF at the largest width that keeps it within the size."""
        for width in WIDTHS:
            data = render_round_replay(views, max_width=width)
            if len(data) <= self.max_bytes:
                return data
        return None
