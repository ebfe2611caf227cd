"""What a lobby command decides about a game's record, as pure functions (no I/O).

Each returns a `Decision` for `Store.update`: the answer (a toast and what to do once saved) and
the record to save, if any. They may run several times on fresher records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from ai import Level
from engine import Options, new_game
from engine.model import GoldRule

from .. import lobby_texts, notice_texts, notices, presenter
from ..buttons import (
    AddComputer,
    CancelGame,
    GameCommand,
    JoinGame,
    LeaveGame,
    RemoveComputer,
    SetComputers,
    SetEdition,
    SetTurnLimit,
    StartGame,
    ToggleVariant,
    Variant,
)
from ..computer import DEFAULT_LEVEL, new_computer
from ..i18n import Language, Texts, texts
from ..links import join_payload, start_link
from ..outbox import END, Owed, owe
from ..records import GameRecord, Lobby, LobbyPlayer, Status
from ..store import Decision
from .context import Person, Toast, gone, invalid_button

START_GRACE_SECONDS = 120  # after this, any joined player may start the lobby's game


class Then(Enum):
    """What a lobby command still does once its decision is saved."""

    NOTHING = "nothing"
    REDRAW = "redraw"  # the lobby message shows the latest set-up
    LEFT = "left"  # the player's game list forgets the game, and the lobby is redrawn
    STARTED = "started"
    CANCELLED = "cancelled"
    RETIMED = "retimed"  # the running game's deadlines follow the new time per turn


@dataclass(frozen=True, slots=True)
class Outcome:
    """A lobby command's answer and what follows once saved."""

    toast: Toast
    then: Then = Then.NOTHING


@dataclass(frozen=True, slots=True)
class Request:
    """Everything a lobby decision needs besides the record (read once, before deciding)."""

    person: Person
    command: GameCommand
    now: int
    language: Language  # for a game that is gone
    bot_username: str
    seed: Callable[[], int]  # asked only when a game starts
    chat_id: int | None = None  # the tap's chat (None for a command, which is in its chat)
    by_command: bool = False  # a typed command carries no lobby revision to check
    is_admin: bool = False


Decide = Callable[[GameRecord | None], Decision[Outcome]]
# The buttons of a practice game's set-up (the others belong to a group's lobby).
PRACTICE_COMMANDS = (StartGame, CancelGame, SetEdition, SetComputers)


def once(make: Callable[[], int]) -> Callable[[], int]:
    """`make`, called at most once (a decision run again reuses its seed)."""
    made: list[int] = []

    def get() -> int:
        if not made:
            made.append(make())
        return made[0]

    return get


def _answer(text: str, *, alert: bool = False) -> Decision[Outcome]:
    return Decision(Outcome(Toast(text, alert=alert)))


def decide_tap(req: Request) -> Decide:
    """The decision of a lobby button or command (join, leave, options, start, cancel)."""

    def decide(record: GameRecord | None) -> Decision[Outcome]:
        # A toast is read by the person who tapped; a command's answer by the whole group.
        by_group = record is not None and req.by_command
        tr = texts(record.language if record is not None and by_group else req.language)
        if record is None or not record.status.is_active:
            return _answer(gone(tr))
        if req.chat_id is not None and req.chat_id != record.chat_id:
            return _answer(tr.pgettext("toast", "These buttons are not yours."), alert=True)
        command = req.command
        if record.is_practice and not isinstance(command, PRACTICE_COMMANDS):
            return Decision(Outcome(invalid_button(tr)))  # not on a practice game's set-up
        if isinstance(command, CancelGame):
            return cancel(record, req, tr)
        if isinstance(command, SetTurnLimit) and record.status is Status.PLAYING:
            return _retime(record, req, command, tr)
        if record.status is not Status.LOBBY:
            return _answer(tr.pgettext("toast", "The game is already running."))
        if not req.by_command and command.version != record.lobby.revision:
            text = tr.pgettext("toast", "That button was out of date; the lobby has been updated.")
            return Decision(Outcome(Toast(text), Then.REDRAW))
        if isinstance(command, JoinGame):
            # Joining goes through the private chat, so the bot can send the cards there.
            url = start_link(req.bot_username, join_payload(record.game_id))
            return Decision(Outcome(Toast("", url=url)))
        if isinstance(command, LeaveGame):
            return _leave(record, req, tr)
        if isinstance(command, StartGame):
            return _start(record, req, tr)
        if isinstance(command, AddComputer | RemoveComputer | SetComputers):
            return _computers(record, req, command, tr)
        return _setting(record, req, tr)

    return decide


