"""Whole games while Telegram misbehaves: the emulator's fault layer fails a share of the bot's
calls (5xx, resets, timeouts before and after carrying the call out, slow answers, 429 storms).

What a game owes the group is worked out independently of delivery, by replaying the moves the
players confirmed with the engine: every move line, round summary (with its who-did-what), round
replay and scoreboard line must be shown exactly once, every board caption must start with
the status saying whose turn it is (shown above the picture), and the group must end with one
board, its copies from timed-out sends deleted. No game stalls, and no saved move is answered
with "try again".
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections import Counter
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from emulator import Faults, Message, User
from engine import GameState, Phase, apply, from_json, to_json
from tgbot import history_texts, menus
from tgbot.archives import round_end
from tgbot.buttons import ConfirmDiscard, ConfirmGoal, ConfirmSpot, ConfirmTarget, StartGame
from tgbot.callback import decode
from tgbot.i18n import Language, texts
from tgbot.notice_texts import render
from tgbot.outbox import END, Owed
from tgbot.records import GameRecord, Status
from tgbot.service import GameService
from tgbot.usecases.history import game_end_message, round_end_lines
from tgbot.usecases.turns import moved

from .driver import Digger, open_lobby
from .harness import World, buttons
from .procs import was_played

pytestmark = pytest.mark.slow

NAMES = ["Ann", "Bob", "Cho"]
DONE = {texts(Language(code)).pgettext("toast", "Done!") for code in ("en", "ko")}
ERROR_TOASTS = ("Something went wrong", "문제가 생겼")
CONFIRMS = ConfirmSpot | ConfirmTarget | ConfirmGoal | ConfirmDiscard
FAULTY = Faults(
    seed=5,
    share=0.12,
    methods=frozenset(
        {"sendMessage", "sendPhoto", "editMessageMedia", "editMessageText", "deleteMessage"}
    ),
    hang_seconds=0.35,
    slow_seconds=0.1,
    storm_seconds=30,
)


@pytest.fixture
async def faulty(redis_client: Redis, key_prefix: str) -> AsyncIterator[World]:
    """The world with the fault layer on and short Bot API timeouts (a hang costs 0.25 s)."""
    w = World(redis_client, key_prefix, faults=FAULTY, timeout=0.25)
    await w.start()
    try:
        yield w
    finally:
        await w.stop()


async def heal(world: World, *, rounds: int = 400) -> None:
    """Let the deliverer catch up: move the clock to the end of the earliest back-off and sweep,
    until nothing is owed. A game that still owes after this many rounds has stalled."""
    assert world.app is not None
    service: GameService = world.app.bot_data["service"]
    for _ in range(rounds):
        owing = await world.store.owing_games()
        if not owing:
            return
        waits = [
            until
            for gid in owing
            if (record := await world.store.load(gid)) is not None
            for _, until, _ in record.owed.waits
        ]
        earliest = min(waits, default=world.clock())
        if earliest > world.clock():
            world.clock.advance(earliest - world.clock() + 0.01)
        await service.sweep()
        await asyncio.sleep(0)  # the background sweeper may hold the lease: let it finish
    raise AssertionError("delivery stalled")


class HealingDriver(Digger):
    """The seeded players digging for the goals (short rounds), letting delivery catch up
    after each tap and noting every move."""

    moves: list[tuple[int, object]]

    def __post_init__(self) -> None:
        super().__post_init__()
        self.moves = []

    async def tap(self, user: User, message: Message, data: str) -> Message:
        """Tap, heal, and note a confirmed move; the player's live message afterwards.

        A menu step whose screen Telegram failed to draw leaves the screen before it, as a
        player would see: they tap again.
        """
        command = decode(data)
        for _ in range(8):
            self.taps += 1
            before = (message.message_id, len(message.history))
            text, _alert = await self.world.press(user, message, data)
            if text:
                self.toasts.append(text)
            await heal(self.world)
            live = self.world.last(user.id)
            if isinstance(command, CONFIRMS):
                if was_played(text):
                    self.moves.append((user.id, command))
                return live
            if (live.message_id, len(live.history)) != before:
                return live
        raise AssertionError("a menu step never showed")


def expected_lines(
    record: GameRecord, initial: GameState, moves: list[tuple[int, object]]
) -> Counter[str]:
    """Every line the group must be shown for these moves, worked out by the engine and the
    presenter alone (the footer lines, which coalesced boards share, left out)."""
    state = initial
    owed: list[str] = []
    empty = GameRecord(
        game_id=record.game_id,
        chat_id=record.chat_id,
        thread_id=None,
        language=record.language,
        creator_id=record.creator_id,
        created_at=0,
        updated_at=0,
        status=Status.PLAYING,
        lobby=record.lobby,
    )
    for actor, command in moves:
        seat = menus.Seat(record.game_id, state, actor, {}, record.language)
        outcome = menus.respond(seat, command)  # type: ignore[arg-type]
        assert isinstance(outcome, menus.Play), (command, outcome)
        transition = apply(state, actor, outcome.action)
        after = moved(empty, transition, actor, 0, action=outcome.action)
        said = [*after.owed.texts, *after.owed.board_lines]
        owed += [render(m, record, record.language) for m in said]
        for item in after.owed.replays:  # a round's replay (its caption), the game-end message
            if item == END:
                owed.append(game_end_message(record)[0])
            elif item < 0:  # a round's final board: its story as the caption (and what follows)
                end = round_end(after.state, after.moves, -item)
                assert end is not None
                owed.append("\n".join(round_end_lines(after, end)))
            else:
                owed.append(history_texts.round_caption(record.language, item))
        empty = dataclasses.replace(empty, moves=after.moves)  # the round's deeds replay them
        state = transition.state
    return Counter(line for text in owed for line in lines_of(text, record))


def footers(record: GameRecord) -> list[re.Pattern[str]]:
    """The board footer's lines ("Round 1/3 · deck 40", "<mention>, your turn!", "⏰ This turn
    ends <the moment>.") as patterns."""
    tr = texts(record.language)
    template = tr.ngettext(
        "Round {round}/3 · deck {deck}\n{name}, your turn!",
        "Round {round}/3 · deck {deck}\n{name}, your turn!",
        2,
        round="\0",
        deck="\0",
        name="\0",
    )
    deadline = tr.gettext("⏰ This turn ends {time}.", time="\0")
    lines = [*template.split("\n"), deadline]
    return [re.compile(re.escape(t).replace("\x00", ".+") + "$") for t in lines]


