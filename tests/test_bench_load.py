"""bench/load.py tells which move a group's board shows from its caption (the round and the
deck), against the deck the mover's hand showed: read from the bot's own captions, in each of
its languages, as the emulator shows them (plain text)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from emulator.markup import parse_html
from emulator.model import Content, Message, StoredFile
from engine import Discard, apply, current_player, legal_actions, new_game, public_view
from tgbot import presenter
from tgbot.i18n import LANGUAGES, Language
from tgbot.records import GameRecord, Lobby, LobbyPlayer, Status

NAMES = {1: "Ann", 2: "Bob 12/3", 3: "Cy"}


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "load.py"
    spec = importlib.util.spec_from_file_location("bench_load", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module
    spec.loader.exec_module(module)
    return module


load = _bench()


def _photo(html: str) -> Message:
    """A photo message as the emulator holds it: the caption's plain text."""
    caption = parse_html(html).text
    photo = (StoredFile("f", "u", "photos/f.png", 1, 1, b""),)
    return Message(-100, 1, 0, 0, Content(caption=caption, photo=photo))


def _record(lang: Language) -> GameRecord:
    state = new_game(list(NAMES), seed=3)
    players = tuple(LobbyPlayer(u, n, lang) for u, n in NAMES.items())
    return GameRecord(
        "Game000001",
        -100,
        None,
        lang,
        1,
        0,
        0,
        Status.PLAYING,
        Lobby(players=players),
        state,
        title="G 7/3",
    )


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_a_discard_is_told_by_its_boards_deck(lang: Language) -> None:
    record = _record(lang)
    state = record.state
    assert state is not None
    mover = current_player(state)
    assert mover is not None
    hand = presenter.hand_caption(record, state, mover, lang, ())
    before = load.hand_shows(_photo(hand))
    assert before == (1, public_view(state).deck_size)
    discard = next(a for a in legal_actions(state, mover) if isinstance(a, Discard))
    after = apply(state, mover, discard).state
    board = presenter.board_caption(after, NAMES, lang, ("a move",))
    assert load.board_shows(_photo(board)) == (before[0], before[1] - 1)


def test_a_caption_of_no_board_of_play_is_none() -> None:
    assert load.board_shows(_photo("Round over: the miners win.")) is None
    assert load.hand_shows(_photo("🎴 <b>G</b>")) is None
