"""Round replays, a game's end (archive, statistics, message), /history, /stats, replay taps."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable

from engine import Phase
from engine.archive import RoundReplay
from engine.events import GameEnded, RoundStarted

from .. import history_texts, presenter
from ..animations import Animator
from ..archives import (
    ALL_TIME,
    RoundEnd,
    archived_game,
    game_rounds,
    gold_by_round,
    round_end,
    season_of,
    tally,
)
from ..buttons import ReplayRound
from ..fitting import CAPTION_LIMIT, split_fitting
from ..i18n import texts
from ..menus import Keyboard
from ..outbox import END, delete_later, owe, replay_done
from ..ports import Sent
from ..records import GameRecord, Status
from .context import Context, Person, Place, Toast, invalid_button

log = logging.getLogger(__name__)

HISTORY_GAMES = 10
Change = Callable[[GameRecord], GameRecord]
# delivery's group send: the send, `done(message id)` once confirmed, `drop` if refused for good
SendGroup = Callable[
    [Context, GameRecord, Callable[[], Awaitable[Sent]], Callable[[int], Change], Change],
    Awaitable[None],
]


def due(record: GameRecord) -> bool:
    """Whether the first owed replay item can go now (the group not waiting): a round's replay
    at once; a finished game's end once its last board is posted too (the game-end message comes
    last); a cancelled game's end (its archive only) at once."""
    owed = record.owed
    if not owed.replays or record.state is None:
        return False
    if owed.replays[0] != END or record.status is not Status.FINISHED:
        return True
    return owed.board_version is None


async def deliver_replay(ctx: Context, record: GameRecord, send_group: SendGroup) -> None:
    """Deliver the first owed replay item (see `due`) through delivery's group send; struck off
    once Telegram confirmed it or refused it for good (a passing failure keeps it owed)."""
    item = record.owed.replays[0]

    def struck(r: GameRecord) -> GameRecord:
        return dataclasses.replace(r, owed=replay_done(r.owed, item))

    chat, thread = record.chat_id, record.thread_id
    if item < 0:
        await _final_board(ctx, record, -item, send_group, struck)
        return
    if item == END:
        await keep_archive(ctx, record)
        if record.status is not Status.FINISHED:
            await ctx.strike(record.game_id, struck)
            return
        text, keyboard = game_end_message(record)

        def send() -> Awaitable[Sent]:
            return ctx.sender.group_text(chat, thread, text, keyboard)

    else:
        data = await asyncio.to_thread(_round_gif, ctx.animator, record, item)
        if data is None:  # nothing to show (moves not all known), or too big: given up
            await ctx.strike(record.game_id, struck)
            return
        gif, caption = data, history_texts.round_caption(record.language, item)

        def send() -> Awaitable[Sent]:
            return ctx.sender.group_animation(chat, thread, gif, caption)

    await send_group(ctx, record, send, lambda _: struck, struck)


def _round_gif(animator: Animator, record: GameRecord, number: int) -> bytes | None:
    """Round `number`'s replay, replayed from the record's moves and drawn (on a thread: 0.1 s
    or more, during which other games' updates go on); None when there is nothing to show."""
    played = _ended_round(game_rounds(record.state, record.moves), number)
    return None if played is None else animator.round_replay(played.views)


async def _final_board(
    ctx: Context, record: GameRecord, number: int, send_group: SendGroup, struck: Change
) -> None:
    """Round `number`'s final board, every goal turned up, its story as the caption (what does
    not fit follows as a text); it replaces the round's last board post and stays (the next
    round's board does not delete it)."""
    end = round_end(record.state, record.moves, number)
    if end is None:  # cannot happen for a record whose moves are kept; nothing to draw
        log.warning("game %s: round %s's end cannot be replayed", record.game_id, number)
        await ctx.strike(record.game_id, struck)
        return
    names = presenter.names_of(record)
    lines = round_end_lines(record, end)
    caption = split_fitting(lines, CAPTION_LIMIT)[0]
    rest = lines[caption.count("\n") + 1 :]
    while rest and not rest[0]:
        rest = rest[1:]
    png = ctx.painter.round_end(end.view, names)

    def done(_: int) -> Change:
        def change(r: GameRecord) -> GameRecord:
            owed = delete_later(r.owed, r.chat_id, r.messages.board)
            if rest:
                owed = owe(owed, texts=["\n".join(rest)])
            messages = dataclasses.replace(r.messages, board=None)
            return struck(dataclasses.replace(r, owed=owed, messages=messages))

        return change

    def send() -> Awaitable[Sent]:
        return ctx.sender.group_photo(record.chat_id, record.thread_id, png, caption)

    await send_group(ctx, record, send, done, struck)


