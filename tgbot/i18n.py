"""The language catalog: every user-facing string, in Korean and English, looked up by key.

Templates use `str.format` placeholders (`{name}`). Keys are grouped by where the text goes:

- `button.*`: inline keyboard labels, plain text;
- `toast.*`: answers to button taps (Telegram shows at most 200 characters), plain text;
- `command.*`: command descriptions for the command menu, plain text;
- everything else: message text in Telegram's HTML parse mode (so `<b>` is allowed and the
  presenter must HTML-escape the values it passes in, e.g. player names).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from string import Formatter

from engine import Card, Edition, Role, Side, Tool

from .locales import en, ko


class Language(StrEnum):
    """A language the bot speaks; the value is the code used in storage and buttons."""

    KO = "ko"
    EN = "en"


FALLBACK = Language.EN
CATALOGS: Mapping[Language, Mapping[str, str]] = {
    Language.KO: ko.MESSAGES,
    Language.EN: en.MESSAGES,
}


class _KeepMissing(dict[str, object]):
    """Format parameters that leave an unknown placeholder as written instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def parse_language(code: str | None) -> Language | None:
    """A supported language from a code such as "ko", "en" or Telegram's "en-US", else None."""
    if not code:
        return None
    head = code.strip().lower().replace("_", "-").split("-", 1)[0]
    try:
        return Language(head)
    except ValueError:
        return None


def has_key(key: str) -> bool:
    """True when the fallback catalog defines this key."""
    return key in CATALOGS[FALLBACK]


def t(lang: Language | str, key: str, /, **params: object) -> str:
    """The text for `key` in `lang`, falling back to English, then to the key itself."""
    language = parse_language(lang) or FALLBACK
    template = CATALOGS[language].get(key)
    if template is None:
        template = CATALOGS[FALLBACK].get(key)
    if template is None:
        return key
    if not params:
        return template.format_map(_KeepMissing())
    return template.format_map(_KeepMissing(params))


def placeholders(template: str) -> frozenset[str]:
    """The names of the `{placeholders}` in a template; raises ValueError if it is malformed."""
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name)


def card_name(lang: Language | str, card: Card) -> str:
    """A card's name as printed on buttons and in messages."""
    return t(lang, f"card.{card.name}")


def role_name(lang: Language | str, role: Role) -> str:
    """A role's name."""
    return t(lang, f"role.{role.value}")


def side_name(lang: Language | str, side: Side) -> str:
    """The name of a side that can win a round."""
    return t(lang, f"side.{side.value}")


def tool_name(lang: Language | str, tool: Tool) -> str:
    """A tool's name."""
    return t(lang, f"tool.{tool.value}")


def edition_name(lang: Language | str, edition: Edition) -> str:
    """An edition's name."""
    return t(lang, f"edition.{edition.value}")
