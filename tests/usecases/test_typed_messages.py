"""Owed announcements as typed messages: kept as data, rendered at delivery in the recipient's
language, holding nothing their recipient may not see."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable

from engine import Card, Edition, Role, RoundResult, Side, apply, current_player
from engine.events import CardsDiscarded, GoalPeeked, TunnelPlaced
from engine.model import Phase
from engine.timeline import Deed, Entry
from tgbot import presenter
from tgbot.buttons import CancelGame, SetLanguage
from tgbot.game_ids import GameId
from tgbot.i18n import Language, texts
from tgbot.notice_texts import (
    bot_removed,
    game_cancelled_note,
    joined,
    missed_turn,
    render,
)
from tgbot.notices import (
    GameOver,
    GameStarted,
    Message,
    PlayedForYou,
    Rendered,
    RoundOver,
    Said,
    Told,
    from_doc,
    notice,
    said,
    to_doc,
)
from tgbot.outbox import owe
from tgbot.ports import Fate
from tgbot.records import (
    CorruptRecordError,
    GameRecord,
    Lobby,
    LobbyPlayer,
    record_from_json,
    record_to_json,
)
from tgbot.store import Decision
from tgbot.usecases.turns import after_move, moved

from .conftest import ANN, BOB, CAT, EN, GROUP, KO, Table, person
from .games import choose, start

HOUR = 3600


def _blocked(table: Table) -> None:
    """Saves go on, deliveries wait (as if the process died after each save)."""

    async def crashed(gid: GameId) -> None:
        return None

    table.service.deliver = crashed  # type: ignore[method-assign]


def _unblocked(table: Table) -> None:
    del table.service.deliver


# ---------------------------------------------------------------- the record's form

MESSAGES: tuple[Message, ...] = (
    Rendered("<b>old</b> text"),
    Told(TunnelPlaced(ANN, Card.CROSS, (1, 0), rotated=True)),
    Told(CardsDiscarded(BOB, 2)),
    RoundOver(
        RoundResult(1, (Side.MINERS,), ANN, ((ANN, Role.MINER), (BOB, Role.SABOTEUR)), (ANN,)),
        moves=(Told(CardsDiscarded(BOB, 1)),),
        thefts=((ANN, BOB),),
        deeds=(Entry(3, BOB, Deed.PEEKED, at=(8, 2)),),
        next_round=2,
        starter=BOB,
    ),
    GameOver(((ANN, 5), (BOB, 3)), (ANN,)),
    GameStarted(can_anyone_start=True, players=3),
    PlayedForYou(discarded=(Card.MAP, Card.CROSS)),
    said(missed_turn, name="<a href='tg://user?id=1'>Ann</a>"),
)


def test_every_kind_of_message_reads_back_from_its_json() -> None:
    for message in MESSAGES:
        doc = json.loads(json.dumps(to_doc(message)))
        assert from_doc(doc) == message, doc


async def test_owed_messages_survive_the_record_codec(table: Table) -> None:
    gid = await table.start()
    record = await table.record(gid)
    owed = owe(record.owed, texts=MESSAGES, lines=MESSAGES[:3], notes=[(BOB, m) for m in MESSAGES])
    owing = dataclasses.replace(record, owed=owed)
    back = record_from_json(record_to_json(owing), owing.rev)
    assert back.owed == owed


def test_an_older_records_plain_texts_read_as_already_rendered() -> None:
    doc = json.loads(record_to_json(_old_record()))
    doc["owed"].update(texts=["Round over"], board_lines=["Ann passed"], lobby_text="Started")
    doc["owed"]["notes"] = [[BOB, "Time is up"]]
    owed = record_from_json(json.dumps(doc), 1).owed
    assert owed.texts == (Rendered("Round over"),) and owed.board_lines == (Rendered("Ann passed"),)
    assert owed.lobby_text == Rendered("Started") and owed.notes == ((BOB, Rendered("Time is up")),)


def test_an_unknown_or_malformed_message_is_a_corrupt_record() -> None:
    for bad in ({"k": "Nope"}, {"k": "Told", "event": {"k": "GoalPeeked"}}, 7, {"k": "Told"}):
        doc = json.loads(record_to_json(_old_record()))
        doc["owed"]["texts"] = [bad]
        try:
            record_from_json(json.dumps(doc), 1)
        except CorruptRecordError:
            continue
        raise AssertionError(f"read {bad!r}")


def test_a_private_event_cannot_be_told_and_a_notice_must_be_registered() -> None:
    try:
        Told(GoalPeeked(ANN, (8, 0), Card.GOLD, audience=ANN))  # type: ignore[arg-type]
    except ValueError:
        pass
    else:
        raise AssertionError("a private event was told")

    def unregistered(lang: object) -> str:
        return "x"

    try:
        said(unregistered)
    except ValueError:
        pass
    else:
        raise AssertionError("an unregistered notice was owed")


def test_a_notice_renders_from_its_arguments_in_the_language_asked() -> None:
    record = _old_record()
    notice = said(missed_turn, name="Ann")
    assert isinstance(notice, Said) and notice.arguments == {"name": "Ann"}
    assert render(notice, record, EN) == missed_turn(EN, name="Ann")
    assert render(notice, record, KO) == missed_turn(KO, name="Ann") != render(notice, record, EN)
    assert render(Said("from_a_newer_bot"), record, EN) == ""


@notice
def named_in_test(lang: Language, *, record: GameRecord, player: int) -> str:
    """A notice that names a player from the record delivered."""
    return texts(lang).gettext("{name} passed", name=presenter.names_of(record)[player])


def test_a_notice_taking_the_record_gets_the_one_delivered() -> None:
    record = _old_record()
    record = dataclasses.replace(record, lobby=Lobby(players=(LobbyPlayer(BOB, "Bob", EN),)))
    notice = said(named_in_test, player=BOB)
    assert render(notice, record, EN) == "Bob passed"
    renamed = Lobby(players=(LobbyPlayer(BOB, "Robert", KO),))
    assert "Robert" in render(notice, dataclasses.replace(record, lobby=renamed), KO)
    try:
        said(named_in_test, player=BOB, record=None)
    except ValueError:
        pass
    else:
        raise AssertionError("a record was owed")


# ---------------------------------------------------------------- languages at delivery


async def test_a_language_change_before_delivery_shows_in_the_delivered_text(table: Table) -> None:
    gid = await table.start()
    _blocked(table)
    player = await table.to_act(gid)
    await table.discard(gid)
    await table.service.tap(person(ANN), SetLanguage(KO), GROUP, None)
    _unblocked(table)
    await table.service.deliver(gid)
    caption = table.sender.live(GROUP, "photo")[-1].text
    name = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}[player]
    korean = texts(KO).ngettext(
        "{name} discarded {count} card", "{name} discarded {count} cards", 1, name=name, count=1
    )
    assert korean in caption and "discarded" not in caption


async def test_a_note_speaks_its_players_language_and_the_group_text_the_groups(
    table: Table,
) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    other = next(u for u in (ANN, BOB, CAT) if u != player)
    _blocked(table)
    table.clock.advance(24 * HOUR)  # the player's time runs out: the computer plays for them
    await table.service.sweep()
    record = await table.record(gid)
    assert {u for u, _ in record.owed.notes} == {player}  # its reminder, then the stand-in
    await table.service.tap(person(player), SetLanguage(KO), player, None)  # after the move
    _unblocked(table)
    await table.service.deliver(gid)
    note = texts(KO).gettext("Time is up: the computer played for you ({what}).", what="")
    hand = table.sender.live(player, "photo")[-1].text
    assert note.split("(")[0].strip() in hand
    group = "\n".join(table.said(GROUP))
    assert "did not play in time, so the computer played for them." in group
    revision = (await table.record(gid)).lobby.revision
    await table.lobby_tap(ANN, CancelGame(gid, revision))
    ann = person(ANN).name
    assert game_cancelled_note(KO, by=ann) in table.sender.live(player, "photo")[-1].text
    assert game_cancelled_note(EN, by=ann) in table.sender.live(other, "photo")[-1].text
    assert f"{ann} cancelled the game. Nobody wins." in table.said(GROUP)[-1]


# ---------------------------------------------------------------- nothing hidden


def _leaks(record: GameRecord, actor: int | None) -> list[str]:
    """What the owed part of a saved record holds that its recipient may not see."""
    owed = json.loads(record_to_json(record))["owed"]
    found = []
    group = [*owed["texts"], *owed["board_lines"], owed["lobby_text"]]
    for kind in ("HandDealt", "RoleDealt", "CardDrawn", "GoalPeeked", "RoleSeen", "GoldReceived"):
        if kind in json.dumps(owed):
            found.append(kind)
    if '"audience"' in json.dumps(owed):  # a public event's audience (None) is never written
        found.append("an event with an audience")
    for message in map(from_doc, filter(None, group)):
        if isinstance(message, PlayedForYou):
            found.append("a player's note in the group")
        if isinstance(message, GameOver) and record.state and record.state.phase is not Phase.OVER:
            found.append("gold totals before the game's end")
    for user, doc in owed["notes"]:
        note = from_doc(doc)
        if isinstance(note, PlayedForYou) and user != actor:
            found.append("what the computer played for someone else")
    return found


async def test_what_a_game_owes_holds_nothing_hidden_from_its_recipient(table: Table) -> None:
    for seed, edition in ((1, Edition.DELUXE), (2, Edition.BASE)):
        gid = await start(table, (ANN, BOB, CAT), edition)
        rng = random.Random(seed)
        checked = 0
        while True:
            record = await table.record(gid)
            state = record.state
            assert state is not None
            player = current_player(state)
            if player is None:
                break
            action = choose(state, rng, 0.8)
            transition = apply(state, player, action)
            saved = moved(record, transition, player, table.ctx.now(), action=action)
            done = await table.store.update(gid, _saving(saved))
            assert done.record is not None
            assert _leaks(done.record, player) == [], (seed, checked)
            checked += 1
            await after_move(table.ctx, done.record, state.version)
        assert checked > 30
    # A stand-in's note tells its player alone what the computer played (their discards too).
    for _ in range(3):
        gid = await table.start()
        player = await table.to_act(gid)
        _blocked(table)
        table.clock.advance(24 * HOUR)
        await table.service.sweep()
        record = await table.record(gid)
        assert [u for u, n in record.owed.notes if isinstance(n, PlayedForYou)] == [player]
        assert _leaks(record, player) == []
        _unblocked(table)
        revision = record.lobby.revision
        await table.lobby_tap(ANN, CancelGame(gid, revision))


def _saving(new: GameRecord) -> Callable[[GameRecord | None], Decision[None]]:
    return lambda _: Decision(None, new)


def _old_record() -> GameRecord:
    return GameRecord("Game000001", GROUP, None, EN, ANN, 0, 0)


# ---------------------------------------------------------------- "you joined", owed


async def test_you_joined_is_owed_until_a_throttled_send_goes_through(table: Table) -> None:
    gid = await table.open(ANN)
    table.sender.fail("private_text", Fate.RETRY, retry_after=5)
    await table.join(gid, BOB)
    record = await table.record(gid)
    assert record.lobby.has_player(BOB) and [u for u, _ in record.owed.private_texts] == [BOB]
    assert not any("You joined" in t for t in table.said(BOB))
    await table.service.tap(person(BOB), SetLanguage(KO), BOB, None)  # meanwhile, in Korean
    table.clock.advance(5.1)
    await table.service.sweep()
    hello = joined(KO, chat="The Mine")
    assert table.said(BOB).count(hello) == 1
    assert (await table.record(gid)).owed.private_texts == ()
    await table.service.sweep()
    assert table.said(BOB).count(hello) == 1  # once


async def test_the_bot_removed_note_is_owed_until_it_goes_through(table: Table) -> None:
    gid = await table.start()
    table.sender.fail("private_text", Fate.RETRY, times=3)  # every player's note, once
    await table.service.bot_removed(GROUP)
    record = await table.record(gid)
    assert sorted(u for u, _ in record.owed.private_texts) == [ANN, BOB, CAT]
    table.clock.advance(1.1)
    await table.service.sweep()
    removed = bot_removed(EN, chat="The Mine")
    assert [table.said(u).count(removed) for u in (ANN, BOB, CAT)] == [1, 1, 1]
    assert (await table.record(gid)).owed.is_empty
