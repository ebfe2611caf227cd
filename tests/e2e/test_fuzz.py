"""Thousands of random and forged taps and commands against games in progress change nothing.

Random users (players of the game, players of another game, strangers) send, in the game's
group, in other groups and in private chats: callback data that is random text, mutated data
from the bot's own keyboards (other game ids, versions, indexes, ops), well-formed commands
with random fields, empty or oversized data, taps without a message or with an inaccessible
one; and commands, known and unknown, with junk arguments and `@` suffixes. Whatever a player
could do on purpose to change a game (their own Confirm at the current version, the creator's
/cancel, /kick votes) is left out. Then: no error logged, every tap answered once, and the
stored games' states and statuses are what they were; the game still plays afterwards.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from ai import Level
from emulator import Message, User
from emulator.errors import SimulationError
from emulator.limits import RateLimiter, RateLimits
from emulator.model import CallbackQuery
from engine import Edition, Tool, to_json
from tests.catalog import texts
from tgbot.buttons import (
    CancelGame,
    ClearFront,
    Command,
    ConfirmDiscard,
    ConfirmGoal,
    ConfirmSpot,
    ConfirmTarget,
    ShowHand,
    Variant,
)
from tgbot.callback import COMMAND_TYPES, decode, encode
from tgbot.game_ids import GAME_ID_ALPHABET
from tgbot.i18n import LANGUAGES, Language
from tgbot.service import GameService

from .games import discard_one, live_hand, loaded, start_game, to_act
from .harness import World

TOTAL = 5200  # updates sent (callbacks and messages)
BATCH = 260
MOVES = (ConfirmSpot, ConfirmTarget, ConfirmGoal, ConfirmDiscard, ClearFront)
KNOWN: tuple[str, ...] = ("new", "join", "leave", "start", "board", "status", "kick", "cancel")
KNOWN += ("rules", "help", "lang", "settings", "practice")
UNKNOWN = ("foo", "Start", "BOARD", "nEw", "startgame", "new_game", "x" * 40, "🃏", "play")
OPS: tuple[str, ...] = ("lj", "ll", "ls", "lx", "le", "lv", "lt", "gh", "gc", "gp", "gt", "gg")
OPS += ("go", "cp", "ct", "cg", "gb", "gd", "dk", "dc", "df", "la", "no", "zz", "GC", "s1", "")
OPS += ("lc", "lr", "ln")
ALPHABETS = (
    string.printable,
    "s1:0123456789gcphtdblxevoaknz",
    "가나다라마바사아자차카타파하😀🃏⛏\u202e\u200b\x00\n\t\\\"'<>&",
    string.ascii_letters + string.digits,
)


class Captured(logging.Handler):
    """Keeps the warnings and errors of the bot's and PTB's loggers."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep records of the bot and of python-telegram-bot."""
        if record.name.startswith(("tgbot", "telegram", "aiohttp")):
            self.records.append(record)

    def errors(self) -> list[str]:
        """Error records, with their exception."""
        return [
            f"{r.name}: {r.getMessage()} {r.exc_info[1]!r}" if r.exc_info else r.getMessage()
            for r in self.records
            if r.levelno >= logging.ERROR
        ]


@pytest.fixture
def captured() -> Iterator[Captured]:
    """Log records of the bot at WARNING and above, for this test."""
    handler = Captured()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


