"""Updates handled concurrently across chats, in order within one chat.

python-telegram-bot handles one update at a time unless told otherwise; then a slow call for
one group makes every other group wait. This processor runs updates of different chats at the
same time and those of one chat (a group, or a user's private chat) one after another, so a
player's double tap or a group's burst of commands is decided in the order Telegram sent it.
Taps on one game from different players' private chats may run together: the store's
compare-and-set decides them one at a time against the latest state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

MAX_CONCURRENT_UPDATES = 256


def order_key(update: object) -> int | None:
    """The chat whose updates must keep their order (None: no order to keep)."""
    if not isinstance(update, Update):
        return None
    query = update.callback_query
    if query is not None:
        return query.message.chat.id if query.message is not None else query.from_user.id
    chat = update.effective_chat
    if chat is not None:
        return chat.id
    user = update.effective_user
    return user.id if user is not None else None


class ChatOrderedProcessor(BaseUpdateProcessor):
    """Concurrent across chats, sequential within a chat; counts the updates in hand."""

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT_UPDATES) -> None:
        super().__init__(max_concurrent_updates=max_concurrent_updates)
        self.active = 0  # updates being handled now (tests wait for 0)
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Handle one update once the ones before it from its chat are done."""
        self.active += 1
        key = order_key(update)
        try:
            if key is None:
                await coroutine
                return
            lock = self._locks.setdefault(key, asyncio.Lock())
            self._waiting[key] = self._waiting.get(key, 0) + 1
            try:
                async with lock:
                    await coroutine
            finally:
                self._waiting[key] -= 1
                if not self._waiting[key]:  # nobody else queued for this chat: forget it
                    del self._waiting[key]
                    del self._locks[key]
        finally:
            self.active -= 1

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
