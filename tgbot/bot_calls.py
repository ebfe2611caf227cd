"""Bot API calls answered as plain JSON, through the bot's own request object.

python-telegram-bot turns every answer into objects (`Message.de_json`, one `__setattr__` per
field): about a tenth of the bot's CPU under load went there, for answers of which the sender
reads three fields (the message id, the photo's file ids, the caption). These calls go through
the same `BaseRequest` (`Bot.request`: its connection pool, timeouts and error mapping, so the
same `TelegramError`s come out) and skip only the objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from telegram import Bot
from telegram.request import RequestData

# Not exported by PTB, but how its own methods encode parameters (files, media, JSON values): the
# same encoding, so the wire format is PTB's (PTB is pinned; the e2e tests cover the calls).
from telegram.request._requestparameter import RequestParameter

Answer = dict[str, Any] | list[dict[str, Any]] | bool


class BotCalls:
    """One Bot API method with its parameters (None values left out), answered as JSON."""

    __slots__ = ("_bot",)

    def __init__(self, bot: Bot) -> None:
        self._bot = bot

    async def __call__(self, method: str, parameters: Mapping[str, object]) -> Answer:
        """Call `method`; its `result` as JSON, or the `TelegramError` PTB would raise."""
        data = RequestData(
            [RequestParameter.from_input(k, v) for k, v in parameters.items() if v is not None]
        )
        result: Answer = await self._bot.request.post(
            url=f"{self._bot.base_url}/{method}", request_data=data
        )
        return result


def field(answer: object, name: str) -> object:
    """A field of an answer that is a message (None when it is not, or has no such field)."""
    return answer.get(name) if isinstance(answer, dict) else None
