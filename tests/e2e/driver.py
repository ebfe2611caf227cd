"""Play whole games as the players would: only by tapping the buttons the bot sends."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from ai.geometry import after_place, is_dead_end, reach
from emulator import Message, User
from engine import Card, GameState, PlaceTunnel, legal_actions
from engine import board as bd
from tgbot import menus
from tgbot.buttons import (
    ConfirmDiscard,
    ConfirmGoal,
    ConfirmSpot,
    ConfirmTarget,
    PickCard,
    PickGoal,
    PickSpot,
    PickTarget,
    PickTool,
    StartDiscard,
    StealFrom,
    ToggleDiscard,
    TurnCard,
)
from tgbot.callback import decode
from tgbot.i18n import LANGUAGES, texts
from tgbot.menus import BLOCKED
from tgbot.names import card_name

from .harness import World, buttons, url_buttons

CONFIRMS = (ConfirmSpot, ConfirmTarget, ConfirmGoal)
PICKS = (PickSpot, PickTarget, PickTool, PickGoal)
SECONDS_PER_TURN = 4.0  # keeps the group under Telegram's 20 messages a minute


def commands(message: Message) -> list[tuple[object, str]]:
    """(decoded command, raw data) of a message's buttons."""
    return [(decode(data), data) for _, data in buttons(message)]


async def follow_to_confirm(
    rng: random.Random,
    options: Callable[[], list[tuple[object, str]]],
    tap: Callable[[str], Awaitable[None]],
    steps: int,
) -> bool:
    """After a card is picked: Confirm when offered, else a seeded pick (a spot, a target, a
    tool, a goal), at most `steps` times; True once confirmed."""
    for _ in range(steps):
        offered = options()
        confirm = [d for c, d in offered if isinstance(c, CONFIRMS)]
        if confirm:
            await tap(confirm[0])
            return True
        picks = [d for c, d in offered if isinstance(c, PICKS)]
        if not picks:
            return False
        await tap(rng.choice(picks))
    return False


async def play_one_move(
    rng: random.Random,
    options: Callable[[], list[tuple[object, str]]],
    tap: Callable[[str], Awaitable[None]],
) -> None:
    """One move by a hand's buttons (`options`: those shown now): mostly a card, played where
    its menus lead (a spot, a target, a tool, a goal, then Confirm); else a discard."""
    cards = [d for c, d in options() if isinstance(c, PickCard)]
    if cards and rng.random() < 0.7:
        await tap(rng.choice(cards))
        if await follow_to_confirm(rng, options, tap, steps=3):
            return
    # Nothing played: discard a card.
    start = [d for c, d in options() if isinstance(c, StartDiscard)]
    if not start:
        await tap(options()[-1][1])  # back
        start = [d for c, d in options() if isinstance(c, StartDiscard)]
    await tap(start[0])
    toggles = [d for c, d in options() if isinstance(c, ToggleDiscard)]
    await tap(rng.choice(toggles))
    (discard,) = [d for c, d in options() if isinstance(c, ConfirmDiscard)]
    await tap(discard)


# Tunnel cards by how they dig toward the goals as dealt: east first, then the others; dead
# ends and action cards go in discards. By name, in every language (a label: "3. Tunnel ┼").
EAST = (Card.CROSS, Card.T_NES, Card.T_NEW, Card.STRAIGHT_EW, Card.CURVE_NE)
OTHER = (Card.STRAIGHT_NS, Card.CURVE_NW)
DIGGERS = {
    card_name(texts(lang), card): rank
    for rank, cards in enumerate((EAST, OTHER))
    for card in cards
    for lang in LANGUAGES
}
MAPS = {card_name(texts(lang), Card.MAP) for lang in LANGUAGES}
SPOT_CELL = re.compile(r" · ([A-Z])(′?)(\d+)(′?)$")  # "4 · F3"; west of A and north of 1: ′
GOALS = ((12, 1), (12, 3), (12, 5))  # M1, M3, M5: eight columns east of the start, E3


def nearness(label: str) -> int:
    """How near a spot's cell ("4 · F3") lies to the nearest goal (larger is nearer)."""
    found = SPOT_CELL.search(label)
    assert found is not None, label
    letter, west, number, north = found.groups()
    column = -(ord(letter) - ord("A") + 1) if west else ord(letter) - ord("A")
    row = -int(number) + 1 if north else int(number)
    return -min(abs(column - c) + abs(row - r) for c, r in GOALS)


