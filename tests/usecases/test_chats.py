"""Chat events in memory: migration, the bot removed, languages, the update ledger."""

from __future__ import annotations

from tgbot.buttons import SetLanguage
from tgbot.links import join_payload
from tgbot.records import Status

from .conftest import ANN, BOB, CAT, DAN, EN, GROUP, KO, OTHER_GROUP, Table, person, place

SUPER = -1009


async def test_a_migrated_group_takes_its_game_along(table: Table) -> None:
    gid = await table.start()
    await table.service.migrate(GROUP, SUPER)
    record = await table.record(gid)
    assert record.chat_id == SUPER
    assert await table.store.active_game(SUPER, None) == gid
    assert await table.store.active_game(GROUP, None) is None


async def test_a_migrated_group_gets_the_next_board_in_its_new_chat(table: Table) -> None:
    gid = await table.start()
    await table.service.migrate(GROUP, SUPER)
    await table.discard(gid)
    assert [b.message_id for b in table.sender.live(SUPER, "photo")] == [
        (await table.record(gid)).messages.board
    ]


async def test_migration_takes_every_topic_along(table: Table) -> None:
    first = await table.open(where=place(GROUP, 1))
    second = await table.open(BOB, where=place(GROUP, 2))
    await table.service.migrate(GROUP, SUPER)
    assert await table.store.chat_games(SUPER) == (first, second)


async def test_migration_of_a_chat_without_games_changes_nothing(table: Table) -> None:
    gid = await table.open(where=place(OTHER_GROUP))
    await table.service.migrate(GROUP, SUPER)
    assert (await table.record(gid)).chat_id == OTHER_GROUP


async def test_when_the_bot_is_removed_the_game_ends_and_players_are_told(table: Table) -> None:
    gid = await table.start()
    await table.service.bot_removed(GROUP)
    record = await table.record(gid)
    assert record.status is Status.CANCELLED and record.owed.is_empty
    assert await table.store.active_game(GROUP, None) is None
    for uid in (ANN, BOB, CAT):
        assert table.said(uid)[-1] == (
            "I was removed from <b>The Mine</b>, so the game there has ended."
        )
        assert await table.store.user_games(uid) == ()


async def test_the_bot_removed_from_a_lobby_tells_who_joined(table: Table) -> None:
    gid = await table.open()
    await table.join(gid, BOB)
    await table.service.bot_removed(GROUP)
    assert "so the game there has ended" in table.said(BOB)[-1]
    assert table.said(ANN) == []  # the creator never joined


async def test_the_bot_removed_from_another_group_changes_nothing(table: Table) -> None:
    gid = await table.start()
    await table.service.bot_removed(OTHER_GROUP)
    assert (await table.record(gid)).status is Status.PLAYING


async def test_a_group_language_is_the_default_until_chosen(table: Table) -> None:
    assert await table.service.group_language(GROUP) == EN
    toast = await table.service.tap(person(ANN), SetLanguage(KO), GROUP, None)
    assert toast.text and "Language" not in toast.text
    assert await table.service.group_language(GROUP) == KO


async def test_a_new_group_language_redraws_the_lobby_in_it(table: Table) -> None:
    gid = await table.open()
    before = table.group()[0].text
    await table.service.tap(person(ANN), SetLanguage(KO), GROUP, None)
    assert (await table.record(gid)).language == KO
    assert table.group()[0].text != before and table.group()[0].edits == 1


async def test_a_group_language_in_one_topic_leaves_the_other_topics_game(table: Table) -> None:
    first = await table.open(where=place(GROUP, 1))
    second = await table.open(BOB, where=place(GROUP, 2))
    await table.service.tap(person(ANN), SetLanguage(KO), GROUP, None, thread_id=1)
    assert (await table.record(first)).language == KO
    assert (await table.record(second)).language == EN


async def test_a_user_language_comes_from_the_app_until_chosen(table: Table) -> None:
    assert await table.service.user_language(person(DAN, "ko")) == KO
    assert await table.service.user_language(person(DAN, "xx")) == EN
    assert await table.service.user_language(person(DAN, None)) == EN


async def test_a_chosen_user_language_wins_over_the_app(table: Table) -> None:
    await table.service.tap(person(DAN, "en"), SetLanguage(KO), DAN, None)
    assert await table.service.user_language(person(DAN, "en")) == KO
    assert await table.service.group_language(GROUP) == EN


async def test_a_players_new_language_relabels_their_hand(table: Table) -> None:
    gid = await table.start()
    before = table.sender.live(BOB, "photo")[0].text
    await table.service.tap(person(BOB), SetLanguage(KO), BOB, None)
    record = await table.record(gid)
    bob = record.lobby.player(BOB)
    assert bob is not None and bob.language == KO
    (hand,) = table.sender.live(BOB, "photo")
    assert hand.text != before
    cat = record.lobby.player(CAT)
    assert cat is not None and cat.language == EN


async def test_a_lobby_player_joins_in_their_language(table: Table) -> None:
    gid = await table.open()
    await table.service.open_link(person(BOB, "ko"), join_payload(gid))
    bob = (await table.record(gid)).lobby.player(BOB)
    assert bob is not None and bob.language == KO


async def test_the_ledger_claims_each_update_once(table: Table) -> None:
    assert await table.service.ledger.claim(5)
    assert not await table.service.ledger.claim(5)
    assert await table.service.ledger.claim(6)
