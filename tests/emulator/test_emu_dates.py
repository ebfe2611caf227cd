"""Date-time entities (Bot API 9.5): `<tg-time>` in HTML, explicit entities, refusals."""

from __future__ import annotations

import datetime

import pytest
from telegram import Bot, InputMediaPhoto, MessageEntity
from telegram.constants import ParseMode
from telegram.error import BadRequest

from emulator import ApiError, EmulatorState, ManualClock
from emulator.markup import parse_html
from tests.emulator.support import People, RawCall
from tests.emulator.test_emu_photos import png

NOW = 1_700_000_000  # the ManualClock's start
SOON = NOW + 3600


def test_tg_time_becomes_a_date_time_entity_around_its_fallback_text() -> None:
    parsed = parse_html(
        f'⏰ <b>Turn</b> ends <tg-time unix="{SOON}" format="wt">Nov 14 23:13 UTC</tg-time>'
    )
    assert parsed.text == "⏰ Turn ends Nov 14 23:13 UTC"
    assert parsed.entities == (
        {"type": "bold", "offset": 2, "length": 4},
        {
            "type": "date_time",
            "offset": 12,
            "length": 16,
            "unix_time": SOON,
            "date_time_format": "wt",
        },
    )


def test_tg_time_without_a_format_has_no_date_time_format() -> None:
    parsed = parse_html(f"<tg-time unix='{SOON}'>later</tg-time>")
    assert parsed.entities == ({"type": "date_time", "offset": 0, "length": 5, "unix_time": SOON},)


@pytest.mark.parametrize("fmt", ["r", "w", "d", "D", "t", "T", "wDT", "wdt", "dT", "wt"])
def test_every_format_of_the_pattern_is_kept(fmt: str) -> None:
    parsed = parse_html(f'<tg-time unix="{SOON}" format="{fmt}">x</tg-time>')
    assert parsed.entities[0]["date_time_format"] == fmt


@pytest.mark.parametrize(
    ("html", "detail"),
    [
        ("<tg-time>x</tg-time>", "Invalid Unix time specified"),
        ('<tg-time unix="">x</tg-time>', "Invalid Unix time specified"),
        ('<tg-time unix="12ab">x</tg-time>', "Invalid Unix time specified"),
        ('<tg-time unix="1.5">x</tg-time>', "Invalid Unix time specified"),
        (f'<tg-time unix="{SOON}" format="x">x</tg-time>', "Invalid date-time format specified"),
        (f'<tg-time unix="{SOON}" format="rt">x</tg-time>', "Invalid date-time format specified"),
        (f'<tg-time unix="{SOON}" format="tT">x</tg-time>', "Invalid date-time format specified"),
        (f'<tg-time unix="{SOON}" format="Tw">x</tg-time>', "Invalid date-time format specified"),
        (f'<tg-time unix="{SOON}">x', 'Can\'t find end tag corresponding to start tag "tg-time"'),
    ],
)
def test_malformed_tg_time_is_a_parse_error(html: str, detail: str) -> None:
    with pytest.raises(ApiError) as error:
        parse_html(html)
    assert error.value.description == f"Bad Request: can't parse entities: {detail}"


