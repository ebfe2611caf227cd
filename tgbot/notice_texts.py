"""The texts of owed messages (`tgbot.notices`), made at delivery in the recipient's language.

Group messages are rendered in the group's language at delivery, a player's notes in that
player's; names come from the record delivered. The notices registered here are the ones the
use cases owe; other presenter modules may register theirs with `@notice` the same way.
"""

from __future__ import annotations

import logging
from html import escape

from engine import Edition, Role
from engine.events import GameEnded, GoldStolen

from . import lobby_texts, presenter, round_texts, time_texts
from .i18n import Language, texts
from .links import message_link
from .menu_types import Button, Keyboard
from .names import card_name
from .notices import (
    NOTICES,
    WITH_RECORD,
    GameOver,
    GameStarted,
    Message,
    PlayedForYou,
    Rendered,
    RoundOver,
    Said,
    Told,
    notice,
)
from .records import GameRecord

log = logging.getLogger(__name__)


def render(message: Message, record: GameRecord, lang: Language) -> str:
    """A message's text in `lang`, with the names of `record` ("" for a notice unknown here)."""
    if isinstance(message, Rendered):
        return message.text
    if isinstance(message, Said):
        function = NOTICES.get(message.kind)
        if function is None:  # written by a newer version of the bot: nothing to say here
            log.warning("game %s: an unknown notice %r", record.game_id, message.kind)
            return ""
        given = {"record": record} if message.kind in WITH_RECORD else {}
        return function(lang, **message.arguments, **given)
    names = presenter.names_of(record, lang)
    if isinstance(message, Told):
        return "\n".join(presenter.move_lines([message.event], names, lang))
    if isinstance(message, RoundOver):
        text = presenter.round_text(
            message.result,
            names,
            lang,
            message.next_round,
            message.starter,
            message.deeds,
            edition=record.state.edition if record.state is not None else Edition.BASE,
        )
        thefts = [GoldStolen(thief, victim) for thief, victim in message.thefts]
        moves = presenter.move_lines([*(m.event for m in message.moves), *thefts], names, lang)
        return "\n".join([*moves, "", text]) if moves else text
    if isinstance(message, GameOver):
        ended = GameEnded(message.gold, message.winners)
        return presenter.game_text(ended, names, lang, practice=message.practice)
    if isinstance(message, GameStarted):  # the lobby collapses to what was started
        return lobby_texts.started_text(record, lang)
    return _played_for_you(message, record, lang)


def _played_for_you(message: PlayedForYou, record: GameRecord, lang: Language) -> str:
    tr = texts(lang)
    if message.discarded:
        cards = ", ".join(escape(card_name(tr, c)) for c in message.discarded)
        what = tr.gettext("discarded {card}", card=cards)
    else:
        names = presenter.names_of(record)
        what = "; ".join(presenter.move_lines([m.event for m in message.moves], names, lang))
    return tr.gettext("Time is up: the computer played for you ({what}).", what=what)


# ---------------------------------------------------------------- notices


@notice
def round_begins(lang: Language, *, record: GameRecord, round: int, starter: int) -> str:
    """The next round dealt once the thieves have chosen."""
    return presenter.round_begins_line(round, starter, presenter.names_of(record), lang)


@notice
def thief_choosing(lang: Language, *, record: GameRecord, thief: int) -> str:
    """Deluxe, at a round's end: the group waits for a thief's choice."""
    return presenter.thief_line(thief, presenter.names_of(record), lang)


@notice
def earlier_moves(lang: Language, *, count: int) -> str:
    """A board caption's first line when older move lines were folded away (boards held back by
    the group's budget while the game went fast): how many."""
    return texts(lang).ngettext(
        "⋯ {count} earlier move, not shown here",
        "⋯ {count} earlier moves, not shown here",
        count,
        count=count,
    )


@notice
def practice_idle_ended(lang: Language, *, hours: int) -> str:
    """A practice game ended after waiting `hours` for its player's move."""
    tr = texts(lang)
    return tr.gettext(
        "This practice game ended: it waited {time} for your move. /practice starts a new one.",
        time=presenter.hours_text(tr, hours),
    )


@notice
def turn_limit_changed(lang: Language, *, record: GameRecord, by: str, hours: int | None) -> str:
    """The group's line when the time per turn changed during play: who changed it, to what,
    and when the turn being played now ends (from the record as delivered)."""
    tr, name = texts(lang), presenter.escape_text(by)
    if hours is None:
        line = tr.gettext("⏱ {name} removed the time limit per turn.", name=name)
    else:
        line = tr.gettext(
            "⏱ {name} set the time per turn to {time}.",
            name=name,
            time=presenter.hours_text(tr, hours),
        )
    ends_at = time_texts.turn_ends_at(record)
    if ends_at is None:
        return line
    return "\n".join(
        [line, tr.gettext("This turn now ends {moment}.", moment=time_texts.moment(ends_at))]
    )


@notice
def game_cancelled(lang: Language) -> str:
    """A game (or lobby) was cancelled."""
    return texts(lang).gettext("The game was cancelled.")


@notice
def lobby_expired(lang: Language, *, practice: bool = False) -> str:
    """A lobby (or a practice set-up) expired unchanged."""
    tr = texts(lang)
    if practice:
        return tr.gettext("This practice set-up expired after a day. /practice opens a new one.")
    return tr.gettext(
        "This lobby expired after a day without anyone joining, leaving or changing it."
        " Open a new game with /new."
    )


@notice
def missed_turn(lang: Language, *, name: str) -> str:
    """A player's time ran out (`name`: their mention)."""
    return texts(lang).gettext(
        "{name} did not play in time, so the computer played for them.", name=name
    )


