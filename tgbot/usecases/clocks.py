"""Turn clock use cases: reminders, timeouts played by the computer, and /kick votes."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import Discard, Transition, apply, current_player

from .. import logs, notice_texts, presenter, time_texts
from ..clocks import MISSES_FOR_AUTO, DeadlineKind, parse_member
from ..i18n import Texts, texts
from ..notices import Message, PlayedForYou, said, told
from ..outbox import owe
from ..records import GameRecord, Status, is_computer_id
from ..store import ContentionError, Decision
from .computers import Planned, awaited, computer_turn, plan
from .context import Context, Person, Place, contended, fit, no_game
from .lobby import expire
from .practice import end_idle_practice
from .turns import after_move, moved

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Served:
    """What a due deadline decided: a reminder to send, or a move made (its version before)."""

    remind: tuple[int, Message] | None = None
    before: int | None = None


async def handle_deadline(ctx: Context, member: str) -> None:
    """A reminder or a timeout of a turn, a computer player's move, a lobby's expiry, or an idle
    practice game's end; stale ones do nothing."""
    parsed = parse_member(member)
    if parsed is None:
        return
    gid, version, kind = parsed
    with logs.about(gid):
        await _handle(ctx, gid, version, kind)


async def _handle(ctx: Context, gid: str, version: int, kind: DeadlineKind) -> None:
    """One parsed deadline of one game."""
    if kind is DeadlineKind.EXPIRE:
        await expire(ctx, gid, version)
        return
    if kind is DeadlineKind.COMPUTER:
        await computer_turn(ctx, gid, version)
        return
    if kind is DeadlineKind.IDLE:
        await end_idle_practice(ctx, gid, version)
        return
    planned: Planned | None = None
    if kind is DeadlineKind.TIMEOUT:
        record = await ctx.store.load(gid)
        player = awaited(record, version)
        if record is None or player is None or is_computer_id(player):
            return
        planned = await plan(record, player)
    try:
        done = await ctx.store.update(gid, _decide_deadline(version, kind, ctx.now(), planned))
    except ContentionError:
        log.warning("deadline %s of version %s: the game kept changing", kind.value, version)
        return
    served = done.result
    if served.remind is not None and done.saved:
        await ctx.deliver(gid)
    if served.before is not None and done.saved and done.record is not None:
        await after_move(ctx, done.record, served.before)


def _decide_deadline(
    version: int, kind: DeadlineKind, now: int, planned: Planned | None
) -> Callable[[GameRecord | None], Decision[Served]]:
    def decide(record: GameRecord | None) -> Decision[Served]:
        player = awaited(record, version)
        if record is None or player is None or is_computer_id(player):
            return Decision(Served())  # stale, or a computer's turn (it has no clock)
        if kind is DeadlineKind.REMIND:
            # The hand comes again, notifying, with the reminder on top; owed like any
            # announcement, so a failed send is tried again.
            note = (player, _reminder(record, player, now))
            reminded = dataclasses.replace(
                record, owed=owe(record.owed, fresh=[player], notes=[note])
            )
            return Decision(Served(remind=note), reminded)
        if planned is None or not planned.fits(record):
            return Decision(Served())
        return _timed_out(record, planned, now)

    return decide


def _reminder(record: GameRecord, player: int, now: int) -> Message:
    end = record.turn_started_at + 3600 * (record.lobby.turn_limit_hours or 0)
    chat = presenter.escape_text(record.title)
    return said(notice_texts.turn_reminder, chat=chat, seconds=max(0, end - now), ends_at=end)


def _timed_out(record: GameRecord, planned: Planned, now: int) -> Decision[Served]:
    """Time is up: the computer plays for the player; two misses in a row, and it plays for them
    from now on."""
    state = record.state
    assert state is not None
    player = planned.player
    name = _mention(record, player)
    transition = apply(state, player, planned.action)
    notes: list[tuple[int, Message]] = [(player, _played(planned, transition))]
    announcements: list[Message] = []
    misses = dict(record.misses)
    automatic = list(record.automatic)
    if player not in automatic:
        misses[player] = misses.get(player, 0) + 1
        announcements.append(said(notice_texts.missed_turn, name=name))
        if misses[player] >= MISSES_FOR_AUTO:
            automatic.append(player)
            announcements.append(said(notice_texts.away, name=name))
            notes.append((player, said(notice_texts.away_note)))
    updated = dataclasses.replace(
        record, misses=tuple(sorted(misses.items())), automatic=tuple(automatic)
    )
    new = _stood_in(updated, planned, transition, now, announcements, notes)
    return Decision(Served(before=state.version), new)


