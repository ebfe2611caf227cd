"""The bot's texts for tests to expect, failing on a message the catalogs do not hold.

The bot itself shows the English of a message missing from a catalog; a test that expected such
a message would then pass or fail for the wrong reason.
"""

from __future__ import annotations

import gettext
from functools import cache

from tgbot.i18n import DOMAIN, LOCALE_DIR, Language, Texts


class _Missing(gettext.NullTranslations):
    """The fallback of a strict catalog: every lookup that reaches it is a test's mistake."""

    def gettext(self, message: str) -> str:
        raise LookupError(f"no such message: {message!r}")

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        raise LookupError(f"no such message: {msgid1!r}")

    def pgettext(self, context: str, message: str) -> str:
        raise LookupError(f"no such message in {context!r}: {message!r}")

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        raise LookupError(f"no such message in {context!r}: {msgid1!r}")


@cache
def texts(lang: Language) -> Texts:
    """A language's texts, as the bot has them, raising LookupError for an unknown message."""
    with (LOCALE_DIR / lang.code / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as fp:
        translations = gettext.GNUTranslations(fp)
    translations.add_fallback(_Missing())
    return Texts(lang, translations)
