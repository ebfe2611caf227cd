"""The archive port's contract over Redis (a real redis-server) and over the in-memory fake."""

from __future__ import annotations

import dataclasses
import datetime
from functools import lru_cache

import pytest
from redis.asyncio import Redis

from engine import Edition, Phase, Role
from engine.archive import replay, seat_move_text
from tests.engine.playout import played
from tests.profiles import CLUSTER
from tgbot.archives import (
    ALL_TIME,
    KEEP_SECONDS,
    ArchivedGame,
    ArchivedGameError,
    Archives,
    Figures,
    archived_game,
    game_from_json,
    game_to_json,
    kept_seasons,
    season_of,
    tally,
)
from tgbot.i18n import Language
from tgbot.keys import Keys
from tgbot.memory_archives import MemoryArchives
from tgbot.records import GameRecord, Lobby, LobbyPlayer, Status
from tgbot.redis_archives import RedisArchives
from tgbot.redis_client import RedisClient

GROUP, OTHER = -100, -200
SUPER = -1001234  # GROUP once upgraded to a supergroup
SPRING = int(datetime.datetime(2025, 4, 2, tzinfo=datetime.UTC).timestamp())
SUMMER = int(datetime.datetime(2025, 7, 9, tzinfo=datetime.UTC).timestamp())


@lru_cache(maxsize=16)
def finished(seed: int, edition: Edition = Edition.BASE, players: int = 3) -> GameRecord:
    """The record of a seeded game played to its end (players 100, 101, ...)."""
    steps = played(players, edition, seed, 0.7)
    final = steps[-1].transition.state
    assert final.phase is Phase.OVER
    ids = final.players
    return GameRecord(
        game_id=f"Game{seed:06d}",
        chat_id=GROUP,
        thread_id=None,
        language=Language("en"),
        creator_id=ids[0],
        created_at=SPRING - 3600,
        updated_at=SPRING,
        status=Status.FINISHED,
        lobby=Lobby(
            edition=edition,
            players=tuple(LobbyPlayer(p, f"P{p}", Language("en")) for p in ids),
        ),
        state=final,
        title="The Mine",
        moves=tuple(seat_move_text(ids, s.player, s.action) for s in steps),
    )


def game(seed: int, *, chat: int = GROUP, at: int = SPRING, **more: object) -> ArchivedGame:
    """An archived game of that seed, ended in `chat` at `at`."""
    made = archived_game(finished(seed))
    assert made is not None
    return dataclasses.replace(made, chat_id=chat, ended_at=at, **more)  # type: ignore[arg-type]


def counted(seed: int) -> dict[int, Figures]:
    """The figures of that seed's game."""
    state = finished(seed).state
    assert state is not None
    return tally(state)


@pytest.fixture(params=["redis", CLUSTER, "memory"])
def archives(request: pytest.FixtureRequest) -> Archives:
    """The same contract over both implementations (Redis on one server and on a Cluster),
    keeping 3 games per group, 2 per player."""
    if request.param == "memory":
        return MemoryArchives(games_per_group=3, groups_per_player=2)
    name = "server_client" if request.param == "redis" else "cluster_client"
    client: RedisClient = request.getfixturevalue(name)
    prefix: str = request.getfixturevalue("key_prefix")
    return RedisArchives(client, prefix=prefix, games_per_group=3, groups_per_player=2)


async def test_a_game_is_kept_and_counted_once(archives: Archives) -> None:
    assert await archives.keep(game(1), counted(1))
    assert not await archives.keep(game(1), counted(1))
    stats = await archives.group_stats(GROUP, ALL_TIME)
    assert {p.user_id: p.figures for p in stats} == counted(1)
    assert [p.name for p in stats] == ["P100", "P101", "P102"]
    assert [g.game_id for g in await archives.recent(GROUP)] == ["Game000001"]


async def test_the_stored_game_replays_to_the_final_state(archives: Archives) -> None:
    await archives.keep(game(2), counted(2))
    kept = await archives.game("Game000002")
    assert kept is not None and kept == game(2)
    assert replay(kept.archive)[-1] == finished(2).state
    assert kept.winners and kept.edition is Edition.BASE


async def test_newest_first_and_only_the_latest_games_kept(archives: Archives) -> None:
    for n, seed in enumerate((1, 2, 3, 4, 5)):
        assert await archives.keep(game(seed, at=SPRING + n), None)
    recent = await archives.recent(GROUP)
    assert [g.game_id for g in recent] == ["Game000005", "Game000004", "Game000003"]
    assert [g.game_id for g in await archives.recent(GROUP, 2)] == ["Game000005", "Game000004"]
    assert await archives.game("Game000001") is None, "a game dropped from the history is gone"
    assert not await archives.keep(game(1, at=SPRING + 9), None), "and still not kept again"