def _stood_in(
    record: GameRecord,
    planned: Planned,
    transition: Transition,
    now: int,
    texts: Sequence[Message],
    notes: Sequence[tuple[int, Message]],
) -> GameRecord:
    """The record after the computer played `planned` for its player, owing what it says."""
    return moved(
        record,
        transition,
        planned.player,
        now,
        action=planned.action,
        stand_in=True,
        texts=texts,
        notes=notes,
    )


def _played(planned: Planned, transition: Transition) -> PlayedForYou:
    """What the computer played for a player, told to them (their own discards by name)."""
    action = planned.action
    if isinstance(action, Discard):
        return PlayedForYou(discarded=action.cards)
    return PlayedForYou(moves=told(transition.events))


def _mention(record: GameRecord, user_id: int) -> str:
    return presenter.mention(user_id, presenter.names_of(record).get(user_id, str(user_id)))


@dataclass(frozen=True, slots=True)
class Target:
    """Whom a /kick names: the words after it, and the user if they picked a mention."""

    text: str
    user_id: int | None = None


@dataclass(frozen=True, slots=True)
class Vote:
    """What a /kick decided: the reply ("" once the game played), the version before a move;
    `unplanned` when the vote passed but the computer has not chosen the move yet."""

    reply: str
    before: int | None = None
    unplanned: bool = False


KICK_TRIES = 3  # a passed vote finds the game moved on while the computer thought, this often


async def kick(
    ctx: Context, place: Place, person: Person, is_admin: bool, target: Target | None = None
) -> str:
    """/kick: an admin, or a majority of the other players, lets the game play for the player
    it waits for (from now until they act again); the reply, or "" when done.

    With a target, it must be the awaited player: naming anyone else changes nothing."""
    tr = texts(await ctx.group_language(place.chat_id))
    gid = await ctx.store.active_game(place.chat_id, place.thread_id)
    if gid is None:
        return no_game(tr)
    planned: Planned | None = None
    for _ in range(KICK_TRIES):
        decide = _decide_kick(person, is_admin, target, tr, ctx.now(), planned)
        try:
            done = await ctx.store.update(gid, decide)
        except ContentionError:
            return contended(tr)
        vote = done.result
        if not vote.unplanned:
            if vote.before is not None and done.record is not None:
                await after_move(ctx, done.record, vote.before)
            return vote.reply
        # The vote passes: the computer chooses the move, and the vote is decided again.
        record = done.record
        assert record is not None and record.state is not None
        player = current_player(record.state)
        assert player is not None
        planned = await plan(record, player)
    return contended(tr)


def _decide_kick(
    person: Person,
    is_admin: bool,
    target: Target | None,
    tr: Texts,
    now: int,
    planned: Planned | None,
) -> Callable[[GameRecord | None], Decision[Vote]]:
    def decide(record: GameRecord | None) -> Decision[Vote]:
        if record is not None and record.status is Status.LOBBY:
            text = tr.gettext("The game here has not started yet: nobody's turn to skip.")
            return Decision(Vote(text))
        if record is None or record.state is None or record.status is not Status.PLAYING:
            return Decision(Vote(no_game(tr)))
        state = record.state
        player = current_player(state)
        if player is None:
            return Decision(Vote(tr.gettext("Nobody is being waited for right now.")))
        if is_computer_id(player):
            name = presenter.escape_text(presenter.names_of(record).get(player, "?"))
            text = tr.gettext("{name} is a computer player: it moves by itself.", name=name)
            return Decision(Vote(text))
        if target is not None and not names_player(target, record, player):
            return Decision(Vote(_not_awaited(record, player, target, tr)))
        if person.user_id == player:
            return Decision(Vote(tr.gettext("You cannot vote about your own turn.")))
        if not is_admin:
            if person.user_id not in state.players:
                return Decision(Vote(tr.gettext("Only players of this game can vote.")))
            if person.user_id in record.kick_votes:
                return Decision(Vote(tr.gettext("You have already voted.")))
        ready = kick_from(record)
        if now < ready:
            return Decision(Vote(_too_early(record, player, ready, now, tr)))
        if not is_admin:
            votes = (*record.kick_votes, person.user_id)
            # The people other than the awaited player vote (computer players do not).
            voters = [u for u in state.players if u != player and not is_computer_id(u)]
            needed = len(voters) // 2 + 1
            if len(votes) < needed:
                reply = tr.gettext(
                    "{name} votes to let the game play for {target} ({votes}/{needed}).",
                    name=presenter.escape_text(person.name),
                    target=_mention(record, player),
                    votes=len(votes),
                    needed=needed,
                )
                return Decision(Vote(reply), dataclasses.replace(record, kick_votes=votes))
        if planned is None or not planned.fits(record):
            return Decision(Vote("", unplanned=True))
        return _stand_in(record, planned, now)

    return decide


