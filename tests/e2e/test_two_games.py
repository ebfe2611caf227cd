"""One player in the games of two groups at once: one live message per game, no crosstalk."""

from __future__ import annotations

from tgbot.buttons import ShowHand
from tgbot.callback import decode

from .games import data_of, discard_one, live_hand, loaded, start_game, state_of, to_act
from .harness import World, buttons, shown


async def test_a_player_in_two_groups_games_keeps_them_apart(world: World) -> None:
    """Pat plays in "Dwarves" and in "Miners"; each hand names its group and acts on its game."""
    ann, bob, pat, cho, dee = (world.user(n) for n in ("Ann", "Bob", "Pat", "Cho", "Dee"))
    dwarves = world.group("Dwarves", ann, [bob, pat])
    miners = world.group("Miners", cho, [dee, pat])
    first = [ann, bob, pat]
    second = [cho, dee, pat]
    a = await start_game(world, first, dwarves)
    b = await start_game(world, second, miners)

    hand_a = await live_hand(world, a, pat)
    hand_b = await live_hand(world, b, pat)
    assert hand_a.message_id != hand_b.message_id
    live = [m for m in world.bot_messages(pat.id) if m.content.photo]
    assert {m.message_id for m in live} == {hand_a.message_id, hand_b.message_id}
    assert "Dwarves" in shown(hand_a) and "Miners" not in shown(hand_a)
    assert "Miners" in shown(hand_b) and "Dwarves" not in shown(hand_b)
    assert {decode(d).game for _, d in buttons(hand_a)} == {a}  # type: ignore[union-attr]
    assert {decode(d).game for _, d in buttons(hand_b)} == {b}  # type: ignore[union-attr]

    # A move in game A (by whoever is to act, Pat or not) leaves game B as it was.
    b_before = await world.snapshot(b)
    b_content = world.state.message(pat.id, hand_b.message_id).content
    version_a = (await state_of(world, a)).version
    await discard_one(world, a, await to_act(world, a, first))
    assert (await state_of(world, a)).version == version_a + 1
    assert await world.snapshot(b) == b_before
    assert world.state.message(pat.id, hand_b.message_id).content == b_content
    assert not world.state.message(pat.id, hand_b.message_id).deleted

    # Pat's buttons of game B act on game B only, and leave game A's message alone.
    hand_a = await live_hand(world, a, pat)
    a_before = await world.snapshot(a)
    a_content = world.state.message(pat.id, hand_a.message_id).content
    hand_b = await live_hand(world, b, pat)
    version_b = (await state_of(world, b)).version
    if await to_act(world, b, second) is pat:
        await discard_one(world, b, pat)
        assert (await state_of(world, b)).version == version_b + 1
    else:
        await world.press(pat, hand_b, data_of(hand_b, ShowHand)[0])
    assert await world.snapshot(a) == a_before
    assert world.state.message(pat.id, hand_a.message_id).content == a_content
    assert not world.state.message(pat.id, hand_a.message_id).deleted
    record_a, record_b = await loaded(world, a), await loaded(world, b)
    assert record_a.messages.hand_of(pat.id) == hand_a.message_id
    assert record_b.messages.hand_of(pat.id) != hand_a.message_id
