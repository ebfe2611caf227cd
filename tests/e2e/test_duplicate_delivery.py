"""Telegram may deliver a webhook update twice (same update_id): the bot handles it once.

The emulator POSTs every update twice; the bot (in webhook mode) must open one lobby for a
doubled `/new`, join each player once, start once, make one move for a doubled Confirm, repost
the board once for a doubled `/board`, and answer each tap once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from tests.catalog import texts
from tgbot.buttons import StartGame
from tgbot.i18n import Language

from .games import data_of, game_id_of, loaded, reach_confirm, state_of, to_act
from .harness import World, shown, url_buttons

EN = Language("en")


class Skipped(logging.Handler):
    """Counts the bot's "already handled" notes, and keeps any error."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.skipped = 0
        self.errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Count one skipped update, or keep an error."""
        if record.name.startswith("tgbot") and "already handled" in record.getMessage():
            self.skipped += 1
        if record.levelno >= logging.ERROR and record.name.startswith(
            ("tgbot", "telegram", "aiohttp")
        ):
            self.errors.append(record.getMessage())


@pytest.fixture
def skipped() -> Iterator[Skipped]:
    """The bot's log, counted for this test."""
    handler = Skipped()
    root, bot = logging.getLogger(), logging.getLogger("tgbot")
    level = bot.level
    root.addHandler(handler)
    bot.setLevel(logging.INFO)  # "update N was already handled" is an INFO note
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        bot.setLevel(level)


async def test_each_update_delivered_twice_is_handled_once(world: World, skipped: Skipped) -> None:
    """A doubled /new, deep-link joins, Start, Confirm and /board each take effect once."""
    assert world.emu is not None
    emu = world.emu
    state = world.state
    emu.duplicate_webhook_deliveries = True
    attempts, updates = emu.webhook_attempts, len(state.update_log)
    ann, bob, cho = (world.user(n) for n in ("Ann", "Bob", "Cho"))
    chat = world.group("Dwarves", ann, [bob, cho])
    await world.settle()

    await world.say(ann, chat, "/new")
    (lobby,) = world.bot_messages(chat)
    gid = game_id_of(lobby)
    ((_, url),) = url_buttons(lobby)
    for p in (ann, bob, cho):
        await world.open(p, url)
        (joined,) = world.bot_messages(p.id)  # one "you joined" note each
        assert "Dwarves" in shown(joined)
    record = await loaded(world, gid)
    assert [p.user_id for p in record.lobby.players] == [ann.id, bob.id, cho.id]
    lobby = state.message(chat, lobby.message_id)
    assert all(p.first_name in shown(lobby) for p in (ann, bob, cho))

    (start,) = data_of(lobby, StartGame)
    text, _ = await world.press(ann, lobby, start)
    assert text == texts(EN).pgettext("toast", "Done!")  # in the tapper's language
    boards = [m for m in world.bot_messages(chat) if m.content.photo]
    assert len(boards) == 1, "one board post for the start"
    for p in (ann, bob, cho):
        assert len([m for m in world.bot_messages(p.id) if m.content.photo]) == 1

    actor = await to_act(world, gid, [ann, bob, cho])
    version = (await state_of(world, gid)).version
    message, confirm = await reach_confirm(world, gid, actor)
    text, _ = await world.press(actor, message, confirm)
    assert text == texts(EN).pgettext("toast", "Done!")
    assert (await state_of(world, gid)).version == version + 1, "one move"
    posts = [m for m in state.messages(chat, include_deleted=True) if m.content.photo]
    assert len(posts) == 2, "one board post for the move"

    await world.say(bob, chat, "/board")
    posts = [m for m in state.messages(chat, include_deleted=True) if m.content.photo]
    assert len(posts) == 3, "one repost"
    assert len([m for m in posts if not m.deleted]) == 1

    sent = len(state.update_log) - updates
    assert emu.webhook_attempts - attempts == 2 * sent, "every update was POSTed twice"
    assert skipped.skipped == sent, "and handled once"
    assert all(q.answered for q in state.callback_queries.values())
    assert not skipped.errors, skipped.errors
