"""Toasts in memory: every answer to a tap fits Telegram's 200 characters, whatever the names."""

from __future__ import annotations

from tgbot.buttons import SetEdition, StartDiscard, StartGame
from tgbot.links import join_payload
from tgbot.service import Person
from tgbot.usecases.context import TOAST_LIMIT, Toast, fit

from .conftest import ANN, BOB, CAT, Edition, Table, place

LONG = "Ann" + "n" * 252  # a 255-character name, as Telegram allows


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_a_short_text_is_kept() -> None:
    assert fit("Saved.", TOAST_LIMIT) == "Saved."
    assert fit("x" * TOAST_LIMIT, TOAST_LIMIT) == "x" * TOAST_LIMIT


def test_a_long_text_is_cut_with_an_ellipsis() -> None:
    cut = fit("x" * 300, TOAST_LIMIT)
    assert cut == "x" * (TOAST_LIMIT - 1) + "…"


def test_a_cut_counts_as_telegram_does_and_never_splits_a_character() -> None:
    cut = fit("⛏" + "😀" * 150, TOAST_LIMIT)  # each 😀 is two UTF-16 units
    assert _units(cut) <= TOAST_LIMIT and cut.endswith("😀…")
    assert set(cut[1:-1]) == {"😀"}


def test_every_toast_is_clipped_where_it_is_made() -> None:
    toast = Toast("y" * 500, alert=True)
    assert len(toast.text) == TOAST_LIMIT and toast.text.endswith("…") and toast.alert


async def test_a_creators_long_name_does_not_break_the_lobbys_answer(table: Table) -> None:
    await table.service.new_lobby(place(), Person(ANN, LONG, "en"))
    gid = await table.store.active_game(place().chat_id, None)
    assert gid is not None
    revision = (await table.record(gid)).lobby.revision
    toast = await table.lobby_tap(BOB, SetEdition(gid, revision, Edition.BASE))
    assert toast.text.startswith("Only Annn") and toast.text.endswith("…")
    assert len(toast.text) == TOAST_LIMIT


async def test_a_long_name_of_the_awaited_player_does_not_break_a_hand_tap(table: Table) -> None:
    players = {uid: Person(uid, LONG[:-1] + str(uid), "en") for uid in (ANN, BOB, CAT)}
    await table.service.new_lobby(place(), players[ANN])
    gid = await table.store.active_game(place().chat_id, None)
    assert gid is not None
    for someone in players.values():
        await table.service.open_link(someone, join_payload(gid))
    revision = (await table.record(gid)).lobby.revision
    assert (await table.lobby_tap(ANN, StartGame(gid, revision))).text == "Done!"
    awaited = await table.to_act(gid)
    other = next(u for u in players if u != awaited)
    toast = await table.service.tap(players[other], StartDiscard(gid, 0), other, None)
    assert toast.text.startswith("It is not your turn: Annn") and toast.text.endswith("…")
    assert len(toast.text) == TOAST_LIMIT
