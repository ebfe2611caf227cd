"""Texts built from the catalogs: plural forms by count, and a card played at oneself told so."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Card, GameState, Tool, new_game
from engine.events import ActionPlayed, CardsDiscarded
from engine.timeline import Deed, Entry
from tgbot import guide, lobby_texts, menus, names, presenter
from tgbot.buttons import PickTarget, SetLanguage
from tgbot.i18n import LANGUAGES, Language, texts

KO, EN = Language("ko"), Language("en")
GAME = "Ab3dE9xYz0"
NAMES = {1: "Ann", 2: "Bob", 3: "Cy <3"}
HAND = (Card.REPAIR_LANTERN, Card.REPAIR_PICKAXE_LANTERN, Card.BREAK_CART)


def _state() -> GameState:
    """Ann (seat 0) to play, holding repairs and a break; Ann and Bob have broken tools."""
    state = new_game(list(NAMES), seed=7)
    broken = (Card.BREAK_LANTERN, Card.BREAK_PICKAXE)
    return dataclasses.replace(
        state,
        hands=(HAND, *state.hands[1:]),
        in_front=(broken, broken, ()),
        turn=0,
        cache={},
    )


def _prompt(lang: Language, card: Card, target_seat: int) -> str:
    state = _state()
    seat = menus.Seat(GAME, state, 1, NAMES, lang)
    screen = menus.respond(seat, PickTarget(GAME, state.version, HAND.index(card), target_seat))
    assert isinstance(screen, menus.Screen), screen
    (text,) = screen.prompt
    return text


@pytest.mark.parametrize(
    ("lang", "card", "target", "expected"),
    [
        (EN, Card.REPAIR_LANTERN, 0, "Repair your lantern with Repair lantern?"),
        (EN, Card.REPAIR_LANTERN, 1, "Repair Bob's lantern with Repair lantern?"),
        (EN, Card.BREAK_CART, 0, "Play Broken cart on yourself?"),
        (EN, Card.BREAK_CART, 2, "Play Broken cart on Cy &lt;3?"),
        (EN, Card.REPAIR_PICKAXE_LANTERN, 0, "Which of your tools does {card} repair?"),
        (EN, Card.REPAIR_PICKAXE_LANTERN, 1, "Which tool does {card} repair for Bob?"),
        (KO, Card.REPAIR_LANTERN, 0, "「등불 수리」 카드로 내 장비(등불)를 고칠까요?"),
        (KO, Card.REPAIR_LANTERN, 1, "「등불 수리」 카드로 Bob님의 장비(등불)를 고칠까요?"),
        (KO, Card.BREAK_CART, 0, "「망가진 수레」 카드를 나에게 쓸까요?"),
        (
            KO,
            Card.REPAIR_PICKAXE_LANTERN,
            0,
            "「곡괭이·등불 수리」 카드로 내 장비 중 무엇을 고칠까요?",
        ),
    ],
)
def test_a_card_played_at_oneself_is_asked_about_in_its_own_words(
    lang: Language, card: Card, target: int, expected: str
) -> None:
    name = presenter.escape_text(names.card_name(texts(lang), card))
    assert _prompt(lang, card, target) == expected.format(card=name)


@pytest.mark.parametrize(
    ("lang", "target", "expected"),
    [
        (EN, 1, "Ann played Repair lantern on themselves"),
        (EN, 2, "Ann played Repair lantern on Bob"),
        (KO, 1, "Ann님이 자신에게 「등불 수리」 카드를 썼어요"),
        (KO, 2, "Ann님이 Bob님에게 「등불 수리」 카드를 썼어요"),
    ],
)
def test_the_group_is_told_when_a_player_plays_a_card_at_themselves(
    lang: Language, target: int, expected: str
) -> None:
    played = ActionPlayed(1, Card.REPAIR_LANTERN, target, Tool.LANTERN)
    assert presenter.move_lines([played], NAMES, lang) == [expected]


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        (EN, 1, "Ann discarded 1 card"),
        (EN, 3, "Ann discarded 3 cards"),
        (KO, 1, "Ann님이 카드 1장을 버렸어요"),
        (KO, 3, "Ann님이 카드 3장을 버렸어요"),
    ],
)
def test_counts_take_the_languages_plural_form(lang: Language, count: int, expected: str) -> None:
    assert presenter.move_lines([CardsDiscarded(1, count)], NAMES, lang) == [expected]


@pytest.mark.parametrize(
    ("lang", "seconds", "expected"),
    [(EN, 59, "1 min"), (EN, 3 * 3600 + 1200, "3 h 20 min"), (KO, 3 * 3600 + 1200, "3시간 20분")],
)
def test_durations_are_composed_of_hours_and_minutes(
    lang: Language, seconds: int, expected: str
) -> None:
    assert presenter.duration(lang, seconds) == expected


def test_the_language_buttons_are_the_catalogs_each_named_in_itself() -> None:
    row = lobby_texts.language_row()
    assert [b.command for b in row] == [SetLanguage(lang) for lang in LANGUAGES]
    assert {b.label for b in row} == {"English", "한국어"}


def test_help_and_rules_come_in_each_language() -> None:
    assert guide.help_text(EN).startswith("<b>Saboteur bot</b>")
    assert guide.help_text(KO).startswith("<b>사보타지 봇</b>")
    base, deluxe = guide.rules_texts(KO)
    assert "3~10명" in base and "2~12명" in deluxe
    assert texts(KO).pgettext("toast", "Done!") == "완료!"


@pytest.mark.parametrize("lang", [EN, KO])
def test_the_round_story_draws_a_card_removed_by_a_rockfall_as_it_lay(lang: Language) -> None:
    """A turned tunnel card's glyph is turned in the rockfall's line; an upright one is not."""
    tr = texts(lang)
    turned = Entry(3, 2, Deed.ROCKFALL, card=Card.CURVE_NE, at=(1, 0), rotated=True)
    upright = dataclasses.replace(turned, rotated=False)
    (turned_line,) = presenter.deeds_lines([turned], NAMES, lang)
    (upright_line,) = presenter.deeds_lines([upright], NAMES, lang)
    assert names.placed_card_name(tr, Card.CURVE_NE, True) in turned_line
    assert names.placed_card_name(tr, Card.CURVE_NE, False) in upright_line
    assert turned_line != upright_line
