"""The lobby end to end: /new, joining through the deep link, starting (issue 5)."""

from __future__ import annotations

from .harness import World, buttons, shown, url_buttons


async def test_new_join_by_deep_link_and_start(world: World) -> None:
    """Three friends open a lobby, join with one tap each, and the creator starts the game."""
    ann, bob, cho = world.user("Ann"), world.user("Bob"), world.user("조민")
    chat = world.group("Dwarves", ann, [bob, cho])
    await world.say(ann, chat, "/new")
    lobby = world.last(chat)
    ((_label, url),) = url_buttons(lobby)
    assert "start=join-" in url
    for person in (ann, bob, cho):
        await world.open(person, url)
    lobby = world.state.message(chat, lobby.message_id)
    assert all(name in shown(lobby) for name in ("Ann", "Bob", "조민"))
    start = next(
        data for label, data in buttons(lobby) if label.endswith("Start") or "시작" in label
    )
    await world.press(ann, lobby, start)
    record = await world.record(chat)
    assert record is not None and record.state is not None
    board = world.last(chat)
    assert board.content.photo is not None
    for person in (ann, bob, cho):
        hand = world.last(person.id)
        assert hand.content.photo is not None
        assert buttons(hand), "every player gets a keyboard"


async def test_the_first_tap_on_a_new_lobby_is_not_stale(world: World) -> None:
    """Storing the lobby's message id does not make its buttons out of date."""
    ann, bob = world.user("Ann"), world.user("Bob")
    chat = world.group("Dwarves", ann, [bob])
    await world.say(ann, chat, "/new")
    lobby = world.last(chat)
    deluxe = next(d for label, d in buttons(lobby) if "디럭스" in label or "Deluxe" in label)
    text, _ = await world.press(ann, lobby, deluxe)
    record = await world.record(chat)
    assert record is not None and record.lobby.edition.value == "deluxe", text
