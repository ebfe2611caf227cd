"""Turn deadlines as Telegram date-time entities, so each reader sees them in their own time zone.

A moment is written `<tg-time unix="…" format="wt">2026-12-02 18:30 UTC</tg-time>` (Bot API 9.5):
the reader's app shows the day of the week and the time in the reader's zone and language; the
text inside, in UTC, is what an app that cannot show the entity (or a notification) shows.
"""

from __future__ import annotations

import datetime
import functools

from engine import Phase, current_player

from .i18n import Language, texts
from .records import GameRecord, Status, is_computer_id

DEADLINE_FORMAT = "wt"  # the day of the week and the short time, in the reader's zone


@functools.lru_cache(maxsize=1024)
def fallback(unix: int) -> str:
    """A moment written for any reader: the date and the time in UTC."""
    moment = datetime.datetime.fromtimestamp(unix, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def moment(unix: int, fmt: str = DEADLINE_FORMAT) -> str:
    """A moment as a `date_time` entity in HTML, its UTC text inside."""
    return f'<tg-time unix="{unix}" format="{fmt}">{fallback(unix)}</tg-time>'


def turn_ends_at(record: GameRecord) -> int | None:
    """When the current turn's time runs out: a person's turn in a game with a time per turn
    (a thief's choice too); None without a limit, for a computer's turn or an absent player's
    (played for at once), and when no game is being played."""
    state = record.state
    limit = record.lobby.turn_limit_hours
    if state is None or record.status is not Status.PLAYING or limit is None:
        return None
    if state.phase is Phase.OVER:
        return None
    player = current_player(state)
    if player is None or is_computer_id(player) or player in record.automatic:
        return None
    return record.turn_started_at + limit * 3600


def turn_ends_line(lang: Language, unix: int | None) -> list[str]:
    """The line saying when the turn ends (none without a deadline)."""
    if unix is None:
        return []
    return [texts(lang).gettext("⏰ This turn ends {time}.", time=moment(unix))]
