"""The error handler's answers leave through the sender, like every other message: a tap's
"something went wrong" and "busy" toasts, and a command's error reply (within the group's
flood budget)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import cast

import pytest
from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.ext import ApplicationHandlerStop

from tgbot.handlers import Context, Handlers
from tgbot.memory_ports import MemoryBudget

from .conftest import ANN, GROUP, Table

WRONG = "Something went wrong. The game is safe; please try again."


def _user(code: str = "en") -> User:
    return User(ANN, "Ann", False, language_code=code)


def _message(chat: Chat) -> Message:
    return Message(1, datetime.now(UTC), chat, from_user=_user(), text="/status")


def _tap(code: str = "en") -> Update:
    chat = Chat(GROUP, Chat.SUPERGROUP, title="The Mine")
    query = CallbackQuery("q1", _user(code), "c1", message=_message(chat), data="forged")
    return Update(2, callback_query=query)


def _failed(error: BaseException) -> Context:
    return cast(Context, SimpleNamespace(error=error))


async def test_a_tap_that_failed_is_answered_through_the_sender(table: Table) -> None:
    await Handlers(table.service).error(_tap(), _failed(RuntimeError("boom")))
    assert table.sender.answers == [("q1", WRONG, True, None)]


async def test_a_tap_while_the_store_is_away_is_answered_busy_through_the_sender(
    table: Table,
) -> None:
    handlers = Handlers(table.service, unavailable=lambda error: True)
    with pytest.raises(ApplicationHandlerStop):
        await handlers.error(_tap("ko"), _failed(ConnectionError("redis away")))
    ((query, text, alert, _),) = table.sender.answers
    assert query == "q1" and not alert and text and "busy" not in text  # in Korean


async def test_a_commands_error_reply_goes_through_the_sender_and_its_budget(
    table: Table,
) -> None:
    handlers = Handlers(table.service)
    group = Update(1, message=_message(Chat(GROUP, Chat.SUPERGROUP, title="The Mine")))
    await handlers.error(group, _failed(RuntimeError("boom")))
    assert table.said(GROUP) == [WRONG]
    private = Update(3, message=_message(Chat(ANN, Chat.PRIVATE)))
    await handlers.error(private, _failed(RuntimeError("boom")))
    assert table.said(ANN) == [WRONG]
    budget = MemoryBudget(limit=1)
    table.sender.budget = budget
    table.sender.clock = table.clock
    await budget.take(GROUP, table.clock())  # the group's one send a minute is used
    await handlers.error(group, _failed(RuntimeError("boom")))
    assert table.said(GROUP) == [WRONG]  # the boards go first: the reply is left out
