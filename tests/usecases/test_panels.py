"""Playing from the group in memory: the board's "My hand", a player's panel (an ephemeral
message) stepped through and confirmed like the private hand, strangers, stale panels and a
panel that cannot be sent."""

from __future__ import annotations

from tgbot.buttons import Command, ConfirmDiscard, PickCard, ShowHand, StartDiscard
from tgbot.fake_sender import Message
from tgbot.ports import Fate, Keyboard
from tgbot.service import Panel, Toast

from .conftest import ANN, BOB, CAT, DAN, GROUP, Table, person

QUERY = "q1"


def commands(keyboard: Keyboard | None) -> list[Command | None]:
    return [b.command for row in keyboard or () for b in row]


async def board(table: Table) -> Message:
    (post,) = [m for m in table.sender.live(GROUP, "photo")]
    return post


async def open_panel(table: Table, gid: str, uid: int) -> tuple[Toast, list[Toast]]:
    """`uid` taps the board's "My hand"; the toast and what the tap was answered with."""
    answers: list[Toast] = []

    async def answer(toast: Toast) -> None:
        answers.append(toast)

    post = await board(table)
    command = commands(post.keyboard)[0]
    assert isinstance(command, ShowHand)
    toast = await table.service.tap(
        person(uid), command, GROUP, post.message_id, answer=answer, panel=Panel(QUERY, GROUP)
    )
    return toast, answers


async def panel_tap(table: Table, uid: int, panel: Message, command: Command) -> Toast:
    return await table.service.tap(
        person(uid),
        command,
        GROUP,
        0,
        panel=Panel("q2", GROUP, ephemeral_message_id=panel.message_id, receiver_id=uid),
    )


async def test_the_board_post_has_my_hand_and_a_player_gets_their_panel(table: Table) -> None:
    gid = await table.start()
    post = await board(table)
    assert [[b.label for b in row] for row in post.keyboard or ()] == [["🃏 My hand"]]
    player = await table.to_act(gid)
    toast, answers = await open_panel(table, gid, player)
    assert answers == [Toast("")] and toast == Toast("")
    (panel,) = table.sender.ephemeral(GROUP, player)
    private = table.sender.live(player, "photo")[-1]
    assert panel.text == private.text  # the same caption as the private hand
    for other in (ANN, BOB, CAT):
        if other != player:
            assert table.sender.ephemeral(GROUP, other) == []
    assert all(m.kind != "ephemeral" for m in table.sender.live(player))


async def test_a_stranger_gets_a_toast_and_no_hand(table: Table) -> None:
    gid = await table.start()
    sent_before = len(table.sender.messages)
    toast, answers = await open_panel(table, gid, DAN)
    assert answers == [toast] and toast.text == "Only the players of this game have a hand."
    assert len(table.sender.messages) == sent_before


def blocked_labels(keyboard: Keyboard | None) -> list[str]:
    return [b.label for row in keyboard or () for b in row if b.label.startswith("🚫")]


async def test_cards_that_cannot_be_played_are_disabled_in_the_panel(table: Table) -> None:
    gid = await table.start()
    for _ in range(40):  # discard until the player to act holds a card they cannot play
        player = await table.to_act(gid)
        if blocked_labels(table.sender.live(player, "photo")[-1].keyboard):
            break
        await table.discard(gid)
    await open_panel(table, gid, player)
    (panel,) = table.sender.ephemeral(GROUP, player)
    private = table.sender.live(player, "photo")[-1]
    labels = [b.label for row in panel.keyboard or () for b in row]
    assert any(label.startswith("🚫") for label in labels), labels
    for mine, theirs in zip(
        [b for row in panel.keyboard or () for b in row],
        [b for row in private.keyboard or () for b in row],
        strict=True,
    ):
        assert mine.label == theirs.label
        if mine.label.startswith("🚫"):
            assert mine.command is None and isinstance(theirs.command, PickCard)
        else:
            assert mine.command == theirs.command


async def test_each_step_edits_the_panel_and_confirm_moves_as_in_private(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    await open_panel(table, gid, player)
    (panel,) = table.sender.ephemeral(GROUP, player)
    version = (await table.state(gid)).version
    private_before = table.sender.live(player, "photo")[-1]
    edits = private_before.edits
    toast = await panel_tap(table, player, panel, StartDiscard(gid, version))
    assert toast.text == ""
    assert panel.edits == 1 and private_before.edits == edits  # the panel stepped alone
    toast = await panel_tap(table, player, panel, ConfirmDiscard(gid, version, frozenset({0})))
    assert toast.text == "Done!"
    state = await table.state(gid)
    assert state.version == version + 1 and await table.to_act(gid) != player
    assert panel.edits == 2  # back to the hand, now out of turn
    assert all(not isinstance(c, PickCard) for c in commands(panel.keyboard))
    # The same tap again is the same stale button as in private.
    again = await panel_tap(table, player, panel, ConfirmDiscard(gid, version, frozenset({0})))
    assert "It is not your turn" in again.text
    assert (await table.state(gid)).version == version + 1


async def test_a_stale_panel_is_told_and_redrawn(table: Table) -> None:
    gid = await table.start()
    first = await table.to_act(gid)
    await open_panel(table, gid, first)
    (panel,) = table.sender.ephemeral(GROUP, first)
    version = (await table.state(gid)).version
    await table.discard(gid)  # played from the private chat meanwhile
    while await table.to_act(gid) != first:
        await table.discard(gid)
    toast = await panel_tap(table, first, panel, StartDiscard(gid, version))
    assert toast.text == f"This hand is from turn {version + 1}; here is your current hand."
    current = (await table.state(gid)).version
    assert ShowHand(gid, current) in commands(panel.keyboard)


async def test_someone_else_s_panel_and_another_group_s_game_are_refused(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    await open_panel(table, gid, player)
    (panel,) = table.sender.ephemeral(GROUP, player)
    version = (await table.state(gid)).version
    other = next(u for u in (ANN, BOB, CAT) if u != player)
    forged = Panel("q3", GROUP, ephemeral_message_id=panel.message_id, receiver_id=player)
    toast = await table.service.tap(
        person(other), StartDiscard(gid, version), GROUP, 0, panel=forged
    )
    assert toast.alert and toast.text == "These buttons are not yours."
    elsewhere = Panel("q4", GROUP - 1, ephemeral_message_id=panel.message_id, receiver_id=player)
    toast = await table.service.tap(
        person(player), StartDiscard(gid, version), GROUP - 1, 0, panel=elsewhere
    )
    assert toast.text == "This button is not valid."
    assert panel.edits == 0 and (await table.state(gid)).version == version


async def test_a_panel_that_cannot_be_sent_points_to_the_private_chat(table: Table) -> None:
    gid = await table.start()
    player = await table.to_act(gid)
    table.sender.fail("ephemeral_photo", Fate.REFUSED)
    toast, answers = await open_panel(table, gid, player)
    assert answers == [toast]
    assert toast.text == "I could not show your hand here. It is in your private chat with me."
    assert toast.url == f"https://t.me/{table.sender.username}?start=hand-{gid}"
    assert table.sender.ephemeral(GROUP, player) == []
    # The private hand is untouched and still plays.
    assert (await table.discard(gid)).text == "Done!"
