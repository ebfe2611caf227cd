"""The gettext catalogs: in step with the code, complete, and saying the same things everywhere."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from string import Formatter
from typing import cast

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from ai import Level
from engine import Card, Edition, Reason, Role, Side, Tool
from engine.cards import GOAL_SPOTS
from tgbot import commands, i18n, lobby_texts, names
from tgbot.buttons import Variant
from tgbot.i18n import LANGUAGES, Language, parse_language, texts

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "tgbot" / "locale"
TEMPLATE = LOCALE / "messages.pot"
KO, EN = Language("ko"), Language("en")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
TAG = re.compile(r"<(/?)([a-z]+)>")
HTML_TAGS = {"b", "i", "u", "code"}
PLAIN_CONTEXTS = {"button", "toast", "command menu"}


def _read(path: Path) -> Catalog:
    with path.open("rb") as fp:
        return read_po(fp)


def _po(lang: Language) -> Path:
    return LOCALE / lang.code / "LC_MESSAGES" / "messages.po"


@functools.cache
def _catalog(lang: Language) -> Catalog:
    """A language's catalog as on disk, parsed once (~15 ms each): the tests only read it, and
    the per-message tests below are about 1,000."""
    return _read(_po(lang))


def _messages(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def _forms(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _placeholders(text: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in Formatter().parse(text) if name is not None)


def _key(m: Message) -> tuple[str | None, str]:
    return m.context, _forms(m.id)[0]


def _entries() -> list[tuple[Language, Message]]:
    return [(lang, m) for lang in LANGUAGES for m in _messages(_catalog(lang))]


def _entry_id(entry: tuple[Language, Message]) -> str:
    lang, m = entry
    return f"{lang.code}:{m.context or ''}:{_forms(m.id)[0][:40]}"


ENTRIES = _entries()

# ---------------------------------------------------------------- the files


def test_the_languages_are_the_catalogs_on_disk() -> None:
    on_disk = sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/messages.po"))
    assert [lang.code for lang in LANGUAGES] == on_disk
    assert {"ko", "en"} <= set(on_disk)


def test_the_template_is_what_extraction_gives_today(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("BABEL_PYPROJECT_TOML", str(ROOT / "pyproject.toml"))
    fresh = tmp_path / "messages.pot"
    run = cast("Callable[[list[str]], object]", CommandLineInterface().run)  # Babel is untyped
    run(["pybabel", "--quiet", "extract", "-o", str(fresh)])
    assert "warning" not in capfd.readouterr().err.lower()  # e.g. a skipped f-string

    def summary(catalog: Catalog) -> list[tuple[object, ...]]:
        return [
            (m.context, m.id, tuple(m.auto_comments), tuple(m.locations), tuple(sorted(m.flags)))
            for m in _messages(catalog)
        ]

    assert summary(_read(TEMPLATE)) == summary(_read(fresh)), "run: scripts/i18n.sh all"


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_each_catalog_holds_exactly_the_templates_messages(lang: Language) -> None:
    template = {_key(m): m.id for m in _messages(_read(TEMPLATE))}
    catalog = _catalog(lang)
    assert {_key(m): m.id for m in _messages(catalog)} == template, "run: scripts/i18n.sh update"
    assert not catalog.obsolete


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_each_compiled_catalog_matches_its_po(lang: Language) -> None:
    po = _catalog(lang)
    with (_po(lang).with_suffix(".mo")).open("rb") as fp:
        mo = read_mo(fp)
    assert {_key(m): _forms(m.string) for m in _messages(mo)} == {
        _key(m): _forms(m.string) for m in _messages(po)
    }, "run: scripts/i18n.sh compile"
    assert mo.plural_forms == po.plural_forms


@pytest.mark.parametrize(
    ("code", "plural_forms"),
    [("ko", "nplurals=1; plural=0;"), ("en", "nplurals=2; plural=(n != 1);")],
)
def test_plural_forms_are_the_languages_own(code: str, plural_forms: str) -> None:
    assert _catalog(Language(code)).plural_forms == plural_forms


def test_the_english_catalog_says_what_the_code_says() -> None:
    for m in _messages(_catalog(Language(i18n.SOURCE_CODE))):
        assert _forms(m.string) == _forms(m.id)


# ---------------------------------------------------------------- every message
# Each check runs over every message of a language in one test, which names every message it
# fails on: as one test per message they were ~3,100 of the suite's ~4,700 tests, each costing
# pytest and xdist more than its check.

Entry = tuple[Language, Message]


def _check_each(check: Callable[[Entry], None], entries: list[Entry]) -> None:
    """Fail naming each entry `check` fails on, with its assertion's message."""
    assert entries, "no messages to check"
    failed: list[str] = []
    for entry in entries:
        try:
            check(entry)
        except AssertionError as err:
            failed.append(f"{_entry_id(entry)}: {err}")
    assert not failed, "\n\n".join(failed)