@notice
def away(lang: Language, *, name: str) -> str:
    """A player missed turns in a row: the computer plays for them from now on."""
    return texts(lang).gettext(
        "{name} is away: the computer plays for them until they come back.", name=name
    )


@notice
def away_note(lang: Language) -> str:
    """The private note of a player the computer now plays for."""
    return texts(lang).gettext(
        "You missed several turns, so the computer now plays for you. Tap any button to"
        " take your seat back."
    )


@notice
def stood_in(lang: Language, *, name: str) -> str:
    """A /kick passed: the computer plays for the awaited player."""
    return texts(lang).gettext("The computer now plays for {name} until they come back.", name=name)


@notice
def turn_reminder(lang: Language, *, chat: str, seconds: int, ends_at: int | None = None) -> str:
    """A player's turn ends soon (`chat`: the group's escaped title), at `ends_at` (a reminder
    owed before that was known says only how soon)."""
    tr = texts(lang)
    if ends_at is None:
        return tr.gettext(
            "⏰ Your turn in <b>{chat}</b> ends in {time}.",
            chat=chat,
            time=presenter.duration(lang, seconds),
        )
    return tr.gettext(
        "⏰ Your turn in <b>{chat}</b> ends in {time} ({moment}).",
        chat=chat,
        time=presenter.duration(lang, seconds),
        moment=time_texts.moment(ends_at),
    )


@notice
def joined(lang: Language, *, chat: str) -> str:
    """A player joined a lobby (`chat`: the group's escaped title)."""
    return texts(lang).gettext(
        "You joined the game in <b>{chat}</b>. Your cards will appear here.", chat=chat
    )


@notice
def seat_taken_over(lang: Language, *, chat: str) -> str:
    """A player's private note: the group let the computer play for them (`chat`: escaped)."""
    return texts(lang).gettext(
        "🙋 You were away, so the group let the computer play for you in <b>{chat}</b>. Tap "
        "Take my seat back (or any button) to play your own turns again.",
        chat=chat,
    )


def _short(title: str, limit: int = 40) -> str:
    """A group's title short enough for a button."""
    return title if len(title) <= limit else title[: limit - 1] + "…"


def private_keyboard(message: Message, record: GameRecord, lang: Language) -> Keyboard | None:
    """The buttons a private text comes with: "you joined" links back to the group's lobby."""
    if not (isinstance(message, Said) and message.kind == joined.__name__):
        return None
    url = message_link(record.chat_id, record.messages.lobby)
    if url is None:
        return None
    back = texts(lang).pgettext("button", "↩️ Back to {chat}", chat=_short(record.title))
    return ((Button(back, url=url),),)


@notice
def game_cancelled_by(lang: Language, *, record: GameRecord, by: str) -> str:
    """A game in play cancelled: who cancelled it (`by`: their mention), and the gold so far
    (no longer secret)."""
    state = record.state
    if state is None:
        return game_cancelled(lang)
    gold = tuple(zip(state.players, state.gold, strict=True))
    names = presenter.names_of(record, lang)
    return round_texts.cancelled_text(lang, by, len(state.results), gold, names)


@notice
def game_cancelled_note(lang: Language, *, by: str) -> str:
    """A player's note: the game was cancelled by `by` (their mention)."""
    return round_texts.cancelled_note(lang, by)


@notice
def bot_removed(lang: Language, *, chat: str) -> str:
    """The bot was removed from a group (`chat`: its escaped title): its game ended."""
    return texts(lang).gettext(
        "I was removed from <b>{chat}</b>, so the game there has ended.", chat=chat
    )


@notice
def unreachable(lang: Language, *, name: str, bot: str) -> str:
    """A player's private chat refused the bot (`name`: their mention)."""
    return texts(lang).gettext(
        "{name} has blocked me or never started a private chat with me, so I cannot "
        "send their cards. {name}, open @{bot} and press Start: your cards come at once.",
        name=name,
        bot=bot,
    )


# ---------------------------------------------------------------- a player's private notices
# Each goes to its own player's private chat alone (`Owed.private_texts`): what it tells
# (a role, a payout, a total) is theirs to know.


@notice
def hat_swapped(lang: Language, *, record: GameRecord, by: int, me: int, role: str) -> str:
    """Swap your hats played at `me` by `by`: their new role (`role`: its name)."""
    return round_texts.hats_note(lang, presenter.names_of(record, lang), by, me, Role[role])


@notice
def hand_swapped(lang: Language, *, record: GameRecord, by: int) -> str:
    """Swap your hand played at a player by `by`."""
    return round_texts.hand_note(lang, presenter.names_of(record, lang), by)


@notice
def trapped(lang: Language, *, record: GameRecord, by: int) -> str:
    """Trapped! played at a player by `by`."""
    return round_texts.trapped_note(lang, presenter.names_of(record, lang), by)


@notice
def round_paid(lang: Language, *, round: int, nuggets: int, total: int) -> str:
    """What a player received at a round's end, and their total."""
    return round_texts.received_note(lang, round, nuggets, total)


@notice
def gold_stolen(
    lang: Language, *, record: GameRecord, me: int, thief: int, victim: int, total: int
) -> str:
    """A theft told to its thief or its victim (`me`), with their total."""
    names = presenter.names_of(record, lang)
    return round_texts.theft_note(lang, names, me, thief, victim, total)


@notice
def final_place(lang: Language, *, place: int, count: int, gold: int, tied: bool) -> str:
    """A player's place at the game's end."""
    return round_texts.place_note(lang, place, count, gold, tied)
