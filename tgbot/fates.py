"""What a Bot API error means for the caller: its `ports.Fate` (done, retry, gone, ...)."""

from __future__ import annotations

from datetime import timedelta

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from .ports import Fate, Sent


def _seconds(value: object) -> float:
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value) if isinstance(value, int | float) else 1.0


_GONE = (
    "message to delete not found",
    "message to edit not found",
    "message can't be deleted",
    "message can't be edited",
    "chat not found",
    "bot was kicked",
    "bot is not a member",
    "group chat was deactivated",
    "not enough rights",
)
_BLOCKED = ("chat not found", "blocked", "can't initiate", "deactivated", "bot can't send")


def fate_of(err: TelegramError, *, private: bool) -> Sent:
    """What a Bot API error means for the caller (see `ports.Fate`)."""
    text = str(err)
    low = text.lower()
    if isinstance(err, ChatMigrated):
        return Sent(Fate.MOVED, new_chat=int(err.new_chat_id), detail=text)
    if isinstance(err, RetryAfter):
        return Sent(Fate.RETRY, retry_after=_seconds(err.retry_after), detail=text)
    if isinstance(err, TimedOut):
        return Sent(Fate.UNKNOWN, detail=text)
    if isinstance(err, NetworkError) and not isinstance(err, BadRequest):
        # Telegram answered 5xx (nothing done), or the connection broke (maybe done).
        cut = low.startswith(("aiohttp.", "httpx.", "unknown error in http"))
        return Sent(Fate.UNKNOWN if cut else Fate.RETRY, detail=text)
    if "not modified" in low:
        return Sent(Fate.DONE, detail=text)
    if isinstance(err, Forbidden | BadRequest):
        if private and any(m in low for m in _BLOCKED):
            return Sent(Fate.BLOCKED, detail=text)
        if isinstance(err, Forbidden) or any(m in low for m in _GONE):
            return Sent(Fate.GONE, detail=text)
    return Sent(Fate.REFUSED, detail=text)
