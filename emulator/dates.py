"""Date-time entities (Bot API 9.5): a moment each reader's app shows in their own time zone.

In HTML parse mode `<tg-time unix="1647531900" format="wDT">22:45 tomorrow</tg-time>` becomes
`{"type": "date_time", "offset": 0, "length": 14, "unix_time": 1647531900,
"date_time_format": "wDT"}`; the text inside stays as the readable fallback. `format` is
optional and matches `r|w?[dD]?[tT]?` (relative; day of week, short or long date, short or long
time); without one the app shows the text as written (the entity then has no
`date_time_format`). The same entity may be given in `entities`/`caption_entities`.

Refusals: a tag without an integer `unix`, or with a format outside that pattern, cannot be
parsed; a moment before 1970 or more than 1098 days from now is refused by Telegram's servers
as `ENTITY_DATE_INVALID` (tdlib/telegram-bot-api issue 852). The parse-error wordings follow
tdlib's for `tg-emoji`; Telegram does not document them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from emulator.errors import ApiError, bad_request

JsonDict = dict[str, Any]

DATE_TIME = "date_time"
FORMAT = re.compile(r"r|w?[dD]?[tT]?")
MAX_DAYS_AHEAD = 1098  # the farthest moment an entity may name: now plus this many days
INVALID_UNIX = "Invalid Unix time specified"
INVALID_FORMAT = "Invalid date-time format specified"
DATE_INVALID = "ENTITY_DATE_INVALID"


def from_tag(attributes: dict[str, str], offset: int, length: int) -> JsonDict:
    """The entity of a closed `<tg-time>` tag (its attributes were checked by `check_tag`)."""
    entity: JsonDict = {
        "type": DATE_TIME,
        "offset": offset,
        "length": length,
        "unix_time": int(attributes["unix"]),
    }
    if attributes.get("format"):
        entity["date_time_format"] = attributes["format"]
    return entity


def tag_problem(attributes: dict[str, str]) -> str | None:
    """What is wrong with a `<tg-time>` tag's attributes, or None."""
    unix = attributes.get("unix", "")
    if not re.fullmatch(r"-?\d{1,19}", unix):
        return INVALID_UNIX
    if not FORMAT.fullmatch(attributes.get("format", "")):
        return INVALID_FORMAT
    return None


def explicit(entity: JsonDict) -> JsonDict:
    """A `date_time` entity given in `entities`, as Telegram stores it; other types pass."""
    if entity.get("type") != DATE_TIME:
        return entity
    if "unix_time" not in entity:
        raise _unparsable('Can\'t find field "unix_time"')
    unix = entity["unix_time"]
    if isinstance(unix, bool) or not isinstance(unix, int):
        raise _unparsable('Field "unix_time" must be of type Number')
    fmt = entity.get("date_time_format", "")
    if not isinstance(fmt, str):
        raise _unparsable('Field "date_time_format" must be of type String')
    if not FORMAT.fullmatch(fmt):
        raise _unparsable(INVALID_FORMAT)
    stored = {k: v for k, v in entity.items() if k not in ("unix_time", "date_time_format")}
    stored["unix_time"] = unix
    if fmt:
        stored["date_time_format"] = fmt
    return stored


def check_moments(entities: Iterable[JsonDict], now: float) -> None:
    """Refuse a `date_time` entity naming a moment Telegram does not take."""
    latest = now + MAX_DAYS_AHEAD * 86400
    for entity in entities:
        if entity.get("type") == DATE_TIME and not 0 <= entity["unix_time"] <= latest:
            raise bad_request(DATE_INVALID)


def _unparsable(detail: str) -> ApiError:
    return bad_request(f"can't parse MessageEntity: {detail}")
