"""Many games' moves at once over a Redis pool far smaller than the calls in flight: each call
waits for a connection, no tap is told the bot is busy, every move is made and shown (with 50
games redis-py's pool of 100 ran out: confirms were answered "busy" and their moves not made)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from tests.catalog import texts
from tgbot.buttons import ConfirmDiscard, StartDiscard, ToggleDiscard
from tgbot.i18n import Language

from .games import data_of, live_hand, reach_discard_confirm, start_game, state_of, to_act
from .harness import World, world_over

GAMES = 4


@pytest.fixture
async def small_pool_world(
    redis_url: str, key_prefix: str, server_client: Redis
) -> AsyncIterator[World]:
    """The bot over a client of two connections (`server_client` deletes the keys after)."""
    async with world_over(redis_url, key_prefix, 5.0, connections=2) as world:
        yield world


async def test_moves_of_many_games_at_once_wait_for_the_pool_and_all_go_through(
    small_pool_world: World,
) -> None:
    world = small_pool_world
    games = []
    for g in range(GAMES):
        players = [world.user(f"P{g}{i}") for i in range(3)]
        chat = world.group(f"Group {g}", players[0], players[1:])
        games.append((await start_game(world, players, chat), players))
    confirms = []
    for gid, players in games:
        mover = await to_act(world, gid, players)
        message, confirm = await reach_discard_confirm(world, gid, mover)
        version = (await state_of(world, gid)).version
        confirms.append((gid, mover, message, confirm, version))

    assert world.emu is not None
    taps = [
        world.state.press_button(mover.id, message.chat_id, message.message_id, confirm)
        for _, mover, message, confirm, _ in confirms
    ]  # every confirm at once: dozens of Redis calls in flight over two connections
    answers = await asyncio.gather(*(world.emu.wait_for_answer(q, timeout=30) for q in taps))
    await world.settle(timeout=60)

    done = {texts(Language(code)).pgettext("toast", "Done!") for code in ("en", "ko")}
    assert all(a.text in done for a in answers), [a.text for a in answers]
    discard = (StartDiscard, ToggleDiscard, ConfirmDiscard)
    for gid, mover, _, _, version in confirms:
        assert (await state_of(world, gid)).version == version + 1
        assert not data_of(await live_hand(world, gid, mover), discard), "the move is shown"
