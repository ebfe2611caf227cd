"""Playing from the group's ephemeral panels, as the players would: the board's "My hand", then
only the buttons of the panel the bot shows them (the emulator's ephemeral messages)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from emulator import User
from emulator.ephemeral import EphemeralMessage, press, visible
from tgbot.buttons import (
    PickCard,
    ShowHand,
    StartDiscard,
)
from tgbot.callback import decode

from .driver import SECONDS_PER_TURN, dig_for_gold
from .harness import World, buttons


def panel_commands(panel: EphemeralMessage) -> list[tuple[object, str]]:
    """(decoded command, raw data) of a panel's callback buttons (disabled ones have none)."""
    return [
        (decode(b["callback_data"]), b["callback_data"])
        for b in panel.buttons
        if "callback_data" in b
    ]


def my_hand(world: World, chat: int) -> tuple[int, str]:
    """The live board post's id and its "My hand" button's data."""
    for message in reversed(world.bot_messages(chat)):
        for _, data in buttons(message):
            if isinstance(decode(data), ShowHand):
                return message.message_id, data
    raise AssertionError("no board post with a My hand button")


async def open_panel(
    world: World, user: User, chat: int, *, settle: bool = True
) -> tuple[str | None, str | None]:
    """The user taps the board's "My hand"; the answer's text and URL (`settle`: then wait
    until nothing changes any more, not only until the tap's handler is done)."""
    post, data = my_hand(world, chat)
    text, _alert = await world.press(user, world.state.message(chat, post), data)
    query = world.state.callback_queries[max(world.state.callback_queries, key=int)]
    if settle:
        await world.settle()
    return text, query.url


def labelled(panel: EphemeralMessage) -> list[tuple[object, str, str]]:
    """(decoded command, raw data, label) of a panel's callback buttons."""
    return [
        (decode(b["callback_data"]), b["callback_data"], b["text"])
        for b in panel.buttons
        if "callback_data" in b
    ]


def panel_of(world: World, user: User, chat: int) -> EphemeralMessage | None:
    """The newest panel the user sees in the group."""
    seen = visible(world.state, chat, user.id)
    return seen[-1] if seen else None


async def tap_panel(
    world: World, user: User, panel: EphemeralMessage, data: str, *, settle: bool = True
) -> tuple[str | None, bool]:
    """The user taps a button of their panel; the bot's answer (toast text, alert). The
    panel is redrawn once the tap's handler is done; `settle`: then wait until nothing
    changes any more."""
    assert world.emu is not None and world.app is not None
    query_id = press(world.state, user.id, panel.chat_id, panel.ephemeral_message_id, data)
    query = await world.emu.wait_for_answer(query_id, timeout=20)
    await world.handled()
    if settle:
        await world.settle()
    return query.text, query.show_alert


@dataclass
class PanelDriver:
    """Drives a started game to its end from the panels alone, digging toward the goals
    (`dig_for_gold`; the discards' cards chosen by the seed)."""

    world: World
    players: list[User]
    chat: int
    seed: int
    turns: int = 0
    taps: int = 0
    toasts: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def to_act(self) -> User | None:
        """The player offered a move (read from the private hands, never tapped there)."""
        for p in self.players:
            msgs = self.world.bot_messages(p.id)
            options = [decode(d) for _, d in buttons(msgs[-1])] if msgs else []
            if any(isinstance(c, PickCard | StartDiscard) for c in options):
                return p
        return None

    async def tap(self, user: User, panel: EphemeralMessage, data: str) -> None:
        self.taps += 1
        text, _ = await tap_panel(self.world, user, panel, data, settle=False)
        if text:
            self.toasts.append(text)

    async def turn(self) -> bool:
        """One turn from a fresh panel; False when nobody is offered a move."""
        user = self.to_act()
        if user is None:
            return False
        self.turns += 1
        self.world.clock.advance(SECONDS_PER_TURN)
        text, _ = await open_panel(self.world, user, self.chat, settle=False)
        assert not text, text
        panel = panel_of(self.world, user, self.chat)
        assert panel is not None

        async def tap(data: str) -> None:
            await self.tap(user, panel, data)

        await dig_for_gold(self.rng, lambda: labelled(panel), tap)
        await self.world.settle()  # once a turn: the taps within it wait for their handler
        return True

    async def play_to_end(self, max_turns: int = 1000) -> None:
        """Turns until nobody is offered a move."""
        while await self.turn():
            assert self.turns <= max_turns, "the game did not end"
