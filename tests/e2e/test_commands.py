"""Group and private commands end to end: /board, /status, /help, /rules, /lang, /cancel, /new,
the lobby's Start (creator, grace period, too few players), its switches, and forum topics."""

from __future__ import annotations

import html
import re

from emulator import Message, User
from engine import Edition, Role
from tests.catalog import texts
from tgbot import guide, lobby_texts
from tgbot.buttons import (
    CancelGame,
    PickCard,
    SetEdition,
    SetLanguage,
    StartGame,
    ToggleVariant,
    Variant,
)
from tgbot.callback import encode
from tgbot.i18n import LANGUAGES, Language
from tgbot.menus import SELECTED
from tgbot.names import card_name, edition_name, role_name
from tgbot.records import Status
from tgbot.service import START_GRACE_SECONDS

from .driver import open_lobby
from .games import data_of, discard_one, game_id_of, live_hand, loaded, start_game, state_of
from .games import to_act as player_to_act
from .harness import World, buttons, shown, url_buttons

EN = Language("en")  # the emulator's users run Telegram in English
KO = Language("ko")  # the bot's default language, so the groups'


def plain(text: str) -> str:
    """A catalog text as the user sees it (HTML tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


async def reply(world: World, user: User, chat: int, text: str, **kwargs: object) -> Message:
    """The bot's newest message after a user sends a command."""
    before = world.state.version
    await world.say(user, chat, text, **kwargs)
    message = world.last(chat)
    assert world.state.version > before
    return message


def group_of(world: World, names: tuple[str, ...]) -> tuple[list[User], int]:
    """Users with these names in a group named "Dwarves" opened by the first."""
    users = [world.user(n) for n in names]
    return users, world.group("Dwarves", users[0], users[1:])


# ------------------------------------------------------------------ /board and /status


async def test_board_reposts_the_board_and_deletes_the_previous_post(world: World) -> None:
    """The chat keeps one current board post."""
    players, chat = group_of(world, ("Ann", "Bob", "Cho"))
    gid = await start_game(world, players, chat)
    old = world.last(chat)
    assert old.content.photo is not None

    await world.say(players[1], chat, "/board")

    new = world.last(chat)
    assert new.content.photo is not None and new.message_id > old.message_id
    assert world.state.message(chat, old.message_id).deleted
    assert [m.message_id for m in world.bot_messages(chat) if m.content.photo] == [new.message_id]
    assert (await loaded(world, gid)).messages.board == new.message_id


async def test_status_says_whose_turn_without_leaking_roles_or_hands(world: World) -> None:
    """/status names the player awaited and nothing private."""
    players, chat = group_of(world, ("Ann", "Bob", "Cho"))
    gid = await start_game(world, players, chat)
    state = await state_of(world, gid)
    current = await player_to_act(world, gid, players)

    text = shown(await reply(world, players[2], chat, "/status"))

    assert (
        plain(
            texts(KO).gettext(
                "Round {round}/3. {name} is playing.", round=1, name=current.first_name
            )
        )
        in text
    )
    secrets = {role_name(texts(lang), r) for lang in LANGUAGES for r in Role}
    secrets |= {
        card_name(texts(lang), c) for lang in LANGUAGES for hand in state.hands for c in hand
    }
    assert not any(s in text for s in secrets), text
    assert re.search(r"\d+ ?(gold|금)", text) is None


# ------------------------------------------------------------------ /help, /rules, /lang


async def test_help_and_rules_answer_in_the_chats_language(world: World) -> None:
    """The group gets Korean (the bot's default), a user's private chat their app's English."""
    (ann, _bob), chat = group_of(world, ("Ann", "Bob"))
    assert shown(await reply(world, ann, chat, "/help")) == plain(guide.help_text(KO))
    await world.say(ann, chat, "/rules")
    base, deluxe = world.bot_messages(chat)[-2:]
    assert (shown(base), shown(deluxe)) == (
        plain(guide.rules_texts(KO)[0]),
        plain(guide.rules_texts(KO)[1]),
    )

    world.state.start_bot(ann.id)
    await world.settle()
    assert shown(await reply(world, ann, ann.id, "/help")) == plain(guide.help_text(EN))
    await world.say(ann, ann.id, "/rules")
    base, deluxe = world.bot_messages(ann.id)[-2:]
    assert (shown(base), shown(deluxe)) == (
        plain(guide.rules_texts(EN)[0]),
        plain(guide.rules_texts(EN)[1]),
    )