async def test_a_cancelled_game_is_listed_and_not_counted(archives: Archives) -> None:
    assert await archives.keep(game(3, cancelled=True), None)
    assert [g.cancelled for g in await archives.recent(GROUP)] == [True]
    assert (await archives.recent(GROUP))[0].winners == ()
    assert await archives.group_stats(GROUP, ALL_TIME) == ()
    assert await archives.player_stats(100) == ()


async def test_seasons_and_all_time(archives: Archives) -> None:
    await archives.keep(game(1, at=SPRING), counted(1))
    await archives.keep(game(2, at=SUMMER), counted(2))
    spring = await archives.group_stats(GROUP, season_of(SPRING))
    summer = await archives.group_stats(GROUP, season_of(SUMMER))
    total = await archives.group_stats(GROUP, ALL_TIME)
    assert season_of(SPRING) == "2025Q2" and season_of(SUMMER) == "2025Q3"
    assert {p.user_id: p.figures for p in spring} == counted(1)
    assert {p.user_id: p.figures for p in summer} == counted(2)
    for p in total:
        assert p.figures == counted(1)[p.user_id] + counted(2)[p.user_id]
        assert p.figures.games == 2


async def test_a_player_s_groups_latest_first_and_bounded(archives: Archives) -> None:
    await archives.keep(game(1, chat=GROUP, at=SPRING), counted(1))
    await archives.keep(game(2, chat=OTHER, at=SPRING + 1), counted(2))
    await archives.keep(game(3, chat=-300, at=SPRING + 2), counted(3))
    mine = await archives.player_stats(100)
    assert [g.chat_id for g in mine] == [-300, OTHER]
    assert mine[0].title == "The Mine" and mine[0].name == "P100"
    assert mine[0].figures == counted(3)[100]


async def test_a_keep_that_died_before_the_players_lists_is_completed_by_its_retry(
    redis_client: Redis, key_prefix: str
) -> None:
    """The first keep counts the game and dies before the players' lists of recent groups; the
    delivery retries it (its item is still owed): the group is listed, counted only once."""

    async def dies(**_: object) -> object:
        raise ConnectionError("the process died")

    dying = RedisArchives(redis_client, prefix=key_prefix)
    dying._group = dies  # type: ignore[assignment]
    with pytest.raises(ConnectionError):
        await dying.keep(game(1), counted(1))
    archives = RedisArchives(redis_client, prefix=key_prefix)
    assert await archives.player_stats(100) == ()  # the gap
    assert not await archives.keep(game(1), counted(1)), "counted once"
    mine = await archives.player_stats(100)
    assert [g.chat_id for g in mine] == [GROUP]
    assert mine[0].figures == counted(1)[100]
    stats = await archives.group_stats(GROUP, ALL_TIME)
    assert {p.user_id: p.figures for p in stats} == counted(1)


async def test_groups_do_not_see_each_other(archives: Archives) -> None:
    await archives.keep(game(1, chat=GROUP), counted(1))
    assert await archives.recent(OTHER) == ()
    assert await archives.group_stats(OTHER, ALL_TIME) == ()


async def test_deluxe_roles_are_counted(archives: Archives) -> None:
    record = finished(4, Edition.DELUXE, 5)
    made = archived_game(record)
    assert made is not None and record.state is not None
    await archives.keep(made, tally(record.state))
    stats = await archives.group_stats(GROUP, ALL_TIME)
    rounds = {r for p in stats for r in p.figures.rounds}
    assert rounds - {Role.MINER, Role.SABOTEUR}, "Deluxe roles"
    assert sum(sum(p.figures.rounds.values()) for p in stats) == 5 * 3


def added(*seeds: int) -> dict[int, Figures]:
    """The figures of these seeds' games, added per player."""
    out: dict[int, Figures] = {}
    for seed in seeds:
        for user, figures in counted(seed).items():
            out[user] = out[user] + figures if user in out else figures
    return out


async def test_a_group_s_history_and_statistics_follow_it_to_its_supergroup(
    archives: Archives,
) -> None:
    """Added to what the supergroup has already (a game ended there first), each season's and
    all time's; the archived games name the new chat; the players list it once. Once only: a
    repeat (Telegram's update delivered again) adds nothing."""
    await archives.keep(game(1, at=SPRING), counted(1))
    await archives.keep(game(2, at=SUMMER), counted(2))
    await archives.keep(game(3, chat=SUPER, at=SUMMER + 5), counted(3))
    for _ in range(2):
        await archives.move_group(GROUP, SUPER, SUMMER + 10)
        recent = await archives.recent(SUPER)
        assert [g.game_id for g in recent] == ["Game000003", "Game000002", "Game000001"]
        assert {g.chat_id for g in recent} == {SUPER}
        kept = await archives.game("Game000001")
        assert kept is not None and kept.chat_id == SUPER
        stats = {
            season: {p.user_id: p.figures for p in await archives.group_stats(SUPER, season)}
            for season in (season_of(SPRING), season_of(SUMMER), ALL_TIME)
        }
        assert stats[season_of(SPRING)] == counted(1)
        assert stats[season_of(SUMMER)] == added(2, 3)
        assert stats[ALL_TIME] == added(1, 2, 3)
        assert [p.name for p in await archives.group_stats(SUPER, ALL_TIME)] == [
            "P100",
            "P101",
            "P102",
        ]
        assert await archives.recent(GROUP) == ()
        assert await archives.group_stats(GROUP, ALL_TIME) == ()
        mine = await archives.player_stats(100)
        assert [(g.chat_id, g.title) for g in mine] == [(SUPER, "The Mine")]
        assert mine[0].figures == added(1, 2, 3)[100]


