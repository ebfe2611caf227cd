"""Sending, editing and deleting through a real PTB `Bot`, with Telegram's limits and errors."""

from __future__ import annotations

import aiohttp
import pytest
from telegram import Bot, BotCommand, BotCommandScopeChat, ReplyParameters
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import BadRequest, Forbidden, InvalidToken

from emulator import EmulatorState, ManualClock
from emulator.server import BotApiEmulator
from tests.emulator.support import People, RawCall, keyboard, quick_request


async def test_html_message_keeps_raw_and_plain_text(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    sent = await bot.send_message(
        people.group.id, "<b>Round 1</b> &lt;start&gt;", parse_mode=ParseMode.HTML
    )
    assert sent.text == "Round 1 <start>"
    assert sent.entities[0].type == "bold"
    assert sent.from_user is not None and sent.from_user.id == bot.id
    stored = state.message(people.group.id, sent.message_id)
    assert stored.raw_text == "<b>Round 1</b> &lt;start&gt;"
    assert stored.text == "Round 1 <start>"


async def test_message_ids_count_from_one_in_each_chat(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    dana = state.create_user("Dana")
    state.start_bot(dana.id)
    first = await bot.send_message(dana.id, "hello")
    second = await bot.send_message(dana.id, "again")
    assert (first.message_id, second.message_id) == (2, 3)  # 1 is Dana's /start


async def test_text_length_is_counted_after_entity_parsing(
    raw: RawCall, people: People, clock: ManualClock
) -> None:
    chat = people.alice.id
    status, body = await raw("sendMessage", chat_id=chat, text="x" * 4096)
    assert status == 200 and body["ok"] is True
    status, body = await raw(
        "sendMessage", chat_id=chat, text=f"<b>{'x' * 4096}</b>", parse_mode="HTML"
    )
    assert status == 200
    status, body = await raw("sendMessage", chat_id=chat, text="x" * 4097)
    assert (status, body) == (
        400,
        {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"},
    )


@pytest.mark.parametrize("text", ["", "   \n ", "<b></b>"])
async def test_empty_text_is_refused(raw: RawCall, people: People, text: str) -> None:
    status, body = await raw("sendMessage", chat_id=people.alice.id, text=text, parse_mode="HTML")
    assert status == 400
    assert body["description"] == "Bad Request: message text is empty"


async def test_bad_html_is_refused_with_the_parse_error(bot: Bot, people: People) -> None:
    with pytest.raises(BadRequest, match="Can't parse entities: unsupported start tag"):
        await bot.send_message(people.alice.id, "<card>", parse_mode=ParseMode.HTML)


async def test_only_html_parse_mode_is_emulated(raw: RawCall, people: People) -> None:
    status, body = await raw(
        "sendMessage", chat_id=people.alice.id, text="*x*", parse_mode="MarkdownV2"
    )
    assert (status, body["description"]) == (400, "Bad Request: unsupported parse_mode")


async def test_callback_data_over_64_bytes_is_refused(
    bot: Bot, raw: RawCall, people: People
) -> None:
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(people.alice.id, "pick", reply_markup=keyboard("d" * 65))
    status, body = await raw(
        "sendMessage",
        chat_id=people.alice.id,
        text="pick",
        reply_markup={"inline_keyboard": [[{"text": "카드", "callback_data": "카" * 22}]]},
    )
    assert (status, body["description"]) == (400, "Bad Request: BUTTON_DATA_INVALID")
    sent = await bot.send_message(people.alice.id, "pick", reply_markup=keyboard("d" * 64))
    assert sent.reply_markup is not None


async def test_unknown_chat_and_unstarted_user(bot: Bot, raw: RawCall, people: People) -> None:
    status, body = await raw("sendMessage", chat_id=-123, text="hi")
    assert (status, body["description"]) == (400, "Bad Request: chat not found")
    status, body = await raw("sendMessage", chat_id=people.carol.id, text="hi")
    assert (status, body["description"]) == (
        403,
        "Forbidden: bot can't initiate conversation with a user",
    )
    with pytest.raises(Forbidden):
        await bot.send_message(people.carol.id, "hi")
    status, body = await raw("sendMessage", text="hi")
    assert (status, body["description"]) == (400, "Bad Request: chat_id is empty")


async def test_blocked_user_refuses_until_restart(
    bot: Bot, raw: RawCall, state: EmulatorState, people: People
) -> None:
    hand = await bot.send_message(people.bob.id, "hand")
    state.block_bot(people.bob.id)
    status, body = await raw("sendMessage", chat_id=people.bob.id, text="your turn")
    assert (status, body["description"]) == (403, "Forbidden: bot was blocked by the user")
    with pytest.raises(Forbidden, match="blocked"):
        await bot.edit_message_text("new hand", people.bob.id, hand.message_id)
    assert (await bot.get_chat(people.bob.id)).id == people.bob.id
    state.start_bot(people.bob.id)
    assert (await bot.send_message(people.bob.id, "your turn")).text == "your turn"


async def test_wrong_token_and_unknown_method(emulator: BotApiEmulator, raw: RawCall) -> None:
    status, body = await raw("getMe", token="1:wrong")
    assert (status, body) == (401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
    request = quick_request()
    stranger = Bot("1:wrong", base_url=f"{emulator.url}/bot", request=request)
    with pytest.raises(InvalidToken):
        await stranger.get_me()
    await request.shutdown()  # the Bot never initialized, so its shutdown() would skip this
    status, body = await raw("sendDice", chat_id=1)
    assert (status, body["description"]) == (404, "Not Found")
    status, body = await raw("GETME")
    assert status == 200 and body["result"]["username"] == "saboteur_emu_bot"


async def test_query_string_and_json_bodies_work_like_forms(
    emulator: BotApiEmulator, people: People
) -> None:
    url = f"{emulator.url}/bot{emulator.state.token}/sendMessage"
    async with aiohttp.ClientSession() as session:
        async with session.get(url, params={"chat_id": str(people.alice.id), "text": "q"}) as got:
            assert (await got.json())["result"]["text"] == "q"
        markup = '{"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}'
        form = {"chat_id": str(people.alice.id), "text": "f", "reply_markup": markup}
        async with session.post(url, data=form) as posted:
            assert (await posted.json())["result"]["reply_markup"]["inline_keyboard"][0][0] == {
                "text": "A",
                "callback_data": "a",
            }


async def test_edit_with_identical_content_is_not_modified(
    bot: Bot, raw: RawCall, people: People
) -> None:
    chat = people.alice.id
    sent = await bot.send_message(
        chat, "<b>hand</b>", parse_mode="HTML", reply_markup=keyboard("a")
    )
    status, body = await raw(
        "editMessageText",
        chat_id=chat,
        message_id=sent.message_id,
        text="<strong>hand</strong>",
        parse_mode="HTML",
        reply_markup=keyboard("a").to_dict(),
    )
    assert (status, body["description"]) == (
        400,
        "Bad Request: message is not modified: specified new message content and reply markup"
        " are exactly the same as a current content and reply markup of the message",
    )
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_reply_markup(chat, sent.message_id, reply_markup=keyboard("a"))


async def test_editing_text_without_markup_removes_the_keyboard(
    bot: Bot, state: EmulatorState, people: People, clock: ManualClock
) -> None:
    chat = people.alice.id
    sent = await bot.send_message(chat, "hand", reply_markup=keyboard("a"))
    clock.advance(5)
    edited = await bot.edit_message_text("hand", chat, sent.message_id)
    assert isinstance(edited, type(sent))
    assert edited.reply_markup is None
    assert edited.edit_date is not None
    again = await bot.edit_message_text("hand 2", chat, sent.message_id, reply_markup=keyboard("b"))
    assert isinstance(again, type(sent)) and again.text == "hand 2"
    stored = state.message(chat, sent.message_id)
    assert stored.is_edited
    assert [c.text for c in stored.history] == ["hand", "hand"]
    assert [c.reply_markup is None for c in stored.history] == [False, True]
    assert stored.callback_data("b") == "b"


async def test_edit_errors(bot: Bot, raw: RawCall, state: EmulatorState, people: People) -> None:
    chat = people.alice.id
    status, body = await raw("editMessageText", chat_id=chat, message_id=99, text="x")
    assert (status, body["description"]) == (400, "Bad Request: message to edit not found")
    status, body = await raw("editMessageText", chat_id=chat, message_id=1, text="x")
    assert (status, body["description"]) == (400, "Bad Request: message can't be edited")
    status, body = await raw("editMessageText", chat_id=chat, text="x")
    assert (status, body["description"]) == (
        400,
        "Bad Request: message identifier is not specified",
    )
    sent = await bot.send_message(chat, "gone")
    await bot.delete_message(chat, sent.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("x", chat, sent.message_id)
    text = await bot.send_message(chat, "plain")
    status, body = await raw(
        "editMessageCaption", chat_id=chat, message_id=text.message_id, caption="c"
    )
    assert (status, body["description"]) == (
        400,
        "Bad Request: there is no caption in the message to edit",
    )


async def test_delete_rules(
    bot: Bot, raw: RawCall, state: EmulatorState, people: People, clock: ManualClock
) -> None:
    group = people.group.id
    old = await bot.send_message(group, "old board")
    clock.advance(48 * 3600 + 1)
    status, body = await raw("deleteMessage", chat_id=group, message_id=old.message_id)
    assert (status, body["description"]) == (
        400,
        "Bad Request: message can't be deleted for everyone",
    )
    fresh = await bot.send_message(group, "new board")
    assert await bot.delete_message(group, fresh.message_id) is True
    assert state.message(group, fresh.message_id).deleted
    assert fresh.message_id not in [m.message_id for m in state.messages(group)]
    status, body = await raw("deleteMessage", chat_id=group, message_id=fresh.message_id)
    assert (status, body["description"]) == (400, "Bad Request: message to delete not found")

    said = state.send_text(people.bob.id, group, "/join")
    with pytest.raises(BadRequest, match="Message can't be deleted for everyone"):
        await bot.delete_message(group, said.message_id)
    state.make_admin(group, state.bot.id)
    assert await bot.delete_message(group, said.message_id) is True
    private = state.send_text(people.alice.id, people.alice.id, "hi")
    assert await bot.delete_message(people.alice.id, private.message_id) is True


async def test_forum_topics_carry_thread_ids(
    bot: Bot, raw: RawCall, state: EmulatorState, people: People
) -> None:
    forum = state.create_group(
        "Forum", creator=people.alice.id, members=[people.bob.id], supergroup=True, forum=True
    )
    topic = state.create_topic(forum.id, people.alice.id, "Game 1")
    sent = await bot.send_message(forum.id, "lobby", message_thread_id=topic)
    assert sent.message_thread_id == topic
    assert sent.is_topic_message is True
    assert state.message(forum.id, sent.message_id).thread_id == topic
    status, body = await raw("sendMessage", chat_id=forum.id, text="x", message_thread_id=999)
    assert (status, body["description"]) == (400, "Bad Request: message thread not found")
    general = await bot.send_message(forum.id, "general")
    assert general.message_thread_id is None


async def test_replies(bot: Bot, raw: RawCall, state: EmulatorState, people: People) -> None:
    chat = people.alice.id
    asked = state.send_text(people.alice.id, chat, "/status")
    reply = await bot.send_message(
        chat, "your turn", reply_parameters=ReplyParameters(asked.message_id)
    )
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.text == "/status"
    legacy = await raw("sendMessage", chat_id=chat, text="x", reply_to_message_id=asked.message_id)
    assert legacy[1]["result"]["reply_to_message"]["message_id"] == asked.message_id
    status, body = await raw(
        "sendMessage", chat_id=chat, text="x", reply_parameters={"message_id": 404}
    )
    assert (status, body["description"]) == (400, "Bad Request: message to be replied not found")
    lenient = await bot.send_message(
        chat, "x", reply_parameters=ReplyParameters(404, allow_sending_without_reply=True)
    )
    assert lenient.reply_to_message is None


async def test_chat_queries(bot: Bot, state: EmulatorState, people: People) -> None:
    group = people.group.id
    info = await bot.get_chat(group)
    assert (info.title, info.type) == ("Miners", "group")
    assert (await bot.get_chat(people.bob.id)).first_name == "Bob"
    creator = await bot.get_chat_member(group, people.alice.id)
    assert creator.status == ChatMemberStatus.OWNER
    assert (await bot.get_chat_member(group, people.bob.id)).status == ChatMemberStatus.MEMBER
    assert (await bot.get_chat_member(group, people.carol.id)).status == ChatMemberStatus.LEFT
    state.make_admin(group, people.bob.id)
    state.make_admin(group, state.bot.id)
    admins = await bot.get_chat_administrators(group)
    assert [a.user.id for a in admins] == [people.alice.id, people.bob.id, bot.id]
    assert admins[1].status == ChatMemberStatus.ADMINISTRATOR
    with pytest.raises(BadRequest, match="User not found"):
        await bot.get_chat_member(group, 42)
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.get_chat(people.carol.id)


async def test_commands_are_stored_per_scope_and_language(bot: Bot, people: People) -> None:
    commands = [BotCommand("new", "New game"), BotCommand("join", "Join")]
    assert await bot.set_my_commands(commands)
    assert await bot.set_my_commands([BotCommand("new", "새 게임")], language_code="ko")
    scope = BotCommandScopeChat(people.group.id)
    assert await bot.set_my_commands([BotCommand("board", "Board")], scope=scope)
    assert [c.command for c in await bot.get_my_commands()] == ["new", "join"]
    assert [c.description for c in await bot.get_my_commands(language_code="ko")] == ["새 게임"]
    assert [c.command for c in await bot.get_my_commands(scope=scope)] == ["board"]
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await bot.set_my_commands([BotCommand("New-Game", "x")])


async def test_chat_action(bot: Bot, raw: RawCall, people: People) -> None:
    assert await bot.send_chat_action(people.group.id, "upload_photo") is True
    status, body = await raw("sendChatAction", chat_id=people.group.id, action="dancing")
    assert (status, body["description"]) == (400, "Bad Request: wrong parameter action in request")
    status, _ = await raw("sendChatAction", chat_id=people.carol.id, action="typing")
    assert status == 403