async def test_lang_in_a_group_switches_the_group_and_its_running_game(world: World) -> None:
    """/lang, English: later group texts, the running game's board included, are in English."""
    players, chat = group_of(world, ("Ann", "Bob", "Cho"))
    gid = await start_game(world, players, chat)
    chooser = await reply(world, players[1], chat, "/lang")
    assert shown(chooser) == plain(texts(KO).gettext("Choose a language:"))
    (english,) = [d for label, d in buttons(chooser) if d == encode(SetLanguage(EN))]

    text, _ = await world.press(players[1], chooser, english)

    assert text == texts(EN).pgettext(
        "toast", "Language: {language}", language=texts(EN).native_name
    )
    assert await world.store.group_language(chat) == EN
    assert shown(await reply(world, players[0], chat, "/help")) == plain(guide.help_text(EN))
    current = await player_to_act(world, gid, players)
    status = shown(await reply(world, players[0], chat, "/status"))
    assert (
        plain(
            texts(EN).gettext(
                "Round {round}/3. {name} is playing.", round=1, name=current.first_name
            )
        )
        in status
    )
    await discard_one(world, gid, current)
    board = world.last(chat)
    assert board.content.photo is not None
    assert plain(
        texts(EN).ngettext(
            "{name} discarded {count} card",
            "{name} discarded {count} cards",
            1,
            name=current.first_name,
            count=1,
        )
    ) in shown(board)
    # Private chats keep each player's own language.
    assert "Your role" in shown(await live_hand(world, gid, players[0]))


async def test_lang_in_private_switches_the_users_texts(world: World) -> None:
    """/lang in private, Korean: the user's replies and live hand turn Korean, not the group's."""
    players, chat = group_of(world, ("Ann", "Bob", "Cho"))
    gid = await start_game(world, players, chat)
    ann = players[0]
    chooser = await reply(world, ann, ann.id, "/lang")
    assert shown(chooser) == plain(texts(EN).gettext("Choose a language:"))

    text, _ = await world.press(ann, chooser, encode(SetLanguage(KO)))

    assert text == texts(KO).pgettext(
        "toast", "Language: {language}", language=texts(KO).native_name
    )
    assert shown(await reply(world, ann, ann.id, "/help")) == plain(guide.help_text(KO))
    hand = await live_hand(world, gid, ann)
    assert "직업" in shown(hand) and "Your role" not in shown(hand)
    assert shown(await reply(world, ann, chat, "/help")) == plain(guide.help_text(KO))
    assert "Your role" in shown(await live_hand(world, gid, players[1]))


# ------------------------------------------------------------------ /cancel and /new


async def test_cancel_is_for_the_creator_or_an_admin_and_frees_the_chat(world: World) -> None:
    """Bob may not cancel Ann's lobby; Ann may; Cho may cancel Bob's once made an admin."""
    (ann, bob, cho), chat = group_of(world, ("Ann", "Bob", "Cho"))
    lobby = await open_lobby(world, [ann, bob, cho], chat)
    gid = game_id_of(lobby)
    before = await world.snapshot(gid)

    assert shown(await reply(world, bob, chat, "/cancel")) == texts(KO).pgettext(
        "toast", "Only the game's creator or a group admin can do that."
    )
    assert await world.snapshot(gid) == before
    assert await world.store.active_game(chat, None) == gid

    await world.say(ann, chat, "/cancel")
    assert (await loaded(world, gid)).status is Status.CANCELLED
    assert await world.store.active_game(chat, None) is None
    assert shown(world.state.message(chat, lobby.message_id)) == plain(
        texts(KO).gettext("The game was cancelled.")
    )
    assert not buttons(world.state.message(chat, lobby.message_id))

    second = await reply(world, bob, chat, "/new")
    assert data_of(second, StartGame), "a new lobby"
    gid2 = game_id_of(second)
    assert gid2 != gid and await world.store.active_game(chat, None) == gid2
    text, _ = await world.press(cho, second, data_of(second, CancelGame)[0])
    assert text == texts(EN).pgettext(  # a toast: in the tapper's language
        "toast", "Only the game's creator or a group admin can do that."
    )
    world.state.make_admin(chat, cho.id)
    await world.say(cho, chat, "/cancel")
    assert (await loaded(world, gid2)).status is Status.CANCELLED
    assert await world.store.active_game(chat, None) is None
    assert shown(world.state.message(chat, second.message_id)) == plain(
        texts(KO).gettext("The game was cancelled.")
    )


