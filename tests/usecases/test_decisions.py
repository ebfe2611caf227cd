"""The lobby's and the turns' decisions as pure functions: same record in, same decision out."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from engine import Edition, GoldRule, Options, apply, new_game
from engine.archive import seat_move_text
from tgbot.buttons import (
    CancelGame,
    GameCommand,
    JoinGame,
    LeaveGame,
    SetEdition,
    SetTurnLimit,
    StartGame,
    ToggleVariant,
    Variant,
)
from tgbot.clocks import stand_in_move
from tgbot.i18n import texts
from tgbot.notices import Rendered
from tgbot.records import GameRecord, Lobby, LobbyPlayer, Status
from tgbot.usecases.lobby_decisions import (
    START_GRACE_SECONDS,
    Request,
    Then,
    decide_join,
    decide_tap,
    lobby_setting,
    once,
)
from tgbot.usecases.turns import moved, owed_after

from .conftest import ANN, BOB, CAT, DAN, EN, GROUP, KO, person

GID = "Game000001"
T0 = 1_000


def _lobby(*uids: int, **changes: object) -> GameRecord:
    players = tuple(LobbyPlayer(u, f"P{u}", EN) for u in uids)
    record = GameRecord(
        game_id=GID,
        chat_id=GROUP,
        thread_id=None,
        language=EN,
        creator_id=ANN,
        created_at=T0,
        updated_at=T0,
        title="The Mine",
        creator_name="Ann",
        lobby=Lobby(players=players),
    )
    return dataclasses.replace(record, **changes)  # type: ignore[arg-type]


def _request(uid: int, command: GameCommand, **changes: object) -> Request:
    request = Request(
        person=person(uid),
        command=command,
        now=T0 + 1,
        language=EN,
        bot_username="bot",
        seed=lambda: 42,
        chat_id=GROUP,
    )
    return dataclasses.replace(request, **changes)  # type: ignore[arg-type]


def test_once_asks_its_maker_a_single_time() -> None:
    calls: list[int] = []

    def make() -> int:
        calls.append(1)
        return len(calls)

    get = once(make)
    assert (get(), get(), get()) == (1, 1, 1) and calls == [1]


def test_a_decision_is_the_same_each_time_it_runs() -> None:
    record = _lobby(ANN, BOB, CAT)
    decide = decide_tap(_request(ANN, StartGame(GID, 0)))
    first, second = decide(record), decide(record)
    assert first == second and first.record is not None


def test_a_game_that_is_gone_saves_nothing() -> None:
    decision = decide_tap(_request(ANN, StartGame(GID, 0)))(None)
    assert decision.record is None and decision.result.toast.text == "This game no longer exists."


def test_a_finished_game_is_gone_too() -> None:
    record = _lobby(status=Status.FINISHED)
    decision = decide_tap(_request(ANN, LeaveGame(GID, 0)))(record)
    assert decision.record is None and "no longer exists" in decision.result.toast.text


def test_a_toast_is_in_the_tapper_s_language_a_command_s_answer_in_the_group_s() -> None:
    record = _lobby(language=KO)
    tapped = decide_tap(_request(BOB, LeaveGame(GID, 0)))(record)
    assert tapped.result.toast.text == "You are not in this game.", "Bob reads English"
    korean = decide_tap(_request(BOB, LeaveGame(GID, 0), language=KO))(_lobby(language=EN))
    assert korean.result.toast.text == texts(KO).pgettext("toast", "You are not in this game.")
    typed = decide_tap(_request(BOB, LeaveGame(GID, 0), by_command=True))(record)
    assert typed.result.toast.text == texts(KO).pgettext("toast", "You are not in this game.")


def test_a_typed_command_skips_the_revision_check() -> None:
    record = _lobby(ANN, BOB, lobby=Lobby(players=(LobbyPlayer(BOB, "Bob", EN),), revision=5))
    decision = decide_tap(_request(BOB, LeaveGame(GID, 0), by_command=True))(record)
    assert decision.result.then is Then.LEFT and decision.record is not None


def test_a_stale_button_asks_for_a_redraw_and_saves_nothing() -> None:
    record = _lobby(lobby=Lobby(revision=3))
    decision = decide_tap(_request(ANN, SetEdition(GID, 2, Edition.DELUXE)))(record)
    assert decision.result.then is Then.REDRAW and decision.record is None


def test_the_join_button_is_a_deep_link_and_saves_nothing() -> None:
    decision = decide_tap(_request(BOB, JoinGame(GID, 0)))(_lobby())
    assert (
        decision.record is None
        and decision.result.toast.url == f"https://t.me/bot?start=join-{GID}"
    )


def test_starting_deals_with_the_seed_and_owes_the_board_and_hands() -> None:
    decision = decide_tap(_request(ANN, StartGame(GID, 0)))(_lobby(ANN, BOB, CAT))
    new = decision.record
    assert new is not None and new.state is not None and new.status is Status.PLAYING
    assert new.state.seed == 42
    assert new.owed.board_version == 0 and new.owed.fresh == (ANN, BOB, CAT)
    assert new.turn_started_at == T0 + 1


def test_deluxe_starts_with_two_players() -> None:
    record = _lobby(
        ANN,
        BOB,
        lobby=Lobby(
            edition=Edition.DELUXE,
            players=(LobbyPlayer(ANN, "Ann", EN), LobbyPlayer(BOB, "Bob", EN)),
        ),
    )
    decision = decide_tap(_request(ANN, StartGame(GID, 0)))(record)
    assert decision.result.then is Then.STARTED


def test_the_grace_starts_exactly_at_its_end() -> None:
    record = _lobby(ANN, BOB, CAT)
    early = _request(BOB, StartGame(GID, 0), now=T0 + START_GRACE_SECONDS - 1)
    late = _request(BOB, StartGame(GID, 0), now=T0 + START_GRACE_SECONDS)
    assert decide_tap(early)(record).result.then is Then.NOTHING
    assert decide_tap(late)(record).result.then is Then.STARTED


def test_cancel_by_an_admin_who_is_not_the_creator() -> None:
    decision = decide_tap(_request(DAN, CancelGame(GID, 0), is_admin=True))(_lobby())
    assert decision.result.then is Then.CANCELLED
    assert decision.record is not None and decision.record.status is Status.CANCELLED


def test_cancel_ignores_the_revision() -> None:
    decision = decide_tap(_request(ANN, CancelGame(GID, 99)))(_lobby(lobby=Lobby(revision=4)))
    assert decision.result.then is Then.CANCELLED


@pytest.mark.parametrize(
    ("command", "check"),
    [
        (SetEdition(GID, 0, Edition.DELUXE), lambda lobby: lobby.edition is Edition.DELUXE),
        (SetTurnLimit(GID, 0, 72), lambda lobby: lobby.turn_limit_hours == 72),
        (
            ToggleVariant(GID, 0, Variant.GOLD_PER_MINER),
            lambda lobby: lobby.options.gold is GoldRule.PER_MINER,
        ),
        (ToggleVariant(GID, 0, Variant.GREEDY_DWARF), lambda lobby: lobby.options.greedy_dwarf),
    ],
)
def test_each_setting_changes_its_field_and_the_revision(
    command: GameCommand, check: Callable[[Lobby], bool]
) -> None:
    lobby = lobby_setting(Lobby(), command)
    assert check(lobby) and lobby.revision == 1


def test_toggling_a_variant_keeps_the_other() -> None:
    lobby = Lobby(options=Options(gold=GoldRule.PER_MINER, greedy_dwarf=True))
    toggled = lobby_setting(lobby, ToggleVariant(GID, 0, Variant.GREEDY_DWARF))
    assert toggled.options == Options(gold=GoldRule.PER_MINER, greedy_dwarf=False)


def test_joining_records_the_player_s_language() -> None:
    decision = decide_join(person(BOB, "ko"), KO, T0 + 5)(_lobby())
    assert decision.result is None and decision.record is not None
    assert decision.record.lobby.players == (LobbyPlayer(BOB, "Bob", KO),)
    assert decision.record.updated_at == T0 + 5


def test_joining_a_full_deluxe_lobby_is_refused_at_twelve() -> None:
    players = tuple(LobbyPlayer(u, f"P{u}", EN) for u in range(100, 112))
    record = _lobby(lobby=Lobby(edition=Edition.DELUXE, players=players))
    decision = decide_join(person(DAN), EN, T0)(record)
    assert decision.record is None and decision.result == "The game is full."


def _playing() -> GameRecord:
    state = new_game([ANN, BOB, CAT], seed=3)
    players = tuple(LobbyPlayer(u, f"P{u}", EN) for u in (ANN, BOB, CAT))
    return _lobby(status=Status.PLAYING, state=state, lobby=Lobby(players=players))


def test_a_move_owes_the_board_and_the_actor_s_and_the_next_player_s_hands() -> None:
    record = _playing()
    assert record.state is not None
    actor = record.state.players[record.state.turn]
    move = stand_in_move(record.state, actor)
    assert move is not None
    transition = apply(record.state, actor, move)
    owed = owed_after(record, transition.state, actor, transition.events)
    assert owed.board_version == 1
    assert actor in owed.edits and len(owed.fresh) == 1 and owed.fresh[0] != actor


def test_a_move_clears_the_votes_and_the_actor_s_misses() -> None:
    record = dataclasses.replace(_playing(), kick_votes=(BOB,), misses=((ANN, 1), (BOB, 1)))
    assert record.state is not None
    actor = record.state.players[record.state.turn]
    move = stand_in_move(record.state, actor)
    assert move is not None
    new = moved(record, apply(record.state, actor, move), actor, T0 + 9, action=move)
    assert new.kick_votes == () and actor not in dict(new.misses)
    assert new.turn_started_at == T0 + 9
    assert new.moves == (*record.moves, seat_move_text(record.state.players, actor, move))


def test_a_stand_in_move_keeps_the_misses() -> None:
    record = dataclasses.replace(_playing(), misses=((ANN, 1), (BOB, 1), (CAT, 1)))
    assert record.state is not None
    actor = record.state.players[record.state.turn]
    move = stand_in_move(record.state, actor)
    assert move is not None
    transition = apply(record.state, actor, move)
    new = moved(record, transition, actor, T0, action=move, stand_in=True, texts=["x"])
    assert dict(new.misses)[actor] == 1 and new.owed.texts[0] == Rendered("x")