async def test_the_bot_reads_the_entity_it_sent_as_telegram_returns_it(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    sent = await bot.send_message(
        people.group.id,
        f'Ends <tg-time unix="{SOON}" format="wt">14 Nov 23:13 UTC</tg-time>',
        parse_mode=ParseMode.HTML,
    )
    [entity] = sent.entities
    assert entity.type == MessageEntity.DATE_TIME
    assert entity.unix_time == datetime.datetime.fromtimestamp(SOON, tz=datetime.UTC)
    assert entity.date_time_format == "wt"
    assert sent.parse_entity(entity) == "14 Nov 23:13 UTC"
    stored = state.message(people.group.id, sent.message_id).content.entities
    assert stored == (
        {
            "type": "date_time",
            "offset": 5,
            "length": 16,
            "unix_time": SOON,
            "date_time_format": "wt",
        },
    )


async def test_captions_and_their_edits_carry_the_entity(
    bot: Bot, state: EmulatorState, people: People
) -> None:
    html = f'Round 1 · <tg-time unix="{SOON}" format="t">23:13 UTC</tg-time>'
    sent = await bot.send_photo(people.group.id, png(), caption=html, parse_mode="HTML")
    assert [e.type for e in sent.caption_entities] == ["date_time"]
    later = SOON + 600
    edited = await bot.edit_message_caption(
        people.group.id,
        sent.message_id,
        caption=f'Round 1 · <tg-time unix="{later}" format="t">23:23 UTC</tg-time>',
        parse_mode="HTML",
    )
    assert not isinstance(edited, bool)
    moment = edited.caption_entities[0].unix_time
    assert moment is not None and moment.timestamp() == later
    media = InputMediaPhoto(png(color="red"), caption=html, parse_mode="HTML")
    swapped = await bot.edit_message_media(media, people.group.id, sent.message_id)
    assert not isinstance(swapped, bool)
    stored = state.message(people.group.id, sent.message_id).content.caption_entities
    assert stored[0]["unix_time"] == SOON


async def test_explicit_date_time_entities_are_kept(raw: RawCall, people: People) -> None:
    entity = {"type": "date_time", "offset": 0, "length": 5, "unix_time": SOON}
    status, body = await raw(
        "sendMessage",
        chat_id=people.alice.id,
        text="later today",
        entities=[entity, {**entity, "offset": 6, "date_time_format": "r"}],
    )
    assert status == 200
    assert body["result"]["entities"] == [
        entity,
        {**entity, "offset": 6, "date_time_format": "r"},
    ]


@pytest.mark.parametrize(
    ("fields", "description"),
    [
        ({}, "can't parse MessageEntity: Can't find field \"unix_time\""),
        (
            {"unix_time": "soon"},
            'can\'t parse MessageEntity: Field "unix_time" must be of type Number',
        ),
        (
            {"unix_time": SOON, "date_time_format": "x"},
            "can't parse MessageEntity: Invalid date-time format specified",
        ),
        ({"unix_time": -1}, "ENTITY_DATE_INVALID"),
    ],
)
async def test_malformed_explicit_entities_are_refused(
    raw: RawCall, state: EmulatorState, people: People, fields: dict[str, object], description: str
) -> None:
    before = len(state.messages(people.alice.id))
    entity = {"type": "date_time", "offset": 0, "length": 5, **fields}
    status, body = await raw(
        "sendMessage", chat_id=people.alice.id, text="later", entities=[entity]
    )
    assert (status, body["description"]) == (400, f"Bad Request: {description}")
    assert len(state.messages(people.alice.id)) == before  # nothing was sent


async def test_a_moment_beyond_1098_days_is_refused_by_telegram(
    bot: Bot, clock: ManualClock, people: People
) -> None:
    last = NOW + 1098 * 86400
    ok = await bot.send_message(
        people.alice.id, f'<tg-time unix="{last}">then</tg-time>', parse_mode=ParseMode.HTML
    )
    assert ok.entities[0].type == "date_time"
    with pytest.raises(BadRequest, match="Entity_date_invalid"):
        await bot.send_message(
            people.alice.id, f'<tg-time unix="{last + 1}">then</tg-time>', parse_mode=ParseMode.HTML
        )
    clock.advance(1)  # the window moves with the clock
    await bot.send_message(
        people.alice.id, f'<tg-time unix="{last + 1}">then</tg-time>', parse_mode=ParseMode.HTML
    )


async def test_a_malformed_tag_is_refused_through_the_bot(bot: Bot, people: People) -> None:
    with pytest.raises(BadRequest, match="parse entities: invalid unix time specified"):
        await bot.send_message(people.alice.id, "<tg-time>x</tg-time>", parse_mode=ParseMode.HTML)
