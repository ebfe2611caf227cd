"""Texts composed to fit Telegram's limits, whole lines at a time, never cut inside markup.

Telegram counts a text's length after parsing its HTML, in UTF-16 code units: 4096 for a
message, 1024 for a caption. The bot's texts are made of lines that each close their own tags,
so dropping or moving whole lines always leaves valid markup.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape, unescape

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
_TAG = re.compile(r"<[^>]*>")


def visible(html: str) -> int:
    """The length Telegram counts for an HTML text: its characters after parsing, in UTF-16."""
    return len(unescape(_TAG.sub("", html)).encode("utf-16-le")) // 2


def fits(html: str, limit: int) -> bool:
    """True when Telegram accepts the text within `limit`. A text of at most half the limit's
    characters fits whatever it holds (no character counts more than two UTF-16 units)."""
    return 2 * len(html) <= limit or visible(html) <= limit


def split_fitting(lines: Sequence[str], limit: int) -> list[str]:
    """The lines joined into as few texts as fit within `limit` each, in order.

    A single line longer than the limit (which the bot's texts never have) is shortened to fit.
    """
    out: list[str] = []
    current: list[str] = []
    for line in lines:
        if not fits(line, limit):
            line = shorten(line, limit)
        if current and not fits("\n".join([*current, line]), limit):
            out.append("\n".join(current))
            current = []
        current.append(line)
    if current:
        out.append("\n".join(current))
    return out


def keep_within(lines: Sequence[str], room: int) -> int:
    """How many of the newest lines fit in `room` units together (each joined by a newline)."""
    used = -1  # n lines take n - 1 newlines
    kept = 0
    for line in reversed(lines):
        used += visible(line) + 1
        if used > room:
            break
        kept += 1
    return kept


def shorten(html: str, limit: int) -> str:
    """A text cut to `limit`: whole lines dropped from the middle, the first and the last kept
    while they fit; as a last resort, plain text cut between characters."""
    if fits(html, limit):
        return html
    lines = html.split("\n")
    if len(lines) > 2:
        head, tail = lines[:1], lines[-1:]
        middle = lines[1:-1]
        while middle:
            middle.pop()
            candidate = "\n".join([*head, *middle, "…", *tail])
            if fits(candidate, limit):
                return candidate
        candidate = "\n".join([*head, "…", *tail])
        if fits(candidate, limit):
            return candidate
    plain = unescape(_TAG.sub("", html))
    kept: list[str] = []
    room = limit - 1
    for char in plain:
        room -= len(char.encode("utf-16-le")) // 2
        if room < 0:
            break
        kept.append(char)
    return escape("".join(kept)) + "…"