Options = Callable[[], list[tuple[object, str, str]]]


async def dig_for_gold(
    rng: random.Random, options: Options, tap: Callable[[str], Awaitable[None]]
) -> None:
    """One move toward the goals, by the buttons shown (`options`: command, data, label): a
    playable tunnel card (one open to the east first) at its spot nearest a goal, so that a
    round ends at a goal instead of when the deck runs out; now and then a map instead (at a
    goal chosen by `rng`); else a discard of a card chosen by `rng` (dead ends and the other
    action cards go that way)."""
    playable = [
        (label.split(". ", 1)[-1], d)
        for c, d, label in options()
        if isinstance(c, PickCard) and not label.startswith(BLOCKED)  # (🚫: not now)
    ]
    maps = [d for name, d in playable if name in MAPS]
    if maps and rng.random() < 0.5:  # a map now and then: it slows nobody (its result: an alert)
        await tap(maps[0])
        if await follow_to_confirm(rng, lambda: [(c, d) for c, d, _ in options()], tap, steps=2):
            return
        if not any(isinstance(c, StartDiscard) for c, _, _ in options()):
            await tap(options()[-1][1])  # Back to the hand
    for _, data in sorted((DIGGERS[name], d) for name, d in playable if name in DIGGERS):
        await tap(data)
        spots = [(nearness(label), d) for c, d, label in options() if isinstance(c, PickSpot)]
        if spots:
            await tap(max(spots)[1])
        confirm = [d for c, d, _ in options() if isinstance(c, ConfirmSpot)]
        if confirm:
            await tap(confirm[0])
            return
        if not any(isinstance(c, StartDiscard) for c, _, _ in options()):
            await tap(options()[-1][1])  # Back to the hand
    (start,) = [d for c, d, _ in options() if isinstance(c, StartDiscard)]
    await tap(start)
    await tap(rng.choice([d for c, d, _ in options() if isinstance(c, ToggleDiscard)]))
    (discard,) = [d for c, d, _ in options() if isinstance(c, ConfirmDiscard)]
    await tap(discard)


def labelled_buttons(message: Message) -> list[tuple[object, str, str]]:
    """(decoded command, raw data, label) of a message's callback buttons."""
    return [(decode(data), data, label) for label, data in buttons(message)]


@dataclass
class Driver:
    """Drives a started game to its end with seeded random choices (or digging toward the
    goals: `dig`)."""

    world: World
    players: list[User]
    seed: int
    taps: int = 0
    turns: int = 0
    toasts: list[str] = field(default_factory=list)
    dig: bool = False  # each move by `dig_for_gold` (rounds end at a goal), not `play_one_move`

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def to_act(self) -> tuple[User, Message] | None:
        """The player whose live hand message offers cards to play (None once nobody can)."""
        found = []
        for p in self.players:
            msgs = self.world.bot_messages(p.id)
            offers = (PickCard, StartDiscard, StealFrom)  # a thief chooses at a round's end
            if msgs and any(isinstance(c, offers) for c, _ in commands(msgs[-1])):
                found.append((p, msgs[-1]))
        assert len(found) <= 1, "only one player may be offered a move"
        return found[0] if found else None

    async def tap(self, user: User, message: Message, data: str) -> Message:
        """Tap a button; return the player's live message afterwards."""
        self.taps += 1
        text, _alert = await self.world.press(user, message, data)
        if text:
            self.toasts.append(text)
        return self.world.last(user.id)

    async def turn(self) -> bool:
        """Play one turn; False when no player is offered a move."""
        found = self.to_act()
        if found is None:
            return False
        user, message = found
        self.turns += 1
        self.world.clock.advance(SECONDS_PER_TURN)
        steals = [d for c, d in commands(message) if isinstance(c, StealFrom)]
        if steals:
            await self.tap(user, message, self.rng.choice(steals))
            return True
        live = [message]

        async def tap(data: str) -> None:
            live[0] = await self.tap(user, live[0], data)

        if self.dig:
            await dig_for_gold(self.rng, lambda: labelled_buttons(live[0]), tap)
        else:
            await play_one_move(self.rng, lambda: commands(live[0]), tap)
        return True

    async def play_to_end(self, max_turns: int = 1000) -> None:
        """Turns until nobody is offered a move."""
        while await self.turn():
            assert self.turns <= max_turns, "the game did not end"