async def test_cancel_during_play_removes_the_hands_buttons(world: World) -> None:
    """A cancelled game says so in the group and in private; its old buttons do nothing."""
    players, chat = group_of(world, ("Ann", "Bob", "Cho"))
    gid = await start_game(world, players, chat)
    actor = await player_to_act(world, gid, players)
    hand = await live_hand(world, gid, actor)
    card = data_of(hand, PickCard)[0]

    question = await reply(world, players[0], chat, "/cancel")
    assert shown(question) == texts(KO).gettext(
        "{name}, cancel this game for everyone? Nobody wins, and the gold so far is shown.",
        name="Ann",
    )
    assert await world.store.active_game(chat, None) == gid, "nothing happens before Yes"
    (yes,) = data_of(question, CancelGame)
    text, _ = await world.press(players[0], question, yes)
    assert text == texts(EN).gettext("The game was cancelled.")
    said = shown(world.last(chat))
    assert said.startswith(
        texts(KO).gettext("🛑 {name} cancelled the game. Nobody wins.", name="Ann")
    )

    assert await world.store.active_game(chat, None) is None
    before = await world.snapshot(gid)
    for p in players:
        live = await live_hand(world, gid, p)
        assert not buttons(live), p.first_name
        assert texts(EN).gettext("🛑 {name} cancelled the game.", name="Ann") in shown(live)
        assert plain(texts(EN).gettext("<b>Your turn!</b>")) not in shown(live)
    text = (await world.forge(actor, actor.id, hand.message_id, card)).text
    assert text == texts(EN).pgettext("toast", "This game was cancelled.")
    assert await world.snapshot(gid) == before
    assert data_of(await reply(world, players[1], chat, "/new"), StartGame)


async def test_new_while_a_game_is_active_says_one_is_running(world: World) -> None:
    """/new in a chat with a lobby or a game in play changes nothing."""
    players, chat = group_of(world, ("Ann", "Bob", "Cho"))
    lobby = await open_lobby(world, players, chat)
    gid = game_id_of(lobby)
    reposted = await reply(world, players[1], chat, "/new")  # the lobby, at the bottom again
    said = world.bot_messages(chat)[-2]
    assert shown(said) == texts(KO).gettext("A game is being set up here: its lobby is below.")
    assert game_id_of(reposted) == gid and data_of(reposted, StartGame)
    assert (await loaded(world, gid)).messages.lobby == reposted.message_id
    assert await world.store.active_game(chat, None) == gid
    lobby = reposted
    await world.press(players[0], lobby, data_of(lobby, StartGame)[0])
    before = await world.snapshot(gid)
    assert shown(await reply(world, players[2], chat, "/new")) == texts(KO).gettext(
        "A game is already running here. /status shows whose turn it is."
    )
    assert await world.snapshot(gid) == before
    assert await world.store.active_game(chat, None) == gid


# ------------------------------------------------------------------ the lobby's Start and switches


