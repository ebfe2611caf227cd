"""The bot's languages: gettext catalogs in `tgbot/locale/<code>/LC_MESSAGES/messages.mo`.

A message's id is its English text (the source language); a context (`msgctxt`) tells apart
the same English meant two ways and says where a text goes:

- `button`: inline keyboard labels, plain text, at most 40 characters;
- `toast`: answers to button taps (Telegram shows at most 200 characters), plain text;
- `command menu`: command descriptions for Telegram's command menu, plain text;
- names of things (`card`, `role`, `tool`, ...), put into other texts;
- no context: message text in Telegram's HTML parse mode (so `<b>` is allowed and the
  presenter must HTML-escape the values it passes in, e.g. player names).

Texts use `str.format` placeholders (`{name}`), filled in by the lookups below. The languages
are the catalogs found on disk: adding one is adding its `.po` file (and compiling it), see
`scripts/i18n.sh`.
"""

from __future__ import annotations

import gettext as _gettext
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

DOMAIN = "messages"
SOURCE_CODE = "en"  # the language of the message ids
LOCALE_DIR: Traversable = files(__package__) / "locale"
_CODE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")


def _catalog(code: str) -> Traversable:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _codes_on_disk() -> tuple[str, ...]:
    """The codes of the compiled catalogs shipped in the package, sorted."""
    codes = sorted(d.name for d in LOCALE_DIR.iterdir() if _catalog(d.name).is_file())
    for code in codes:
        if not _CODE.fullmatch(code):
            raise RuntimeError(f"{code!r} in {LOCALE_DIR} is not a language code such as pt_BR")
    return tuple(codes)


CODES: tuple[str, ...] = _codes_on_disk()


@dataclass(frozen=True, slots=True, order=True)
class Language:
    """A language the bot speaks: the code of one of its catalogs, as stored ("ko", "en")."""

    code: str

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"no catalog for language {self.code!r}")

    def __str__(self) -> str:
        return self.code


LANGUAGES: tuple[Language, ...] = tuple(Language(code) for code in CODES)


def parse_language(code: str | None) -> Language | None:
    """A language with a catalog from a code such as "ko", "pt_BR" or Telegram's "en-US"."""
    if not code:
        return None
    tag = code.strip().replace("-", "_").split("_")
    if not tag[0]:
        return None
    wanted = [tag[0].lower()]
    if len(tag) > 1:
        wanted.insert(0, f"{wanted[0]}_{tag[1].upper()}")
    return next((Language(c) for c in wanted if c in CODES), None)


@dataclass(frozen=True, slots=True)
class Marked:
    """A text marked where it is written (so it is extracted) and translated where it is shown."""

    context: str
    message: str


def NC_(context: str, message: str) -> Marked:
    """Mark a text and its context for extraction (a keyword of pybabel), to translate later."""
    return Marked(context, message)


class _KeepMissing(dict[str, object]):
    """Format parameters that leave an unknown placeholder as written instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(template: str, params: dict[str, object]) -> str:
    if not params and "{" not in template and "}" not in template:
        return template  # nothing to fill (most card and button names)
    return template.format_map(_KeepMissing(params))


class Texts:
    """One language's texts: gettext's lookups, with the placeholders filled in from `params`.

    A message missing from the catalog comes out in English, as gettext does.
    """

    def __init__(self, language: Language, translations: _gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations

    def gettext(self, message: str, /, **params: object) -> str:
        """The translation of `message`."""
        return _fill(self._translations.gettext(message), params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The translation in the plural form for the count `n`."""
        return _fill(self._translations.ngettext(singular, plural, n), params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """The translation of `message` in `context`."""
        return _fill(self._translations.pgettext(context, message), params)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        """The translation in `context`, in the plural form for the count `n`."""
        return _fill(self._translations.npgettext(context, singular, plural, n), params)

    def marked(self, text: Marked, /, **params: object) -> str:
        """The translation of a text marked with `NC_`."""
        return self.pgettext(text.context, text.message, **params)

    @property
    def native_name(self) -> str:
        """The language's name in itself, as on the language buttons."""
        # Translators: the name of your language, written in it: 한국어, Français, Deutsch.
        return self.pgettext("language name", "English")


@cache
def texts(language: Language) -> Texts:
    """The texts of a language, read once from its compiled catalog."""
    with _catalog(language.code).open("rb") as fp:
        return Texts(language, _gettext.GNUTranslations(fp))
