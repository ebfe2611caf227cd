"""Telegram's numeric limits and its flood control, kept in one place."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from emulator.clock import Clock
from emulator.errors import too_many_requests

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_ANSWER_TEXT_LENGTH = 200
CALLBACK_ANSWER_SECONDS = 15.0
DELETE_WINDOW_SECONDS = 48 * 3600.0
MAX_PHOTO_SIDES_SUM = 10_000
MAX_PHOTO_RATIO = 20
MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # a file a bot uploads (photos aside)


@dataclass(frozen=True)
class RateLimits:
    """How many messages the bot may send before Telegram answers 429."""

    group_messages: int = 20
    group_window_seconds: float = 60.0
    global_messages: int = 30
    global_window_seconds: float = 1.0


class RateLimiter:
    """Rolling-window counters of sent messages, per group and for the whole bot."""

    def __init__(self, limits: RateLimits, clock: Clock) -> None:
        self.limits = limits
        self._clock = clock
        self._global: deque[float] = deque()
        self._groups: dict[int, deque[float]] = {}

    def check(self, chat_id: int, *, is_group: bool) -> None:
        """Raise Telegram's 429 error if one more message to `chat_id` would flood."""
        now = self._clock()
        _expire(self._global, now - self.limits.global_window_seconds)
        if len(self._global) >= self.limits.global_messages:
            raise too_many_requests(
                _retry_after(self._global[0] + self.limits.global_window_seconds - now)
            )
        if not is_group:
            return
        sent = self._groups.get(chat_id)
        if sent is None:
            return
        _expire(sent, now - self.limits.group_window_seconds)
        if len(sent) >= self.limits.group_messages:
            raise too_many_requests(_retry_after(sent[0] + self.limits.group_window_seconds - now))

    def record(self, chat_id: int, *, is_group: bool) -> None:
        """Count one message sent to `chat_id` now."""
        now = self._clock()
        self._global.append(now)
        if is_group:
            self._groups.setdefault(chat_id, deque()).append(now)


def _expire(times: deque[float], cutoff: float) -> None:
    while times and times[0] <= cutoff:
        times.popleft()


def _retry_after(seconds: float) -> int:
    return max(1, math.ceil(seconds))