def may_override(record: GameRecord, req: Request) -> bool:
    """The game's creator, or a group admin."""
    return req.person.user_id == record.creator_id or req.is_admin


def _not_creator_or_admin(tr: Texts) -> Decision[Outcome]:
    text = tr.pgettext("toast", "Only the game's creator or a group admin can do that.")
    return _answer(text, alert=True)


def _only_creator(record: GameRecord, tr: Texts) -> Decision[Outcome]:
    name = presenter.names_of(record).get(record.creator_id, "?")
    return _answer(tr.pgettext("toast", "Only {name} can do that for now.", name=name))


def cancel(record: GameRecord, req: Request, tr: Texts) -> Decision[Outcome]:
    """The creator or an admin cancels the lobby or the game."""
    if not may_override(record, req):
        return _not_creator_or_admin(tr)
    owed = cancelled_owed(record, req.person.name)
    new = dataclasses.replace(record, status=Status.CANCELLED, updated_at=req.now, owed=owed)
    return Decision(Outcome(Toast(tr.gettext("The game was cancelled.")), Then.CANCELLED), new)


def cancelled_owed(record: GameRecord, by: str) -> Owed:
    """What a cancelled game owes: the lobby says so (a game in play says it where people look,
    at the bottom of the chat: who cancelled it, and the gold so far, no longer secret), and
    every person's live message says so too (a practice game says it once, on the hand: its
    chat is the same)."""
    if record.state is None:
        return dataclasses.replace(
            record.owed, lobby_text=notices.said(notice_texts.game_cancelled)
        )
    said = notices.said(notice_texts.game_cancelled_by, by=by)
    note = notices.said(notice_texts.game_cancelled_note, by=by)
    notes = [(uid, note) for uid in record.human_ids]
    # A game dealt also owes its archive (the group's history keeps cancelled games too).
    shown, replays = ([], []) if record.is_practice else ([said], [END])
    return owe(record.owed, texts=shown, notes=notes, replays=replays)


def _retime(
    record: GameRecord, req: Request, command: SetTurnLimit, tr: Texts
) -> Decision[Outcome]:
    """/settings during play: the creator or an admin changes the time per turn."""
    if not may_override(record, req):
        return _not_creator_or_admin(tr)
    if command.version != record.lobby.revision:
        text = tr.pgettext("toast", "That button was out of date; the lobby has been updated.")
        return _answer(text)
    lobby = record.lobby.changed(turn_limit_hours=command.hours)
    # The turn's deadline moved: every live hand message says when the turn ends, so each is
    # redrawn, and the group is told below its board (whose caption follows with the next move).
    told = notices.said(notice_texts.turn_limit_changed, by=req.person.name, hours=command.hours)
    owed = owe(record.owed, texts=[told], edits=[user for user, _ in record.messages.hands])
    saved = Outcome(Toast(tr.pgettext("toast", "Saved.")), Then.RETIMED)
    return Decision(saved, dataclasses.replace(record, lobby=lobby, owed=owed))