@dataclass
class Scene:
    """Who is where: the games, the chats, the users; what was sent."""

    world: World
    rng: random.Random
    games: dict[str, int] = field(default_factory=dict)  # game id -> its group
    creators: dict[int, int] = field(default_factory=dict)  # group -> its creator (an admin)
    members: dict[int, list[User]] = field(default_factory=dict)  # group -> members
    players: dict[int, list[int]] = field(default_factory=dict)  # group -> its game's players
    started: list[User] = field(default_factory=list)  # users with a private chat
    users: list[User] = field(default_factory=list)
    lobby_game: str = ""
    queries: int = 0
    skipped: int = 0
    known: list[str] = field(default_factory=list)  # all_data() as of this batch

    def all_data(self) -> list[str]:
        """Every callback data the bot's keyboards ever carried (edits included)."""
        out: set[str] = set()
        for chat in self.world.state.chats.values():
            for message in chat.messages.values():
                for content in (*message.history, message.content):
                    markup = content.reply_markup or {}
                    for row in markup.get("inline_keyboard", []):
                        for button in row:
                            if "callback_data" in button:
                                out.add(button["callback_data"])
        return sorted(out)

    def bot_messages(self, chat_id: int) -> list[Message]:
        """The bot's messages in a chat, deleted ones too (a slow client still shows them)."""
        state = self.world.state
        return [
            m for m in state.messages(chat_id, include_deleted=True) if m.sender_id == state.bot.id
        ]


def data_on(message: Message) -> list[str]:
    """The callback data a message's keyboard carries or carried before an edit."""
    out = []
    for content in (*message.history, message.content):
        markup = content.reply_markup or {}
        for row in markup.get("inline_keyboard", []):
            out += [b["callback_data"] for b in row if "callback_data" in b]
    return out


def random_text(rng: random.Random, longest: int) -> str:
    """Random characters from a random alphabet, or any code points."""
    n = rng.randint(0, longest)
    if rng.random() < 0.2:
        points = [rng.randint(0x20, 0x10FFFF) for _ in range(n)]
        return "".join(chr(p) for p in points if not 0xD800 <= p <= 0xDFFF)
    alphabet = rng.choice(ALPHABETS)
    return "".join(rng.choice(alphabet) for _ in range(n))


def random_id(rng: random.Random) -> str:
    """A string shaped like a game id."""
    return "".join(rng.choice(GAME_ID_ALPHABET) for _ in range(10))


def mutate(rng: random.Random, data: str, game_ids: list[str], versions: list[int]) -> str:
    """Real callback data with one thing changed: a field, the op, the tag, or bytes."""
    parts = data.split(":")
    kind = rng.randrange(9)
    if kind == 0 and len(parts) > 2:
        gid = parts[2]
        flipped = gid[:-1] + rng.choice(GAME_ID_ALPHABET) if gid else "x"
        parts[2] = rng.choice([*game_ids, random_id(rng), flipped, gid.lower(), gid + "x", ""])
    elif kind == 1 and len(parts) > 3:
        v = rng.choice(versions)
        choices = [v, v - 1, v + 1, v + 2, 0, -1, 2**31 - 1, 2**31, 10**12]
        parts[3] = rng.choice([str(x) for x in choices] + ["01", "", " 1", "1e3", "٣"])
    elif kind == 2 and len(parts) > 4:
        i = rng.randrange(4, len(parts))
        parts[i] = rng.choice(["0", "1", "2", "9", "10", "99", "999", "1000", "-1", "", "a"])
        parts[i] = rng.choice([parts[i], "".join(sorted(rng.sample("0123456789", 3)))])
    elif kind == 3 and len(parts) > 1:
        parts[1] = rng.choice(OPS)
    elif kind == 4:
        parts[0] = rng.choice(["s0", "s2", "S1", "", "s1 ", "s11"])
    elif kind == 5 and len(parts) > 2:
        del parts[rng.randrange(1, len(parts))]
    elif kind == 6:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(["", "0", "x", parts[-1]]))
    elif kind == 7:
        text = ":".join(parts)
        i = rng.randrange(len(text) + 1)
        return text[:i] + random_text(rng, 3) + text[i + 1 :]
    else:
        return rng.choice(
            [data[: rng.randrange(len(data) + 1)], data + data, data + "\n", " " + data]
        )
    return ":".join(parts)


