"""Button taps that must change nothing: stale, a stranger's, out of turn, forged, a double tap.

Each is answered with a toast, and the stored game (its Redis hash, byte for byte) is the same
afterwards.
"""

from __future__ import annotations

from emulator import User
from tests.catalog import texts
from tgbot.buttons import (
    CancelGame,
    ConfirmSpot,
    JoinGame,
    LeaveGame,
    PickCard,
    PickSpot,
    SetEdition,
    ShowHand,
    StartGame,
    ToggleVariant,
)
from tgbot.callback import decode, encode
from tgbot.i18n import Language

from .driver import open_lobby
from .games import (
    data_of,
    discard_one,
    game_id_of,
    live_hand,
    loaded,
    reach_confirm,
    start_game,
    state_of,
    to_act,
)
from .harness import World

EN = Language("en")  # the emulator's users run Telegram in English
KO = Language("ko")  # the bot's default language, so the groups'


async def three_players(world: World) -> tuple[list[User], int, str]:
    """Ann, Bob and Cho in a started game in "Dwarves"; (players, chat, game id)."""
    players = [world.user(n) for n in ("Ann", "Bob", "Cho")]
    chat = world.group("Dwarves", players[0], players[1:])
    gid = await start_game(world, players, chat)
    return players, chat, gid


async def test_a_stale_button_answers_the_stale_toast_and_refreshes_the_live_message(
    world: World,
) -> None:
    """A player's Refresh from before the last move: stale toast, nothing stored, hand redrawn."""
    players, _chat, gid = await three_players(world)
    actor = await to_act(world, gid, players)
    version = (await state_of(world, gid)).version
    await discard_one(world, gid, actor)
    # The third player's message was not touched by that move: its Refresh is now stale.
    following = await to_act(world, gid, players)
    (waiting,) = (p for p in players if p not in (actor, following))
    message = await live_hand(world, gid, waiting)
    (refresh,) = data_of(message, ShowHand)
    assert decode(refresh) == ShowHand(gid, version)
    before = await world.snapshot(gid)

    text, _ = await world.press(waiting, message, refresh)

    assert text == texts(EN).pgettext(
        "toast", "This hand is from turn {old}; here is your current hand.", old=version + 1
    )  # turns count from 1
    assert await world.snapshot(gid) == before
    live = await live_hand(world, gid, waiting)
    assert live.message_id == message.message_id, "the live message is edited, not replaced"
    assert data_of(live, ShowHand) == [encode(ShowHand(gid, version + 1))]


async def test_a_tap_out_of_turn_is_refused_and_changes_nothing(world: World) -> None:
    """Card buttons of a player who is not to act, from an old message or forged fresh."""
    players, _chat, gid = await three_players(world)
    actor = await to_act(world, gid, players)
    old_cards = data_of(await live_hand(world, gid, actor), PickCard)
    assert old_cards
    await discard_one(world, gid, actor)
    now = await to_act(world, gid, players)
    name = now.first_name
    before = await world.snapshot(gid)
    live = await live_hand(world, gid, actor)
    assert not data_of(live, PickCard), "no card buttons once the move is made"

    # The card button of the message as it was on the actor's turn.
    text = (await world.forge(actor, actor.id, live.message_id, old_cards[0])).text
    assert text == texts(EN).pgettext("toast", "It is not your turn: {name} is playing.", name=name)
    assert await world.snapshot(gid) == before
    assert (await live_hand(world, gid, actor)).message_id == live.message_id

    # A card button of the current version, from a player who is not to act.
    other = next(p for p in players if p is not now)
    version = (await state_of(world, gid)).version
    message = await live_hand(world, gid, other)
    text = (
        await world.forge(other, other.id, message.message_id, encode(PickCard(gid, version, 0)))
    ).text
    assert text == texts(EN).pgettext("toast", "It is not your turn: {name} is playing.", name=name)
    assert await world.snapshot(gid) == before


async def test_a_strangers_taps_on_the_lobby_and_the_game_change_nothing(world: World) -> None:
    """Zed, in the group but not in the game, taps lobby buttons, then forges a hand button."""
    ann, bob, cho, zed = (world.user(n) for n in ("Ann", "Bob", "Cho", "Zed"))
    chat = world.group("Dwarves", ann, [bob, cho, zed])
    lobby = await open_lobby(world, [ann, bob, cho], chat)
    gid = game_id_of(lobby)
    rev = (await loaded(world, gid)).lobby.revision
    before = await world.snapshot(gid)
    expected = {
        LeaveGame: texts(EN).pgettext("toast", "You are not in this game."),
        StartGame: texts(EN).pgettext("toast", "Only {name} can do that for now.", name="Ann"),
        SetEdition: texts(EN).pgettext("toast", "Only {name} can do that for now.", name="Ann"),
        ToggleVariant: texts(EN).pgettext("toast", "Only {name} can do that for now.", name="Ann"),
        CancelGame: texts(EN).pgettext(
            "toast", "Only the game's creator or a group admin can do that."
        ),
    }
    for kind, toast in expected.items():
        for data in data_of(lobby, kind):
            text, _ = await world.press(zed, lobby, data)
            assert text == toast, kind.__name__
            assert await world.snapshot(gid) == before, kind.__name__
    # Joining is only by the private chat: a (forged) Join tap is answered with the deep link.
    query = await world.forge(zed, chat, lobby.message_id, encode(JoinGame(gid, rev)))
    assert query.url == f"https://t.me/{world.state.bot.username}?start=join-{gid}"
    assert await world.snapshot(gid) == before
    assert world.state.message(chat, lobby.message_id).content == lobby.content

    (start,) = data_of(lobby, StartGame)
    await world.press(ann, lobby, start)
    version = (await state_of(world, gid)).version
    world.state.start_bot(zed.id)
    await world.settle()
    own = world.last(zed.id)
    before = await world.snapshot(gid)
    for command in (ShowHand(gid, version), PickCard(gid, version, 0)):
        query = await world.forge(zed, zed.id, own.message_id, encode(command))
        assert (query.text, query.show_alert) == (
            texts(EN).pgettext("toast", "These buttons are not yours."),
            True,
        )
    # A hand button pressed in the group is the board's "My hand": Zed gets a toast and no
    # hand; Ann gets her own panel (an ephemeral message she alone sees); nothing changes.
    forged = encode(ShowHand(gid, version))
    text = (await world.forge(zed, chat, lobby.message_id, forged)).text
    assert text == texts(EN).pgettext("toast", "Only the players of this game have a hand.")
    assert world.state.ephemeral.messages == {}
    text = (await world.forge(ann, chat, lobby.message_id, forged)).text
    assert not text
    assert [m.receiver_id for m in world.state.ephemeral.messages.values()] == [ann.id]
    assert await world.snapshot(gid) == before


