"""Turn deadlines reach Telegram as `date_time` entities (Bot API 9.5), each reader's app showing
them in the reader's own time zone: the board caption's status line, the awaited player's live
message, the reminder, and /kick's threshold (issue 14)."""

from __future__ import annotations

from emulator import Message
from tgbot.time_texts import fallback

from .driver import Driver
from .games import start_game, to_act
from .harness import World
from .test_async_play import HOUR, sweep

DAY = 24 * 3600  # the default time per turn


def moments(message: Message) -> list[tuple[int, str, str]]:
    """A message's date-time entities as Telegram stores them: (unix time, format, text)."""
    content = message.content
    text = content.text if content.text is not None else content.caption or ""
    entities = content.entities if content.text is not None else content.caption_entities
    utf16 = text.encode("utf-16-le")
    out = []
    for e in entities:
        if e["type"] == "date_time":
            inside = utf16[2 * e["offset"] : 2 * (e["offset"] + e["length"])].decode("utf-16-le")
            out.append((e["unix_time"], e.get("date_time_format", ""), inside))
    return out


def board(world: World, chat: int) -> Message:
    """The group's live board post."""
    return [m for m in world.state.messages(chat) if m.content.photo is not None][-1]


async def test_every_turn_deadline_is_a_date_time_entity_with_the_turns_end(world: World) -> None:
    players = [world.user(n) for n in ("Ann", "Bob", "Cy")]
    chat = world.group("Dwarves", players[0], players[1:])
    gid = await start_game(world, players, chat)
    record = await world.record(chat)
    assert record is not None
    end = record.turn_started_at + DAY
    expected = (end, "wt", fallback(end))

    post = board(world, chat)
    assert post.content.show_caption_above_media
    assert moments(post) == [expected]
    status = (post.content.caption or "").split("\n")[:3]
    assert fallback(end) in status[2], "the deadline is on the status line, first"

    awaited = await to_act(world, gid, players)
    live = world.last(awaited.id)
    assert moments(live) == [expected]
    for other in players:
        if other.id != awaited.id:  # the others read when the turn they wait for ends
            assert moments(world.last(other.id)) == [expected]

    # /kick too early: the threshold (18 of the 24 h) as a moment too.
    voter = next(p for p in players if p.id != awaited.id)
    await world.say(voter, chat, "/kick")
    await world.settle()
    ready = record.turn_started_at + 18 * 3600
    assert moments(world.last(chat)) == [(ready, "wt", fallback(ready))]

    # The reminder, 2 h before the end, says when.
    world.clock.advance(22 * HOUR + 1)
    await sweep(world)
    reminded = world.last(awaited.id)
    assert moments(reminded) == [expected, expected]  # the live line and the reminder's

    # The next turn's deadline follows the clock.
    driver = Driver(world, players, seed=5)
    assert await driver.turn()
    await world.settle()
    after = await world.record(chat)
    assert after is not None and after.turn_started_at > record.turn_started_at
    later = after.turn_started_at + DAY
    assert moments(board(world, chat)) == [(later, "wt", fallback(later))]
