"""A round's end and the game's end as the players see them: the final board with every goal
turned up and its story, what each player received (privately), the per-round table, each
player's place; and the private notices of cards played at a player."""

from __future__ import annotations

import random
import re

from engine import Action, Card, Edition, Phase, PlayOnPlayer, Role, current_player, legal_actions
from engine.events import GoldReceived, RoundEnded
from tgbot.archives import gold_by_round, round_end
from tgbot.i18n import texts
from tgbot.names import role_name

from .conftest import ANN, BOB, CAT, DAN, EN, GROUP, Table
from .games import Seen, choose, play, play_to_end, start

GOLD_AMOUNT = re.compile(r"\d+ gold")


async def _finished(table: Table, seed: int, **kw: object) -> tuple[str, Seen]:
    gid = await start(table, **kw)  # type: ignore[arg-type]
    seen = Seen()
    record = await play_to_end(table, gid, seed, seen=seen)
    assert record.state is not None and record.state.phase is Phase.OVER
    return gid, seen


def _finals(table: Table) -> list[str]:
    """The captions of the rounds' final boards in the group, in order."""
    return [
        m.text
        for m in table.sender.messages
        if m.chat_id == GROUP and m.kind == "photo" and "is over!" in m.text
    ]


async def test_each_round_end_posts_its_final_board_with_the_story_and_keeps_it(
    table: Table,
) -> None:
    gid, _ = await _finished(table, 5)
    finals = _finals(table)
    assert [re.findall(r"Round (\d) is over", t) for t in finals] == [["1"], ["2"], ["3"]]
    record = await table.record(gid)
    assert record.state is not None
    for number, caption in enumerate(finals, start=1):
        result = record.state.results[number - 1]
        assert "Roles:" in caption
        for player, role in result.roles:
            assert f": {role_name(texts(EN), role)}" in caption, (player, caption)
        if result.finder is not None:
            assert "reached the gold: the miners win!" in caption
        else:
            assert "Nobody reached the gold: the saboteurs win!" in caption
        assert not GOLD_AMOUNT.search(caption), caption
    live = [m for m in table.group() if m.kind == "photo" and "is over!" in m.text]
    assert len(live) == 3, "the next round's board does not delete the last one's final board"
    photos = [m for m in table.sender.messages if m.chat_id == GROUP and m.kind == "photo"]
    assert "Round 3 is over!" in photos[-1].text, "no other board after the game's end"


async def test_a_round_s_final_board_turns_every_goal_up(table: Table) -> None:
    gid, _ = await _finished(table, 5)
    record = await table.record(gid)
    assert record.state is not None
    for number in (1, 2, 3):
        end = round_end(record.state, record.moves, number)
        assert end is not None
        goals = end.view.board.goals
        assert len(goals) == 3 and all(g.revealed and g.card is not None for g in goals)
        assert sum(1 for g in goals if g.card is Card.GOLD) == 1
    assert round_end(record.state, record.moves, 4) is None


async def test_each_player_privately_learns_what_they_received_and_their_total(
    table: Table,
) -> None:
    gid, seen = await _finished(table, 5, players=(ANN, BOB, CAT, DAN))
    record = await table.record(gid)
    state = record.state
    assert state is not None
    received: dict[tuple[int, int], int] = {}
    number = 1
    for events in seen.events:
        for e in events:
            if isinstance(e, RoundEnded):
                number = e.result.round
            if isinstance(e, GoldReceived) and e.audience == e.player:
                received[(number, e.player)] = e.nuggets
    for uid in (ANN, BOB, CAT, DAN):
        mine = " ".join(table.sender.ever_shown(uid))
        for number in (1, 2, 3):
            got = received.get((number, uid), 0)
            if got:
                assert f"Round {number}: you received {got} gold." in mine, (uid, number)
            else:
                assert f"Round {number}: you received no gold." in mine, (uid, number)
        total = state.gold[state.players.index(uid)]
        assert f"You have {total} gold in all (secret until the game ends)." in mine
    # Nobody's amounts reach the group, nor another player's private chat.
    for text in table.said(GROUP):
        if "Game over!" not in text:
            assert "you received" not in text and "in all" not in text, text
    for uid in (ANN, BOB, CAT, DAN):  # each private chat tells its own amounts only
        for text in table.sender.ever_shown(uid):
            for number, got in re.findall(r"Round (\d): you received (\d+) gold", text):
                assert received.get((int(number), uid), 0) == int(got), (uid, text)
        # Each payout is a message of its own that stays, once per round.
        paid = [m.text for m in table.sender.live(uid, "text") if "you received" in m.text]
        assert len(paid) == 3, (uid, paid)
        assert all("Round" in t for t in paid)