def round_end_lines(record: GameRecord, end: RoundEnd) -> list[str]:
    """A round's story under its final board: the last move, who won and why, the roles, who was
    paid, who did what, who begins the next round (a practice game's end: the scoreboard)."""
    state = record.state
    assert state is not None
    names, lang = presenter.names_of(record), record.language
    result = end.view.results[-1]
    starter = next((e.starter for e in end.events if isinstance(e, RoundStarted)), None)
    text = presenter.round_text(
        result,
        names,
        lang,
        None if starter is None else result.round + 1,
        starter,
        end.deeds,
        edition=state.edition,
        crystals=end.view.crystals,
        trapped=end.trapped,
    )
    moves = presenter.move_lines(end.events, names, lang)
    lines = [*moves, ""] if moves else []
    lines += text.split("\n")
    ended = next((e for e in end.events if isinstance(e, GameEnded)), None)
    if ended is not None and record.is_practice:
        rounds = gold_by_round(state, record.moves)
        lines += [
            "",
            *presenter.game_text(ended, names, lang, practice=True, rounds=rounds).split("\n"),
        ]
    return lines


def _ended_round(rounds: tuple[RoundReplay, ...], number: int) -> RoundReplay | None:
    return next((r for r in rounds if r.round == number and r.ended is not None), None)


async def keep_archive(ctx: Context, record: GameRecord) -> None:
    """Archive a game at its end in its group's history; a finished game's figures are counted
    (once: the archive port refuses a second time)."""
    game = archived_game(record)
    if game is None:
        log.info("game %s: no archive (its moves are not all known)", record.game_id)
        return
    state = record.state
    finished = record.status is Status.FINISHED and state is not None and state.phase is Phase.OVER
    counted = tally(state) if finished and state is not None else None
    await ctx.archives.keep(game, counted)


def game_end_message(record: GameRecord) -> tuple[str, Keyboard]:
    """The game-end message: the final scoreboard and winners, with "Same players again"."""
    state = record.state
    assert state is not None
    best = max(state.gold)
    ended = GameEnded(
        gold=tuple(zip(state.players, state.gold, strict=True)),
        winners=tuple(p for p, g in zip(state.players, state.gold, strict=True) if g == best),
    )
    rounds = gold_by_round(state, record.moves)
    text = presenter.game_text(ended, presenter.names_of(record), record.language, rounds=rounds)
    return text, history_texts.rematch_keyboard(record.game_id, record.language)


# ---------------------------------------------------------------- commands


async def history(ctx: Context, place: Place) -> tuple[str, Keyboard]:
    """/history in a group: its latest games, a button each to watch it again."""
    lang = await ctx.group_language(place.chat_id)
    games = await ctx.archives.recent(place.chat_id, HISTORY_GAMES)
    rounds = []
    for game in games:
        try:
            rounds.append(len(game.ended_rounds()))
        except ValueError:  # an archive that no longer replays: listed, not offered
            rounds.append(0)
    return history_texts.history_text(games, lang), history_texts.history_keyboard(games, rounds)


async def group_stats(ctx: Context, place: Place) -> str:
    """/stats in a group: each player's figures this season and all time."""
    lang = await ctx.group_language(place.chat_id)
    season = season_of(ctx.now())
    this_season = await ctx.archives.group_stats(place.chat_id, season)
    all_time = await ctx.archives.group_stats(place.chat_id, ALL_TIME)
    return history_texts.group_stats_text(lang, season, this_season, all_time)


async def private_stats(ctx: Context, person: Person) -> str:
    """/stats in private: the player's own figures in each of their groups."""
    lang = await ctx.user_language(person)
    groups = await ctx.archives.player_stats(person.user_id)
    return history_texts.private_stats_text(lang, groups)


async def replay_tap(
    ctx: Context, person: Person, command: ReplayRound, chat_id: int, thread_id: int | None
) -> Toast:
    """A /history button: post that round's replay in the group (anyone there may ask)."""
    tr = texts(await ctx.user_language(person))
    game = await ctx.archives.game(command.game)
    if game is None:
        return Toast(tr.pgettext("toast", "This game is no longer in the history."))
    if game.chat_id != chat_id:
        return Toast(tr.pgettext("toast", "These buttons are not yours."), alert=True)
    try:
        rounds = game.ended_rounds()
    except ValueError:
        return invalid_button(tr)
    if not 1 <= command.round <= len(rounds):
        return invalid_button(tr)
    # On a thread: 0.1 s or more of drawing, during which other games' updates go on.
    data = await asyncio.to_thread(ctx.animator.round_replay, rounds[command.round - 1].views)
    if data is None:
        return invalid_button(tr)
    lang = await ctx.group_language(chat_id)
    count = len(rounds)
    caption = history_texts.replay_caption(game, lang, command.round, count)
    keyboard = history_texts.next_round_keyboard(game, lang, command.round, count)
    sent = await ctx.sender.group_animation(chat_id, thread_id, data, caption, keyboard)
    if not sent.ok:  # nothing stays owed: the button can be tapped again
        return Toast(
            tr.pgettext("toast", "I cannot post in this group right now. Please try again soon."),
            alert=True,
        )
    return Toast("")