def _leave(record: GameRecord, req: Request, tr: Texts) -> Decision[Outcome]:
    lobby = record.lobby
    uid = req.person.user_id
    if not lobby.has_player(uid):
        return _answer(tr.pgettext("toast", "You are not in this game."))
    lobby = lobby.changed(players=tuple(p for p in lobby.players if p.user_id != uid))
    new = dataclasses.replace(record, lobby=lobby, updated_at=req.now)
    heir = next(iter(lobby.humans), None)
    if uid != record.creator_id or heir is None:
        done = Outcome(Toast(tr.pgettext("toast", "You left the game.")), Then.LEFT)
        return Decision(done, new)
    # The creator left: the lobby passes to the next person who joined, and the group is told.
    said = texts(record.language).gettext(
        "{old} left the lobby: {new} now runs it (the set-up, computer players, Start).",
        old=presenter.escape_text(presenter.names_of(record).get(uid, "?")),
        new=presenter.escape_text(heir.name),
    )
    new = dataclasses.replace(
        new, creator_id=heir.user_id, creator_name=heir.name, owed=owe(new.owed, texts=[said])
    )
    text = tr.pgettext("toast", "You left the game; {name} now runs the lobby.", name=heir.name)
    return Decision(Outcome(Toast(text), Then.LEFT), new)


def _start(record: GameRecord, req: Request, tr: Texts) -> Decision[Outcome]:
    lobby = record.lobby
    uid = req.person.user_id
    late = req.now - record.created_at >= START_GRACE_SECONDS
    if uid != record.creator_id and not (lobby.has_player(uid) and late):
        if late:
            return _answer(tr.pgettext("toast", "You are not in this game."))
        return _only_creator(record, tr)
    legal = lobby_texts.range_of(lobby.edition)
    edition = presenter.edition_label(tr.language, lobby.edition)
    if len(lobby.players) < legal.start:
        text = tr.npgettext(
            "toast",
            "{edition} needs at least {min} player.",
            "{edition} needs at least {min} players.",
            legal.start,
            edition=edition,
            min=legal.start,
        )
        return _answer(text, alert=True)
    if len(lobby.players) >= legal.stop:
        text = tr.npgettext(
            "toast",
            "{edition} seats at most {max} player: remove a computer player first.",
            "{edition} seats at most {max} players: remove a computer player first.",
            legal.stop - 1,
            edition=edition,
            max=legal.stop - 1,
        )
        return _answer(text, alert=True)
    if not lobby.humans:
        text = tr.pgettext(
            "toast", "Computer players cannot play alone: at least one person joins."
        )
        return _answer(text, alert=True)
    players = [p.user_id for p in lobby.players]
    state = new_game(players, edition=lobby.edition, seed=req.seed(), options=lobby.options)
    people = [p.user_id for p in lobby.humans]
    new = dataclasses.replace(
        record,
        status=Status.PLAYING,
        state=state,
        updated_at=req.now,
        turn_started_at=req.now,
    )
    anyone = req.now - record.created_at >= START_GRACE_SECONDS
    owed = owe(record.owed, board_version=state.version, fresh=people)
    if record.messages.lobby is not None:
        said = notices.GameStarted(can_anyone_start=anyone, players=len(lobby.players))
        owed = dataclasses.replace(owed, lobby_text=said)
    new = dataclasses.replace(new, owed=owed)
    return Decision(Outcome(Toast(tr.pgettext("toast", "Done!")), Then.STARTED), new)


def _setting(record: GameRecord, req: Request, tr: Texts) -> Decision[Outcome]:
    if req.person.user_id != record.creator_id:
        return _only_creator(record, tr)
    lobby = lobby_setting(record.lobby, req.command)
    saved = Outcome(Toast(tr.pgettext("toast", "Saved.")), Then.REDRAW)
    return Decision(saved, dataclasses.replace(record, lobby=lobby, updated_at=req.now))


