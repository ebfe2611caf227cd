"""A webhook bot answers a move's POST before the move's delivery ends (`tgbot.detached`), and
a stop in the middle of that delivery leaves what it had not sent owed."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from emulator import Faults
from emulator.faults import TIMEOUT_BEFORE

from .games import loaded, reach_discard_confirm, start_game, to_act
from .harness import World

HANG = 120.0  # how long the board's post hangs: past the test, never waited for


@pytest.mark.slow  # about 20 s on its own
async def test_a_moves_post_is_answered_while_its_board_is_still_being_sent(
    redis_client: Redis, key_prefix: str
) -> None:
    world = World(redis_client, key_prefix, faults=Faults(hang_seconds=HANG), timeout=HANG)
    await world.start()
    emu = world.emu
    assert emu is not None
    try:
        players = [world.user(name) for name in ("Ann", "Bob", "Cat")]
        for p in players:
            world.state.start_bot(p.id)
        chat = world.group("Mine", players[0], players[1:])
        gid = await start_game(world, players, chat)
        user = await to_act(world, gid, players)
        hand, confirm = await reach_discard_confirm(world, gid, user)
        boards = len([m for m in world.bot_messages(chat) if m.content.photo])
        emu.force_fault(TIMEOUT_BEFORE, method="sendPhoto", chat_id=chat)
        query = world.state.press_button(user.id, user.id, hand.message_id, confirm)
        answer = await emu.wait_for_answer(query, timeout=20)
        assert answer.text == "Done!"
        # The board's post hangs in the emulator, and the tap's update was confirmed (its POST
        # answered 200) all the same: inline, the POST would stay open as long as the post.
        await emu.wait_for(
            lambda: not emu.forced_faults and not world.state.pending_updates, timeout=20
        )
        assert world.service.detacher.running == 1, "the move's delivery still runs"
        record = await loaded(world, gid)
        assert record.state is not None and record.owed.board_version == record.state.version
        assert len([m for m in world.bot_messages(chat) if m.content.photo]) == boards
    finally:
        await world.stop()  # cancels the delivery in the middle of the board's post
    record = await loaded(world, gid)
    assert record.state is not None
    assert record.owed.board_version == record.state.version, "the board stays owed"