async def test_start_is_the_creators_until_the_grace_period_ends(world: World) -> None:
    """Bob's Start (button or /start) is refused at first, and starts the game once time is up."""
    (ann, bob, cho, zed), chat = group_of(world, ("Ann", "Bob", "Cho", "Zed"))
    lobby = await open_lobby(world, [ann, bob, cho], chat)
    gid = game_id_of(lobby)
    (start,) = data_of(lobby, StartGame)
    before = await world.snapshot(gid)

    text, _ = await world.press(bob, lobby, start)
    assert text == texts(EN).pgettext("toast", "Only {name} can do that for now.", name="Ann")
    assert shown(await reply(world, bob, chat, "/start")) == texts(KO).pgettext(
        "toast", "Only {name} can do that for now.", name="Ann"
    )
    assert await world.snapshot(gid) == before

    world.clock.advance(START_GRACE_SECONDS)
    text, _ = await world.press(zed, lobby, start)
    assert text == texts(EN).pgettext("toast", "You are not in this game."), (
        "only players may start"
    )
    assert await world.snapshot(gid) == before
    text, _ = await world.press(bob, lobby, start)
    assert text == texts(EN).pgettext("toast", "Done!")
    record = await loaded(world, gid)
    assert record.status is Status.PLAYING and record.state is not None
    assert record.state.players == tuple(p.id for p in (ann, bob, cho))


async def test_a_creator_who_does_not_play_is_named_and_keeps_the_lobby(world: World) -> None:
    """Ann opens a lobby for Bob, Cho and Dee without joining: it names her, only she starts."""
    (ann, bob, cho, dee), chat = group_of(world, ("Ann", "Bob", "Cho", "Dee"))
    await world.say(ann, chat, "/new")
    lobby = world.last(chat)
    assert plain(texts(KO).gettext("Opened by {name}", name="Ann")) in shown(lobby)
    ((_, url),) = url_buttons(lobby)
    for p in (bob, cho, dee):
        await world.open(p, url)
    lobby = world.state.message(chat, lobby.message_id)
    gid = game_id_of(lobby)
    (start,) = data_of(lobby, StartGame)
    text, _ = await world.press(bob, lobby, start)
    assert text == texts(EN).pgettext("toast", "Only {name} can do that for now.", name="Ann")
    text, _ = await world.press(ann, lobby, start)
    assert text == texts(EN).pgettext("toast", "Done!")
    state = await state_of(world, gid)
    assert state.players == (bob.id, cho.id, dee.id)


async def test_start_with_too_few_players_says_why(world: World) -> None:
    """Two players cannot start the base game."""
    (ann, bob), chat = group_of(world, ("Ann", "Bob"))
    lobby = await open_lobby(world, [ann, bob], chat)
    gid = game_id_of(lobby)
    before = await world.snapshot(gid)
    why = texts(KO).npgettext(
        "toast",
        "{edition} needs at least {min} player.",
        "{edition} needs at least {min} players.",
        3,
        edition=edition_name(texts(KO), Edition.BASE),
        min=3,
    )

    text, alert = await world.press(ann, lobby, data_of(lobby, StartGame)[0])

    toast = texts(EN).npgettext(
        "toast",
        "{edition} needs at least {min} player.",
        "{edition} needs at least {min} players.",
        3,
        edition=edition_name(texts(EN), Edition.BASE),
        min=3,
    )
    assert (text, alert) == (toast, True), "a toast: in the tapper's language"
    assert shown(await reply(world, ann, chat, "/start")) == why, "a reply: the group's"
    assert await world.snapshot(gid) == before


async def test_edition_and_variant_switches_change_the_lobby(world: World) -> None:
    """Deluxe and both variants, shown in the lobby and stored; Deluxe then starts with two."""
    (ann, bob), chat = group_of(world, ("Ann", "Bob"))
    lobby = await open_lobby(world, [ann, bob], chat)
    gid = game_id_of(lobby)
    deluxe = encode(SetEdition(gid, (await loaded(world, gid)).lobby.revision, Edition.DELUXE))

    text, _ = await world.press(ann, lobby, deluxe)

    assert text == texts(EN).pgettext("toast", "Saved.")
    lobby = world.state.message(chat, lobby.message_id)
    assert plain(
        texts(KO).gettext(
            "⛏ <b>{edition}</b>: new game", edition=edition_name(texts(KO), Edition.DELUXE)
        )
    ) in shown(lobby)
    marked = SELECTED + " " + edition_name(texts(KO), Edition.DELUXE)
    assert marked in [label for label, _ in buttons(lobby)]
    assert (await loaded(world, gid)).lobby.edition is Edition.DELUXE
    # The old keyboard is out of date now.
    stale = (await world.forge(ann, chat, lobby.message_id, deluxe)).text
    assert stale == texts(EN).pgettext(
        "toast", "That button was out of date; the lobby has been updated."
    )

    for variant in (Variant.GOLD_PER_MINER, Variant.GREEDY_DWARF):
        rev = (await loaded(world, gid)).lobby.revision
        data = encode(ToggleVariant(gid, rev, variant))
        text, _ = await world.press(ann, lobby, data)
        assert text == texts(EN).pgettext("toast", "Saved.")
        lobby = world.state.message(chat, lobby.message_id)
        assert texts(KO).marked(lobby_texts.VARIANTS[variant]) in shown(lobby)
    options = (await loaded(world, gid)).lobby.options
    assert options.gold.value == "per_miner" and options.greedy_dwarf

    text, _ = await world.press(ann, lobby, data_of(lobby, StartGame)[0])
    assert text == texts(EN).pgettext("toast", "Done!")
    state = await state_of(world, gid)
    assert state.edition is Edition.DELUXE and len(state.players) == 2


