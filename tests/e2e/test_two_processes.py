"""Two bot processes behind a round-robin load balancer, sharing one Redis and three games.

Consecutive webhook updates go to different processes, so a game's taps, joins and deliveries
are handled by both. Then: every move answered "done" counted once (the stored state is the
replay of exactly those moves), nothing owed left, one board post per state; ten simultaneous
taps on one Confirm button make one move; with every update delivered twice (once to each
process) each is still handled once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from emulator import EmulatorState, User
from emulator.server import SECRET_HEADER, BotApiEmulator
from engine import GameState
from tests.catalog import texts
from tgbot.buttons import LeaveGame, StartGame
from tgbot.callback import decode
from tgbot.i18n import Language

from .harness import buttons, free_port, url_buttons
from .procs import (
    ERROR_TOAST,
    BotProcess,
    Fleet,
    Move,
    RoundRobin,
    Table,
    assert_one_board_per_state,
    bot_environment,
    data_of,
    fleet,
    loaded,
    own_keys,
    replay,
    until,
    was_played,
)

pytestmark = pytest.mark.slow  # real bot processes: the whole-suite lane

TURNS = 4  # per game, before the simultaneous taps
TAPS = 10


@dataclass
class Game:
    """One group's game and what its players saw."""

    title: str
    players: list[User]
    rng: random.Random
    chat: int = 0
    gid: str = ""
    lobby: int = 0
    initial: GameState | None = None
    moves: list[Move] = field(default_factory=list)
    last: int = -1  # the state version of the last move's buttons


async def open_lobby(table: Table, game: Game) -> None:
    """The creator opens a lobby; everyone opens its deep link at the same moment."""
    state = table.emu.state
    creator = game.players[0]
    game.chat = state.create_group(
        game.title, creator=creator.id, members=[p.id for p in game.players[1:]]
    ).id
    state.send_text(creator.id, game.chat, "/new")
    lobby = await table.emu.wait_for_bot_message(game.chat, timeout=20)
    game.lobby = lobby.message_id
    game.gid = next(
        c.game for c in (decode(d) for _, d in buttons(lobby)) if isinstance(c, LeaveGame)
    )
    ((_, url),) = url_buttons(lobby)
    await table.open_links(game.players, url)

    async def joined() -> bool:
        record = await table.store.load(game.gid)
        return record is not None and len(record.lobby.players) == len(game.players)

    await until(joined, timeout=20)


async def start(table: Table, game: Game) -> None:
    """The creator taps Start (twice if the lobby's buttons were out of date: a lobby edit of
    one process can land after a newer one of the other, see the test at the end)."""
    for _ in range(2):
        # The lobby the record points to (a send that timed out may have been sent again).
        game.lobby = (await loaded(table.store, game.gid)).messages.lobby or game.lobby
        lobby = table.emu.state.message(game.chat, game.lobby)
        (data,) = data_of(lobby, StartGame)
        query = await table.tap(game.players[0], lobby, data)
        record = await loaded(table.store, game.gid)
        stale = {
            texts(Language(code)).pgettext(
                "toast", "That button was out of date; the lobby has been updated."
            )
            for code in ("en", "ko")
        }
        if query.text not in stale:
            break
        await table.quiet()
    done = {texts(Language(code)).pgettext("toast", "Done!") for code in ("en", "ko")}
    assert query.text in done, query.text  # in the tapper's language
    assert record.state is not None
    game.initial = record.state


async def turn(table: Table, game: Game) -> None:
    """The player offered a move taps through to Confirm and confirms."""
    user, message, game.last = await table.wait_turn(game.players, game.gid, game.last)
    message, confirm = await table.reach_confirm(user, message, game.rng)
    query = await table.tap(user, message, confirm)
    assert was_played(query.text), query.text
    game.moves.append(Move(user.id, decode(confirm)))  # type: ignore[arg-type]


async def turns(table: Table, game: Game, count: int) -> None:
    """Several turns of one game."""
    for _ in range(count):
        await turn(table, game)


@dataclass
class Cluster:
    """Two bot processes behind the round-robin proxy, and the players' table."""

    emu: BotApiEmulator
    proxy: RoundRobin
    bots: Fleet
    table: Table


@contextlib.asynccontextmanager
async def cluster(redis_url: str, directory: Path) -> AsyncIterator[Cluster]:
    """The emulator, the proxy and two started bot processes (always ended afterwards)."""
    async with (
        own_keys(redis_url) as (db_url, redis, prefix),
        BotApiEmulator(EmulatorState(), webhook_retry_delay=0.05, webhook_timeout=5.0) as emu,
    ):
        ports = [free_port(), free_port()]
        async with RoundRobin([f"http://127.0.0.1:{p}/hook" for p in ports]) as proxy:
            with fleet(directory) as bots:
                for name, port in zip("ab", ports, strict=True):
                    env = bot_environment(emu, db_url, proxy.url, port, prefix)
                    if name == "b":  # a runs on uvloop (the default), b on Python's own loop
                        env["EVENT_LOOP"] = "asyncio"
                    bots.add(name, env, port).start()
                for bot in bots.processes:
                    await bot.wait_ready()
                await emu.wait_for(lambda: emu.state.webhook.url == proxy.url, timeout=20)
                yield Cluster(emu, proxy, bots, Table(emu, redis, prefix))