async def test_a_group_with_nothing_kept_moves_nothing(archives: Archives) -> None:
    await archives.keep(game(1, chat=SUPER), counted(1))
    await archives.move_group(GROUP, SUPER, SPRING + 10)
    assert [g.game_id for g in await archives.recent(SUPER)] == ["Game000001"]
    assert {p.user_id: p.figures for p in await archives.group_stats(SUPER, ALL_TIME)} == (
        counted(1)
    )


async def test_a_move_that_died_midway_is_completed_by_its_repeat(
    redis_client: Redis, key_prefix: str
) -> None:
    """Dead after the figures were added and before the players' lists: the repeat moves the
    lists and the old keys and adds the figures no second time; the mark lasts 180 days."""

    async def dies(**_: object) -> object:
        raise ConnectionError("the process died")

    archives = RedisArchives(redis_client, prefix=key_prefix)
    await archives.keep(game(1, at=SPRING), counted(1))
    dying = RedisArchives(redis_client, prefix=key_prefix)
    dying._regroup = dies  # type: ignore[assignment]
    with pytest.raises(ConnectionError):
        await dying.move_group(GROUP, SUPER, SPRING + 10)
    assert [g.chat_id for g in await archives.player_stats(100)] == [GROUP]  # the gap
    await archives.move_group(GROUP, SUPER, SPRING + 10)
    assert [g.chat_id for g in await archives.player_stats(100)] == [SUPER]
    stats = await archives.group_stats(SUPER, ALL_TIME)
    assert {p.user_id: p.figures for p in stats} == counted(1)
    k = Keys(key_prefix)
    gone = (k.history(GROUP), k.stats(GROUP, ALL_TIME), k.stats(GROUP, season_of(SPRING)))
    assert await redis_client.exists(*gone) == 0
    assert KEEP_SECONDS - 60 < await redis_client.ttl(k.moved(SUPER, GROUP)) <= KEEP_SECONDS


def test_the_seasons_kept_are_those_of_the_last_180_days() -> None:
    assert kept_seasons(SUMMER) == ("2025Q1", "2025Q2", "2025Q3")
    new_year = int(datetime.datetime(2025, 12, 31, 12, tzinfo=datetime.UTC).timestamp())
    assert kept_seasons(new_year) == ("2025Q3", "2025Q4", "2026Q1")


async def test_everything_expires_in_180_days(redis_client: Redis, key_prefix: str) -> None:
    archives = RedisArchives(redis_client, prefix=key_prefix)
    await archives.keep(game(1), counted(1))
    k = Keys(key_prefix)
    for key in (
        k.archive("Game000001"),
        k.history(GROUP),
        k.stats(GROUP, season_of(SPRING)),
        k.stats(GROUP, ALL_TIME),
        k.user_groups(100),
    ):
        assert KEEP_SECONDS - 60 < await redis_client.ttl(key) <= KEEP_SECONDS, key
    assert 0 < await redis_client.ttl(k.counted(GROUP, "Game000001")) < KEEP_SECONDS


async def test_an_unreadable_archive_is_left_out(redis_client: Redis, key_prefix: str) -> None:
    archives = RedisArchives(redis_client, prefix=key_prefix)
    await archives.keep(game(1), None)
    await archives.keep(game(2, at=SPRING + 1), None)
    await redis_client.set(Keys(key_prefix).archive("Game000002"), b"{not json")
    assert [g.game_id for g in await archives.recent(GROUP)] == ["Game000001"]
    assert await archives.game("Game000002") is None


def test_the_json_form_round_trips_and_refuses_anything_else() -> None:
    made = game(1)
    text = game_to_json(made)
    assert game_from_json(text) == made
    assert len(text) < 8000
    for bad in ("", "[]", '{"schema": 2}', text.replace('"Game000001"', '"bad id"')):
        with pytest.raises(ArchivedGameError):
            game_from_json(bad)


def test_a_record_without_all_its_moves_has_no_archive() -> None:
    record = finished(1)
    assert archived_game(dataclasses.replace(record, moves=record.moves[:-1])) is None
    assert archived_game(dataclasses.replace(record, status=Status.PLAYING)) is None
    assert archived_game(dataclasses.replace(record, state=None)) is None