# ------------------------------------------------------------------ forum topics


async def test_games_in_forum_topics_stay_in_their_topics(world: World) -> None:
    """A game lives in the topic where /new was sent; another topic runs its own game."""
    ann, bob, cho, dee = (world.user(n) for n in ("Ann", "Bob", "Cho", "Dee"))
    chat = world.state.create_group(
        "Forum", creator=ann.id, members=[bob.id, cho.id, dee.id], supergroup=True, forum=True
    ).id
    one = world.state.create_topic(chat, ann.id, "Table one")
    two = world.state.create_topic(chat, bob.id, "Table two")

    first_players = [ann, bob, cho]
    await world.say(ann, chat, "/new", thread_id=one)
    lobby = world.last(chat)
    assert lobby.thread_id == one
    first = await start_game_from(world, lobby, first_players)
    assert await world.store.active_game(chat, one) == first
    assert await world.store.active_game(chat, None) is None
    await discard_one(world, first, await player_to_act(world, first, first_players))
    assert (await reply(world, cho, chat, "/status", thread_id=one)).thread_id == one
    assert (await reply(world, cho, chat, "/board", thread_id=one)).thread_id == one
    busy = await reply(world, bob, chat, "/new", thread_id=one)
    assert (shown(busy), busy.thread_id) == (
        texts(KO).gettext("A game is already running here. /status shows whose turn it is."),
        one,
    )

    second_players = [bob, cho, dee]
    await world.say(bob, chat, "/new", thread_id=two)
    lobby = world.last(chat)
    assert lobby.thread_id == two and data_of(lobby, StartGame), "a second lobby, in topic two"
    second = await start_game_from(world, lobby, second_players)
    assert second != first
    assert await world.store.active_game(chat, two) == second
    assert await world.store.active_game(chat, one) == first
    await discard_one(world, second, await player_to_act(world, second, second_players))

    first_record, second_record = await loaded(world, first), await loaded(world, second)
    assert first_record.status is second_record.status is Status.PLAYING
    own = {one: first_record.messages, two: second_record.messages}
    for m in world.bot_messages(chat):
        assert m.thread_id in (one, two), shown(m)
    for thread, ids in own.items():
        assert ids.lobby is not None and ids.board is not None
        assert world.state.message(chat, ids.lobby).thread_id == thread
        assert world.state.message(chat, ids.board).thread_id == thread
    # Cho plays at both tables: each hand names its topic.
    assert "Table one" in shown(await live_hand(world, first, cho))
    assert "Table two" in shown(await live_hand(world, second, cho))


async def start_game_from(world: World, lobby: Message, players: list[User]) -> str:
    """Everyone joins a posted lobby by its deep link and the first player starts; the game id."""
    ((_, url),) = url_buttons(lobby)
    for p in players:
        await world.open(p, url)
    lobby = world.state.message(lobby.chat_id, lobby.message_id)
    gid = game_id_of(lobby)
    text, _ = await world.press(players[0], lobby, data_of(lobby, StartGame)[0])
    assert text == texts(EN).pgettext("toast", "Done!")
    return gid