async def test_two_processes_share_the_traffic_of_three_games(
    redis_url: str, tmp_path: Path
) -> None:
    """Joins, starts, moves, a tap storm and doubled deliveries, spread over two processes (one
    on uvloop, one on asyncio's own event loop)."""
    async with cluster(redis_url, tmp_path) as c:
        emu, proxy, bots, table = c.emu, c.proxy, c.bots, c.table
        loops = [bot.log().count("event loop: uvloop") for bot in bots.processes]
        assert loops == [1, 0], "a: uvloop by default; b: EVENT_LOOP=asyncio"
        assert "event loop: asyncio" in bots.processes[1].log()
        state = emu.state
        store = table.store
        names = [("Ann", "Bob", "Cho"), ("Dee", "Eve", "Fay"), ("Gus", "Hal", "Ivy")]
        games = [
            Game(f"Dwarves {i}", [state.create_user(n) for n in group], random.Random(i))
            for i, group in enumerate(names)
        ]
        await asyncio.gather(*(open_lobby(table, g) for g in games))
        await table.quiet()
        await asyncio.gather(*(start(table, g) for g in games))
        await asyncio.gather(*(turns(table, g, TURNS) for g in games))

        # Ten taps on the same Confirm button at once, spread over both processes.
        storm = games[0]
        user, message, storm.last = await table.wait_turn(storm.players, storm.gid, storm.last)
        message, confirm = await table.reach_confirm(user, message, storm.rng)
        await table.quiet()
        before = len(proxy.forwarded)
        ids = [
            state.press_button(user.id, user.id, message.message_id, confirm) for _ in range(TAPS)
        ]
        answers = await asyncio.gather(*(emu.wait_for_answer(q, timeout=20) for q in ids))
        toasts = [a.text for a in answers]
        assert sum(map(was_played, toasts)) == 1, toasts
        assert ERROR_TOAST not in toasts, toasts
        storm.moves.append(Move(user.id, decode(confirm)))  # type: ignore[arg-type]
        served = {i for i, _ in proxy.forwarded[before:]}
        assert served == {0, 1}, "the taps reached both processes"

        # Every update delivered twice: once to each process.
        emu.duplicate_webhook_deliveries = True
        await asyncio.gather(*(turns(table, g, 2) for g in games))
        emu.duplicate_webhook_deliveries = False
        await table.quiet()

        for g in games:
            record = await loaded(store, g.gid)
            assert record.state is not None and g.initial is not None
            assert record.state.version == g.initial.version + len(g.moves), g.title
            assert replay(g.gid, g.initial, g.moves) == record.state, g.title
            assert record.owed.is_empty, g.title
            assert_one_board_per_state(table, record)
            actor = record.state.players[record.state.turn]
            found = table.to_act(g.players, g.gid, record.state.version - 1)
            assert found is not None and found[0].id == actor, g.title
        assert not await store.owing_games()
        queries = list(state.callback_queries.values())
        assert all(q.answered for q in queries), "every tap answered"
        assert not [q for q in queries if q.text == ERROR_TOAST]
        statuses = {status for _, status in proxy.forwarded}
        assert statuses == {200}, proxy.forwarded
        for index in (0, 1):
            assert sum(1 for i, _ in proxy.forwarded if i == index) > 20
        assert not bots.problems(), "\n".join(bots.problems())