def _entries_of(lang: Language) -> list[Entry]:
    return [e for e in ENTRIES if e[0] == lang]


def _is_translated_and_not_fuzzy(entry: Entry) -> None:
    lang, m = entry
    catalog = _catalog(lang)
    forms = _forms(m.string)
    assert not m.fuzzy
    assert len(forms) == (catalog.num_plurals if m.pluralizable else 1)
    assert all(f.strip() for f in forms)


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_every_message_is_translated_and_not_fuzzy(lang: Language) -> None:
    _check_each(_is_translated_and_not_fuzzy, _entries_of(lang))


def _keeps_the_placeholders_and_tags(entry: Entry) -> None:
    _, m = entry
    ids = _forms(m.id)
    wanted = _placeholders(ids[0])
    assert all(_placeholders(i) == wanted for i in ids)  # {count} in the singular too
    for form in _forms(m.string):
        assert _placeholders(form) == wanted, form
        assert Counter(TAG.findall(form)) == Counter(TAG.findall(ids[0])), form


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_every_form_keeps_the_placeholders_and_tags(lang: Language) -> None:
    _check_each(_keeps_the_placeholders_and_tags, _entries_of(lang))


def _uses_balanced_simple_tags(entry: Entry) -> None:
    _, m = entry
    for text in (*_forms(m.id), *_forms(m.string)):
        stack: list[str] = []
        for closing, name in TAG.findall(text):
            assert name in HTML_TAGS, text
            if closing:
                assert stack and stack.pop() == name, text
            else:
                stack.append(name)
        assert stack == [], text
        assert "<" not in TAG.sub("", text), text
        assert "&" not in text, text


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_html_texts_use_balanced_simple_tags(lang: Language) -> None:
    _check_each(_uses_balanced_simple_tags, _entries_of(lang))


def _is_plain_and_fits_telegrams_limits(entry: Entry) -> None:
    _, m = entry
    for text in _forms(m.string):
        assert "<" not in text and "&" not in text, text
        if m.context == "toast":
            assert len(text) <= 150, text  # 200 with the values filled in
        if m.context == "command menu":
            assert 3 <= len(text) <= 256, text
        if m.context == "button":
            assert len(text) <= 40, text


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_plain_texts_carry_no_markup_and_fit_telegrams_limits(lang: Language) -> None:
    plain = [e for e in _entries_of(lang) if e[1].context in PLAIN_CONTEXTS]
    _check_each(_is_plain_and_fits_telegrams_limits, plain)


def _is_in_korean_if_it_has_words(entry: Entry) -> None:
    _, m = entry
    english = re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}|<[^>]+>|/\w+", "", _forms(m.id)[0]))
    if english:
        assert all(HANGUL.search(form) for form in _forms(m.string)), m.string


def test_korean_texts_with_words_are_in_korean() -> None:
    _check_each(_is_in_korean_if_it_has_words, _entries_of(KO))


def test_the_glyphs_of_card_names_are_kept() -> None:
    for lang in LANGUAGES:
        for card, marked in names.CARDS.items():
            glyphs = re.sub(r"[^\u2500-\u257f+]", "", marked.message)
            assert re.sub(r"[^\u2500-\u257f+]", "", names.card_name(texts(lang), card)) == glyphs


# ---------------------------------------------------------------- the tables of names


