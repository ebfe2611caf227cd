"""Round replays, a game's end (archive, statistics, message), /history, /stats, replay taps."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable

from engine import Phase
from engine.archive import RoundReplay
from engine.events import GameEnded

from .. import history_texts, presenter
from ..archives import ALL_TIME, archived_game, game_rounds, season_of, tally
from ..callback import ReplayRound
from ..i18n import texts
from ..menus import Keyboard
from ..outbox import END, replay_done
from ..records import GameRecord, Status
from .context import Context, Person, Place, Toast, invalid_button

log = logging.getLogger(__name__)

HISTORY_GAMES = 10
Flooded = Callable[[Context, int], Awaitable[bool]]


def due(record: GameRecord, *, group_open: bool) -> bool:
    """Whether the first owed replay item can be delivered now: a round's replay when the group
    may be written to; the game's end of a finished game once its last board is posted too (the
    game-end message comes last); a cancelled game's end (its archive) at once."""
    owed = record.owed
    if not owed.replays:
        return False
    if owed.replays[0] != END:
        return group_open
    if record.status is not Status.FINISHED:
        return True
    return group_open and owed.board_version is None


async def deliver_replay(ctx: Context, record: GameRecord, flooded: Flooded) -> bool | None:
    """Deliver the first owed replay item (see `due`); True once done, None when the group must
    wait (`flooded` says so after a refused send)."""
    item = record.owed.replays[0]
    sent: int | None
    if item == END:
        await keep_archive(ctx, record)
        if record.status is not Status.FINISHED:
            sent = 0
        else:
            text, keyboard = game_end_message(ctx, record)
            sent = await ctx.sender.group_text(record.chat_id, record.thread_id, text, keyboard)
    else:
        played = _ended_round(game_rounds(record.state, record.moves), item)
        data = None if played is None else ctx.animator.round_replay(played.views)
        if data is None:
            sent = 0  # nothing to show (moves not all known): given up
        else:
            caption = history_texts.round_caption(record.language, item)
            sent = await ctx.sender.group_animation(record.chat_id, record.thread_id, data, caption)
    if sent is None and await flooded(ctx, record.chat_id):
        return None
    await ctx.strike(
        record.game_id, lambda r: dataclasses.replace(r, owed=replay_done(r.owed, item))
    )
    return True


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


def game_end_message(ctx: Context, record: GameRecord) -> tuple[str, Keyboard]:
    """The game-end message: the final scoreboard and winners, with "Same players again"."""
    state = record.state
    assert state is not None
    best = max(state.gold)
    ended = GameEnded(
        gold=tuple(zip(state.players, state.gold, strict=True)),
        winners=tuple(p for p, g in zip(state.players, state.gold, strict=True) if g == best),
    )
    text = presenter.game_text(ended, presenter.names_of(record), record.language)
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
    data = ctx.animator.round_replay(rounds[command.round - 1].views)
    if data is None:
        return invalid_button(tr)
    lang = await ctx.group_language(chat_id)
    count = len(rounds)
    caption = history_texts.replay_caption(game, lang, command.round, count)
    keyboard = history_texts.next_round_keyboard(game, lang, command.round, count)
    sent = await ctx.sender.group_animation(chat_id, thread_id, data, caption, keyboard)
    if sent is None:
        ctx.sender.take_retry_after()  # nothing stays owed: the button can be tapped again
        return Toast(
            tr.pgettext("toast", "I cannot post in this group right now. Please try again soon."),
            alert=True,
        )
    return Toast("")