async def test_a_slow_process_does_not_put_an_old_player_list_back_on_the_lobby(
    redis_url: str, tmp_path: Path
) -> None:
    """Bob's join goes to one process, Cho's right after to the other, as a load balancer does.

    The first process saves Bob's join and is slow (frozen while it tells Bob he joined); the
    other saves Cho's join and edits the lobby. When the first one goes on, its edit must not
    put the list without Cho back: the lobby shows who joined, and its Start button works.
    """
    async with cluster(redis_url, tmp_path) as c:
        state, table = c.emu.state, c.table
        ann, bob, cho = (state.create_user(n) for n in ("Ann", "Bob", "Cho"))
        game = Game("Dwarves", [ann, bob, cho], random.Random(1))
        game.chat = state.create_group("Dwarves", creator=ann.id, members=[bob.id, cho.id]).id
        state.send_text(ann.id, game.chat, "/new")
        lobby = await c.emu.wait_for_bot_message(game.chat, timeout=20)
        game.lobby = lobby.message_id
        game.gid = next(
            x.game for x in (decode(d) for _, d in buttons(lobby)) if isinstance(x, LeaveGame)
        )
        ((_, url),) = url_buttons(lobby)

        async def joined(count: int) -> None:
            async def check() -> bool:
                record = await table.store.load(game.gid)
                return record is not None and len(record.lobby.players) == count

            await until(check, timeout=20)

        state.open_link(ann.id, url)
        await joined(1)
        await table.quiet()

        frozen: list[BotProcess] = []
        bobs_update: list[int] = []

        def freeze_when_bob_is_told() -> None:
            """Freeze the process telling Bob he joined, while it waits for Telegram's reply."""
            if frozen or not table.bot_messages(bob.id):
                return
            bot = c.bots.processes[c.proxy.routes[bobs_update[0]]]
            bot.freeze()
            frozen.append(bot)

        state.add_listener(freeze_when_bob_is_told)
        state.open_link(bob.id, url)
        bobs_update.append(state.update_log[-1]["update_id"])
        await c.emu.wait_for(lambda: frozen, timeout=20)
        state.open_link(cho.id, url)
        await joined(3)
        cho_update = state.update_log[-1]["update_id"]
        assert c.bots.processes[c.proxy.routes[cho_update]] is not frozen[0]

        def text() -> str:
            return state.message(game.chat, game.lobby).content.raw_text or ""

        # The frozen process may hold the game's delivery lease (15 s) for Bob's redraw: the
        # other process shows Cho once it runs out, later than that on a loaded machine.
        await c.emu.wait_for(lambda: "Cho" in text(), timeout=40)
        frozen[0].thaw()
        await table.quiet()

        assert all(name in text() for name in ("Ann", "Bob", "Cho")), (
            "the slow process's older lobby edit landed last and hid a player who joined:\n"
            + text()
        )
        await start(table, game)
        queries = list(state.callback_queries.values())
        assert await loaded(table.store, game.gid) is not None
        assert [q.text for q in queries] == [texts(Language("en")).pgettext("toast", "Done!")], (
            "Start worked at the first tap"
        )
        assert not c.bots.problems(), "\n".join(c.bots.problems())


RUSH_GROUPS = 3
RUSH_PEOPLE = 8


async def test_many_new_at_once_in_a_chat_over_two_processes_make_one_game(
    redis_url: str, tmp_path: Path
) -> None:
    """Eight members of each of three groups send /new in the same instant, and their updates
    reach both processes at once (Telegram gives a chat's updates in order; these come as a
    redelivery does when a process held an update past its answer's timeout): each group gets
    exactly one game, every lobby posted there is that game's, and no other record exists."""
    async with cluster(redis_url, tmp_path) as c:
        emu, proxy, table = c.emu, c.proxy, c.table
        state = emu.state
        hook = state.webhook
        state.webhook = dataclasses.replace(hook, url="")  # Telegram holds them a moment
        chats = []
        for g in range(RUSH_GROUPS):
            people = [state.create_user(f"Rush {g}.{i}") for i in range(RUSH_PEOPLE)]
            others = [p.id for p in people[1:]]
            chats.append(state.create_group(f"Rush {g}", creator=people[0].id, members=others).id)
            for person in people:
                state.send_text(person.id, chats[-1], "/new")
        updates = list(state.pending_updates)
        for update in updates:
            state.confirm_update(update["update_id"])
        state.webhook = hook
        headers = {SECRET_HEADER: hook.secret_token or ""}
        async with aiohttp.ClientSession() as session:

            async def post(update: dict[str, object]) -> int:
                async with session.post(proxy.url, json=update, headers=headers) as response:
                    return response.status

            statuses = await asyncio.gather(*(post(u) for u in updates))
        assert statuses == [200] * len(updates)
        assert {i for i, _ in proxy.forwarded} == {0, 1}, "each process had its share"
        await table.quiet()

        store = table.store
        games = []
        for chat in chats:
            gid = await store.active_game(chat, None)
            assert gid is not None
            games.append(gid)
            lobbies = [m for m in table.bot_messages(chat) if data_of(m, LeaveGame)]
            leaves = [decode(d) for m in lobbies for d in data_of(m, LeaveGame)]
            named = {c.game for c in leaves if isinstance(c, LeaveGame)}
            assert lobbies and named == {gid}, (chat, named)
        records = [k async for k in table.redis.scan_iter(match=f"{table.prefix}:game:*")]
        assert sorted(records) == sorted(store.keys.game(g).encode() for g in games)
        for gid in games:
            assert await table.redis.ttl(store.keys.game(gid)) == -1
        assert not c.bots.problems(), "\n".join(c.bots.problems())
