"""Simulated users: deep links, commands, privacy mode, button presses, membership changes."""

from __future__ import annotations

import pytest
from telegram import Bot, Update
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, ChatMigrated, Forbidden

from emulator import EmulatorState, ManualClock, SimulationError
from tests.emulator.support import People, RawCall, keyboard


async def fresh_updates(bot: Bot) -> list[Update]:
    """Everything queued since the last call, confirmed so the next call starts after it."""
    updates = await bot.get_updates(timeout=0)
    if updates:
        await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    return list(updates)


async def test_deep_link_sends_start_with_the_payload(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    await fresh_updates(bot)
    state.open_link(people.carol.id, "https://t.me/saboteur_emu_bot?start=join_g42")
    (update,) = await fresh_updates(bot)
    assert update.message is not None
    assert update.message.text == "/start join_g42"
    assert update.message.chat.type == "private"
    entity = update.message.entities[0]
    assert (entity.type, entity.offset, entity.length) == ("bot_command", 0, 6)
    assert (await bot.send_message(people.carol.id, "joined")).chat.id == people.carol.id
    state.open_link(people.carol.id, "tg://resolve?domain=saboteur_emu_bot&start=again")
    assert state.last_message(people.carol.id) is not None
    assert state.messages(people.carol.id)[-1].text == "/start again"


@pytest.mark.parametrize(
    "url",
    [
        "https://t.me/some_other_bot?start=x",
        "https://example.com/saboteur_emu_bot?start=x",
        "https://t.me/saboteur_emu_bot?start=has%20space",
        f"https://t.me/saboteur_emu_bot?start={'x' * 65}",
    ],
)
def test_links_a_client_would_not_turn_into_a_start(
    state: EmulatorState, people: People, url: str
) -> None:
    with pytest.raises(SimulationError):
        state.open_link(people.carol.id, url)
    assert people.carol.id not in state.chats


async def test_privacy_mode_lets_only_commands_and_replies_through(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    group, bob = people.group.id, people.bob.id
    board = await bot.send_message(group, "board")
    await fresh_updates(bot)
    for text in ("/new", "/new@saboteur_emu_bot", "/new@other_bot", "hello"):
        state.send_text(bob, group, text)
    state.send_text(bob, group, "nice move", reply_to=board.message_id)
    seen = [u.message.text for u in await fresh_updates(bot) if u.message]
    assert seen == ["/new", "/new@saboteur_emu_bot", "nice move"]
    assert [m.text for m in state.messages(group)][-5:] == [
        "/new",
        "/new@saboteur_emu_bot",
        "/new@other_bot",
        "hello",
        "nice move",
    ]
    state.make_admin(group, state.bot.id)
    await fresh_updates(bot)
    state.send_text(bob, group, "hello again")
    assert [u.message.text for u in await fresh_updates(bot) if u.message] == ["hello again"]


async def test_command_addressed_to_the_bot_is_parsed_by_ptb(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    await fresh_updates(bot)
    state.send_text(people.bob.id, people.group.id, "/new@saboteur_emu_bot deluxe")
    (update,) = await fresh_updates(bot)
    assert update.message is not None
    assert update.message.parse_entities(["bot_command"]).popitem()[1] == "/new@saboteur_emu_bot"


def test_users_only_write_where_they_can(state: EmulatorState, people: People) -> None:
    with pytest.raises(SimulationError, match="not a member"):
        state.send_text(people.carol.id, people.group.id, "hi")
    with pytest.raises(SimulationError, match="start"):
        state.send_text(people.carol.id, people.carol.id, "hi")
    state.block_bot(people.bob.id)
    with pytest.raises(SimulationError, match="start"):
        state.send_text(people.bob.id, people.bob.id, "hi")


async def test_button_press_reaches_the_bot_and_records_the_answer(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    lobby = await bot.send_message(people.group.id, "lobby", reply_markup=keyboard("join", "go"))
    await fresh_updates(bot)
    query_id = state.press_button(people.bob.id, people.group.id, lobby.message_id, "join")
    (update,) = await fresh_updates(bot)
    query = update.callback_query
    assert query is not None
    assert (query.id, query.data, query.from_user.id) == (query_id, "join", people.bob.id)
    assert query.message is not None and query.message.message_id == lobby.message_id
    assert not state.callback_query(query_id).answered
    assert await query.answer("Joined!", show_alert=True)
    answer = state.callback_query(query_id)
    assert (answer.answered, answer.text, answer.show_alert) == (True, "Joined!", True)
    second = state.press_button(people.bob.id, people.group.id, lobby.message_id, "join")
    assert second != query_id


async def test_buttons_that_cannot_be_pressed(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    group, bob = people.group.id, people.bob.id
    lobby = await bot.send_message(group, "lobby", reply_markup=keyboard("join"))
    with pytest.raises(SimulationError, match="no button"):
        state.press_button(bob, group, lobby.message_id, "start")
    with pytest.raises(SimulationError, match="not a member"):
        state.press_button(people.carol.id, group, lobby.message_id, "join")
    hand = await bot.send_message(people.alice.id, "hand", reply_markup=keyboard("card"))
    with pytest.raises(SimulationError, match="someone else's"):
        state.press_button(bob, people.alice.id, hand.message_id, "card")
    said = state.send_text(bob, group, "/join")
    with pytest.raises(SimulationError, match="no button"):
        state.press_button(bob, group, said.message_id, "join")
    with pytest.raises(SimulationError, match="does not exist"):
        state.press_button(bob, group, 999, "join")
    await bot.delete_message(group, lobby.message_id)
    with pytest.raises(SimulationError, match="does not exist"):
        state.press_button(bob, group, lobby.message_id, "join")
    edited = await bot.send_message(group, "lobby", reply_markup=keyboard("join"))
    await bot.edit_message_reply_markup(group, edited.message_id, reply_markup=keyboard("ready"))
    with pytest.raises(SimulationError, match="no button"):
        state.press_button(bob, group, edited.message_id, "join")
    state.remove_bot(group, by=people.alice.id)
    with pytest.raises(SimulationError, match="no longer"):
        state.press_button(bob, group, edited.message_id, "ready")
    assert state.callback_queries == {}


async def test_a_query_is_answered_once_within_fifteen_seconds(
    bot: Bot, raw: RawCall, state: EmulatorState, people: People, clock: ManualClock
) -> None:
    hand = await bot.send_message(people.alice.id, "hand", reply_markup=keyboard("c1"))
    press = state.press_button(people.alice.id, people.alice.id, hand.message_id, "c1")
    expired = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    status, body = await raw("answerCallbackQuery", callback_query_id=press, text="x" * 201)
    assert (status, body["description"]) == (400, "Bad Request: MESSAGE_TOO_LONG")
    status, body = await raw("answerCallbackQuery", callback_query_id=press, url="https://x.org")
    assert (status, body["description"]) == (400, "Bad Request: URL_INVALID")
    assert await bot.answer_callback_query(press, text="x" * 200)
    status, body = await raw("answerCallbackQuery", callback_query_id=press)
    assert (status, body["description"]) == (400, expired)

    late = state.press_button(people.alice.id, people.alice.id, hand.message_id, "c1")
    clock.advance(15.5)
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(late)
    status, body = await raw("answerCallbackQuery", callback_query_id="123")
    assert (status, body["description"]) == (400, expired)

    link = state.press_button(people.alice.id, people.alice.id, hand.message_id, "c1")
    url = "https://t.me/saboteur_emu_bot?start=join_g1"
    assert await bot.answer_callback_query(link, url=url)
    assert state.callback_query(link).url == url


async def test_migration_to_a_supergroup(
    bot: Bot, raw: RawCall, state: EmulatorState, people: People
) -> None:
    old = people.group.id
    await fresh_updates(bot)
    new = state.migrate_to_supergroup(old, by=people.alice.id)
    updates = await fresh_updates(bot)
    services = [
        (u.message.chat.id, u.message.migrate_to_chat_id, u.message.migrate_from_chat_id)
        for u in updates
        if u.message
    ]
    assert services == [(old, new.id, None), (new.id, None, old)]
    status, body = await raw("sendMessage", chat_id=old, text="board")
    assert (status, body) == (
        400,
        {
            "ok": False,
            "error_code": 400,
            "description": "Bad Request: group chat was upgraded to a supergroup chat",
            "parameters": {"migrate_to_chat_id": new.id},
        },
    )
    with pytest.raises(ChatMigrated) as migrated:
        await bot.send_message(old, "board")
    assert migrated.value.new_chat_id == new.id
    sent = await bot.send_message(new.id, "board")
    assert (sent.chat.type, sent.message_id) == ("supergroup", 2)
    assert str(new.id).startswith("-100")
    assert state.chat(new.id).members == {people.alice.id, people.bob.id}


@pytest.mark.parametrize(
    ("supergroup", "status", "chat_type"),
    [(False, ChatMemberStatus.LEFT, "group"), (True, ChatMemberStatus.BANNED, "supergroup")],
)
async def test_bot_removed_from_a_group(
    bot: Bot,
    raw: RawCall,
    state: EmulatorState,
    people: People,
    supergroup: bool,
    status: str,
    chat_type: str,
) -> None:
    group = state.create_group("G", creator=people.alice.id, supergroup=supergroup)
    await fresh_updates(bot)
    state.remove_bot(group.id, by=people.alice.id)
    (update,) = await fresh_updates(bot)
    assert update.my_chat_member is not None
    assert update.my_chat_member.old_chat_member.status == ChatMemberStatus.MEMBER
    assert update.my_chat_member.new_chat_member.status == status
    assert update.my_chat_member.from_user.id == people.alice.id
    code, body = await raw("sendMessage", chat_id=group.id, text="still here?")
    assert (code, body["description"]) == (
        403,
        f"Forbidden: bot was kicked from the {chat_type} chat",
    )
    with pytest.raises(Forbidden):
        await bot.send_message(group.id, "x")
    state.add_bot(group.id, by=people.alice.id)
    assert (await bot.send_message(group.id, "back")).text == "back"


async def test_blocking_and_restarting_are_reported(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    await fresh_updates(bot)
    state.block_bot(people.bob.id)
    state.start_bot(people.bob.id, "rejoin")
    blocked, unblocked, start = await fresh_updates(bot)
    assert blocked.my_chat_member is not None and unblocked.my_chat_member is not None
    assert blocked.my_chat_member.new_chat_member.status == ChatMemberStatus.BANNED
    assert unblocked.my_chat_member.new_chat_member.status == ChatMemberStatus.MEMBER
    assert start.message is not None and start.message.text == "/start rejoin"


async def test_membership_service_messages(bot: Bot, state: EmulatorState, people: People) -> None:
    dana = state.create_user("Dana")
    await fresh_updates(bot)
    group = state.create_group("New", creator=people.alice.id)
    added, created = await fresh_updates(bot)
    assert added.my_chat_member is not None
    assert added.my_chat_member.new_chat_member.status == ChatMemberStatus.MEMBER
    assert created.message is not None and created.message.group_chat_created
    state.add_member(group.id, dana.id)
    state.remove_member(group.id, dana.id)
    joined, left = await fresh_updates(bot)
    assert joined.message is not None and [u.id for u in joined.message.new_chat_members] == [
        dana.id
    ]
    assert left.message is not None and left.message.left_chat_member is not None
    await bot.get_updates(timeout=0, allowed_updates=["message", "chat_member"])
    state.add_member(group.id, dana.id)
    member_update, _ = await fresh_updates(bot)
    assert member_update.chat_member is not None
    assert member_update.chat_member.new_chat_member.user.id == dana.id


async def test_topic_messages_from_users(bot: Bot, state: EmulatorState, people: People) -> None:
    forum = state.create_group(
        "Forum", creator=people.alice.id, supergroup=True, forum=True, bot_admin=True
    )
    topic = state.create_topic(forum.id, people.alice.id, "Game")
    await fresh_updates(bot)
    state.send_text(people.alice.id, forum.id, "/new", thread_id=topic)
    (update,) = await fresh_updates(bot)
    assert update.message is not None
    assert (update.message.message_thread_id, update.message.is_topic_message) == (topic, True)
    assert update.message.reply_to_message is not None
    assert update.message.reply_to_message.forum_topic_created is not None
    with pytest.raises(SimulationError, match="no topic"):
        state.send_text(people.alice.id, forum.id, "x", thread_id=12345)
