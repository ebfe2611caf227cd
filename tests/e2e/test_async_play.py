"""Async play and Telegram realities, in process (issue 6): turn clocks, /kick, flood control,
a group upgraded to a supergroup, the bot removed, a player who blocked the bot."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from emulator import RateLimits, User
from tests.catalog import texts
from tgbot.buttons import ShowHand
from tgbot.clocks import AUTO_DELAY_SECONDS, MISSES_FOR_AUTO
from tgbot.i18n import Language
from tgbot.service import GameService

from . import driver
from .driver import Driver
from .games import data_of, live_hand, loaded, reach_confirm, start_game, state_of, to_act
from .harness import World, buttons, shown

HOUR = 3600.0
LANG = Language("ko")


def service(world: World) -> GameService:
    """The running bot's service (to run its sweeper as the background task would)."""
    assert world.app is not None
    found: GameService = world.app.bot_data["service"]
    return found


async def sweep(world: World) -> None:
    """One pass of the sweeper (deadlines, owed announcements), then let the bot settle."""
    await service(world).sweep()
    await world.settle()


def group_texts(world: World, chat: int) -> list[str]:
    """What the group was shown, oldest first, deleted messages included."""
    return [shown(m) for m in world.state.messages(chat, include_deleted=True)]


async def three_players(
    world: World, names: tuple[str, ...] = ("Ann", "Bob", "Cy")
) -> tuple[list[User], int, str]:
    """A started game of three (24 hours per turn, the default)."""
    players = [world.user(n) for n in names]
    chat = world.group("Dwarves", players[0], players[1:])
    gid = await start_game(world, players, chat)
    return players, chat, gid


async def test_a_turn_reminds_then_times_out_then_plays_automatically(world: World) -> None:
    """Reminder 2 h before the end, a mention when time is up, the computer's move played for
    the absent player; after two misses it plays for them until they act again."""
    players, chat, gid = await three_players(world)
    first = await to_act(world, gid, players)
    version = (await state_of(world, gid)).version

    world.clock.advance(22 * HOUR + 1)
    await sweep(world)
    reminder = shown(world.last(first.id))
    assert "⏰" in reminder and "Dwarves" in reminder
    assert (await state_of(world, gid)).version == version  # a reminder changes nothing

    world.clock.advance(2 * HOUR)
    await sweep(world)
    state = await state_of(world, gid)
    assert state.version == version + 1
    away = texts(LANG).gettext(
        "{name} did not play in time, so the computer played for them.", name=first.first_name
    )
    assert away in group_texts(world, chat)
    record = await loaded(world, gid)
    assert dict(record.misses)[first.id] == 1
    assert record.owed.is_empty
    # The absent player's live message says what was played for them.
    timed_out = (
        texts(Language("en"))
        .gettext("Time is up: the computer played for you ({what}).", what="")
        .split("(")[0]
    )  # the player's language
    assert timed_out in shown(await live_hand(world, gid, first))

    # Everyone stays away: after MISSES_FOR_AUTO misses the first player becomes automatic.
    for _ in range(3 * MISSES_FOR_AUTO):
        if first.id in (await loaded(world, gid)).automatic:
            break
        world.clock.advance(24 * HOUR + 1)
        await sweep(world)
    record = await loaded(world, gid)
    assert first.id in record.automatic
    assert dict(record.misses)[first.id] == MISSES_FOR_AUTO

    # On the automatic player's turn the game plays after a short pause, without a mention.
    while (await to_act(world, gid, players)) != first:
        world.clock.advance(24 * HOUR + 1)
        await sweep(world)
    before = (await state_of(world, gid)).version
    world.clock.advance(AUTO_DELAY_SECONDS + 1)
    await sweep(world)
    assert (await state_of(world, gid)).version == before + 1

    # Any tap brings the player back; acting again clears the misses.
    while (await to_act(world, gid, players)) != first:
        world.clock.advance(24 * HOUR + 1)
        await sweep(world)
    live = await live_hand(world, gid, first)
    (refresh,) = data_of(live, ShowHand)
    text, _ = await world.press(first, live, refresh)
    assert text == texts(Language("en")).pgettext(
        "toast", "Welcome back: you play your own turns again."
    )
    assert first.id not in (await loaded(world, gid)).automatic
    message, confirm = await reach_confirm(world, gid, first)
    await world.press(first, message, confirm)
    record = await loaded(world, gid)
    assert first.id not in record.automatic and first.id not in dict(record.misses)


async def test_a_stale_deadline_does_nothing(world: World) -> None:
    """A turn that was played before its timeout: the old deadline fires and changes nothing."""
    players, _chat, gid = await three_players(world)
    mover = await to_act(world, gid, players)
    message, confirm = await reach_confirm(world, gid, mover)
    await world.press(mover, message, confirm)
    version = (await state_of(world, gid)).version
    await service(world).handle_deadline(f"{gid}:{version - 1}:timeout")
    assert (await state_of(world, gid)).version == version


