"""Turn clock use cases: reminders, timeouts played by a stand-in, and /kick votes."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass

from engine import apply, current_player

from .. import presenter
from ..clocks import MISSES_FOR_AUTO, DeadlineKind, parse_member, stand_in_move
from ..i18n import Texts, texts
from ..names import card_name
from ..records import GameRecord, Status
from ..store import ContentionError, Decision
from .context import Context, Person, Place, contended, fit, no_game, player_language
from .lobby import expire
from .turns import after_move, moved

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Served:
    """What a due deadline decided: a reminder to send, or a move made (its version before)."""

    remind: tuple[int, str] | None = None
    before: int | None = None


async def handle_deadline(ctx: Context, member: str) -> None:
    """A reminder or a timeout of a turn, or a lobby's expiry; stale ones do nothing."""
    parsed = parse_member(member)
    if parsed is None:
        return
    gid, version, kind = parsed
    if kind is DeadlineKind.EXPIRE:
        await expire(ctx, gid, version)
        return
    try:
        done = await ctx.store.update(gid, _decide_deadline(version, kind, ctx.now()))
    except ContentionError:
        log.warning("deadline %s: the game kept changing", member)
        return
    served = done.result
    if served.remind is not None:
        await ctx.sender.private_text(*served.remind)
    if served.before is not None and done.saved and done.record is not None:
        await after_move(ctx, done.record, served.before)


def _decide_deadline(
    version: int, kind: DeadlineKind, now: int
) -> Callable[[GameRecord | None], Decision[Served]]:
    def decide(record: GameRecord | None) -> Decision[Served]:
        if record is None or record.state is None or record.status is not Status.PLAYING:
            return Decision(Served())
        player = current_player(record.state)
        if record.state.version != version or player is None:
            return Decision(Served())
        if kind is DeadlineKind.REMIND:
            return Decision(Served(remind=(player, _reminder(record, player, now))))
        return _timed_out(record, player, now)

    return decide


def _reminder(record: GameRecord, player: int, now: int) -> str:
    lang = player_language(record, player)
    end = record.turn_started_at + 3600 * (record.lobby.turn_limit_hours or 0)
    return texts(lang).gettext(
        "⏰ Your turn in <b>{chat}</b> ends in {time}.",
        chat=presenter.escape_text(record.title),
        time=presenter.duration(lang, max(0, end - now)),
    )


def _timed_out(record: GameRecord, player: int, now: int) -> Decision[Served]:
    """Time is up: the game discards a card for the player; two misses in a row, and it plays
    for them from now on."""
    state = record.state
    assert state is not None
    move = stand_in_move(state, player)
    if move is None:
        return Decision(Served())
    tr = texts(player_language(record, player))
    group = texts(record.language)
    name = _mention(record, player)
    what = ", ".join(presenter.escape_text(card_name(tr, c)) for c in getattr(move, "cards", ()))
    played = tr.gettext("discarded {card}", card=what)
    notes = [(player, tr.gettext("Time is up: I played for you ({what}).", what=played))]
    announcements: list[str] = []
    misses = dict(record.misses)
    automatic = list(record.automatic)
    if player not in automatic:
        misses[player] = misses.get(player, 0) + 1
        announcements.append(group.gettext("{name} did not play in time.", name=name))
        if misses[player] >= MISSES_FOR_AUTO:
            automatic.append(player)
            announcements.append(group.gettext("{name} is away; I play for them.", name=name))
            away = tr.gettext(
                "You missed several turns, so I now play for you. Tap any button to return."
            )
            notes.append((player, away))
    updated = dataclasses.replace(
        record, misses=tuple(sorted(misses.items())), automatic=tuple(automatic)
    )
    transition = apply(state, player, move)
    new = moved(
        updated,
        transition,
        player,
        now,
        action=move,
        stand_in=True,
        texts=announcements,
        notes=notes,
    )
    return Decision(Served(before=state.version), new)


def _mention(record: GameRecord, user_id: int) -> str:
    return presenter.mention(user_id, presenter.names_of(record).get(user_id, str(user_id)))


@dataclass(frozen=True, slots=True)
class Target:
    """Whom a /kick names: the words after it, and the user if they picked a mention."""

    text: str
    user_id: int | None = None


@dataclass(frozen=True, slots=True)
class Vote:
    """What a /kick decided: the reply ("" once the game played), the version before a move."""

    reply: str
    before: int | None = None


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
    try:
        done = await ctx.store.update(gid, _decide_kick(person, is_admin, target, tr, ctx.now()))
    except ContentionError:
        return contended(tr)
    vote = done.result
    if vote.before is not None and done.record is not None:
        await after_move(ctx, done.record, vote.before)
    return vote.reply


def _decide_kick(
    person: Person, is_admin: bool, target: Target | None, tr: Texts, now: int
) -> Callable[[GameRecord | None], Decision[Vote]]:
    def decide(record: GameRecord | None) -> Decision[Vote]:
        if record is None or record.state is None or record.status is not Status.PLAYING:
            return Decision(Vote(no_game(tr)))
        state = record.state
        player = current_player(state)
        if player is None:
            return Decision(Vote(tr.gettext("Nobody is being waited for right now.")))
        if target is not None and not names_player(target, record, player):
            return Decision(Vote(_not_awaited(record, player, target, tr)))
        if person.user_id == player:
            return Decision(Vote(tr.gettext("You cannot vote about your own turn.")))
        if not is_admin:
            if person.user_id not in state.players:
                return Decision(Vote(tr.gettext("Only players of this game can vote.")))
            if person.user_id in record.kick_votes:
                return Decision(Vote(tr.gettext("You have already voted.")))
            votes = (*record.kick_votes, person.user_id)
            needed = (len(state.players) - 1) // 2 + 1
            if len(votes) < needed:
                reply = tr.gettext(
                    "{name} votes to let the game play for {target} ({votes}/{needed}).",
                    name=presenter.escape_text(person.name),
                    target=_mention(record, player),
                    votes=len(votes),
                    needed=needed,
                )
                return Decision(Vote(reply), dataclasses.replace(record, kick_votes=votes))
        return _stand_in(record, player, now, tr)

    return decide


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


def _stand_in(record: GameRecord, player: int, now: int, tr: Texts) -> Decision[Vote]:
    """The vote passed (or an admin asked): the game plays for the player from now on."""
    state = record.state
    assert state is not None
    move = stand_in_move(state, player)
    if move is None:
        return Decision(Vote(tr.gettext("Nobody is being waited for right now.")))
    updated = dataclasses.replace(
        record, automatic=(*[u for u in record.automatic if u != player], player)
    )
    text = texts(record.language).gettext(
        "The game now plays for {name} until they come back.", name=_mention(record, player)
    )
    transition = apply(state, player, move)
    new = moved(updated, transition, player, now, action=move, stand_in=True, texts=[text])
    return Decision(Vote("", before=state.version), new)
