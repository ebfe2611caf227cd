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
from tgbot import buttons as bt
from tgbot import callback as cb
from tgbot import game_ids as gids
from tgbot import links
from tgbot.i18n import LANGUAGES, Language

GID = "Ab3dE9xYz0"

game_ids = st.text(alphabet=gids.GAME_ID_ALPHABET, min_size=10, max_size=10)
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
    bt.JoinGame: _gv(bt.JoinGame),
    bt.LeaveGame: _gv(bt.LeaveGame),
    bt.StartGame: _gv(bt.StartGame),
    bt.CancelGame: _gv(bt.CancelGame),
    bt.KeepGame: st.builds(bt.KeepGame, game=game_ids),
    bt.SetEdition: _gv(bt.SetEdition, edition=st.sampled_from(Edition)),
    bt.ToggleVariant: _gv(bt.ToggleVariant, variant=st.sampled_from(bt.Variant)),
    bt.SetTurnLimit: _gv(
        bt.SetTurnLimit, hours=st.none() | st.integers(1, cb.MAX_TURN_LIMIT_HOURS)
    ),
    bt.AddComputer: _gv(bt.AddComputer, level=levels),
    bt.RemoveComputer: _gv(bt.RemoveComputer),
    bt.SetComputers: _gv(bt.SetComputers, count=seats, level=levels),
    bt.ShowHand: _gv(bt.ShowHand),
    bt.PickCard: _gv(bt.PickCard, card=hand),
    bt.TurnCard: _gv(bt.TurnCard, card=hand),
    bt.PickSpot: _gv(bt.PickSpot, card=hand, spot=spots),
    bt.PickTarget: _gv(bt.PickTarget, card=hand, seat=seats),
    bt.PickGoal: _gv(bt.PickGoal, card=hand, goal=goals),
    bt.PickTool: _gv(bt.PickTool, card=hand, seat=seats, tool=tools),
    bt.ConfirmSpot: _gv(bt.ConfirmSpot, card=hand, spot=spots),
    bt.ConfirmTarget: _gv(bt.ConfirmTarget, card=hand, seat=seats, tool=st.none() | tools),
    bt.ConfirmGoal: _gv(bt.ConfirmGoal, card=hand, goal=goals),
    bt.Back: _gv(bt.Back),
    bt.StartDiscard: _gv(bt.StartDiscard),
    bt.ToggleDiscard: _gv(bt.ToggleDiscard, card=hand, selected=_sets(0, 10)),
    bt.ConfirmDiscard: _gv(bt.ConfirmDiscard, selected=_sets(1, cb.MAX_DISCARD)),
    bt.ClearFront: _gv(bt.ClearFront, selected=_sets(2, 2), item=st.integers(0, 9)),
    bt.StealFrom: _gv(bt.StealFrom, seat=st.integers(0, cb.MAX_SEAT)),
    bt.ReplayRound: st.builds(bt.ReplayRound, game=game_ids, round=st.integers(1, cb.ROUNDS)),
    bt.Rematch: st.builds(bt.Rematch, game=game_ids),
    bt.ConfirmRematch: st.builds(bt.ConfirmRematch, game=game_ids),
    bt.SetLanguage: st.builds(bt.SetLanguage, language=st.sampled_from(LANGUAGES)),
    bt.Noop: st.just(bt.Noop()),
}
commands = st.one_of(*STRATEGIES.values())

V = cb.MAX_VERSION
ALL = frozenset(range(10))
# The longest wire form of every command type.
LARGEST: list[bt.Command] = [
    bt.JoinGame(GID, V),
    bt.LeaveGame(GID, V),
    bt.StartGame(GID, V),
    bt.CancelGame(GID, V),
    bt.KeepGame(GID),
    bt.SetEdition(GID, V, Edition.DELUXE),
    bt.ToggleVariant(GID, V, bt.Variant.GREEDY_DWARF),
    bt.SetTurnLimit(GID, V, cb.MAX_TURN_LIMIT_HOURS),
    bt.AddComputer(GID, V, Level.HEURISTIC),
    bt.RemoveComputer(GID, V),
    bt.SetComputers(GID, V, cb.MAX_SEAT, Level.SEARCH),
    bt.ShowHand(GID, V),
    bt.PickCard(GID, V, 9),
    bt.TurnCard(GID, V, 9),
    bt.PickSpot(GID, V, 9, cb.MAX_SPOT),
    bt.PickTarget(GID, V, 9, cb.MAX_SEAT),
    bt.PickGoal(GID, V, 9, 2),
    bt.PickTool(GID, V, 9, cb.MAX_SEAT, Tool.LANTERN),
    bt.ConfirmSpot(GID, V, 9, cb.MAX_SPOT),
    bt.ConfirmTarget(GID, V, 9, cb.MAX_SEAT, Tool.CART),
    bt.ConfirmGoal(GID, V, 9, 2),
    bt.Back(GID, V),
    bt.StartDiscard(GID, V),
    bt.ToggleDiscard(GID, V, 9, ALL),
    bt.ConfirmDiscard(GID, V, frozenset({7, 8, 9})),
    bt.ClearFront(GID, V, frozenset({8, 9}), 9),
    bt.StealFrom(GID, V, cb.MAX_SEAT),
    bt.ReplayRound(GID, cb.ROUNDS),
    bt.Rematch(GID),
    bt.ConfirmRematch(GID),
    bt.SetLanguage(Language("ko")),
    bt.Noop(),
]


