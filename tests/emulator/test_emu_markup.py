"""Telegram's HTML parse mode, command entities, keyboards and flood counters, without a server."""

from __future__ import annotations

import pytest

from emulator import ApiError, ManualClock, RateLimits
from emulator.limits import RateLimiter
from emulator.markup import command_entities, parse_html, utf16_len, validate_reply_markup


def description(error: pytest.ExceptionInfo[ApiError]) -> str:
    return error.value.description


def test_html_tags_become_entities_and_vanish_from_the_text() -> None:
    parsed = parse_html("<b>Turn 3</b>: <i>Alice</i> &amp; <a href='https://t.me/x'>Bob</a>")
    assert parsed.text == "Turn 3: Alice & Bob"
    assert parsed.entities == (
        {"type": "bold", "offset": 0, "length": 6},
        {"type": "italic", "offset": 8, "length": 5},
        {"type": "text_link", "offset": 16, "length": 3, "url": "https://t.me/x"},
    )


def test_entity_offsets_count_utf16_code_units() -> None:
    parsed = parse_html("💎 <b>금</b>")
    assert utf16_len("💎") == 2
    assert parsed.entities == ({"type": "bold", "offset": 3, "length": 1},)


def test_nested_tags_spoilers_and_code_languages() -> None:
    parsed = parse_html(
        '<b>a<u>b</u></b> <span class="tg-spoiler">s</span> '
        '<pre><code class="language-python">x=1</code></pre> <blockquote expandable>q</blockquote>'
    )
    assert parsed.text == "ab s x=1 q"
    types = [(e["type"], e["offset"], e["length"]) for e in parsed.entities]
    assert types == [
        ("bold", 0, 2),
        ("underline", 1, 1),
        ("spoiler", 3, 1),
        ("pre", 5, 3),
        ("expandable_blockquote", 9, 1),
    ]
    assert parsed.entities[3]["language"] == "python"


def test_numeric_and_unknown_character_references() -> None:
    assert parse_html("&#9935; &#x26CF; AT&T &lt;3").text == "⛏ ⛏ AT&T <3"


def test_surrounding_whitespace_is_trimmed_and_entities_follow() -> None:
    parsed = parse_html("  \n<b> hi </b>  ")
    assert parsed.text == "hi"
    assert parsed.entities == ({"type": "bold", "offset": 0, "length": 2},)


@pytest.mark.parametrize(
    ("html", "detail"),
    [
        ("<b>bold", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<p>hi</p>", 'Unsupported start tag "p" at byte offset 0'),
        ("2 < 3", 'Unsupported start tag "" at byte offset 2'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("보석 <b", "Unclosed start tag at byte offset 7"),
        ('<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        (
            "<a href>x</a>",
            'Expected equal sign in declaration of an attribute of the tag "a" at byte offset 0',
        ),
    ],
)
def test_bad_markup_gives_telegrams_parse_error(html: str, detail: str) -> None:
    with pytest.raises(ApiError) as error:
        parse_html(html)
    assert error.value.error_code == 400
    assert description(error) == f"Bad Request: can't parse entities: {detail}"


def test_commands_are_marked_where_telegram_marks_them() -> None:
    assert command_entities("/new@saboteur_emu_bot now") == (
        {"type": "bot_command", "offset": 0, "length": 21},
    )
    assert command_entities("see /help and /rules") == (
        {"type": "bot_command", "offset": 4, "length": 5},
        {"type": "bot_command", "offset": 14, "length": 6},
    )
    assert command_entities("a/b and 1/2 and /") == ()


def test_buttons_need_an_action_and_short_callback_data() -> None:
    ok = {"inline_keyboard": [[{"text": "Join", "callback_data": "j" * 64}]]}
    assert validate_reply_markup(ok) is ok
    for data in ("j" * 65, "", "ㄱ" * 22):
        with pytest.raises(ApiError) as error:
            validate_reply_markup({"inline_keyboard": [[{"text": "x", "callback_data": data}]]})
        assert description(error) == "Bad Request: BUTTON_DATA_INVALID"
    with pytest.raises(ApiError) as error:
        validate_reply_markup({"inline_keyboard": [[{"text": "x", "url": "javascript:x"}]]})
    assert description(error) == "Bad Request: BUTTON_URL_INVALID"
    with pytest.raises(ApiError) as error:
        validate_reply_markup({"inline_keyboard": [[{"text": "plain"}]]})
    assert "Text buttons are unallowed" in description(error)


def test_group_flood_window_rolls_and_reports_the_wait() -> None:
    clock = ManualClock()
    limiter = RateLimiter(RateLimits(group_messages=3, group_window_seconds=60.0), clock)
    for _ in range(3):
        limiter.check(-1, is_group=True)
        limiter.record(-1, is_group=True)
        clock.advance(10)
    with pytest.raises(ApiError) as error:
        limiter.check(-1, is_group=True)
    assert error.value.error_code == 429
    assert error.value.parameters == {"retry_after": 30}
    assert description(error) == "Too Many Requests: retry after 30"
    limiter.check(-2, is_group=True)
    limiter.check(5, is_group=False)
    clock.advance(30)
    limiter.check(-1, is_group=True)


def test_global_limit_counts_every_chat() -> None:
    clock = ManualClock()
    limiter = RateLimiter(RateLimits(global_messages=2, global_window_seconds=1.0), clock)
    limiter.record(1, is_group=False)
    limiter.record(-5, is_group=True)
    with pytest.raises(ApiError) as error:
        limiter.check(2, is_group=False)
    assert error.value.parameters == {"retry_after": 1}
    clock.advance(1.0)
    limiter.check(2, is_group=False)


def test_a_button_may_have_a_style_of_the_three_telegram_knows() -> None:
    for style in ("success", "danger", "primary"):
        ok = {"inline_keyboard": [[{"text": "OK", "callback_data": "c", "style": style}]]}
        assert validate_reply_markup(ok) is ok
    with pytest.raises(ApiError) as error:
        validate_reply_markup(
            {"inline_keyboard": [[{"text": "x", "callback_data": "c", "style": "green"}]]}
        )
    assert description(error) == "Bad Request: BUTTON_STYLE_INVALID"
    with pytest.raises(ApiError) as error:
        validate_reply_markup(
            {"inline_keyboard": [[{"text": "x", "callback_data": "c", "style": 1}]]}
        )
    assert 'Field "style" must be of type String' in description(error)