def random_command(rng: random.Random, game_ids: list[str], versions: list[int]) -> str | None:
    """A well-formed button of any kind with random fields (None if out of the codec's range)."""
    cls = rng.choice(COMMAND_TYPES)
    values: dict[str, object] = {
        "game": rng.choice([*game_ids, random_id(rng)]),
        "version": rng.choice([*versions, 0, 1, rng.randrange(2**31)]),
        "card": rng.randrange(10),
        "spot": rng.choice([1, 2, 3, rng.randrange(1, 1000)]),
        "seat": rng.randrange(12),
        "count": rng.randrange(12),
        "goal": rng.randrange(3),
        "tool": rng.choice([*Tool, None]),
        "item": rng.randrange(10),
        "selected": frozenset(rng.sample(range(10), rng.randint(0, 3))),
        "edition": rng.choice(list(Edition)),
        "variant": rng.choice(list(Variant)),
        "hours": rng.choice([None, 1, 12, 24, 72, 168]),
        "language": rng.choice(list(LANGUAGES)),
        "round": rng.choice([1, 2, 3]),
        "level": rng.choice(list(Level)),  # random has no code: such a button is not written
    }
    kwargs = {f.name: values[f.name] for f in dataclasses.fields(cls)}
    try:
        return encode(cls(**kwargs))  # type: ignore[arg-type]
    except ValueError:
        return None


def callback_data(
    rng: random.Random, scene: Scene, game_ids: list[str], versions: list[int]
) -> str:
    """One callback data of a random kind."""
    roll = rng.random()
    if roll < 0.2:
        return rng.choice(scene.known)  # a real button, maybe old, maybe someone else's
    if roll < 0.55:
        return mutate(rng, rng.choice(scene.known), game_ids, versions)
    if roll < 0.8:
        return random_command(rng, game_ids, versions) or ""
    if roll < 0.9:
        return random_text(rng, 70)
    edges = ["", "s1", "s1:", ":", "s1:no", "x" * 64, "x" * 65, "s1:gh:" + "A" * 58, "가" * 64]
    return rng.choice([*edges, "s1:no:" + "0" * 200, random_text(rng, 300)])


def message_text(rng: random.Random, game_ids: list[str]) -> str:
    """A command, known or not, with a suffix and junk arguments; or just junk."""
    if rng.random() < 0.1:
        return random_text(rng, 50).strip() or "hi"
    name = rng.choice(KNOWN) if rng.random() < 0.75 else rng.choice(UNKNOWN)
    suffix = rng.choice(["", "", "@saboteur_emu_bot", "@SABOTEUR_EMU_BOT", "@othername", "@"])
    args = rng.choice(
        [
            *("", "", " " + random_text(rng, 30), f" join-{rng.choice(game_ids)}"),
            *(f" hand-{rng.choice(game_ids)}", f" join-{random_id(rng)}", " hand-", " 1 2 3"),
            *("\n" + random_text(rng, 20), " " + "x" * 300),
        ]
    )
    return f"/{name}{suffix}{args}"


@dataclass(frozen=True)
class Situation:
    """What a game looks like right now (for telling a real move from a harmless tap)."""

    chat: int
    creator: int
    version: int
    current: int | None


async def situations(world: World, scene: Scene) -> dict[str, Situation]:
    """The started games, as stored."""
    out = {}
    for gid, chat in scene.games.items():
        record = await loaded(world, gid)
        assert record.state is not None
        s = record.state
        current = s.players[s.turn] if s.phase.value == "playing" else None
        out[gid] = Situation(chat, record.creator_id, s.version, current)
    return out


def changes_a_game(
    now: dict[str, Situation], scene: Scene, user: User, chat: int, command: Command | None
) -> bool:
    """Whether a tap could legitimately change a started game (so the fuzz leaves it out)."""
    if command is None:
        return False
    game = now.get(getattr(command, "game", ""))
    if game is None:
        return False
    if isinstance(command, CancelGame):
        return chat == game.chat and user.id in (game.creator, scene.creators.get(chat))
    if isinstance(command, MOVES):
        return chat == user.id and user.id == game.current and command.version == game.version
    return False


