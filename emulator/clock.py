"""Time as the emulator sees it: any callable returning seconds since the epoch."""

from __future__ import annotations

from collections.abc import Callable

Clock = Callable[[], float]


class ManualClock:
    """A clock that only moves when a test says so."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def __call__(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move time forward by `seconds`."""
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._now += seconds
