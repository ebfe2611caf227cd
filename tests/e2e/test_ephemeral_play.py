"""Playing from the group through ephemeral messages (Bot API 10.2-10.4), against the emulator:
a whole game from the panels alone, an offline player and a failed panel, a stranger and a stale
panel, and nothing hidden in what another member can see."""

from __future__ import annotations

import pytest

from emulator.ephemeral import set_offline, visible
from emulator.faults import ERROR_500
from engine import Phase, Role
from tests.catalog import texts
from tgbot.buttons import ConfirmDiscard, PickCard, StartDiscard, ToggleDiscard
from tgbot.callback import decode
from tgbot.i18n import Language
from tgbot.names import role_name
from tgbot.records import Status

from .games import discard_one, live_hand, loaded, start_game, state_of, to_act
from .harness import World, buttons, shown
from .panels import PanelDriver, open_panel, panel_commands, panel_of, tap_panel

EN = texts(Language("en"))
# Deals whose rounds the players, digging toward the goals from their panels, end at a goal
# in a few dozen turns each (random play runs each round's deck out: 201 turns).
DEALS = 5


def group_everything(world: World, chat: int) -> list[str]:
    """Every text and caption the group's history ever held, edits included."""
    out = []
    for m in world.state.messages(chat, include_deleted=True):
        out.append(shown(m))
        out += [c.text or c.caption or "" for c in m.history]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("world_seed", [DEALS])
async def test_a_whole_game_played_only_from_ephemeral_panels(world: World) -> None:
    players = [world.user(n) for n in ("Ann", "Bob", "Cat")]
    chat = world.group("Dwarves", players[0], players[1:])
    gid = await start_game(world, players, chat)
    private_taps = {p.id: 0 for p in players}
    driver = PanelDriver(world, players, chat, seed=11)
    await driver.play_to_end()

    record = await loaded(world, gid)
    assert record.status is Status.FINISHED
    assert record.state is not None and record.state.phase is Phase.OVER
    assert len(record.state.results) == 3
    assert driver.turns > 10 and "Done!" in driver.toasts
    # Every move came from a panel: no private button was ever pressed.
    for query in world.state.callback_queries.values():
        if query.chat_id > 0:
            private_taps[query.user_id] += 1
    assert private_taps == {p.id: 0 for p in players}
    # Each panel was its receiver's alone, and the group's history holds none of them.
    for message in world.state.ephemeral.messages.values():
        assert message.chat_id == chat
    history = group_everything(world, chat)
    for p in players:
        for panel in visible(world.state, chat, p.id):
            assert panel.receiver_id == p.id
            assert panel.caption not in history


async def test_an_offline_player_and_a_failed_panel_fall_back_to_the_private_chat(
    world: World,
) -> None:
    players = [world.user(n) for n in ("Ann", "Bob", "Cat")]
    chat = world.group("Dwarves", players[0], players[1:])
    gid = await start_game(world, players, chat)
    user = await to_act(world, gid, players)

    # Offline: Telegram takes the panel and drops it; the private hand is still there to play.
    set_offline(world.state, user.id)
    text, _ = await open_panel(world, user, chat)
    assert not text and panel_of(world, user, chat) is None
    assert world.state.ephemeral.dropped == 1
    version = (await state_of(world, gid)).version
    await discard_one(world, gid, user)
    assert (await state_of(world, gid)).version == version + 1
    set_offline(world.state, user.id, False)

    # The next player's panel fails (Telegram errs): the tap points to the private chat.
    nxt = await to_act(world, gid, players)
    assert world.emu is not None
    world.emu.force_fault(ERROR_500, method="sendPhoto", chat_id=chat)
    text, url = await open_panel(world, nxt, chat)
    assert text == "I could not show your hand here. It is in your private chat with me."
    assert url == f"https://t.me/{world.state.bot.username}?start=hand-{gid}"
    assert panel_of(world, nxt, chat) is None
    # "Your turn" stays in private: the live hand there offers the move.
    hand = await live_hand(world, gid, nxt)
    assert any(isinstance(decode(d), PickCard | StartDiscard) for _, d in buttons(hand))


async def test_a_stranger_gets_a_toast_and_a_stale_panel_changes_nothing(world: World) -> None:
    players = [world.user(n) for n in ("Ann", "Bob", "Cat")]
    dan = world.user("Dan")
    chat = world.group("Dwarves", players[0], [*players[1:], dan])
    gid = await start_game(world, players, chat)

    text, _ = await open_panel(world, dan, chat)
    assert text == "Only the players of this game have a hand."
    assert world.state.ephemeral.messages == {}

    user = await to_act(world, gid, players)
    await open_panel(world, user, chat)
    panel = panel_of(world, user, chat)
    assert panel is not None
    start = next(d for c, d in panel_commands(panel) if isinstance(c, StartDiscard))
    # The player moves from the private chat; then the whole table plays a turn each.
    for _ in players:
        await discard_one(world, gid, await to_act(world, gid, players))
    assert await to_act(world, gid, players) == user
    before = await world.snapshot(gid)
    text, _ = await tap_panel(world, user, panel, start)
    assert text == "This hand is from turn 1; here is your current hand."
    assert await world.snapshot(gid) == before
    current = (await state_of(world, gid)).version
    redrawn = [c for c, _ in panel_commands(panel)]
    assert all(getattr(c, "version", current) == current for c in redrawn)


async def test_nothing_hidden_reaches_another_member(world: World) -> None:
    players = [world.user(n) for n in ("Ann", "Bob", "Cat")]
    watcher = world.user("Eve")
    chat = world.group("Dwarves", players[0], [*players[1:], watcher])
    gid = await start_game(world, players, chat)
    version = (await state_of(world, gid)).version
    for _ in range(3):  # everyone opens a panel; the one to act discards from theirs
        for p in players:
            await open_panel(world, p, chat)
        user = await to_act(world, gid, players)
        panel = panel_of(world, user, chat)
        assert panel is not None
        for kind in (StartDiscard, ToggleDiscard, ConfirmDiscard):
            data = next(d for c, d in panel_commands(panel) if isinstance(c, kind))
            await tap_panel(world, user, panel, data)
    state = await state_of(world, gid)
    assert state.version == version + 3  # three moves, each from a panel
    roles = {role_name(EN, r) for r in (Role.MINER, Role.SABOTEUR)}
    history = group_everything(world, chat)
    for text in history:
        assert not any(role in text for role in roles), text
    for p in players:
        mine = visible(world.state, chat, p.id)
        assert mine and all(m.receiver_id == p.id for m in mine)
        role = role_name(EN, state.roles[state.players.index(p.id)])
        assert any(role in (m.caption or "") for m in mine)  # their own role, to them alone
        for m in mine:
            assert m.caption not in history
    assert visible(world.state, chat, watcher.id) == []