def _computers(
    record: GameRecord,
    req: Request,
    command: AddComputer | RemoveComputer | SetComputers,
    tr: Texts,
) -> Decision[Outcome]:
    """The creator adds or removes a computer player (a group), or picks how many (practice)."""
    if req.person.user_id != record.creator_id:
        return _only_creator(record, tr)
    lobby = record.lobby
    if isinstance(command, SetComputers) != record.is_practice:
        return Decision(Outcome(invalid_button(tr)))  # a practice button on a group, or back
    seats = lobby_texts.range_of(lobby.edition).stop - 1
    if isinstance(command, SetComputers):
        if command.count not in lobby_texts.PRACTICE_OPPONENTS:
            return Decision(Outcome(invalid_button(tr)))
        lobby = with_computers(lobby, command.count, record.language, command.level)
    elif isinstance(command, AddComputer):
        if len(lobby.players) >= seats:
            return _answer(tr.pgettext("toast", "The game is full."))
        added = new_computer(lobby, record.language, command.level)
        lobby = lobby.changed(players=(*lobby.players, added))
    else:
        if not lobby.computers:
            return _answer(tr.pgettext("toast", "There is no computer player to remove."))
        last = lobby.computers[-1].user_id
        lobby = lobby.changed(players=tuple(p for p in lobby.players if p.user_id != last))
    saved = Outcome(Toast(tr.pgettext("toast", "Saved.")), Then.REDRAW)
    return Decision(saved, dataclasses.replace(record, lobby=lobby, updated_at=req.now))


def with_computers(
    lobby: Lobby, count: int, language: Language, level: Level = DEFAULT_LEVEL
) -> Lobby:
    """The lobby with exactly `count` computer players (the last added go first), all at
    `level`."""
    players = [
        dataclasses.replace(p, computer=level) if p.is_computer else p for p in lobby.players
    ]
    while len([p for p in players if p.is_computer]) > count:
        last = [p for p in players if p.is_computer][-1]
        players.remove(last)
    while len([p for p in players if p.is_computer]) < count:
        players.append(
            new_computer(dataclasses.replace(lobby, players=tuple(players)), language, level)
        )
    return lobby.changed(players=tuple(players))


def lobby_setting(lobby: Lobby, command: GameCommand) -> Lobby:
    """The set-up after an option button (edition, a variant, the time per turn)."""
    if isinstance(command, SetEdition):
        return lobby.changed(edition=command.edition)
    if isinstance(command, ToggleVariant):
        options = lobby.options
        if command.variant is Variant.GOLD_PER_MINER:
            gold = GoldRule.OFFICIAL if options.gold is GoldRule.PER_MINER else GoldRule.PER_MINER
            options = Options(gold=gold, greedy_dwarf=options.greedy_dwarf)
        else:
            options = Options(gold=options.gold, greedy_dwarf=not options.greedy_dwarf)
        return lobby.changed(options=options)
    if isinstance(command, SetTurnLimit):
        return lobby.changed(turn_limit_hours=command.hours)
    return lobby


def decide_join(
    person: Person, language: Language, now: int
) -> Callable[[GameRecord | None], Decision[str | None]]:
    """Joining through the Join link: None once joined, else why not."""
    tr = texts(language)

    def decide(record: GameRecord | None) -> Decision[str | None]:
        if record is None or not record.status.is_active:
            return Decision(gone(tr))
        if record.status is Status.PLAYING:
            return Decision(tr.pgettext("toast", "The game is already running."))
        if record.is_practice:
            return Decision(tr.pgettext("toast", "This is someone's practice game."))
        lobby = record.lobby
        if lobby.has_player(person.user_id):
            return Decision(tr.pgettext("toast", "You are already in this game."))
        if len(lobby.players) >= lobby_texts.range_of(lobby.edition).stop - 1:
            return Decision(tr.pgettext("toast", "The game is full."))
        player = LobbyPlayer(person.user_id, person.name, language, person.username)
        invited = tuple(p for p in lobby.invited if p.user_id != person.user_id)
        lobby = lobby.changed(players=(*lobby.players, player), invited=invited)
        # Owed, so that a refused or throttled send is tried again (in their language then).
        hello = notices.said(notice_texts.joined, chat=presenter.escape_text(record.title))
        owed = owe(record.owed, private_texts=[(person.user_id, hello)])
        return Decision(None, dataclasses.replace(record, lobby=lobby, updated_at=now, owed=owed))

    return decide