async def test_the_game_end_shows_each_round_s_gold_and_each_player_s_place(
    table: Table,
) -> None:
    gid, _ = await _finished(table, 5, players=(ANN, BOB, CAT, DAN))
    record = await table.record(gid)
    state = record.state
    assert state is not None
    rounds = gold_by_round(state, record.moves)
    assert len(rounds) == 3
    assert [sum(r[s] for r in rounds) for s in range(4)] == list(state.gold)
    (end,) = [m for m in table.group() if "Game over!" in m.text]
    assert "Gold per round in brackets (rounds 1 · 2 · 3)." in end.text
    for seat in range(len(state.players)):
        per_round = " · ".join(str(r[seat]) for r in rounds)
        assert f"{state.gold[seat]} gold ({per_round})" in end.text
    best = max(state.gold)
    places = ("🏆 You won", "You finished in place")
    for seat, uid in enumerate(state.players):
        # Its own message, which stays (not a line of the live message, gone at its redraw).
        (told,) = [m for m in table.sender.live(uid, "text") if m.text.startswith(places)]
        if state.gold[seat] == best:
            assert told.text.startswith("🏆 You won"), told.text
        else:
            place = 1 + sum(1 for g in state.gold if g > state.gold[seat])
            expected = f"You finished in place {place} of 4, with {state.gold[seat]} gold."
            assert told.text == expected, told.text
    for text in table.said(GROUP):
        assert not text.startswith(places), text


async def test_the_group_sees_no_gold_amount_before_the_game_ends(table: Table) -> None:
    await _finished(table, 8, players=(ANN, BOB, CAT, DAN), edition=Edition.DELUXE)
    for text in table.sender.ever_shown(GROUP):
        if "Game over!" in text:
            continue
        assert not GOLD_AMOUNT.search(text), text
        assert "you received" not in text and "You have" not in text, text


async def test_deluxe_round_ends_say_why_and_by_which_rule(table: Table) -> None:
    gid, _ = await _finished(table, 8, players=(ANN, BOB, CAT, DAN), edition=Edition.DELUXE)
    record = await table.record(gid)
    assert record.state is not None
    whys = (
        "without a green door: the blue team wins!",
        "without a blue door: the green team wins!",
        "open to both colours: both teams win!",
        "every route has doors of both colours: the boss wins alone!",
        "Nobody reached the gold: the saboteurs win!",
    )
    for caption, result in zip(_finals(table), record.state.results, strict=True):
        assert sum(why in caption for why in whys) == 1, caption
        roles = dict(result.roles)
        for p in result.paid:
            if roles[p] is Role.GEOLOGIST:
                assert "crystal" in caption and "in the maze:" in caption
            if roles[p] is Role.BOSS:
                assert "(boss: one less)" in caption
            if roles[p] is Role.PROFITEER:
                assert "(profiteer: two less)" in caption


# ---------------------------------------------------------------- private notices

NOTICES = {
    Card.SWAP_HATS: "swapped your hat: you are now",
    Card.SWAP_HAND: "swapped hands with you",
    Card.TRAPPED: "trapped you",
}


def _at_someone(state: object, rng: random.Random, wanted: set[Card]) -> Action:
    """A card of `wanted` played at another player when offered, else a seeded legal move."""
    player = current_player(state)  # type: ignore[arg-type]
    assert player is not None
    for a in legal_actions(state, player):  # type: ignore[arg-type]
        if isinstance(a, PlayOnPlayer) and a.card in wanted and a.target != player:
            return a
    return choose(state, rng, 0.3)  # type: ignore[arg-type]


async def test_cards_played_at_a_player_notify_them_alone(table: Table) -> None:
    people = (ANN, BOB, CAT, DAN)
    gid = await start(table, people, Edition.DELUXE)
    rng = random.Random(4)
    wanted = set(NOTICES)
    played: list[tuple[Card, int, int]] = []
    for _ in range(400):
        record = await table.record(gid)
        state = record.state
        assert state is not None
        if not wanted or current_player(state) is None:
            break
        action = _at_someone(state, rng, wanted)
        actor = current_player(state)
        assert actor is not None
        before = len(table.sender.messages)
        await play(table, gid, action)
        if isinstance(action, PlayOnPlayer) and action.card in wanted:
            wanted.discard(action.card)
            played.append((action.card, actor, action.target))
            target = action.target
            new = table.sender.messages[before:]
            told = [m for m in new if NOTICES[action.card] in m.text]
            assert told and all(m.chat_id == target for m in told), (action.card, told)
            assert all(m.kind == "text" for m in told), "a message of its own"
            assert any(m.kind == "photo" and m.chat_id == target for m in new), "sent anew"
            if action.card is Card.SWAP_HATS:
                after = (await table.state(gid)).roles[state.players.index(target)]
                assert f"you are now {role_name(texts(EN), after)}." in told[0].text
    assert not wanted, f"the seeded game never played {wanted}"
    assert len(played) == 3
    for text in table.said(GROUP):
        assert not any(n in text for n in NOTICES.values()), text
    for card, _, target in played:  # it stays: a later redraw of the live message keeps it
        kept = [m for m in table.sender.live(target, "text") if NOTICES[card] in m.text]
        assert kept, card
