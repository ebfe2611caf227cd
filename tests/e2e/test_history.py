"""A whole game through the real bot, emulator and Redis: a replay per round, /history, /stats."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.catalog import texts
from tgbot.buttons import Rematch, ReplayRound, StartGame
from tgbot.callback import decode
from tgbot.i18n import Language

from .driver import Driver, open_lobby
from .harness import World, buttons, shown

NAMES = ["Ann", "Bob", "조민"]
# Deals whose rounds the players, digging toward the goals, end at a goal in 74 turns in all
# (the first world's deals: 118; random play runs each round's deck out: 201).
DEALS = 5


@pytest.mark.slow
@pytest.mark.parametrize("world_seed", [DEALS])
async def test_a_finished_game_has_replays_a_history_and_statistics(world: World) -> None:
    players = [world.user(n) for n in NAMES]
    chat = world.group("Dwarves", players[0], players[1:])
    lobby = await open_lobby(world, players, chat)
    start = next(d for _, d in buttons(lobby) if isinstance(decode(d), StartGame))
    await world.press(players[0], lobby, start)
    await Driver(world, players, 11, dig=True).play_to_end()
    ko = texts(Language("ko"))

    # One animated replay per round, each right after that round's story, each a GIF ≤ 1 MB.
    group = world.bot_messages(chat)
    replays = [m for m in group if m.content.animation is not None]
    assert len(replays) == 3
    for number, message in enumerate(replays, start=1):
        assert shown(message) == ko.gettext("🎬 Round {round}, move by move", round=number)
        gif = world.state.animation_bytes(chat, message.message_id)
        assert gif[:6] == b"GIF89a" and len(gif) <= 1024 * 1024
        with Image.open(io.BytesIO(gif)) as image:
            assert getattr(image, "n_frames", 1) > 1
        before = group[group.index(message) - 1]
        story = ko.gettext("<b>Round {round} is over!</b>", round=number)
        assert _plain(story) in shown(before)
    final = world.last(chat)
    assert _plain(ko.gettext("🏆 <b>Game over!</b>")) in shown(final), "the game-end message"
    assert [decode(d).__class__ for _, d in buttons(final)] == [Rematch]

    # /history lists the game with a button that replays its first round.
    world.clock.advance(61)  # past the group's flood window the game's end filled
    await world.say(players[1], chat, "/history")
    listing = world.last(chat)
    assert shown(listing).startswith("이 방의 최근 게임")
    assert "1. " in shown(listing) and "사보타지" in shown(listing)
    ((label, data),) = buttons(listing)
    command = decode(data)
    assert isinstance(command, ReplayRound) and command.round == 1
    await world.press(players[2], listing, data)
    posted = world.last(chat)
    assert posted.content.animation is not None and "1/3" in shown(posted)
    assert posted.content.animation.file.data == world.state.animation_bytes(
        chat, replays[0].message_id
    ), "the same round drawn again from the archive"

    # /stats in the group names every player; in private a player sees their own figures.
    world.clock.advance(61)
    await world.say(players[0], chat, "/stats")
    stats = shown(world.last(chat))
    assert stats.startswith("이 방의 통계")
    for name in NAMES:
        assert f"{name}: 1게임" in stats, stats
    await world.say(players[2], players[2].id, "/stats")
    mine = shown(world.last(players[2].id))
    # (in the user's own language: their app says English)
    assert mine.startswith("Your statistics") and "Dwarves: 1 game" in mine
    assert label.startswith("🎬 1.")


def _plain(html: str) -> str:
    """A catalog text as the user sees it (bold tags removed)."""
    return html.replace("<b>", "").replace("</b>", "")
