"""The emulator speaks the Bot API of the pinned python-telegram-bot (10.0): every object it
returns parses with every required field, and carries no field that Bot API version lacks."""

from __future__ import annotations

import io
from collections.abc import Iterator

import telegram
from PIL import Image
from telegram import Bot, TelegramObject
from telegram.constants import ParseMode

from emulator import EmulatorState
from tests.emulator.support import People, keyboard


def unknown_fields(obj: object, path: str = "") -> Iterator[str]:
    """Every field PTB kept in `api_kwargs` (it knows no such field), anywhere inside `obj`."""
    if isinstance(obj, TelegramObject):
        for name in obj.api_kwargs:
            yield f"{path}.{name}"
        for name, value in obj._get_attrs(recursive=False).items():
            yield from unknown_fields(value, f"{path}.{name}")
    elif isinstance(obj, tuple | list):
        for i, item in enumerate(obj):
            yield from unknown_fields(item, f"{path}[{i}]")


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (16, 16), "brown").save(out, format="PNG")
    return out.getvalue()


def test_the_pinned_library_speaks_bot_api_10() -> None:
    assert telegram.__bot_api_version__ == "10.0"


async def test_every_answer_parses_without_unknown_fields(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    group, alice = people.group.id, people.alice.id
    me = await bot.get_me()
    text = await bot.send_message(
        group, "<b>Round 1</b>", parse_mode=ParseMode.HTML, reply_markup=keyboard("a", "b")
    )
    photo = await bot.send_photo(alice, png(), caption="<i>board</i>", parse_mode=ParseMode.HTML)
    edited = await bot.edit_message_text(
        "<b>Round 2</b>", group, text.message_id, parse_mode="HTML"
    )
    answers: dict[str, object] = {
        "getMe": me,
        "sendMessage": text,
        "sendPhoto": photo,
        "editMessageText": edited,
        "getChat (group)": await bot.get_chat(group),
        "getChat (private)": await bot.get_chat(alice),
        "getChatMember": await bot.get_chat_member(group, alice),
        "getChatAdministrators": await bot.get_chat_administrators(group),
        "getMyCommands": await bot.get_my_commands(),
        "getWebhookInfo": await bot.get_webhook_info(),
    }
    for method, answer in answers.items():
        assert answer is not None, method
        assert not list(unknown_fields(answer)), (method, list(unknown_fields(answer)))


async def test_every_update_parses_without_unknown_fields(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    """Messages, commands, button taps, migrations and the bot's own membership changes."""
    carol = people.carol.id
    state.start_bot(carol, "join-Ab3dE9xYz0")
    sent = await bot.send_message(people.alice.id, "pick", reply_markup=keyboard("x"))
    state.press_button(people.alice.id, people.alice.id, sent.message_id, "x")
    forum = state.create_group("Forum", creator=people.alice.id, supergroup=True, forum=True)
    topic = state.create_topic(forum.id, people.alice.id, "Dwarves")
    await bot.send_message(forum.id, "in the topic", message_thread_id=topic)
    upgraded = state.migrate_to_supergroup(people.group.id, by=people.alice.id)
    state.remove_bot(upgraded.id, by=people.alice.id)
    updates = await bot.get_updates(timeout=0)
    kinds = {k for u in updates for k, v in u.to_dict().items() if k != "update_id" and v}
    assert {"message", "callback_query", "my_chat_member"} <= kinds, kinds
    for update in updates:
        assert not list(unknown_fields(update)), (update.to_dict(), list(unknown_fields(update)))