def command_changes_a_game(
    now: dict[str, Situation], scene: Scene, user: User, chat: int, text: str
) -> bool:
    """Whether a command could legitimately change a started game (/cancel, /kick)."""
    words = text[1:].split(maxsplit=1) if text.startswith("/") else []
    name = words[0].split("@")[0].lower() if words else ""
    game = next((g for g in now.values() if g.chat == chat), None)
    if game is None or name not in ("cancel", "kick"):
        return False
    admins = (game.creator, scene.creators.get(chat))
    if name == "cancel":
        return user.id in admins
    # /kick: an admin plays for the current player at once, and other players' votes add up.
    return user.id != game.current and (user.id in admins or user.id in scene.players[chat])


def forge(
    world: World, scene: Scene, user: User, chat: int, message: Message | None, data: str | None
) -> str:
    """Emit a callback query update as a (modified) client could send it; its query id."""
    state = world.state
    scene.queries += 1
    query_id = f"8{scene.queries:018d}"
    state.callback_queries[query_id] = CallbackQuery(
        id=query_id,
        user_id=user.id,
        chat_id=chat,
        message_id=message.message_id if message else 0,
        data=data or "",
        created_at=state.now(),
    )
    payload: dict[str, object] = {
        "id": query_id,
        "from": user.to_api(),
        "chat_instance": str(abs(chat) * 7919 % 10**12),
    }
    if data is None:
        payload["game_short_name"] = "saboteur"
    else:
        payload["data"] = data
    if message is None:
        payload["inline_message_id"] = "AgAAA" + random_id(scene.rng)
    elif scene.rng.random() < 0.03:  # a message too old for Telegram to send
        payload["message"] = {
            "chat": state.chat_to_api(state.chat(chat)),
            "message_id": message.message_id,
            "date": 0,
        }
    else:
        payload["message"] = state.message_to_api(message)
    state.emit("callback_query", payload)
    return query_id


