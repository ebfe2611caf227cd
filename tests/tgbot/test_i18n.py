"""The language catalog: both languages say the same things with the same placeholders."""

from __future__ import annotations

import re

import pytest

from engine import Card, Edition, Reason, Role, Side, Tool
from tgbot import i18n
from tgbot.callback import Variant
from tgbot.i18n import CATALOGS, Language, placeholders, t
from tgbot.locales import en, ko

HANGUL = re.compile(r"[\uac00-\ud7a3]")
TAG = re.compile(r"<(/?)([a-z]+)>")
HTML_TAGS = {"b", "i", "u", "code"}


def test_both_catalogs_have_the_same_keys() -> None:
    assert sorted(set(ko.MESSAGES) ^ set(en.MESSAGES)) == []
    assert set(CATALOGS) == set(Language)


@pytest.mark.parametrize("key", sorted(en.MESSAGES))
def test_each_key_has_the_same_placeholders_in_both(key: str) -> None:
    assert placeholders(ko.MESSAGES[key]) == placeholders(en.MESSAGES[key])


def _names() -> list[str]:
    keys = [f"card.{c.name}" for c in Card]
    keys += [f"role.{r.value}" for r in Role]
    keys += [f"side.{s.value}" for s in Side]
    keys += [f"tool.{x.value}" for x in Tool]
    keys += [f"edition.{e.value}" for e in Edition]
    keys += [f"reason.{r.value}" for r in Reason]
    keys += [f"variant.{v.value}" for v in Variant]
    keys += [f"goal.{i}" for i in range(3)]
    keys += [f"lang.{lang.value}" for lang in Language]
    return keys


@pytest.mark.parametrize("key", _names())
def test_every_name_the_game_needs_is_in_the_catalog(key: str) -> None:
    assert key in en.MESSAGES
    assert en.MESSAGES[key].strip() and ko.MESSAGES[key].strip()


def test_korean_uses_the_korean_editions_names() -> None:
    assert i18n.tool_name(Language.KO, Tool.PICKAXE) == "곡괭이"
    assert i18n.tool_name(Language.KO, Tool.LANTERN) == "등불"
    assert i18n.tool_name(Language.KO, Tool.CART) == "수레"
    assert i18n.card_name(Language.KO, Card.ROCKFALL) == "낙석"
    assert i18n.card_name(Language.KO, Card.MAP) == "지도"
    assert i18n.role_name(Language.KO, Role.SABOTEUR) == "방해꾼"
    assert i18n.side_name(Language.EN, Side.MINERS) == "the miners"
    assert i18n.edition_name(Language.KO, Edition.DELUXE) == "사보타지 디럭스"


@pytest.mark.parametrize(
    "key", sorted(k for k in ko.MESSAGES if not k.startswith(("lang.", "button.lang_")))
)
def test_korean_texts_with_words_are_in_korean(key: str) -> None:
    english_words = re.findall(
        r"[A-Za-z]{3,}", re.sub(r"\{\w+\}|<[^>]+>|/\w+", "", en.MESSAGES[key])
    )
    if english_words:
        assert HANGUL.search(ko.MESSAGES[key]), ko.MESSAGES[key]


@pytest.mark.parametrize("lang", list(Language))
def test_plain_text_keys_carry_no_markup_and_fit_telegrams_limits(lang: Language) -> None:
    for key, text in CATALOGS[lang].items():
        if key.startswith(("button.", "toast.", "command.")):
            assert "<" not in text and "&" not in text, key
        if key.startswith("toast."):
            assert len(text) <= 150, key  # 200 with the values filled in
        if key.startswith("command."):
            assert 3 <= len(text) <= 256, key
        if key.startswith("button."):
            assert len(text) <= 40, key


@pytest.mark.parametrize("lang", list(Language))
def test_html_texts_use_balanced_simple_tags(lang: Language) -> None:
    for key, text in CATALOGS[lang].items():
        stack: list[str] = []
        for closing, name in TAG.findall(text):
            assert name in HTML_TAGS, key
            if closing:
                assert stack and stack.pop() == name, key
            else:
                stack.append(name)
        assert stack == [], key
        assert "<" not in TAG.sub("", text), key
        assert "&" not in text, key


def test_t_fills_placeholders() -> None:
    assert (
        t(Language.EN, "toast.stale", old=12)
        == "This hand is from turn 12; here is your current hand."
    )
    assert t("ko", "hand.gold", gold=3) == "내 금덩이: 3개"


def test_a_missing_value_leaves_its_placeholder_and_values_are_not_reparsed() -> None:
    assert (
        t(Language.EN, "toast.stale") == "This hand is from turn {old}; here is your current hand."
    )
    assert t(Language.EN, "lobby.created_by", name="{x} <y>") == "Opened by {x} <y>"


def test_t_falls_back_to_english_then_to_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(en.MESSAGES, "test.only_english", "only {what}")
    assert t(Language.KO, "test.only_english", what="here") == "only here"
    assert t("fr", "button.back") == en.MESSAGES["button.back"]
    assert t(Language.KO, "no.such.key", x=1) == "no.such.key"


@pytest.mark.parametrize(
    ("code", "lang"),
    [("ko", Language.KO), ("en", Language.EN), ("en-US", Language.EN), ("ko_KR", Language.KO),
     ("KO", Language.KO), ("fr", None), ("", None), (None, None)],
)  # fmt: skip
def test_parse_language_reads_telegram_codes(code: str | None, lang: Language | None) -> None:
    assert i18n.parse_language(code) is lang