def test_every_name_the_game_needs_is_marked() -> None:
    assert set(names.CARDS) == set(Card)
    assert set(names.ROLES) == set(Role)
    assert set(names.SIDES) == set(Side)
    assert set(names.TOOLS) == set(Tool)
    assert set(names.EDITIONS) == set(Edition)
    assert set(names.REASONS) == set(Reason)
    assert set(names.LEVELS) == set(Level)
    assert set(lobby_texts.VARIANTS) == set(Variant)
    assert len(names.GOALS) == len(GOAL_SPOTS)
    assert {c.name for c in commands.COMMANDS} >= {"new", "join", "start", "help", "lang"}


def test_each_language_names_itself_in_its_own_words() -> None:
    native = [texts(lang).native_name for lang in LANGUAGES]
    assert texts(KO).native_name == "한국어"
    assert texts(EN).native_name == "English"
    assert len(set(native)) == len(native)


def test_korean_uses_the_korean_editions_names() -> None:
    ko, en = texts(KO), texts(EN)
    assert names.tool_name(ko, Tool.PICKAXE) == "곡괭이"
    assert names.tool_name(ko, Tool.LANTERN) == "등불"
    assert names.tool_name(ko, Tool.CART) == "수레"
    assert names.card_name(ko, Card.ROCKFALL) == "낙석"
    assert names.card_name(ko, Card.MAP) == "지도"
    assert names.role_name(ko, Role.SABOTEUR) == "방해꾼"
    assert names.side_name(en, Side.MINERS) == "the miners"
    assert names.edition_name(ko, Edition.DELUXE) == "사보타지 디럭스"


def test_the_same_english_in_two_contexts_has_two_translations() -> None:
    ko = texts(KO)
    assert names.edition_name(ko, Edition.BASE) == "사보타지"
    assert names.role_name(ko, Role.SABOTEUR) == "방해꾼"
    assert names.EDITIONS[Edition.BASE].message == names.ROLES[Role.SABOTEUR].message


# ---------------------------------------------------------------- lookups


def test_lookups_fill_placeholders() -> None:
    assert (
        texts(EN).pgettext(
            "toast", "This hand is from turn {old}; here is your current hand.", old=12
        )
        == "This hand is from turn 12; here is your current hand."
    )
    assert texts(KO).ngettext("Your gold: {gold}", "Your gold: {gold}", 3, gold=3) == (
        "내 금덩이: 3개"
    )


def test_a_missing_value_leaves_its_placeholder_and_values_are_not_reparsed() -> None:
    en = texts(EN)
    assert en.gettext("Opened by {name}") == "Opened by {name}"
    assert en.gettext("Opened by {name}", name="{x} <y>") == "Opened by {x} <y>"


def test_plural_forms_follow_the_count() -> None:
    en, ko = texts(EN), texts(KO)

    def discarded(tr: i18n.Texts, n: int) -> str:
        return tr.ngettext(
            "{name} discarded {count} card",
            "{name} discarded {count} cards",
            n,
            name="Ann",
            count=n,
        )

    assert discarded(en, 1) == "Ann discarded 1 card"
    assert discarded(en, 2) == "Ann discarded 2 cards"
    assert discarded(ko, 1) == "Ann님이 카드 1장을 버렸어요"
    assert discarded(ko, 2) == "Ann님이 카드 2장을 버렸어요"


def test_a_message_missing_from_a_catalog_comes_out_in_english() -> None:
    assert texts(KO).gettext("not in any catalog {x}", x=1) == "not in any catalog 1"
    assert texts(KO).ngettext("{n} thing", "{n} things", 2, n=2) == "2 things"


def test_a_language_needs_a_catalog() -> None:
    with pytest.raises(ValueError, match="fr"):
        Language("fr")


@pytest.mark.parametrize(
    ("code", "lang"),
    [("ko", KO), ("en", EN), ("en-US", EN), ("ko_KR", KO), ("KO", KO), ("fr", None),
     ("", None), ("-", None), (None, None)],
)  # fmt: skip
def test_parse_language_reads_telegram_codes(code: str | None, lang: Language | None) -> None:
    assert parse_language(code) == lang
