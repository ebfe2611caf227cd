"""Round replays, the game's archive and statistics, /history and /stats, in memory."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from collections.abc import Sequence

from ai import Level
from engine import Edition, Phase, PublicView, Role, Side, current_player, legal_actions
from engine.archive import replay
from engine.events import GameEnded, MapUsed, RoundEnded
from tgbot import history_texts
from tgbot.archives import ALL_TIME, Figures, season_of
from tgbot.buttons import ReplayRound, SetLanguage, StartGame
from tgbot.i18n import texts
from tgbot.memory_ports import MemoryBudget
from tgbot.names import role_name
from tgbot.outbox import END, owe
from tgbot.records import GameRecord, Status
from tgbot.service import Person
from tgbot.store import Decision

from .conftest import ANN, BOB, CAT, DAN, EN, GROUP, KO, OTHER_GROUP, StubAnimator, Table, person
from .conftest import place as where
from .games import Seen, play, play_to_end, start


async def _finished(table: Table, seed: int = 3, **kw: object) -> tuple[str, Seen]:
    gid = await start(table, **kw)  # type: ignore[arg-type]
    seen = Seen()
    record = await play_to_end(table, gid, seed, seen=seen)
    assert record.state is not None and record.state.phase is Phase.OVER
    return gid, seen


def _kinds(table: Table) -> list[tuple[str, str]]:
    return [(m.kind, m.text) for m in table.sender.messages if m.chat_id == GROUP]


async def test_each_round_end_sends_its_replay_right_after_its_story(table: Table) -> None:
    gid, seen = await _finished(table)
    sent = _kinds(table)
    animations = [i for i, (kind, _) in enumerate(sent) if kind == "animation"]
    assert len(animations) == 3
    for number, i in enumerate(animations, start=1):
        assert sent[i][1] == f"🎬 Round {number}, move by move"
        assert f"Round {number} is over!" in sent[i - 1][1], "the story, then its replay"
    assert isinstance(table.animator, StubAnimator)
    assert [list(v) for v in table.animator.drawn] == [seen.views[r] for r in (1, 2, 3)]
    assert (await table.record(gid)).owed.is_empty


async def test_the_game_end_message_comes_last_with_the_rematch_button(table: Table) -> None:
    _gid, _ = await _finished(table)
    last = table.group()[-1]
    assert last.kind == "text" and "Game over!" in last.text and "Winner" in last.text
    assert last.keyboard is not None
    assert [b.label for row in last.keyboard for b in row] == ["🔁 Same players again"]
    board = [m for m in table.group() if m.kind == "photo"][-1]
    assert "Game over!" not in board.text, "the scoreboard is the game-end message"


async def test_the_archive_is_written_once_and_replays_to_the_final_state(table: Table) -> None:
    gid, _ = await _finished(table)
    games = await table.archives.recent(GROUP)
    assert [g.game_id for g in games] == [gid]
    final = await table.state(gid)
    assert replay(games[0].archive)[-1] == final
    before = await table.archives.group_stats(GROUP, ALL_TIME)
    # The game-end delivery runs again (say, a crash before it was struck off): no double count.
    await table.store.update(gid, _owe_end)
    await table.service.deliver(gid)
    assert await table.archives.group_stats(GROUP, ALL_TIME) == before
    assert all(p.figures.games == 1 for p in before)
    assert len([m for m in table.group() if "Game over!" in m.text]) == 2


def _owe_end(record: GameRecord | None) -> Decision[None]:
    assert record is not None
    return Decision(None, dataclasses.replace(record, owed=owe(record.owed, replays=[END])))


def _independent(seen: Seen, players: tuple[int, ...]) -> dict[int, Figures]:
    """Base-game figures counted straight from the public events, not through tgbot.archives."""
    out = {p: Figures() for p in players}
    for events in seen.events:
        for e in events:
            if isinstance(e, RoundEnded):
                for p, role in e.result.roles:
                    side = Side.MINERS if role is Role.MINER else Side.SABOTEURS
                    won = {role: 1} if side in e.result.winners else {}
                    found = int(e.result.finder == p)
                    out[p] = out[p] + Figures(rounds={role: 1}, won=won, found=found)
            if isinstance(e, GameEnded):
                for p, gold in e.gold:
                    out[p] = out[p] + Figures(games=1, gold=gold, wins=int(p in e.winners))
    return out


async def test_statistics_of_seeded_games_match_an_independent_count(table: Table) -> None:
    expected = {p: Figures() for p in (ANN, BOB, CAT, DAN)}
    for seed, players in ((3, (ANN, BOB, CAT)), (4, (ANN, BOB, CAT, DAN)), (5, (BOB, CAT, DAN))):
        gid = await start(table, players)
        seen = Seen()
        await play_to_end(table, gid, seed, seen=seen)
        for p, f in _independent(seen, players).items():
            expected[p] = expected[p] + f
    stats = await table.archives.group_stats(GROUP, ALL_TIME)
    assert {p.user_id: p.figures for p in stats} == expected
    season = await table.archives.group_stats(GROUP, season_of(table.ctx.now()))
    assert season == stats
    assert sum(f.games for f in expected.values()) == 10
    assert any(f.found for f in expected.values()), "some round was won by reaching the gold"


async def test_deluxe_statistics_count_every_round_of_every_role(table: Table) -> None:
    players = (ANN, BOB, CAT, DAN)
    _gid, seen = await _finished(table, 6, players=players, edition=Edition.DELUXE)
    stats = {p.user_id: p.figures for p in await table.archives.group_stats(GROUP, ALL_TIME)}
    for events in seen.events:
        for e in events:
            if isinstance(e, RoundEnded):
                for p in e.result.paid:  # paid at a round's end: on its winning side or a geologist
                    role = dict(e.result.roles)[p]
                    assert role is Role.GEOLOGIST or stats[p].won.get(role, 0) > 0
    assert all(sum(f.rounds.values()) == 3 for f in stats.values())


async def test_a_cancelled_game_is_archived_and_not_counted(table: Table) -> None:
    gid = await start(table)
    seen = Seen()
    for _ in range(5):
        state = await table.state(gid)
        player = current_player(state)
        assert player is not None
        await play(table, gid, legal_actions(state, player)[0], seen)
    await table.cancel_command(where(), person(ANN), False)
    games = await table.archives.recent(GROUP)
    assert [(g.game_id, g.cancelled) for g in games] == [(gid, True)]
    assert replay(games[0].archive)[-1] == await table.state(gid)
    assert await table.archives.group_stats(GROUP, ALL_TIME) == ()
    text, keyboard = await table.service.history(where())
    assert "cancelled" in text and keyboard == (), "no round ended: nothing to replay"


async def test_a_lobby_cancelled_leaves_no_archive(table: Table) -> None:
    await table.open()
    await table.cancel_command(where(), person(ANN), False)
    assert await table.archives.recent(GROUP) == ()


async def test_a_replay_waits_for_the_group_s_budget(table: Table) -> None:
    budget = MemoryBudget(limit=1000)
    table.sender.budget = budget
    table.sender.clock = table.clock
    gid = await start(table)
    budget.limit = 0  # from now on the group can take nothing
    await play_to_end(table, gid, 3)
    record = await table.record(gid)
    assert record.owed.replays[:2] == (-1, 1), "owed, in the record: the final board, the replay"
    assert [m for m in table.group() if m.kind == "animation"] == []
    budget.limit = 1000
    table.clock.advance(61)
    await table.service.sweep()
    assert len([m for m in table.group() if m.kind == "animation"]) == 3
    assert (await table.record(gid)).owed.is_empty


async def test_the_round_story_tells_who_did_what_and_never_what_a_map_showed(
    table: Table,
) -> None:
    _gid, seen = await _finished(table, 3)
    stories = [t for t in table.said(GROUP) if "is over!" in t]
    assert len(stories) == 3
    assert all("<b>Who did what</b>" in s for s in stories)
    peeks = [e for events in seen.events for e in events if isinstance(e, MapUsed)]
    assert peeks, "the seeded game used maps"
    told = [line for s in stories for line in s.splitlines() if line.startswith("· ")]
    looked = [line for line in told if "looked at the" in line]
    assert 0 < len(looked) <= len(peeks), "told, up to the timeline's length"
    for line in looked:
        assert re.fullmatch(r"· \w+ looked at the (top|middle|bottom) goal card", line), line


async def test_no_role_nor_gold_amount_reaches_the_group_before_its_time(table: Table) -> None:
    _gid, _ = await _finished(table, 4)
    tr = texts(EN)
    roles = [role_name(tr, r) for r in (Role.MINER, Role.SABOTEUR)]
    for text in table.said(GROUP):
        if "is over!" in text or "Game over!" in text or text.startswith("⛏"):
            continue
        assert not any(r in text for r in roles), text
        assert not re.search(r"\d+ gold", text), text


async def test_history_lists_the_latest_games_with_a_button_each(table: Table) -> None:
    first, _ = await _finished(table, 3)
    table.clock.advance(86400 * 3)
    second, _ = await _finished(table, 4)
    text, keyboard = await table.service.history(where())
    lines = text.splitlines()
    assert lines[0] == "<b>The latest games here</b>"
    assert lines[1].startswith("1. ") and "Saboteur" in lines[1] and "winner" in lines[1]
    assert lines[2].startswith("2. ")
    commands = [b.command for row in keyboard for b in row]
    assert commands == [ReplayRound(second, 1), ReplayRound(first, 1)]
    other, _ = await table.service.history(where(OTHER_GROUP)), None
    assert other[0] == "No game has ended here yet. Start one with /new."


async def test_a_history_button_posts_that_round_and_offers_the_next(table: Table) -> None:
    gid, seen = await _finished(table, 3)
    assert isinstance(table.animator, StubAnimator)
    table.animator.drawn.clear()
    toast = await table.service.tap(person(DAN), ReplayRound(gid, 2), GROUP, None)
    assert toast.text == ""
    posted = table.group()[-1]
    assert posted.kind == "animation" and "round 2/3" in posted.text
    assert posted.keyboard is not None
    assert [b.command for row in posted.keyboard for b in row] == [ReplayRound(gid, 3)]
    assert list(table.animator.drawn[-1]) == seen.views[2]
    await table.service.tap(person(DAN), ReplayRound(gid, 3), GROUP, None)
    assert table.group()[-1].keyboard is None, "the last round offers no next"


async def test_history_buttons_refused_clearly(table: Table) -> None:
    gid, _ = await _finished(table, 3)
    before = len(table.sender.messages)
    elsewhere = await table.service.tap(person(DAN), ReplayRound(gid, 1), OTHER_GROUP, None)
    assert elsewhere.alert and elsewhere.text == "These buttons are not yours."
    gone = await table.service.tap(person(DAN), ReplayRound("Gone000001", 1), GROUP, None)
    assert gone.text == "This game is no longer in the history."
    assert len(table.sender.messages) == before


async def test_stats_in_the_group_and_in_private(table: Table) -> None:
    assert "no statistics" in await table.service.group_stats(where())
    await _finished(table, 3)
    text = await table.service.group_stats(where())
    assert text.startswith("<b>Statistics of this group</b>")
    assert "This season" in text and "All time" in text
    for name in ("Ann", "Bob", "Cat"):
        assert text.count(f"{name}: 1 game, ") == 2, text
    mine = await table.service.private_stats(person(ANN))
    assert mine.startswith("<b>Your statistics</b>") and "The Mine" in mine
    nobody = await table.service.private_stats(Person(DAN, "Dan", "en"))
    assert nobody == "You have not finished a game in a group yet."


async def test_the_texts_are_translated(table: Table) -> None:
    await _finished(table, 3)
    await table.service.tap(person(ANN), SetLanguage(KO), GROUP, None)
    text, _ = await table.service.history(where())
    assert "The latest games" not in text and "사보타지" in text, text
    assert "Statistics" not in await table.service.group_stats(where())


async def test_computer_players_are_in_the_archive_and_not_in_the_statistics(
    table: Table,
) -> None:
    gid = await table.start_with_computers((ANN, BOB), 1, Level.RANDOM)
    await play_to_end(table, gid, 3)
    (game,) = await table.archives.recent(GROUP)
    assert game.archive.players == (ANN, BOB, -1) and game.name_of(-1) != "-1"
    stats = await table.archives.group_stats(GROUP, ALL_TIME)
    assert [p.user_id for p in stats] == [ANN, BOB]
    # The archive knows the seat for a computer's (by its id), so the history marks it 🤖 in
    # the reader's language; a game the computer won, for one:
    end = dataclasses.replace(game.archive.end, gold=(1, 2, 9))
    won = dataclasses.replace(game, archive=dataclasses.replace(game.archive, end=end))
    name = game.name_of(-1)
    assert f"winner: 🤖 {name}" in history_texts.history_text((won,), EN)
    korean = history_texts.history_text((won,), KO)
    assert "🤖 " in korean and name not in korean


async def test_a_practice_game_gets_its_replays_and_is_no_group_s_history(table: Table) -> None:
    await table.service.practice(person(ANN))
    gid = await table.store.active_game(ANN, None)
    assert gid is not None
    await table.set_level(gid, Level.RANDOM)
    revision = (await table.record(gid)).lobby.revision
    toast = await table.service.tap(person(ANN), StartGame(gid, revision), ANN, None)
    assert toast.text == "Done!"
    await play_to_end(table, gid, 3)
    record = await table.record(gid)
    assert record.status is Status.FINISHED and record.owed.is_empty
    assert len(table.sender.live(ANN, "animation")) == 3
    assert await table.archives.recent(ANN) == ()
    assert await table.archives.player_stats(ANN) == ()
    last = table.sender.live(ANN, "photo")
    assert any("Game over!" in m.text for m in last), "the scoreboard ends the last board"


class _SlowAnimator(StubAnimator):
    """Replays that take a while to draw, noting when each was drawn.

    A drawing holds its thread until the event loop has ticked three more times (`ticks`), or
    for 10 s: drawn off the loop it ends as soon as the loop went on, however loaded the machine
    (a fixed 0.2 s could see fewer than three ticks of a starved process); drawn on the loop, it
    sees no tick and lasts the 10 s."""

    def __init__(self, ticks: list[float]) -> None:
        super().__init__()
        self.ticks = ticks
        self.spans: list[tuple[float, float]] = []

    def round_replay(self, views: Sequence[PublicView]) -> bytes | None:
        begun = time.monotonic()
        seen = len(self.ticks)
        while len(self.ticks) < seen + 4 and time.monotonic() < begun + 10:
            time.sleep(0.01)  # a long round's drawing, holding its thread
        self.spans.append((begun, time.monotonic()))
        return super().round_replay(views)


async def test_other_work_goes_on_while_a_replay_is_drawn() -> None:
    """A replay is drawn off the event loop: other games' updates are handled meanwhile."""
    ticks: list[float] = []
    animator = _SlowAnimator(ticks)
    table = Table(animator=animator)

    async def other_games() -> None:
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.01)

    running = asyncio.create_task(other_games())
    try:
        await _finished(table)
    finally:
        running.cancel()
    assert len(animator.spans) == 3
    for begun, ended in animator.spans:
        assert sum(begun < t < ended for t in ticks) >= 3, "the loop was held by the drawing"


async def test_a_group_s_history_stats_language_and_replays_follow_it_to_its_supergroup(
    table: Table,
) -> None:
    """A group upgraded to a supergroup (a new chat id) keeps what it played: /history and
    /stats there show the games before, their replay buttons work there, its language stays,
    and each player's private /stats names it once."""
    supergroup = -1009876
    gid, _ = await _finished(table, 3)
    await table.store.set_group_language(GROUP, KO)
    before = await table.archives.group_stats(GROUP, ALL_TIME)
    await table.service.migrate(GROUP, supergroup)
    assert await table.store.group_language(supergroup) == KO
    assert await table.archives.group_stats(supergroup, ALL_TIME) == before
    assert await table.archives.group_stats(GROUP, ALL_TIME) == ()
    _, keyboard = await table.service.history(where(supergroup))
    assert [b.command for row in keyboard for b in row] == [ReplayRound(gid, 1)]
    toast = await table.service.tap(person(DAN), ReplayRound(gid, 2), supergroup, None)
    assert not toast.alert, toast.text
    assert [m.kind for m in table.sender.messages if m.chat_id == supergroup] == ["animation"]
    private = await table.archives.player_stats(ANN)
    assert [g.chat_id for g in private] == [supergroup]
