"""Archives (engine/archive.py): seeded games replay exactly; a damaged archive fails loudly."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from engine import (
    Card,
    Discard,
    Edition,
    GameState,
    GoldRule,
    Options,
    Phase,
    PlaceTunnel,
    legal_actions,
    public_view,
    to_json,
)
from engine.archive import (
    Archive,
    ArchiveError,
    archive_of,
    from_archive_json,
    move_text,
    parse_move,
    public_rounds,
    replay,
    to_archive_json,
    transitions,
)
from engine.events import RoundEnded
from engine.model import player_range

from .playout import Step, played, playout
from .scenario import base_game

# (players, edition, seed, dig): both editions, small to full tables, some rounds won by gold.
GAMES = [
    (3, Edition.BASE, 7, 0.0),
    (5, Edition.BASE, 5, 0.7),
    (10, Edition.BASE, 1, 0.0),
    (2, Edition.DELUXE, 3, 0.7),
    (4, Edition.DELUXE, 99, 0.0),
    (5, Edition.DELUXE, 5, 0.7),
    (12, Edition.DELUXE, 5, 0.0),
]
IDS = [f"{e.value}-{n}p-seed{s}{'-dig' if d else ''}" for n, e, s, d in GAMES]
# "A few KB": the largest seeded game measured 5.1 KB (Deluxe, 12 players, 210 moves).
MAX_BYTES = 8 * 1024


def _archive(steps: tuple[Step, ...]) -> Archive:
    return archive_of(steps[-1].transition.state, [(s.player, s.action) for s in steps])


@pytest.mark.parametrize(("players", "edition", "seed", "dig"), GAMES, ids=IDS)
def test_a_seeded_game_replays_to_exactly_its_states(
    players: int, edition: Edition, seed: int, dig: float
) -> None:
    """Every state of the replay is the played one, the final state byte for byte."""
    steps = played(players, edition, seed, dig)
    archive = _archive(steps)
    states = replay(archive)
    assert len(states) == len(steps) + 1
    assert list(states[:-1]) == [s.before for s in steps]
    final = steps[-1].transition.state
    assert states[-1] == final and to_json(states[-1]) == to_json(final)
    assert archive.end.over and final.phase is Phase.OVER
    assert archive.end.gold == final.gold


@pytest.mark.parametrize(("players", "edition", "seed", "dig"), GAMES, ids=IDS)
def test_the_json_round_trips_and_stays_small(
    players: int, edition: Edition, seed: int, dig: float
) -> None:
    """Reading the JSON gives the same archive, writing it again the same text; a few KB."""
    archive = _archive(played(players, edition, seed, dig))
    text = to_archive_json(archive)
    assert from_archive_json(text) == archive
    assert to_archive_json(from_archive_json(text)) == text
    assert len(text.encode()) <= MAX_BYTES
    doc = json.loads(text)
    assert doc["schema"] == 1 and len(doc["moves"]) == len(archive.moves)


def test_a_cancelled_game_archives_and_replays_to_where_it_stopped() -> None:
    """A game stopped in its second round: the archive says so and replays to that state."""
    steps = played(4, Edition.DELUXE, 99)
    cut = next(i for i, s in enumerate(steps) if s.before.round == 2) + 5
    stopped = steps[cut - 1].transition.state
    archive = archive_of(stopped, [(s.player, s.action) for s in steps[:cut]])
    assert not archive.end.over
    assert replay(from_archive_json(to_archive_json(archive)))[-1] == stopped


def test_an_unplayed_game_archives_too() -> None:
    """Cancelled before the first move: no moves, the dealt state."""
    state = base_game(4, seed=3, options=Options(gold=GoldRule.PER_MINER, greedy_dwarf=True))
    archive = archive_of(state, [])
    assert replay(from_archive_json(to_archive_json(archive))) == (state,)


def test_moves_that_do_not_lead_to_the_state_are_refused() -> None:
    """archive_of checks its own work: a final state the moves do not reach is an error."""
    steps = played(3, Edition.BASE, 7)
    with pytest.raises(ArchiveError, match="do not lead"):
        archive_of(steps[-1].transition.state, [(s.player, s.action) for s in steps[:-1]])


def _tampered(archive: Archive, **doc_changes: object) -> str:
    doc = json.loads(to_archive_json(archive))
    doc.update(doc_changes)
    return json.dumps(doc)


def test_an_illegal_move_stops_the_replay_naming_the_move() -> None:
    """A move changed to a card the player does not hold fails at that move, not later."""
    archive = _archive(played(3, Edition.BASE, 7))
    first = archive.moves[0][0]
    held = set(replay(archive)[0].hands[archive.players.index(first)])
    card = next(c for c in Card if c not in held and c.value >= Card.CROSS)
    forged = dataclasses.replace(archive, moves=((first, Discard((card,))), *archive.moves[1:]))
    with pytest.raises(ArchiveError, match=r"move 1 .*card_not_in_hand"):
        replay(forged)
    lines = json.loads(to_archive_json(archive))["moves"]
    seat = lines[0].split(" ")[0]
    wrong_seat = str((int(seat) + 1) % 3)
    text = _tampered(archive, moves=[wrong_seat + lines[0][len(seat) :], *lines[1:]])
    with pytest.raises(ArchiveError, match=r"move 1 .*not_your_turn"):
        replay(from_archive_json(text))


def test_a_wrong_seed_is_an_error_not_another_game() -> None:
    """Any other seed deals other hands: the replay fails instead of showing something else."""
    archive = _archive(played(5, Edition.BASE, 5, 0.7))
    for seed in (4, 6, 5 + 2**32):
        with pytest.raises(ArchiveError):
            replay(from_archive_json(_tampered(archive, seed=seed)))


def test_a_wrong_end_is_an_error() -> None:
    """Right moves, wrong recorded result: the end check catches it."""
    archive = _archive(played(3, Edition.BASE, 7))
    doc = json.loads(to_archive_json(archive))
    doc["end"]["gold"][0] += 1
    with pytest.raises(ArchiveError, match="does not end where"):
        replay(from_archive_json(json.dumps(doc)))
    with pytest.raises(ArchiveError, match="does not end where"):
        replay(dataclasses.replace(archive, moves=archive.moves[:-1]))


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        '{"schema": 2}',
        '{"players": [1, 2, 3]}',
        '{"schema": "1"}',
    ],
)
def test_other_documents_are_refused_by_schema(text: str) -> None:
    """Not JSON, not an object, no or another schema: ArchiveError (a ValueError)."""
    with pytest.raises(ArchiveError):
        from_archive_json(text)
    assert issubclass(ArchiveError, ValueError)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("edition", "chess"),
        ("seed", "7"),
        ("players", [1, True, 3]),
        ("options", {"gold": "lots", "greedy_dwarf": False}),
        ("end", {"over": 1, "rng": "0", "gold": [0, 0, 0]}),
        ("moves", ["0 T CROSS 1"]),
        ("moves", ["0 X CROSS 1,0"]),
        ("moves", ["0 T NO_SUCH_CARD 1,0"]),
        ("moves", ["3 D CROSS"]),
        ("moves", ["-1 D CROSS"]),
        ("moves", ["0 A BREAK_CART 9"]),
        ("moves", ["0 A REPAIR_CART 1 hammer"]),
        ("moves", [7]),
    ],
)
def test_damaged_fields_are_refused(field: str, value: object) -> None:
    """A field of the wrong kind, an unknown card, verb, seat or tool: ArchiveError."""
    archive = _archive(played(3, Edition.BASE, 7))
    with pytest.raises(ArchiveError):
        replay(from_archive_json(_tampered(archive, **{field: value})))


def test_players_that_cannot_play_are_an_error() -> None:
    """More seats than the edition has: ArchiveError at the set-up."""
    archive = _archive(played(3, Edition.BASE, 7))
    with pytest.raises(ArchiveError, match="set the game up"):
        replay(from_archive_json(_tampered(archive, players=list(range(11)))))


def _sample(states: tuple[GameState, ...]) -> list[GameState]:
    return list(states[::9])


def test_every_offered_action_reads_back_from_its_notation() -> None:
    """move_text and parse_move are inverse on every kind of action of both editions."""
    kinds: set[str] = set()
    for players, edition, seed, dig in ((5, Edition.BASE, 5, 0.7), (4, Edition.DELUXE, 99, 0.0)):
        steps = played(players, edition, seed, dig)
        for state in _sample(tuple(s.before for s in steps)):
            player = state.players[state.turn]
            for action in legal_actions(state, player):
                text = move_text(state.players, action)
                assert parse_move(state.players, text) == action, text
                kinds.add(text.split(" ")[0] + (" r" if text.endswith(" r") else ""))
    assert kinds >= {"T", "T r", "A", "M", "R", "D", "C"}


def test_public_rounds_are_the_groups_views_and_the_round_end() -> None:
    """Per round: the dealt view, the view after each move, the round end; public events only."""
    steps = played(5, Edition.BASE, 5, 0.7)
    rounds = public_rounds(transitions(_archive(steps)))
    assert [r.round for r in rounds] == [1, 2, 3]
    assert sum(len(r.moves) for r in rounds) == len(steps)
    i = 0
    for r in rounds:
        assert len(r.views) == len(r.moves) + 1
        assert r.views[0] == public_view(steps[i].before)
        for k, move in enumerate(r.moves, start=1):
            assert all(e.audience is None for e in move)
            step = steps[i + k - 1]
            assert move == tuple(e for e in step.transition.events if e.audience is None)
            if k < len(r.moves):
                assert r.views[k] == public_view(step.transition.state)
        assert r.ended is not None and r.ended in r.moves[-1]
        end = r.views[-1]
        assert end.board == r.ended.board and end.results[-1] == r.ended.result
        assert end.current is None
        i += len(r.moves)
    assert rounds[-1].views[-1].phase is Phase.OVER
    assert rounds[-1].views[-1].final_gold == public_view(steps[-1].transition.state).final_gold
    # This seed's first round was won by reaching the gold, which is face up at its end.
    first_end = rounds[0].views[-1].board
    assert any(g.revealed and g.card is Card.GOLD for g in first_end.goals)


def test_a_cancelled_round_has_no_end_view() -> None:
    """A game stopped mid-round: the last round replays up to the stop, with no round end."""
    steps = played(4, Edition.DELUXE, 99)[:20]
    rounds = public_rounds(transitions(_archive(steps)))
    assert len(rounds) == 1 and rounds[0].ended is None
    assert rounds[0].views[-1] == public_view(steps[-1].transition.state)
    assert not any(isinstance(e, RoundEnded) for m in rounds[0].moves for e in m)


def test_a_placement_and_its_turn_are_written_compactly() -> None:
    """The notation of docs/archive.md: verb, card name, cell, `r` for a card turned."""
    players = (11, 12, 13)
    assert move_text(players, PlaceTunnel(Card.CURVE_NW, (3, -1), rotated=True)) == (
        "T CURVE_NW 3,-1 r"
    )
    assert parse_move(players, "A BREAK_CART 2").target == 13  # type: ignore[union-attr]


def test_the_example_of_docs_archive_md_replays() -> None:
    """The documented example is a real archive: three moves of a 3-player base game."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "archive.md").read_text()
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    states = replay(from_archive_json(example))
    assert len(states) == 4 and states[-1].last_at == (0, -1)


@pytest.mark.slow
@pytest.mark.parametrize("edition", list(Edition))
def test_seeded_games_of_every_player_count_replay_exactly(edition: Edition) -> None:
    """Every table size of the edition, random and digging players: exact replays, same JSON."""
    for players in player_range(edition):
        for seed, dig in ((players, 0.0), (players + 100, 0.8)):
            steps = tuple(playout(players, edition, seed, dig=dig))
            archive = _archive(steps)
            text = to_archive_json(archive)
            assert len(text.encode()) <= MAX_BYTES
            states = replay(from_archive_json(text))
            assert to_json(states[-1]) == to_json(steps[-1].transition.state)
            assert list(states[:-1]) == [s.before for s in steps]