async def test_forged_callbacks_are_answered_and_change_nothing(world: World) -> None:
    """Garbage, another game's id, out-of-range indexes and spots, a version from the future."""
    players, chat, gid = await three_players(world)
    actor = await to_act(world, gid, players)
    state = await state_of(world, gid)
    v = state.version
    hand = len(state.hands[state.turn])
    message = await live_hand(world, gid, actor)
    # Another group's game, which the actor is not in.
    others = [world.user(n) for n in ("Dee", "Eve", "Fay")]
    other_chat = world.group("Elsewhere", others[0], others[1:])
    other_gid = await start_game(world, others, other_chat)
    other_v = (await state_of(world, other_gid)).version

    forged = {
        "": texts(EN).pgettext("toast", "This button is not valid."),
        "hello": texts(EN).pgettext("toast", "This button is not valid."),
        "s1:zz:1": texts(EN).pgettext("toast", "This button is not valid."),
        "s2:gh:" + gid + f":{v}": texts(EN).pgettext("toast", "This button is not valid."),
        f"s1:gc:{gid}:{v}:01": texts(EN).pgettext(
            "toast", "This button is not valid."
        ),  # not canonical
        f"s1:gc:{gid}:{v}": texts(EN).pgettext(
            "toast", "This button is not valid."
        ),  # a field missing
        "x" * 300: texts(EN).pgettext("toast", "This button is not valid."),
        encode(PickCard("ZZZZZZZZZZ", v, 0)): texts(EN).pgettext(
            "toast", "This game no longer exists."
        ),
        encode(PickCard(other_gid, other_v, 0)): texts(EN).pgettext(
            "toast", "These buttons are not yours."
        ),
        encode(JoinGame(other_gid, 1)): texts(EN).pgettext("toast", "These buttons are not yours."),
        encode(PickCard(gid, v, hand)): texts(EN).pgettext("toast", "This button is not valid."),
        encode(PickCard(gid, v, 9)): texts(EN).pgettext("toast", "This button is not valid."),
        encode(PickSpot(gid, v, 0, 999)): texts(EN).pgettext("toast", "This button is not valid."),
        encode(ConfirmSpot(gid, v, 0, 999)): texts(EN).pgettext(
            "toast", "This button is not valid."
        ),
        encode(ShowHand(gid, 2**31 - 1)): texts(EN).pgettext("toast", "This button is not valid."),
        encode(PickCard(gid, v + 1000, 0)): texts(EN).pgettext(
            "toast", "This button is not valid."
        ),
    }
    before = await world.snapshot(gid)
    other_before = await world.snapshot(other_gid)
    for data, toast in forged.items():
        text = (await world.forge(actor, actor.id, message.message_id, data)).text
        assert text == toast, data
        assert await world.snapshot(gid) == before, data
        assert await world.snapshot(other_gid) == other_before, data
    # Lobby commands for this game, pressed under the board in its own group: it has started.
    board = world.last(chat)
    text = (await world.forge(actor, chat, board.message_id, encode(StartGame(gid, 1)))).text
    assert text == texts(EN).pgettext("toast", "The game is already running.")
    assert await world.snapshot(gid) == before
    assert (await live_hand(world, gid, actor)).message_id == message.message_id


async def test_a_double_tap_on_confirm_makes_one_move(world: World) -> None:
    """Both taps reach the bot before either is handled; the second is stale and does nothing."""
    players, chat, gid = await three_players(world)
    actor = await to_act(world, gid, players)
    message, confirm = await reach_confirm(world, gid, actor)
    version = (await state_of(world, gid)).version
    boards = [m for m in world.bot_messages(chat) if m.content.photo]

    first = world.state.press_button(actor.id, actor.id, message.message_id, confirm)
    second = world.state.press_button(actor.id, actor.id, message.message_id, confirm)
    assert world.emu is not None
    one = await world.emu.wait_for_answer(first, timeout=20)
    two = await world.emu.wait_for_answer(second, timeout=20)
    await world.settle()

    assert one.text == texts(EN).pgettext("toast", "Done!")
    following = await to_act(world, gid, players)
    assert two.text == texts(EN).pgettext(
        "toast", "It is not your turn: {name} is playing.", name=following.first_name
    )
    state = await state_of(world, gid)
    assert state.version == version + 1, "one move only"
    after = [m for m in world.bot_messages(chat) if m.content.photo]
    assert len(after) == len(boards) == 1, "one board post"
    assert after[0].message_id != boards[0].message_id
    record = await loaded(world, gid)
    assert record.messages.board == after[0].message_id