def test_the_strategies_and_the_largest_examples_cover_every_command() -> None:
    assert set(STRATEGIES) == set(cb.COMMAND_TYPES)
    assert {type(c) for c in LARGEST} == set(cb.COMMAND_TYPES)


@given(commands)
def test_decode_inverts_encode(command: bt.Command) -> None:
    data = cb.encode(command)
    assert data.isascii()
    assert len(data.encode("utf-8")) <= cb.MAX_BYTES
    assert cb.decode(data) == command


@pytest.mark.parametrize("command", LARGEST, ids=lambda c: type(c).__name__)
def test_the_largest_values_fit_in_64_bytes(command: bt.Command) -> None:
    data = cb.encode(command)
    assert len(data.encode("utf-8")) == cb.max_length(type(command)) <= 64
    assert cb.decode(data) == command


def test_an_example_string() -> None:
    data = cb.encode(bt.PickSpot(GID, 42, 3, 12))
    assert data == "s1:gp:Ab3dE9xYz0:42:3:12"
    assert len(data.encode()) == 24


def test_optional_fields_are_written_empty() -> None:
    assert cb.encode(bt.SetTurnLimit(GID, 1, None)) == "s1:lt:Ab3dE9xYz0:1:"
    assert cb.encode(bt.ConfirmTarget(GID, 1, 0, 2, None)) == "s1:ct:Ab3dE9xYz0:1:0:2:"
    assert cb.encode(bt.ToggleDiscard(GID, 1, 4, frozenset())) == "s1:dk:Ab3dE9xYz0:1:4:"
    assert cb.encode(bt.ConfirmDiscard(GID, 1, frozenset({5, 0, 2}))) == "s1:dc:Ab3dE9xYz0:1:025"


def test_only_language_and_noop_belong_to_no_game() -> None:
    assert not bt.is_game_command(bt.Noop())
    assert not bt.is_game_command(bt.SetLanguage(Language("en")))
    assert all(
        bt.is_game_command(c) for c in LARGEST if not isinstance(c, bt.SetLanguage | bt.Noop)
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
    command: bt.Command, data: st.DataObject
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
        bt.PickCard(GID, 1, 10),
        bt.PickCard(GID, -1, 0),
        bt.PickCard(GID, cb.MAX_VERSION + 1, 0),
        bt.PickCard("short", 1, 0),
        bt.PickCard("Ab3dE9xY:0", 1, 0),
        bt.PickSpot(GID, 1, 0, 0),
        bt.PickCard(GID, True, 0),
        bt.SetTurnLimit(GID, 1, 0),
        bt.ConfirmDiscard(GID, 1, frozenset()),
        bt.ToggleDiscard(GID, 1, 0, frozenset({10})),
        bt.ClearFront(GID, 1, frozenset({1}), 0),
        bt.StealFrom(GID, 1, cb.MAX_SEAT + 1),
    ],
)
def test_encode_refuses_values_out_of_range(command: bt.Command) -> None:
    with pytest.raises(ValueError):
        cb.encode(command)


def test_game_ids_are_ten_base62_characters_from_the_given_source() -> None:
    ids = [gids.new_game_id(random.Random(7)) for _ in range(3)]
    assert ids[0] == ids[1] == ids[2]
    rng = random.Random(1)
    many = {gids.new_game_id(rng) for _ in range(2000)}
    assert len(many) == 2000
    assert all(re.fullmatch(r"[0-9A-Za-z]{10}", g) and gids.is_game_id(g) for g in many)
    assert gids.is_game_id(gids.new_game_id(random.SystemRandom()))


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
    assert result is None or gids.is_game_id(result.game)


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
        cb.encode(bt.AddComputer(GID, 1, Level.RANDOM))
    strong = cb.encode(bt.AddComputer(GID, 1, Level.SEARCH))
    assert cb.decode(strong) == bt.AddComputer(GID, 1, Level.SEARCH)
    assert cb.decode(strong[:-1] + "r") is None
    assert cb.decode(strong.rsplit(cb.SEP, 1)[0]) is None  # the old form, without a level
