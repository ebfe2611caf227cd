"""Whole seeded 3-round games driven only by updates, and what each chat was shown (issue 5)."""

from __future__ import annotations

import re

import pytest

from engine import Phase, Role
from tests.catalog import texts
from tgbot.buttons import StartGame
from tgbot.callback import decode
from tgbot.i18n import Language
from tgbot.names import role_name
from tgbot.records import Status

from .driver import Digger, open_lobby
from .harness import World, buttons, shown

NAMES = ["Ann", "Bob", "조민", "Dee", "이서"]


def everything_shown(world: World, chat: int) -> list[str]:
    """Every text and caption a chat ever showed, edits included."""
    out = []
    for m in world.state.messages(chat):
        out.append(shown(m))
        out += [c.text or c.caption or "" for c in m.history]
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("count", "seed"), [(3, 11), (5, 23)])
async def test_a_whole_game_played_by_buttons_only(world: World, count: int, seed: int) -> None:
    """Lobby, three rounds of button taps, the final scoreboard; nothing leaks on the way."""
    players = [world.user(n) for n in NAMES[:count]]
    chat = world.group("Dwarves", players[0], players[1:])
    lobby = await open_lobby(world, players, chat)
    game_id = lobby_game_id(lobby)
    start = next(d for _, d in buttons(lobby) if isinstance(decode(d), StartGame))
    await world.press(players[0], lobby, start)

    driver = Digger(world, players, seed)  # they dig for the gold: short rounds
    await driver.play_to_end()

    gid = await world.store.active_game(chat, None)
    assert gid is None, "a finished game frees its chat"
    record = await world.store.load(game_id)
    assert record is not None and record.status is Status.FINISHED
    state = record.state
    assert state is not None and state.phase is Phase.OVER and len(state.results) == 3
    ko = texts(Language("ko"))
    final = shown(world.last(chat))
    assert strip(ko.gettext("🏆 <b>Game over!</b>")) in final
    for pid, gold in zip(state.players, state.gold, strict=True):
        name = next(u.first_name for u in players if u.id == pid)
        assert f"{name}: " in final and f"{gold}" in final

    # The group never saw a role before its round ended, nor anyone's gold before the end.
    shown_texts = everything_shown(world, chat)
    roles = {role_name(ko, r) for r in (Role.MINER, Role.SABOTEUR)}
    round_over = [strip(ko.gettext("<b>Round {round} is over!</b>", round=r)) for r in (1, 2, 3)]
    for text in shown_texts:
        if any(r in text for r in round_over) or strip(ko.gettext("🏆 <b>Game over!</b>")) in text:
            continue
        if "광부" in text and ("변형 규칙" in text or "금 카드" in text):
            continue  # the lobby names the gold variant "one gold card per miner"
        assert not any(r in text for r in roles), text
        assert "금덩이" not in text, text

    # Each player's private chat shows only their own role for each round.
    for p in players:
        seat = state.players.index(p.id)
        for text in everything_shown(world, p.id):
            match = re.search(r"(\d)/3", text)
            if not match or "직업" not in text:
                continue
            rnd = int(match.group(1))
            own = dict(state.results[rnd - 1].roles)[p.id]
            assert f"직업: {role_name(ko, own)}" in text, (p.first_name, text)
        assert seat >= 0
    assert driver.taps > driver.turns


def strip(html: str) -> str:
    """A catalog text as the user sees it (bold tags removed)."""
    return html.replace("<b>", "").replace("</b>", "")


def lobby_game_id(lobby: object) -> str:
    """The game id carried by the lobby's buttons."""
    from tgbot.buttons import LeaveGame

    for _, data in buttons(lobby):  # type: ignore[arg-type]
        command = decode(data)
        if isinstance(command, LeaveGame):
            return command.game
    raise AssertionError("no lobby button")
