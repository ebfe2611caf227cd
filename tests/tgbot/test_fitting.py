"""Texts fitted to Telegram's limits: counted as Telegram counts, cut only between lines."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from tgbot.fitting import fits, keep_within, shorten, split_fitting, visible


class _Balance(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.ok = True

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.ok = self.ok and bool(self.open) and self.open.pop() == tag


def balanced(html: str) -> bool:
    parser = _Balance()
    parser.feed(html)
    parser.close()
    return parser.ok and not parser.open


def test_visible_length_is_counted_after_parsing_in_utf16_units() -> None:
    assert visible('<a href="tg://user?id=1">Ann</a> &amp; <b>Bo</b>') == len("Ann & Bo")
    assert visible("💎") == 2  # outside the BMP: two UTF-16 units, as Telegram counts


LINE = st.builds(
    lambda name, n: f'<a href="tg://user?id={n}">{name}</a> plays <b>{n}</b> &lt;',
    st.text(st.characters(codec="utf-8", exclude_characters="<>&\n"), max_size=80),
    st.integers(0, 10**9),
)


@settings(deadline=None)
@given(st.lists(LINE, max_size=60), st.integers(40, 1024))
def test_split_texts_each_fit_keep_every_line_and_stay_balanced(
    lines: list[str], limit: int
) -> None:
    parts = split_fitting(lines, limit)
    assert all(visible(p) <= limit and balanced(p) for p in parts)
    if all(visible(line) <= limit for line in lines):
        assert "\n".join(parts) == "\n".join(lines)


@given(st.lists(LINE, min_size=1, max_size=60), st.integers(1, 1024))
def test_the_newest_lines_that_fit_are_counted(lines: list[str], room: int) -> None:
    kept = keep_within(lines, room)
    assert kept == 0 or visible("\n".join(lines[-kept:])) <= room
    if kept < len(lines):
        assert visible("\n".join(lines[-kept - 1 :])) > room


@settings(deadline=None)
@given(st.lists(LINE, min_size=3, max_size=60), st.integers(60, 1024))
def test_a_shortened_text_fits_keeps_its_first_and_last_line_and_its_markup(
    lines: list[str], limit: int
) -> None:
    text = "\n".join(lines)
    short = shorten(text, limit)
    assert visible(short) <= limit and balanced(short)
    if visible(lines[0]) + visible(lines[-1]) + 4 <= limit:
        assert short.startswith(lines[0]) and short.endswith(lines[-1])


_PIECES = st.sampled_from(["a", "가", "🐻‍❄️", "💰", "&amp;", "&lt;", "<b>", "</b>", "\n", " "])


@given(st.lists(_PIECES, max_size=60).map("".join), st.integers(0, 140))
def test_a_text_fits_exactly_when_its_telegram_length_is_within_the_limit(
    html: str, limit: int
) -> None:
    """The shortcut for short texts (at most half the limit in characters) never says a text
    fits that Telegram would refuse: emoji count two units, entities one, tags none."""
    assert fits(html, limit) == (visible(html) <= limit)