def digging_move(state: GameState, player: int, rng: random.Random) -> PlaceTunnel | None:
    """The tunnel that brings the maze nearest the hidden goals (ties drawn), if one does."""
    hidden = [g.at for g in state.goals if not g.revealed]
    if not hidden:
        return None
    now = reach(state.net, hidden)
    scored: list[tuple[tuple[int, int], PlaceTunnel]] = []
    for action in legal_actions(state, player):
        if isinstance(action, PlaceTunnel) and not is_dead_end(action.card):
            code = bd.code(action.card, action.rotated)
            after = after_place(now, state.maze, state.net, action.at, code)
            if after is not None:
                scored.append(((min(after), sum(after)), action))
    best = min((d for d, _ in scored), default=None)
    if best is None or best >= (min(now.best), sum(now.best)):
        return None
    return rng.choice([a for d, a in scored if d == best])


@dataclass
class Digger(Driver):
    """A driver whose players all dig for the goals, so that a round ends in a few turns.

    Every move is still made by tapping the buttons the bot sent (card, turn, spot, Confirm);
    only the choice among them is read from the stored game: the tunnel that brings the maze
    nearest a hidden goal; with none, a discard, or one time in seven `Driver`'s seeded random move
    (tools, maps, rockfalls). Rounds end at a goal in tens of turns, not with an empty deck.
    """

    async def turn(self) -> bool:
        """Play one turn, digging if the player can; False when no player is offered a move."""
        found = self.to_act()
        if found is None:
            return False
        user, message = found
        games = [c.game for c, _ in commands(message) if isinstance(c, PickCard)]
        record = await self.world.store.load(games[0]) if games else None
        state = None if record is None else record.state
        move = None if state is None else digging_move(state, user.id, self.rng)
        if state is None or move is None:
            discard = [d for c, d in commands(message) if isinstance(c, StartDiscard)]
            if not discard or self.rng.random() < 0.15:
                return await super().turn()  # now and then a card of any kind, as drawn
            return await self.discard(user, message, discard[0])
        self.turns += 1
        self.world.clock.advance(SECONDS_PER_TURN)
        index = state.hands[state.seat_of(user.id)].index(move.card)
        spot = menus.card_options(state, user.id, move.card).index(move) + 1
        live = message

        def button(kind: type, **fields: object) -> str | None:
            return next(
                (
                    d
                    for c, d in commands(live)
                    if isinstance(c, kind) and all(getattr(c, k) == v for k, v in fields.items())
                ),
                None,
            )

        card = button(PickCard, card=index)
        assert card is not None, f"no button for card {index}"
        live = await self.tap(user, live, card)
        for _ in range(3):  # the spots (turned, if the move is), then Confirm
            confirm = button(ConfirmSpot, card=index, spot=spot)
            if confirm is not None:
                await self.tap(user, live, confirm)
                return True
            step = button(PickSpot, card=index, spot=spot) or button(TurnCard, card=index)
            assert step is not None, f"no way to {move} through the menus"
            live = await self.tap(user, live, step)
        raise AssertionError(f"no Confirm for {move}")

    async def discard(self, user: User, message: Message, start: str) -> bool:
        """Discard a card drawn at random (the move that leaves the others digging)."""
        self.turns += 1
        self.world.clock.advance(SECONDS_PER_TURN)
        live = await self.tap(user, message, start)
        toggles = [d for c, d in commands(live) if isinstance(c, ToggleDiscard)]
        live = await self.tap(user, live, self.rng.choice(toggles))
        (confirm,) = [d for c, d in commands(live) if isinstance(c, ConfirmDiscard)]
        await self.tap(user, live, confirm)
        return True


async def open_lobby(world: World, players: list[User], chat: int) -> Message:
    """The first player opens a lobby and everyone joins through the deep link."""
    await world.say(players[0], chat, "/new")
    lobby = world.last(chat)
    ((_, url),) = url_buttons(lobby)
    for p in players:
        await world.open(p, url)
    return world.state.message(chat, lobby.message_id)
