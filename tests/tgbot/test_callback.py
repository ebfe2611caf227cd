"""The callback codec: round trips, the 64-byte limit, and refusal of anything it did not write."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai import Level
from engine import Edition, Tool
from tgbot import callback as cb
from tgbot import links
from tgbot.i18n import LANGUAGES, Language

GID = "Ab3dE9xYz0"

game_ids = st.text(alphabet=cb.GAME_ID_ALPHABET, min_size=10, max_size=10)
versions = st.integers(0, cb.MAX_VERSION)
hand = st.integers(0, cb.MAX_HAND_INDEX)
spots = st.integers(1, cb.MAX_SPOT)
seats = st.integers(0, cb.MAX_SEAT)
goals = st.integers(0, cb.GOAL_COUNT - 1)
tools = st.sampled_from(Tool)
levels = st.sampled_from([Level.HEURISTIC, Level.SEARCH])  # the levels a button offers


def _sets(lo: int, hi: int) -> st.SearchStrategy[frozenset[int]]:
    return st.frozensets(hand, min_size=lo, max_size=hi)


def _gv(cls: type[Any], **more: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.builds(cls, game=game_ids, version=versions, **more)


STRATEGIES: dict[type[Any], st.SearchStrategy[Any]] = {
    cb.JoinGame: _gv(cb.JoinGame),
    cb.LeaveGame: _gv(cb.LeaveGame),
    cb.StartGame: _gv(cb.StartGame),
    cb.CancelGame: _gv(cb.CancelGame),
    cb.KeepGame: st.builds(cb.KeepGame, game=game_ids),
    cb.SetEdition: _gv(cb.SetEdition, edition=st.sampled_from(Edition)),
    cb.ToggleVariant: _gv(cb.ToggleVariant, variant=st.sampled_from(cb.Variant)),
    cb.SetTurnLimit: _gv(
        cb.SetTurnLimit, hours=st.none() | st.integers(1, cb.MAX_TURN_LIMIT_HOURS)
    ),
    cb.AddComputer: _gv(cb.AddComputer, level=levels),
    cb.RemoveComputer: _gv(cb.RemoveComputer),
    cb.SetComputers: _gv(cb.SetComputers, count=seats, level=levels),
    cb.ShowHand: _gv(cb.ShowHand),
    cb.PickCard: _gv(cb.PickCard, card=hand),
    cb.TurnCard: _gv(cb.TurnCard, card=hand),
    cb.PickSpot: _gv(cb.PickSpot, card=hand, spot=spots),
    cb.PickTarget: _gv(cb.PickTarget, card=hand, seat=seats),
    cb.PickGoal: _gv(cb.PickGoal, card=hand, goal=goals),
    cb.PickTool: _gv(cb.PickTool, card=hand, seat=seats, tool=tools),
    cb.ConfirmSpot: _gv(cb.ConfirmSpot, card=hand, spot=spots),
    cb.ConfirmTarget: _gv(cb.ConfirmTarget, card=hand, seat=seats, tool=st.none() | tools),
    cb.ConfirmGoal: _gv(cb.ConfirmGoal, card=hand, goal=goals),
    cb.Back: _gv(cb.Back),
    cb.StartDiscard: _gv(cb.StartDiscard),
    cb.ToggleDiscard: _gv(cb.ToggleDiscard, card=hand, selected=_sets(0, 10)),
    cb.ConfirmDiscard: _gv(cb.ConfirmDiscard, selected=_sets(1, cb.MAX_DISCARD)),
    cb.ClearFront: _gv(cb.ClearFront, selected=_sets(2, 2), item=st.integers(0, 9)),
    cb.StealFrom: _gv(cb.StealFrom, seat=st.integers(0, cb.MAX_SEAT)),
    cb.ReplayRound: st.builds(cb.ReplayRound, game=game_ids, round=st.integers(1, cb.ROUNDS)),
    cb.Rematch: st.builds(cb.Rematch, game=game_ids),
    cb.ConfirmRematch: st.builds(cb.ConfirmRematch, game=game_ids),
    cb.SetLanguage: st.builds(cb.SetLanguage, language=st.sampled_from(LANGUAGES)),
    cb.Noop: st.just(cb.Noop()),
}
commands = st.one_of(*STRATEGIES.values())

V = cb.MAX_VERSION
ALL = frozenset(range(10))
# The longest wire form of every command type.
LARGEST: list[cb.Command] = [
    cb.JoinGame(GID, V),
    cb.LeaveGame(GID, V),
    cb.StartGame(GID, V),
    cb.CancelGame(GID, V),
    cb.KeepGame(GID),
    cb.SetEdition(GID, V, Edition.DELUXE),
    cb.ToggleVariant(GID, V, cb.Variant.GREEDY_DWARF),
    cb.SetTurnLimit(GID, V, cb.MAX_TURN_LIMIT_HOURS),
    cb.AddComputer(GID, V, Level.HEURISTIC),
    cb.RemoveComputer(GID, V),
    cb.SetComputers(GID, V, cb.MAX_SEAT, Level.SEARCH),
    cb.ShowHand(GID, V),
    cb.PickCard(GID, V, 9),
    cb.TurnCard(GID, V, 9),
    cb.PickSpot(GID, V, 9, cb.MAX_SPOT),
    cb.PickTarget(GID, V, 9, cb.MAX_SEAT),
    cb.PickGoal(GID, V, 9, 2),
    cb.PickTool(GID, V, 9, cb.MAX_SEAT, Tool.LANTERN),
    cb.ConfirmSpot(GID, V, 9, cb.MAX_SPOT),
    cb.ConfirmTarget(GID, V, 9, cb.MAX_SEAT, Tool.CART),
    cb.ConfirmGoal(GID, V, 9, 2),
    cb.Back(GID, V),
    cb.StartDiscard(GID, V),
    cb.ToggleDiscard(GID, V, 9, ALL),
    cb.ConfirmDiscard(GID, V, frozenset({7, 8, 9})),
    cb.ClearFront(GID, V, frozenset({8, 9}), 9),
    cb.StealFrom(GID, V, cb.MAX_SEAT),
    cb.ReplayRound(GID, cb.ROUNDS),
    cb.Rematch(GID),
    cb.ConfirmRematch(GID),
    cb.SetLanguage(Language("ko")),
    cb.Noop(),
]


def test_the_strategies_and_the_largest_examples_cover_every_command() -> None:
    assert set(STRATEGIES) == set(cb.COMMAND_TYPES)
    assert {type(c) for c in LARGEST} == set(cb.COMMAND_TYPES)


@given(commands)
def test_decode_inverts_encode(command: cb.Command) -> None:
    data = cb.encode(command)
    assert data.isascii()
    assert len(data.encode("utf-8")) <= cb.MAX_BYTES
    assert cb.decode(data) == command


@pytest.mark.parametrize("command", LARGEST, ids=lambda c: type(c).__name__)
def test_the_largest_values_fit_in_64_bytes(command: cb.Command) -> None:
    data = cb.encode(command)
    assert len(data.encode("utf-8")) == cb.max_length(type(command)) <= 64
    assert cb.decode(data) == command


def test_an_example_string() -> None:
    data = cb.encode(cb.PickSpot(GID, 42, 3, 12))
    assert data == "s1:gp:Ab3dE9xYz0:42:3:12"
    assert len(data.encode()) == 24


def test_optional_fields_are_written_empty() -> None:
    assert cb.encode(cb.SetTurnLimit(GID, 1, None)) == "s1:lt:Ab3dE9xYz0:1:"
    assert cb.encode(cb.ConfirmTarget(GID, 1, 0, 2, None)) == "s1:ct:Ab3dE9xYz0:1:0:2:"
    assert cb.encode(cb.ToggleDiscard(GID, 1, 4, frozenset())) == "s1:dk:Ab3dE9xYz0:1:4:"
    assert cb.encode(cb.ConfirmDiscard(GID, 1, frozenset({5, 0, 2}))) == "s1:dc:Ab3dE9xYz0:1:025"


def test_only_language_and_noop_belong_to_no_game() -> None:
    assert not cb.is_game_command(cb.Noop())
    assert not cb.is_game_command(cb.SetLanguage(Language("en")))
    assert all(
        cb.is_game_command(c) for c in LARGEST if not isinstance(c, cb.SetLanguage | cb.Noop)
    )


@given(st.text(max_size=80))
def test_decode_never_raises_on_text(data: str) -> None:
    result = cb.decode(data)
    assert result is None or cb.encode(result) == data


@given(st.binary(max_size=80))
def test_decode_never_raises_on_bytes_read_as_text(raw: bytes) -> None:
    for text in (raw.decode("latin-1"), raw.decode("utf-8", "surrogateescape")):
        result = cb.decode(text)
        assert result is None or cb.encode(result) == text


@given(commands, st.data())
def test_every_accepted_string_is_the_canonical_one(
    command: cb.Command, data: st.DataObject
) -> None:
    wire = cb.encode(command)
    at = data.draw(st.integers(0, len(wire)))
    piece = data.draw(st.sampled_from(["", ":", "0", "9", "a", "-", "٣", " ", "s1", "00"]))
    cut = data.draw(st.integers(0, 2))
    mutated = wire[:at] + piece + wire[at + cut :]
    result = cb.decode(mutated)
    assert result is None or cb.encode(result) == mutated


@pytest.mark.parametrize(
    "data",
    [
        None,
        b"s1:no",
        "",
        "s1",
        "s1:",
        "s2:no",
        "S1:no",
        "s1:no:",
        "s1:zz:Ab3dE9xYz0:1",
        "s1:gh:Ab3dE9xYz0",  # a field missing
        "s1:gh:Ab3dE9xYz0:1:2",  # a field too many
        "s1:gh:Ab3dE9xYz:1",  # game id too short
        "s1:gh:Ab3dE9xYz01:1",  # too long
        "s1:gh:Ab3dE9xY-0:1",  # not base62
        "s1:gh:Ab3dE9xYz0:01",  # leading zero
        "s1:gh:Ab3dE9xYz0:-1",
        "s1:gh:Ab3dE9xYz0:+1",
        "s1:gh:Ab3dE9xYz0: 1",
        "s1:gh:Ab3dE9xYz0:1_0",
        "s1:gh:Ab3dE9xYz0:٣",  # a non-ASCII digit
        "s1:gh:Ab3dE9xYz0:2147483648",  # above MAX_VERSION
        "s1:gh:Ab3dE9xYz0:99999999999999999999",
        "s1:gc:Ab3dE9xYz0:1:10",  # hand index 10
        "s1:gp:Ab3dE9xYz0:1:0:0",  # spots start at 1
        "s1:gp:Ab3dE9xYz0:1:0:1000",
        "s1:gt:Ab3dE9xYz0:1:0:12",  # seat 12
        "s1:gg:Ab3dE9xYz0:1:0:3",  # goal 3
        "s1:go:Ab3dE9xYz0:1:0:0:",  # a tool is required here
        "s1:go:Ab3dE9xYz0:1:0:0:x",
        "s1:lt:Ab3dE9xYz0:1:0",  # hours start at 1; none is empty
        "s1:lt:Ab3dE9xYz0:1:169",
        "s1:le:Ab3dE9xYz0:1:base",
        "s1:lv:Ab3dE9xYz0:1:xx",
        "s1:dk:Ab3dE9xYz0:1:0:20",  # indexes out of order
        "s1:dk:Ab3dE9xYz0:1:0:22",  # repeated
        "s1:dk:Ab3dE9xYz0:1:0:0a",
        "s1:dc:Ab3dE9xYz0:1:",  # discard nothing
        "s1:dc:Ab3dE9xYz0:1:0123",  # more than three
        "s1:df:Ab3dE9xYz0:1:0:0",  # clear with one card
        "s1:df:Ab3dE9xYz0:1:012:0",
        "s1:la:fr",
        "s1:la:KO",
        "s1:gh:Ab3dE9xYz0:1" + "x" * 60,
    ],
)
def test_malformed_data_decodes_to_none(data: Any) -> None:
    assert cb.decode(data) is None


@pytest.mark.parametrize(
    "command",
    [
        cb.PickCard(GID, 1, 10),
        cb.PickCard(GID, -1, 0),
        cb.PickCard(GID, cb.MAX_VERSION + 1, 0),
        cb.PickCard("short", 1, 0),
        cb.PickCard("Ab3dE9xY:0", 1, 0),
        cb.PickSpot(GID, 1, 0, 0),
        cb.PickCard(GID, True, 0),
        cb.SetTurnLimit(GID, 1, 0),
        cb.ConfirmDiscard(GID, 1, frozenset()),
        cb.ToggleDiscard(GID, 1, 0, frozenset({10})),
        cb.ClearFront(GID, 1, frozenset({1}), 0),
        cb.StealFrom(GID, 1, cb.MAX_SEAT + 1),
    ],
)
def test_encode_refuses_values_out_of_range(command: cb.Command) -> None:
    with pytest.raises(ValueError):
        cb.encode(command)


def test_game_ids_are_ten_base62_characters_from_the_given_source() -> None:
    ids = [cb.new_game_id(random.Random(7)) for _ in range(3)]
    assert ids[0] == ids[1] == ids[2]
    rng = random.Random(1)
    many = {cb.new_game_id(rng) for _ in range(2000)}
    assert len(many) == 2000
    assert all(re.fullmatch(r"[0-9A-Za-z]{10}", g) and cb.is_game_id(g) for g in many)
    assert cb.is_game_id(cb.new_game_id(random.SystemRandom()))


@given(game_ids)
def test_start_payloads_round_trip_within_telegrams_rules(game: str) -> None:
    for payload, link in (
        (links.join_payload(game), links.JoinLink),
        (links.hand_payload(game), links.HandLink),
    ):
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload)
        assert links.parse_start_payload(payload) == link(game)


@given(st.text(max_size=80))
def test_parse_start_payload_never_raises(text: str) -> None:
    result = links.parse_start_payload(text)
    assert result is None or cb.is_game_id(result.game)


@pytest.mark.parametrize(
    "text", [None, "", "join-", "join-short", "join-Ab3dE9xYz0x", "leave-Ab3dE9xYz0", "Ab3dE9xYz0"]
)
def test_foreign_start_payloads_are_ignored(text: str | None) -> None:
    assert links.parse_start_payload(text) is None


def test_payload_helpers_refuse_bad_ids_and_build_links() -> None:
    with pytest.raises(ValueError):
        links.join_payload("bad id")
    assert (
        links.start_link("sabbot", links.join_payload(GID))
        == "https://t.me/sabbot?start=join-Ab3dE9xYz0"
    )


def test_no_button_adds_a_random_computer_player() -> None:
    """`random` is for tests only: it cannot be written on a button, nor read from one."""
    with pytest.raises(ValueError):
        cb.encode(cb.AddComputer(GID, 1, Level.RANDOM))
    strong = cb.encode(cb.AddComputer(GID, 1, Level.SEARCH))
    assert cb.decode(strong) == cb.AddComputer(GID, 1, Level.SEARCH)
    assert cb.decode(strong[:-1] + "r") is None
    assert cb.decode(strong.rsplit(cb.SEP, 1)[0]) is None  # the old form, without a level