KICK_SHARE = 0.75  # /kick works once this share of the time per turn has passed
KICK_NO_LIMIT_SECONDS = 24 * 3600  # ... or, in a game without a time per turn, after a day


def kick_after(limit_hours: int | None) -> int:
    """How long into a turn /kick starts to work: most of the time per turn."""
    if limit_hours is None:
        return KICK_NO_LIMIT_SECONDS
    return int(limit_hours * 3600 * KICK_SHARE)


def kick_from(record: GameRecord) -> int:
    """When /kick starts to work for the current turn."""
    return record.turn_started_at + kick_after(record.lobby.turn_limit_hours)


def _too_early(record: GameRecord, player: int, ready: int, now: int, tr: Texts) -> str:
    """/kick before its threshold: when it works, as a span and as a moment (`ready`)."""
    lang = tr.language
    limit = record.lobby.turn_limit_hours
    after = presenter.duration(lang, kick_after(limit))
    left = presenter.duration(lang, ready - now)
    if limit is None:
        text = tr.gettext(
            "Too early: /kick works once {name} has had {after} for their turn (in a game "
            "without a time per turn). That is in {left} ({moment}).",
            name=_mention(record, player),
            after=after,
            left=left,
            moment=time_texts.moment(ready),
        )
    else:
        text = tr.gettext(
            "Too early: /kick works once {after} of the {limit} per turn have passed for {name}. "
            "That is in {left} ({moment}).",
            name=_mention(record, player),
            after=after,
            limit=presenter.hours_text(tr, limit),
            left=left,
            moment=time_texts.moment(ready),
        )
    return text


def names_player(target: Target, record: GameRecord, player: int) -> bool:
    """Whether a /kick's target is this player: their mention, @username or shown name."""
    if target.user_id is not None:
        return target.user_id == player
    said = _plain(target.text)
    joined = record.lobby.player(player)
    known = {_plain(presenter.names_of(record).get(player, ""))}
    if joined is not None and joined.username:
        known.add(_plain(joined.username))
    return said in known or (said.startswith("@") and said[1:] in known)


def _plain(name: str) -> str:
    return " ".join(name.split()).casefold()


def _not_awaited(record: GameRecord, player: int, target: Target, tr: Texts) -> str:
    awaited = presenter.names_of(record).get(player, str(player))
    return tr.gettext(
        "I am waiting for {name}, not for {target}: /kick only concerns the player whose turn"
        " it is.",
        name=presenter.escape_text(awaited),
        target=presenter.escape_text(fit(target.text, 64)),
    )


def _stand_in(record: GameRecord, planned: Planned, now: int) -> Decision[Vote]:
    """The vote passed (or an admin asked): the computer plays for the player from now on."""
    state = record.state
    assert state is not None
    player = planned.player
    updated = dataclasses.replace(
        record, automatic=(*[u for u in record.automatic if u != player], player)
    )
    text = said(notice_texts.stood_in, name=_mention(record, player))
    note = said(notice_texts.seat_taken_over, chat=presenter.escape_text(record.title))
    transition = apply(state, player, planned.action)
    new = _stood_in(updated, planned, transition, now, [text], [(player, note)])
    new = dataclasses.replace(new, owed=owe(new.owed, fresh=[player]))
    return Decision(Vote("", before=state.version), new)