def lines_of(text: str, record: GameRecord) -> list[str]:
    """The lines of an HTML text, without blank lines and the board footer's lines."""
    tail = footers(record)
    return [x for x in text.split("\n") if x and not any(f.match(x) for f in tail)]


def raw(message: Message) -> str:
    """The HTML the bot sent."""
    return message.content.raw_text or message.content.raw_caption or ""


@pytest.mark.parametrize("seed", [3])
async def test_a_whole_game_under_faults_shows_everything_once(faulty: World, seed: int) -> None:
    world = faulty
    players = [world.user(n, language_code="en") for n in NAMES]
    chat = world.group("Dwarves", players[0], players[1:])
    await open_lobby(world, players, chat)
    await heal(world)
    gid = await world.store.active_game(chat, None)
    assert gid is not None
    opened = await world.store.load(gid)
    assert opened is not None and opened.messages.lobby is not None
    assert len(opened.lobby.players) == len(players), "every join came through"
    lobby = world.state.message(chat, opened.messages.lobby)
    start = next(d for _, d in buttons(lobby) if isinstance(decode(d), StartGame))
    toast, _ = await world.press(players[0], lobby, start)
    assert toast in DONE
    await heal(world)
    first = await world.store.load(gid)
    assert first is not None and first.state is not None
    initial = from_json(to_json(first.state))

    driver = HealingDriver(world, players, seed)
    await driver.play_to_end(max_turns=400)
    await heal(world)

    record = await world.store.load(gid)
    assert record is not None and record.state is not None
    assert record.state.phase is Phase.OVER, "the game did not stall"
    assert record.owed == Owed(waits=record.owed.waits) or record.owed.is_empty
    assert record.state.version == initial.version + len(driver.moves), "a move lost or doubled"
    assert not [t for t in driver.toasts if t.startswith(ERROR_TOASTS)], "try again on a move"

    log = world.emu.fault_log  # type: ignore[union-attr]
    assert log.count() > 20, "the faults were staged"
    # Sends whose answer never reached the bot: timeouts the emulator staged, and those where
    # the bot's own client gave up first (a loaded machine); each left a copy to delete.
    copies = {
        e.message_id
        for e in log.lost_answers()
        if e.chat_id == chat and e.method in ("sendMessage", "sendPhoto")
    }
    group = world.state.messages(chat, include_deleted=True)
    for m in group:
        if m.message_id in copies:
            lost = [e for e in log.lost_answers() if e.message_id == m.message_id]
            assert m.deleted, ("a copy of a timed-out send was left up", m, lost)
    posts = [
        m
        for m in group
        if m.sender_id == world.state.bot.id
        and m.message_id not in copies
        and m.message_id != record.messages.lobby
    ]
    shown = Counter(line for m in posts for line in lines_of(raw(m), record))
    expected = expected_lines(record, initial, driver.moves)
    assert expected, "the game said something"
    missing = expected - shown
    doubled = shown - expected
    assert not missing and not doubled, (missing, doubled)

    tr = texts(record.language)
    over = [tr.gettext("<b>Round {round} is over!</b>", round=r) for r in (1, 2, 3)]
    over += [o.replace("<b>", "").replace("</b>", "") for o in over]

    def is_final(m: Message) -> bool:  # a round's final board, which stays
        return any(o in raw(m) for o in over)

    boards = [m for m in posts if m.content.photo and not is_final(m)]
    your_turn = footers(record)[1]
    for board in boards:  # every board but the rounds' final ones starts saying whose turn it is
        assert your_turn.match(raw(board).split("\n")[1]), raw(board)
        assert board.content.show_caption_above_media, raw(board)
    bot = world.state.bot.id
    visible = [m for m in world.state.messages(chat) if m.content.photo and m.sender_id == bot]
    assert len(visible) == 3 and all(is_final(m) for m in visible), "the three final boards"
    assert record.messages.board is None
    for p in players:
        hands = [m for m in world.bot_messages(p.id) if m.content.photo]
        assert len(hands) == 1 and hands[0].message_id == record.messages.hand_of(p.id)