@pytest.mark.slow
async def test_thousands_of_random_and_forged_updates_change_no_game(
    world: World, captured: Captured
) -> None:
    """5,000+ taps and messages from players and strangers, anywhere: nothing changes."""
    rng = random.Random(int(os.environ.get("FUZZ_SEED", "5000")))  # another seed: another run
    state = world.state
    # Flood limits are not what this test is about: the bot may reply to every command.
    state.limiter = RateLimiter(
        RateLimits(group_messages=10**9, global_messages=10**9), world.clock
    )
    ann, bob, cho, dee, eve, fay, zed, yan, xi = (
        world.user(n) for n in ("Ann", "Bob", "Cho", "Dee", "Eve", "Fay", "Zed", "Yan", "Xi")
    )
    dwarves = world.group("Dwarves", ann, [bob, cho, zed, yan])
    mine = world.group("Mine", dee, [eve, fay, zed])
    elsewhere = world.group("Elsewhere", zed, [ann, xi, yan, dee])
    scene = Scene(world, rng, users=[ann, bob, cho, dee, eve, fay, zed, yan, xi])
    scene.games[await start_game(world, [ann, bob, cho], dwarves)] = dwarves
    scene.games[await start_game(world, [dee, eve, fay], mine)] = mine
    seats = dict(zip(scene.games, ([ann, bob, cho], [dee, eve, fay]), strict=True))
    for gid, players in seats.items():  # a few moves, so that old buttons are around
        for _ in range(3):
            await discard_one(world, gid, await to_act(world, gid, players))
    await world.say(zed, elsewhere, "/new")  # a lobby: one more game id, not started
    for user in (zed, yan, xi):
        state.start_bot(user.id)
    await world.settle()
    state.privacy_mode = False  # the bot sees every group message, as an admin bot would
    scene.creators = {dwarves: ann.id, mine: dee.id, elsewhere: zed.id}
    scene.members = {
        dwarves: [ann, bob, cho, zed, yan],
        mine: [dee, eve, fay, zed],
        elsewhere: [zed, ann, xi, yan, dee],
    }
    scene.players = {dwarves: [ann.id, bob.id, cho.id], mine: [dee.id, eve.id, fay.id]}
    scene.started = list(scene.users)
    groups = list(scene.members)

    async def snapshot() -> dict[str, tuple[str, object, object]]:
        out: dict[str, tuple[str, object, object]] = {}
        for gid in scene.games:
            record = await loaded(world, gid)
            assert record.state is not None
            players = tuple(p.user_id for p in record.lobby.players)  # languages may change
            out[gid] = (to_json(record.state), record.status, players)
        return out

    before = await snapshot()
    sent = answered = 0
    while sent < TOTAL:
        now = await situations(world, scene)
        game_ids = [*scene.games, random_id(rng)]
        # The bot handles nothing until the batch is sent: its keyboards stay as they are.
        scene.known = scene.all_data()
        for seen in scene.known:
            command = decode(seen)
            if command is not None and isinstance(getattr(command, "game", None), str):
                game_ids.append(command.game)  # type: ignore[union-attr]
        game_ids = sorted(set(game_ids))
        versions = sorted({v for s in now.values() for v in range(s.version - 2, s.version + 2)})
        queries = []
        for _ in range(BATCH):
            sent += 1
            user = rng.choice(scene.users)
            if rng.random() < 0.78:
                roll = rng.random()
                if roll < 0.5:
                    chat = user.id
                elif roll < 0.9:
                    chat = rng.choice(groups)
                else:
                    chat = rng.choice(scene.users).id  # someone else's private chat
                shown = scene.bot_messages(chat)
                message = rng.choice(shown) if shown and rng.random() < 0.97 else None
                data: str | None = callback_data(rng, scene, game_ids, versions)
                drawn = data_on(message) if message is not None else []
                if drawn and rng.random() < 0.35:  # a button of this very message, maybe old
                    data = rng.choice(drawn)
                if rng.random() < 0.02:
                    data = None
                if changes_a_game(now, scene, user, chat, decode(data)):
                    scene.skipped += 1
                    continue
                queries.append(forge(world, scene, user, chat, message, data))
            else:
                chats = [g for g in groups if user in scene.members[g]] + [user.id]
                chat = rng.choice(chats)
                text = message_text(rng, game_ids)
                if command_changes_a_game(now, scene, user, chat, text):
                    scene.skipped += 1
                    continue
                try:
                    state.send_text(user.id, chat, text)
                except SimulationError:
                    scene.skipped += 1
        state.changed()
        await world.settle(timeout=60)
        unanswered = [q for q in queries if not state.callback_query(q).answered]
        assert not unanswered, f"{len(unanswered)} taps were not answered: {unanswered[:3]}"
        answered += len(queries)
        assert await snapshot() == before, f"a game changed after {sent} updates"
        assert not captured.errors(), "\n".join(captured.errors()[:10])

    assert sent - scene.skipped >= 5000 and answered >= 3500, (sent, scene.skipped, answered)
    toasts = [q.text for q in state.callback_queries.values()]
    error = texts(Language("en")).pgettext(
        "toast", "Something went wrong. The game is safe; please try again."
    )
    assert error not in toasts
    # The games still play, and every announcement owed (a /board repost) goes out.
    gid = next(iter(scene.games))
    record = await loaded(world, gid)
    assert record.state is not None
    current = record.state.players[record.state.turn]
    player = next(u for u in scene.users if u.id == current)
    hand = await live_hand(world, gid, player)
    refresh = encode(ShowHand(gid, record.state.version))  # back to the hand's first screen
    await world.forge(player, player.id, hand.message_id, refresh)
    await discard_one(world, gid, player)
    assert (await loaded(world, gid)).state.version == record.state.version + 1  # type: ignore[union-attr]
    world.clock.advance(61)  # the groups' send budgets fill up again
    service: GameService = world.app.bot_data["service"]  # type: ignore[union-attr]
    await service.sweep()
    await world.settle()
    for gid in scene.games:
        assert (await loaded(world, gid)).owed.is_empty, gid
    assert not captured.errors(), "\n".join(captured.errors()[:10])