async def test_an_admin_kicks_the_awaited_player_and_others_can_vote(world: World) -> None:
    """/kick by a group admin plays for the awaited player at once; players need a majority."""
    players = [world.user(n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    admin = world.user("Mod")
    chat = world.group("Dwarves", admin, players)
    gid = await start_game(world, players, chat)

    awaited = await to_act(world, gid, players)
    voters = [p for p in players if p != awaited]
    version = (await state_of(world, gid)).version
    await world.say(awaited, chat, "/kick")
    assert shown(world.last(chat)) == texts(LANG).gettext("You cannot vote about your own turn.")
    await world.say(voters[0], chat, "/kick")
    assert "/kick" in shown(world.last(chat)) and "18" in shown(world.last(chat)), "too early"
    assert (await state_of(world, gid)).version == version
    world.clock.advance(18 * 3600)  # most of the 24 h per turn: /kick works from now on
    await world.say(voters[0], chat, "/kick")
    assert "1/3" in shown(world.last(chat))
    await world.say(voters[0], chat, "/kick")
    assert shown(world.last(chat)) == texts(LANG).gettext("You have already voted.")
    await world.say(voters[1], chat, "/kick")
    assert "2/3" in shown(world.last(chat))
    assert (await state_of(world, gid)).version == version
    await world.say(voters[2], chat, "/kick")
    assert (await state_of(world, gid)).version == version + 1
    assert awaited.id in (await loaded(world, gid)).automatic

    now_awaited = await to_act(world, gid, players)
    version = (await state_of(world, gid)).version
    world.clock.advance(18 * 3600)  # the admin too waits for most of the turn's time
    await world.say(admin, chat, "/kick")
    assert (await state_of(world, gid)).version == version + 1
    assert now_awaited.id in (await loaded(world, gid)).automatic


@pytest.mark.slow
async def test_moves_faster_than_the_budget_coalesce_board_posts(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thirty moves in thirty seconds: at most 20 group messages a minute, nothing lost, and
    once the minute has passed one board post shows the newest state."""
    monkeypatch.setattr(driver, "SECONDS_PER_TURN", 1.0)
    players, chat, gid = await three_players(world)
    play = Driver(world, players, seed=5)
    moves = 0
    for _ in range(30):
        if await play.turn():
            moves += 1
    sent = world.state.messages(chat, include_deleted=True)
    first = sent[0].date
    assert all(m.date - first < 60 for m in sent)
    assert len([m for m in sent if m.sender_id == world.state.bot.id]) <= 20
    state = await state_of(world, gid)
    assert state.version >= moves  # every move was saved (a round end adds none)
    record = await loaded(world, gid)
    assert record.owed.board_version == state.version  # the newest board is owed, once

    world.clock.advance(61)
    await sweep(world)
    record = await loaded(world, gid)
    assert record.owed.is_empty
    board = world.state.message(chat, record.messages.board)  # type: ignore[arg-type]
    assert board.content.photo is not None and not board.deleted
    boards = [m for m in world.state.messages(chat) if m.content.photo is not None]
    assert boards == [board], "the chat keeps one current board post"


async def test_a_game_follows_its_group_to_the_supergroup(world: World) -> None:
    """Upgrading the group moves the game: later posts go to the new chat."""
    players, chat, gid = await three_players(world)
    new_chat = world.state.migrate_to_supergroup(chat, by=players[0].id).id
    await world.settle()
    assert await world.store.active_game(new_chat, None) == gid
    assert await world.store.active_game(chat, None) is None
    mover = await to_act(world, gid, players)
    message, confirm = await reach_confirm(world, gid, mover)
    await world.press(mover, message, confirm)
    record = await loaded(world, gid)
    assert record.chat_id == new_chat
    assert record.messages.board is not None
    assert world.state.message(new_chat, record.messages.board).content.photo is not None


async def test_removing_the_bot_ends_the_game_cleanly(world: World) -> None:
    """The bot removed from the group: the game is ended and every player is told."""
    players, chat, gid = await three_players(world)
    world.state.remove_bot(chat, by=players[0].id)
    await world.settle()
    record = await loaded(world, gid)
    assert record.status.value == "cancelled"
    assert await world.store.active_game(chat, None) is None
    for p in players:
        assert "Dwarves" in shown(world.last(p.id))


async def test_a_player_who_blocked_the_bot_is_named_in_the_group(world: World) -> None:
    """The game goes on; when it is the blocked player's turn the group is told how to fix it."""
    players, chat, gid = await three_players(world)
    mover = await to_act(world, gid, players)
    state = await state_of(world, gid)
    nxt = state.players[(state.turn + 1) % 3]
    blocked = next(p for p in players if p.id == nxt)
    world.state.block_bot(blocked.id)
    await world.settle()
    message, confirm = await reach_confirm(world, gid, mover)
    await world.press(mover, message, confirm)
    assert (await state_of(world, gid)).version == state.version + 1
    notice = texts(LANG).gettext(
        "{name} has blocked me or never started a private chat with me, so I cannot "
        "send their cards. {name}, open @{bot} and press Start: your cards come at once.",
        name=blocked.first_name,
        bot=world.state.bot.username,
    )
    assert group_texts(world, chat).count(notice) == 1
    assert (await loaded(world, gid)).owed.is_empty
    old = [m.message_id for m in world.bot_messages(blocked.id) if m.content.photo]
    world.state.start_bot(blocked.id)  # Restart: the hand comes at once, the old one goes
    await world.settle()
    hands = [m.message_id for m in world.bot_messages(blocked.id) if m.content.photo]
    assert len(hands) == 1 and hands[0] not in old
    assert (await loaded(world, gid)).messages.hand_of(blocked.id) == hands[0]
    assert (await loaded(world, gid)).unreachable == ()


async def test_an_old_board_post_that_cannot_be_deleted_is_replaced_anyway(world: World) -> None:
    """After 48 hours Telegram refuses to delete a post: the new board is posted regardless."""
    players, _chat, gid = await three_players(world)
    world.clock.advance(49 * HOUR)
    record = await loaded(world, gid)
    old_board = record.messages.board
    mover = await to_act(world, gid, players)
    live = await live_hand(world, gid, mover)
    message, confirm = await reach_confirm(world, gid, mover)
    assert message.message_id == live.message_id
    # The turn clock would fire too; the move comes first here.
    await world.press(mover, message, confirm)
    record = await loaded(world, gid)
    assert record.messages.board != old_board
    assert record.owed.is_empty


async def test_settings_change_the_time_per_turn_of_a_running_game(world: World) -> None:
    """/settings: the creator sets one hour per turn; a player may not; the clock follows."""
    players, chat, gid = await three_players(world)
    await world.say(players[1], chat, "/settings")
    message = world.last(chat)
    one_hour = next(
        d for label, d in buttons(message) if label.endswith(" 1시간") or "1 h" in label
    )
    text, _ = await world.press(players[1], message, one_hour)
    assert text == texts(Language("en")).pgettext(  # a toast: in the tapper's language
        "toast", "Only the game's creator or a group admin can do that."
    )
    assert (await loaded(world, gid)).lobby.turn_limit_hours == 24
    text, _ = await world.press(players[0], message, one_hour)
    assert text == texts(Language("en")).pgettext("toast", "Saved.")
    assert (await loaded(world, gid)).lobby.turn_limit_hours == 1
    version = (await state_of(world, gid)).version
    world.clock.advance(HOUR + 1)
    await sweep(world)
    assert (await state_of(world, gid)).version == version + 1


async def test_a_move_saved_but_not_announced_is_announced_by_the_next_sweep(
    world: World,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process 'dies' between saving a move and sending: nothing is sent, nothing is lost;
    the next sweep (any process) posts the board and the hands exactly once."""
    players, chat, gid = await three_players(world)
    bot = service(world)
    real_deliver = bot.deliver

    async def crashed(gid: str) -> None:
        return None

    monkeypatch.setattr(bot, "deliver", crashed)
    mover = await to_act(world, gid, players)
    boards_before = [m.message_id for m in world.state.messages(chat) if m.content.photo]
    message, confirm = await reach_confirm(world, gid, mover)
    await world.press(mover, message, confirm)
    record = await loaded(world, gid)
    assert not record.owed.is_empty, "the move owes its announcements"
    assert gid in await world.store.owing_games()
    assert [m.message_id for m in world.state.messages(chat) if m.content.photo] == boards_before

    monkeypatch.setattr(bot, "deliver", real_deliver)
    await sweep(world)
    await sweep(world)  # a second sweep has nothing left to send
    record = await loaded(world, gid)
    assert record.owed.is_empty and gid not in await world.store.owing_games()
    boards = [m for m in world.state.messages(chat) if m.content.photo]
    assert [m.message_id for m in boards] == [record.messages.board]
    posted = [m for m in world.state.messages(chat, include_deleted=True) if m.content.photo]
    assert len(posted) == len(boards_before) + 1, "one board post for the move, not two"
    nxt = await to_act(world, gid, players)
    assert (await live_hand(world, gid, nxt)).content.reply_markup is not None


async def test_telegrams_429_is_honoured_and_nothing_is_lost(
    redis_client: Redis, key_prefix: str
) -> None:
    """Telegram is stricter than the bot's budget (here 6 group messages a minute): its 429
    retry_after holds the group's posts; the moves go on; after the wait one board catches up."""
    world = World(redis_client, key_prefix, rate_limits=RateLimits(group_messages=6))
    await world.start()
    try:
        players, chat, gid = await three_players(world)
        play = Driver(world, players, seed=3)
        for _ in range(8):
            assert await play.turn()
        record = await loaded(world, gid)
        state = record.state
        assert state is not None and state.version >= 8
        assert record.owed.board_version == state.version  # owed, not lost
        sent = world.state.messages(chat, include_deleted=True)
        assert len([m for m in sent if m.sender_id == world.state.bot.id]) <= 6

        world.clock.advance(61)
        await sweep(world)
        record = await loaded(world, gid)
        assert record.owed.is_empty
        boards = [m for m in world.state.messages(chat) if m.content.photo is not None]
        assert [m.message_id for m in boards] == [record.messages.board]
    finally:
        await world.stop()
