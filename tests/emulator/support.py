"""Shared helpers of the emulator tests ."""

from __future__ import annotations

import ssl
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.request import HTTPXRequest

from emulator import Chat, User

RawCall = Callable[..., Coroutine[Any, Any, tuple[int, dict[str, Any]]]]


@dataclass
class People:
    """Alice and Bob started the bot and share a group; Carol only has an account."""

    alice: User
    bob: User
    carol: User
    group: Chat


def keyboard(*data: str) -> InlineKeyboardMarkup:
    """One row of callback buttons labelled and keyed by `data`."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(d, callback_data=d) for d in data]])


# Building an SSL context loads the CA bundle (~40 ms); PTB builds two per Bot. Share one.
_SSL_CONTEXT = ssl.create_default_context()


def quick_request(**kwargs: Any) -> HTTPXRequest:
    """A PTB request object that reuses one SSL context (the emulator speaks plain HTTP).

    `kwargs` go to `HTTPXRequest` (read_timeout, connection_pool_size...)."""
    return HTTPXRequest(httpx_kwargs={"verify": _SSL_CONTEXT}, **kwargs)
