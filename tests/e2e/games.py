"""Helpers for the end-to-end tests that start games and poke at them: ids, live messages, moves."""

from __future__ import annotations

from emulator import Message, User
from engine import GameState
from tgbot.buttons import (
    Command,
    ConfirmDiscard,
    ConfirmGoal,
    ConfirmSpot,
    ConfirmTarget,
    LeaveGame,
    PickCard,
    PickGoal,
    PickSpot,
    PickTarget,
    PickTool,
    StartDiscard,
    StartGame,
    ToggleDiscard,
)
from tgbot.callback import decode
from tgbot.records import GameRecord

from .driver import open_lobby
from .harness import World, buttons


def game_id_of(lobby: Message) -> str:
    """The game id carried by a lobby's buttons."""
    for _, data in buttons(lobby):
        command = decode(data)
        if isinstance(command, LeaveGame):
            return command.game
    raise AssertionError("no lobby button")


def data_of(message: Message, kind: type[Command] | tuple[type[Command], ...]) -> list[str]:
    """The callback data of a message's buttons whose command is of this kind."""
    return [d for _, d in buttons(message) if isinstance(decode(d), kind)]


async def start_game(world: World, players: list[User], chat: int) -> str:
    """Open a lobby, let everyone join by the deep link, start as the creator; the game id."""
    lobby = await open_lobby(world, players, chat)
    gid = game_id_of(lobby)
    (start,) = data_of(lobby, StartGame)
    await world.press(players[0], lobby, start)
    record = await world.store.load(gid)
    assert record is not None and record.state is not None, "the game started"
    return gid


async def loaded(world: World, gid: str) -> GameRecord:
    """The stored record of a game (that must exist)."""
    record = await world.store.load(gid)
    assert record is not None, gid
    return record


async def state_of(world: World, gid: str) -> GameState:
    """The stored engine state of a started game."""
    record = await loaded(world, gid)
    assert record.state is not None
    return record.state


async def live_hand(world: World, gid: str, user: User) -> Message:
    """The player's live private message of this game (the one the record points to)."""
    record = await loaded(world, gid)
    message_id = record.messages.hand_of(user.id)
    assert message_id is not None, f"{user.first_name} has no live message"
    message = world.state.message(user.id, message_id)
    assert not message.deleted
    return message


async def to_act(world: World, gid: str, players: list[User]) -> User:
    """The player the engine waits for."""
    state = await state_of(world, gid)
    current = state.players[state.turn]
    return next(p for p in players if p.id == current)


async def reach_confirm(world: World, gid: str, user: User) -> tuple[Message, str]:
    """Tap through the player's live message to a Confirm button; (message, its data).

    Tries the cards in order (a tunnel spot, a target, a goal); falls back to a discard.
    """
    message = await live_hand(world, gid, user)
    for card in data_of(message, PickCard):
        await world.press(user, message, card)
        message = await live_hand(world, gid, user)
        for _ in range(2):
            confirm = data_of(message, (ConfirmSpot, ConfirmTarget, ConfirmGoal))
            if confirm:
                return message, confirm[0]
            picks = data_of(message, (PickSpot, PickTarget, PickTool, PickGoal))
            if not picks:
                break
            await world.press(user, message, picks[0])
            message = await live_hand(world, gid, user)
        back = buttons(message)[-1][1]
        await world.press(user, message, back)
        message = await live_hand(world, gid, user)
    return await reach_discard_confirm(world, gid, user)


async def reach_discard_confirm(world: World, gid: str, user: User) -> tuple[Message, str]:
    """Tap Discard and the first card; (message, the data of its confirm button)."""
    message = await live_hand(world, gid, user)
    (start,) = data_of(message, StartDiscard)
    await world.press(user, message, start)
    message = await live_hand(world, gid, user)
    await world.press(user, message, data_of(message, ToggleDiscard)[0])
    message = await live_hand(world, gid, user)
    (confirm,) = data_of(message, ConfirmDiscard)
    return message, confirm


async def discard_one(world: World, gid: str, user: User) -> None:
    """The player to act discards their first card (a move that is always legal)."""
    message, confirm = await reach_discard_confirm(world, gid, user)
    text, _ = await world.press(user, message, confirm)
    assert text, "a move is answered"
