"""Computer players end to end: the real bot, the emulator and Redis; people act by taps only."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from emulator import User
from engine import Edition, Phase, Role
from tests.catalog import texts
from tgbot.buttons import AddComputer, SetComputers, SetEdition, StartGame
from tgbot.callback import decode
from tgbot.i18n import Language
from tgbot.names import role_name
from tgbot.records import Status
from tgbot.service import GameService

from .driver import SECONDS_PER_TURN, Driver, open_lobby
from .games import game_id_of, loaded
from .harness import World, buttons, shown

KO = texts(Language("ko"))


def service(world: World) -> GameService:
    """The running bot's service."""
    assert world.app is not None
    found: GameService = world.app.bot_data["service"]
    return found


def spy_on_sends(world: World) -> list[int]:
    """Every chat id the bot sends to, edits in or deletes from, from now on."""
    sender = service(world).sender
    seen: list[int] = []
    for name in (
        "group_text",
        "group_photo",
        "private_text",
        "private_photo",
        "edit_photo",
        "edit_text",
        "delete",
    ):
        real: Callable[..., Awaitable[Any]] = getattr(sender, name)

        def spy(*args: Any, _real: Callable[..., Awaitable[Any]] = real, **kw: Any) -> Any:
            seen.append(args[0])
            return _real(*args, **kw)

        setattr(sender, name, spy)
    return seen


async def computers_move(world: World, gid: str) -> int:
    """Sweep (as the background sweeper would) while the game waits for a computer player."""
    for made in range(60):
        record = await loaded(world, gid)
        state = record.state
        if not record.status.is_active or state is None or state.phase is Phase.OVER:
            return made
        if state.players[state.turn] > 0:
            return made
        world.clock.advance(SECONDS_PER_TURN)  # a computer's pause, as a person's turn takes
        await service(world).sweep()
        await world.settle()
    raise AssertionError("the computer players did not stop")


async def delivered(world: World, gid: str) -> None:
    """Sweep until the game owes nothing (a group's spent budget refills as time passes)."""
    for _ in range(20):
        if (await loaded(world, gid)).owed.is_empty:
            return
        world.clock.advance(60)
        await service(world).sweep()
        await world.settle()
    raise AssertionError("the game still owes announcements")


async def press_kind(world: World, user: User, chat: int, kind: type, **fields: object) -> None:
    """Tap the button of this kind (with these fields) on the bot's newest message in a chat."""
    message = world.last(chat)
    for _, data in buttons(message):
        command = decode(data)
        if isinstance(command, kind) and all(getattr(command, k) == v for k, v in fields.items()):
            await world.press(user, message, data)
            return
    raise AssertionError(f"no {kind.__name__} button on {shown(message)!r}")


@pytest.mark.slow
async def test_two_people_and_two_computers_play_a_whole_game(world: World) -> None:
    """The creator adds two computer players; the game runs to its end; no computer is ever
    sent anything, and no role is named in the group before its round ends."""
    people = [world.user("Ann"), world.user("조민")]
    chat = world.group("Dwarves", people[0], people[1:])
    lobby = await open_lobby(world, people, chat)
    gid = game_id_of(lobby)
    sends = spy_on_sends(world)
    for _ in range(2):
        await press_kind(world, people[0], chat, AddComputer)
    lobby = world.last(chat)
    assert "🤖 보린" in shown(lobby) and "🤖 다그나" in shown(lobby)
    await press_kind(world, people[0], chat, StartGame)
    record = await loaded(world, gid)
    assert record.state is not None and sorted(record.state.players)[:2] == [-2, -1]

    driver = Driver(world, people, seed=5, dig=True)
    for _ in range(400):
        await computers_move(world, gid)
        if not await driver.turn():
            record = await loaded(world, gid)
            if not record.status.is_active:
                break
    await delivered(world, gid)
    record = await loaded(world, gid)
    assert record.status is Status.FINISHED and record.state is not None
    assert len(record.state.results) == 3
    assert set(sends) <= {chat, *(p.id for p in people)}
    assert await world.store.active_game(chat, None) is None
    final = shown(world.last(chat))
    assert "🤖 보린" in final and "🤖 다그나" in final

    roles = {role_name(KO, r) for r in (Role.MINER, Role.SABOTEUR)}
    over = [KO.gettext("<b>Round {round} is over!</b>", round=r) for r in (1, 2, 3)]
    over = [o.replace("<b>", "").replace("</b>", "") for o in over]
    for message in world.state.messages(chat, include_deleted=True):
        text = shown(message)
        if any(o in text for o in over) or "🏆" in text:
            continue
        assert not any(r in text for r in roles), text


async def test_practice_in_private_with_the_board_and_the_hand_in_one_chat(world: World) -> None:
    """/practice: the set-up in private, Deluxe against two computers, the board posts and the
    hand in the same chat (one of each at a time), then /cancel ends it."""
    ann = world.user("Ann", language_code="ko")
    world.state.start_bot(ann.id)
    await world.settle()
    sends = spy_on_sends(world)
    await world.say(ann, ann.id, "/practice")
    record = await world.record(ann.id)
    assert record is not None and record.is_practice
    gid = record.game_id
    assert "🤖 보린" in shown(world.last(ann.id))
    await press_kind(world, ann, ann.id, SetEdition, edition=Edition.DELUXE)
    await press_kind(world, ann, ann.id, SetComputers, count=2)
    await press_kind(world, ann, ann.id, StartGame)
    record = await loaded(world, gid)
    assert record.status is Status.PLAYING and record.state is not None
    assert len(record.state.players) == 3

    driver = Driver(world, [ann], seed=3)
    for _ in range(4):
        await computers_move(world, gid)
        assert await driver.turn()
        await computers_move(world, gid)
        record = await loaded(world, gid)
        live = {m.message_id for m in world.bot_messages(ann.id) if m.content.photo}
        assert live == {record.messages.board, record.messages.hand_of(ann.id)}
    assert set(sends) == {ann.id}

    await world.say(ann, ann.id, "/cancel")
    record = await loaded(world, gid)
    assert record.status is Status.CANCELLED
    cancelled = KO.gettext("🛑 {name} cancelled the game.", name="Ann")
    assert sum(cancelled in shown(m) for m in world.bot_messages(ann.id)) == 1
    assert await world.store.active_game(ann.id, None) is None
