"""Lobby use cases: open a game, join, leave, set options, start, cancel; and the lobby message."""

from __future__ import annotations

import dataclasses

from engine import current_player

from .. import lobby_texts, menus, notice_texts, notices, presenter
from ..callback import (
    CancelGame,
    GameCommand,
    GameId,
    KeepGame,
    LeaveGame,
    SetTurnLimit,
    StartGame,
)
from ..clocks import LOBBY_IDLE_SECONDS, PRACTICE_IDLE_SECONDS, Deadline, DeadlineKind
from ..i18n import texts
from ..outbox import delete_later, owe
from ..ports import Fate, Sent
from ..records import GameRecord, Lobby, LobbyPlayer, Status, is_computer_id
from ..store import ChatBusyError, ContentionError, Decision
from .context import (
    FINISHED_TTL_SECONDS,
    Context,
    Person,
    Place,
    Toast,
    contended,
    gone,
    no_game,
    player_language,
)
from .lobby_decisions import (
    START_GRACE_SECONDS,
    Outcome,
    Request,
    Then,
    decide_join,
    decide_tap,
    once,
    with_computers,
)
from .screens import refresh_private
from .turns import keep_lobby, lobby_started, schedule, unschedule

REDRAWS = 8  # a lobby is drawn again while other processes keep changing it, this many times
PRACTICE_OPPONENTS = 3  # computer players of a new practice game (its set-up offers 2 to 4)


async def new_lobby(ctx: Context, place: Place, person: Person) -> None:
    """/new: open a lobby in this chat (or topic) unless a game is active there; its creator
    joins it at once when they started the bot in private (it can write to them)."""
    lang = await ctx.group_language(place.chat_id)
    now = ctx.now()
    joins = await ctx.store.reachable(person.user_id)
    record = GameRecord(
        game_id=ctx.new_id(),
        chat_id=place.chat_id,
        thread_id=place.thread_id,
        language=lang,
        creator_id=person.user_id,
        created_at=now,
        updated_at=now,
        title=place.title,
        creator_name=person.name,
    )
    if joins:
        record = await _creator_joined(ctx, record, person)
    try:
        record = await _create(ctx, place, record)
    except ChatBusyError:
        tr = texts(lang)
        held = await ctx.active(place)
        if held is not None and held.status is Status.LOBBY:
            await ctx.say(place, tr.gettext("A game is being set up here: its lobby is below."))
            await post_lobby(ctx, held)  # at the bottom of the chat, where people look
            return
        await ctx.say(
            place, tr.gettext("A game is already running here. /status shows whose turn it is.")
        )
        return
    if joins:
        await ctx.store.add_user_game(person.user_id, record.game_id)
    await keep_lobby(ctx, record)
    await post_lobby(ctx, record)
    if joins:
        await ctx.deliver(record.game_id)  # "you joined", with its link to the lobby just posted


async def _creator_joined(ctx: Context, record: GameRecord, person: Person) -> GameRecord:
    """A new lobby with its creator in it, owing them "you joined" (in their language)."""
    me = LobbyPlayer(person.user_id, person.name, await ctx.user_language(person), person.username)
    hello = notices.said(notice_texts.joined, chat=presenter.escape_text(record.title))
    return dataclasses.replace(
        record,
        lobby=dataclasses.replace(record.lobby, players=(me,)),
        owed=owe(record.owed, private_texts=[(person.user_id, hello)]),
    )


async def practice(ctx: Context, person: Person) -> None:
    """/practice in private: a game against computer players in this chat, set up with buttons
    (the edition, how many opponents) and started by the player."""
    lang = await ctx.user_language(person)
    tr = texts(lang)
    now = ctx.now()
    me = LobbyPlayer(person.user_id, person.name, lang, person.username)
    lobby = with_computers(Lobby(turn_limit_hours=None, players=(me,)), PRACTICE_OPPONENTS, lang)
    title = tr.gettext("Practice")
    record = GameRecord(
        game_id=ctx.new_id(),
        chat_id=person.user_id,
        thread_id=None,
        language=lang,
        creator_id=person.user_id,
        created_at=now,
        updated_at=now,
        lobby=lobby,
        title=title,
        creator_name=person.name,
    )
    here = Place(person.user_id, None, title)
    try:
        record = await _create(ctx, here, record)
    except ChatBusyError:
        held = await ctx.active(here)
        if held is not None and held.status is Status.LOBBY:
            await post_lobby(ctx, held)  # its set-up again, at the bottom of the chat
        elif held is not None:
            await _practice_still_on(ctx, held, person)
        return
    await ctx.store.add_user_game(person.user_id, record.game_id)
    await keep_lobby(ctx, record)
    await post_lobby(ctx, record)


async def _practice_still_on(ctx: Context, record: GameRecord, person: Person) -> None:
    """/practice during one's practice game: the hand comes again at the bottom of the chat,
    under a note offering to end the game."""
    tr = texts(player_language(record, person.user_id))
    busy = tr.gettext(
        "Your practice game is still on: your hand is just below. Play on, or end it here."
    )
    end = menus.Button(
        tr.pgettext("button", "✖️ End the practice game"),
        CancelGame(record.game_id, record.lobby.revision),
    )
    await ctx.sender.private_text(person.user_id, busy, ((end,),))
    if record.status is Status.PLAYING and record.state is not None:
        await refresh_private(ctx, record, person.user_id, new_message=True)
        await ctx.deliver(record.game_id)  # the old hand, owed a deletion


async def practice_in_group(ctx: Context, place: Place) -> None:
    """/practice in a group: practice games are played in private."""
    tr = texts(await ctx.group_language(place.chat_id))
    text = tr.gettext(
        "Practice games are played in our private chat: send /practice to @{bot} there.",
        bot=ctx.sender.username,
    )
    await ctx.say(place, text)


async def cancel_practice(ctx: Context, person: Person) -> None:
    """/cancel in private: end one's practice game (set up or in play)."""
    here = Place(person.user_id, None, "")
    record = await ctx.active(here)
    if record is None:
        tr = texts(await ctx.user_language(person))
        none = tr.gettext("You have no practice game here. /practice starts one.")
        await ctx.sender.private_text(person.user_id, none)
        return
    command = CancelGame(record.game_id, record.lobby.revision)
    outcome = await run(ctx, person, command, by_command=True)
    if outcome.then is not Then.CANCELLED:
        await ctx.sender.private_text(person.user_id, outcome.toast.text)


async def _create(ctx: Context, place: Place, record: GameRecord) -> GameRecord:
    """Create the game; a lobby silent for a day that still holds the chat (say, one opened
    before lobbies had an expiry deadline) expires first."""
    try:
        return await ctx.store.create(record)
    except ChatBusyError:
        held = await ctx.active(place)
        if held is None or held.status is not Status.LOBBY:
            raise
        if ctx.now() - held.updated_at < LOBBY_IDLE_SECONDS:
            raise
        await expire(ctx, held.game_id, held.lobby.revision)
        return await ctx.store.create(record)


async def expire(ctx: Context, gid: GameId, revision: int) -> None:
    """A lobby whose set-up stayed at `revision` for a day: it says so and frees its chat."""
    now = ctx.now()

    def decide(record: GameRecord | None) -> Decision[bool]:
        if record is None or record.status is not Status.LOBBY:
            return Decision(False)
        if record.lobby.revision != revision:
            return Decision(False)  # it changed since: a later deadline stands
        said = notices.said(notice_texts.lobby_expired, practice=record.is_practice)
        owed = dataclasses.replace(record.owed, lobby_text=said)
        expired = dataclasses.replace(record, status=Status.CANCELLED, updated_at=now, owed=owed)
        return Decision(True, expired)

    try:
        done = await ctx.store.update(gid, decide)
    except ContentionError:
        # Deliveries save too, without a new deadline: look again in a minute.
        await ctx.deadlines.add([Deadline(gid, revision, DeadlineKind.EXPIRE, now + 60)])
        return
    record = done.record
    if not done.result or record is None:
        return
    await ctx.store.finish(gid, FINISHED_TTL_SECONDS)
    await unschedule(ctx, record)
    for uid in record.human_ids:
        await ctx.store.remove_user_game(uid, gid)
    await ctx.deliver(gid)


async def end_idle_practice(ctx: Context, gid: GameId, version: int) -> None:
    """A practice game that waited `PRACTICE_IDLE_SECONDS` for its player's move at `version`
    (they walked away, or blocked the bot): it ends, says so, and frees their private chat."""
    now = ctx.now()

    def decide(record: GameRecord | None) -> Decision[bool]:
        state = record.state if record is not None else None
        if record is None or state is None or record.status is not Status.PLAYING:
            return Decision(False)
        if not record.is_practice or state.version != version:
            return Decision(False)  # moved since: a later deadline stands
        player = current_player(state)
        if player is None or is_computer_id(player):
            return Decision(False)
        ended_note = notices.said(
            notice_texts.practice_idle_ended, hours=PRACTICE_IDLE_SECONDS // 3600
        )
        notes = [(uid, ended_note) for uid in record.human_ids]
        owed = owe(record.owed, notes=notes)
        ended = dataclasses.replace(record, status=Status.CANCELLED, updated_at=now, owed=owed)
        return Decision(True, ended)

    try:
        done = await ctx.store.update(gid, decide)
    except ContentionError:
        await ctx.deadlines.add([Deadline(gid, version, DeadlineKind.IDLE, now + 60)])
        return
    if done.result and done.record is not None:
        await _cancelled(ctx, done.record)


def lobby_text(ctx: Context, record: GameRecord) -> str:
    """The lobby message of a game."""
    anyone = ctx.now() - record.created_at >= START_GRACE_SECONDS
    return lobby_texts.lobby_text(record, record.language, can_anyone_start=anyone)


def _keyboard(ctx: Context, record: GameRecord) -> menus.Keyboard:
    return lobby_texts.lobby_keyboard(record, record.language, ctx.sender.username)


async def post_lobby(ctx: Context, record: GameRecord) -> Sent:
    """Post the lobby as a new message (the old one is then owed a deletion)."""
    text = lobby_text(ctx, record)
    sent = await ctx.sender.group_text(
        record.chat_id, record.thread_id, text, _keyboard(ctx, record)
    )
    message_id = sent.message_id
    if sent.ok and message_id is not None:

        def posted(r: GameRecord) -> GameRecord:
            owed = delete_later(r.owed, r.chat_id, r.messages.lobby)
            owed = dataclasses.replace(owed, lobby_redraw=False)
            messages = dataclasses.replace(r.messages, lobby=message_id)
            return dataclasses.replace(r, owed=owed, messages=messages)

        await ctx.strike(record.game_id, posted)
        if record.messages.lobby is not None:
            await ctx.deliver(record.game_id)
    else:
        await _redraw_later(ctx, record, sent)
    return sent


async def _redraw_later(ctx: Context, record: GameRecord, sent: Sent) -> None:
    """A lobby drawing that failed for a passing reason is owed: delivery draws it later."""
    if sent.transient:
        await ctx.strike(
            record.game_id,
            lambda r: dataclasses.replace(r, owed=dataclasses.replace(r.owed, lobby_redraw=True)),
        )


async def draw_lobby(ctx: Context, record: GameRecord) -> Sent:
    """Draw the lobby of this record: edit its message, or post it anew if it is gone."""
    lobby = record.messages.lobby
    if lobby is not None:
        edited = await ctx.sender.edit_text(
            record.chat_id, lobby, lobby_text(ctx, record), _keyboard(ctx, record)
        )
        if edited.fate is not Fate.GONE:
            await _redraw_later(ctx, record, edited)
            return edited
    return await post_lobby(ctx, record)


async def refresh_lobby(ctx: Context, gid: GameId) -> None:
    """Redraw the lobby from the latest record, again if it changed meanwhile (another process
    may have drawn an older revision after ours)."""
    drawn: int | None = None
    for _ in range(REDRAWS):
        latest = await ctx.store.load(gid)
        if latest is None or latest.status is not Status.LOBBY or latest.lobby.revision == drawn:
            return
        drawn = latest.lobby.revision
        if not (await draw_lobby(ctx, latest)).ok:
            return  # owed if it may work later; delivery draws it


async def join_hint(ctx: Context, place: Place) -> None:
    """/join in a group: the lobby (with its Join deep link) is posted again."""
    record = await ctx.active(place)
    tr = texts(await ctx.group_language(place.chat_id))
    if record is None:
        await ctx.say(place, no_game(tr))
    elif record.status is Status.LOBBY:
        await post_lobby(ctx, record)
    else:
        await ctx.say(place, tr.pgettext("toast", "The game is already running."))


async def active_or_say(ctx: Context, place: Place) -> GameRecord | None:
    """The chat's active game; when there is none, the group is told so."""
    record = await ctx.active(place)
    if record is None:
        await ctx.say(place, no_game(texts(await ctx.group_language(place.chat_id))))
    return record


async def start_command(ctx: Context, place: Place, person: Person) -> None:
    """/start in a group: start the lobby's game."""
    record = await active_or_say(ctx, place)
    if record is not None:
        command = StartGame(record.game_id, record.lobby.revision)
        outcome = await run(ctx, person, command, by_command=True)
        if outcome.then is not Then.STARTED:
            await ctx.say(place, outcome.toast.text)


async def leave_command(ctx: Context, place: Place, person: Person) -> None:
    """/leave in a group: leave the lobby."""
    record = await active_or_say(ctx, place)
    if record is not None:
        command = LeaveGame(record.game_id, record.lobby.revision)
        outcome = await run(ctx, person, command, by_command=True)
        await ctx.say(place, outcome.toast.text)


async def cancel_command(ctx: Context, place: Place, person: Person, is_admin: bool) -> None:
    """/cancel in a group: the creator or an admin ends the lobby at once, or is asked first
    whether to end a game in play for everyone."""
    record = await active_or_say(ctx, place)
    if record is not None and record.status is Status.PLAYING:
        tr = texts(record.language)
        if person.user_id != record.creator_id and not is_admin:
            refused = tr.pgettext("toast", "Only the game's creator or a group admin can do that.")
            await ctx.say(place, refused)
            return
        question, keyboard = lobby_texts.cancel_question(record, record.language, person.name)
        await ctx.sender.group_text(place.chat_id, place.thread_id, question, keyboard)
        return
    if record is not None:
        command = CancelGame(record.game_id, record.lobby.revision)
        outcome = await run(ctx, person, command, by_command=True, is_admin=is_admin)
        if outcome.then is not Then.CANCELLED:
            await ctx.say(place, outcome.toast.text)


async def tap(
    ctx: Context, person: Person, command: GameCommand, chat_id: int, message_id: int | None = None
) -> Toast:
    """A lobby button (join, leave, an option, start, cancel, the time per turn); /cancel's
    question goes once answered Yes."""
    outcome = await run(ctx, person, command, chat_id=chat_id)
    if isinstance(command, CancelGame) and outcome.then is Then.CANCELLED:
        await _drop_question(ctx, command.game, chat_id, message_id)
    if isinstance(command, SetTurnLimit) and outcome.then is Then.RETIMED and message_id:
        # /settings during play: its message says the new time, without its stale buttons.
        record = await ctx.store.load(command.game)
        if record is not None and record.messages.lobby != message_id:
            said = presenter.turn_limit_line(record.language, command.hours)
            await ctx.sender.edit_text(chat_id, message_id, f"✅ {said}", ())
    return outcome.toast


async def keep_tap(
    ctx: Context, person: Person, command: KeepGame, chat_id: int, message_id: int | None
) -> Toast:
    """No on /cancel's question: the game goes on, and the question goes."""
    tr = texts(await ctx.user_language(person))
    record = await ctx.store.load(command.game)
    if record is None or not record.status.is_active:
        await _drop_question(ctx, command.game, chat_id, message_id)
        return Toast(gone(tr))
    if record.chat_id != chat_id:
        return Toast(tr.pgettext("toast", "These buttons are not yours."), alert=True)
    if person.user_id != record.creator_id and not await ctx.sender.is_admin(
        chat_id, person.user_id
    ):
        return Toast(
            tr.pgettext("toast", "Only the game's creator or a group admin can do that."),
            alert=True,
        )
    await _drop_question(ctx, command.game, chat_id, message_id)
    return Toast(tr.pgettext("toast", "The game goes on."))


async def _drop_question(ctx: Context, gid: GameId, chat_id: int, message_id: int | None) -> None:
    """Delete /cancel's answered question (never the lobby message, which says the end)."""
    if message_id is None:
        return
    record = await ctx.store.load(gid)
    if record is not None and record.messages.lobby == message_id:
        return
    await ctx.sender.delete(chat_id, message_id)  # if this fails, its buttons answer "gone"


async def _admin(ctx: Context, person: Person, command: GameCommand, chat_id: int | None) -> bool:
    """Whether the tapper is a group admin, asked only where it matters (cancel, time per turn
    during play)."""
    if chat_id is None or not isinstance(command, CancelGame | SetTurnLimit):
        return False
    if isinstance(command, SetTurnLimit):
        peek = await ctx.store.load(command.game)
        if peek is None or peek.status is not Status.PLAYING or peek.creator_id == person.user_id:
            return False
    return await ctx.sender.is_admin(chat_id, person.user_id)


async def run(
    ctx: Context,
    person: Person,
    command: GameCommand,
    *,
    chat_id: int | None = None,
    by_command: bool = False,
    is_admin: bool = False,
) -> Outcome:
    """Decide a lobby command on the latest record, save it, then do what follows."""
    req = Request(
        person=person,
        command=command,
        now=ctx.now(),
        language=await ctx.user_language(person),
        bot_username=ctx.sender.username,
        seed=once(ctx.seeds),
        chat_id=chat_id,
        by_command=by_command,
        is_admin=is_admin or await _admin(ctx, person, command, chat_id),
    )
    try:
        done = await ctx.store.update(command.game, decide_tap(req))
    except ContentionError:
        return Outcome(Toast(contended(texts(req.language))))
    if done.record is not None:
        await _follow(ctx, done.record, done.result.then, person)
    return done.result


async def _follow(ctx: Context, record: GameRecord, then: Then, person: Person) -> None:
    """What a lobby command does once its decision is saved."""
    if then is Then.LEFT:
        await ctx.store.remove_user_game(person.user_id, record.game_id)
        if not record.owed.is_empty:
            await ctx.deliver(record.game_id)  # the lobby passed on: the group is told
    if then in (Then.LEFT, Then.REDRAW):
        await keep_lobby(ctx, record)
        await refresh_lobby(ctx, record.game_id)
    elif then is Then.STARTED:
        await _started(ctx, record)
    elif then is Then.CANCELLED:
        await _cancelled(ctx, record)
    elif then is Then.RETIMED:
        assert record.state is not None
        await schedule(ctx, record, record.state.version)


async def _started(ctx: Context, record: GameRecord) -> None:
    """The first turn is scheduled; the lobby saying the game started, the board and the hands
    were saved as owed with the start, and are delivered."""
    await lobby_started(ctx, record)
    await schedule(ctx, record, None)
    await ctx.deliver(record.game_id)


async def _cancelled(ctx: Context, record: GameRecord) -> None:
    """A cancelled game frees its chat and players; what it says was saved as owed with it."""
    await ctx.store.finish(record.game_id, FINISHED_TTL_SECONDS)
    await unschedule(ctx, record)
    for uid in record.human_ids:
        await ctx.store.remove_user_game(uid, record.game_id)
    await ctx.deliver(record.game_id)  # its notices, and its archive for the history


async def join(ctx: Context, gid: GameId, person: Person) -> None:
    """Join through the lobby's deep link, in private."""
    lang = await ctx.user_language(person)
    tr = texts(lang)
    try:
        done = await ctx.store.update(gid, decide_join(person, lang, ctx.now()))
    except ContentionError:
        await ctx.sender.private_text(person.user_id, contended(tr))
        return
    if done.result is not None or done.record is None:
        await ctx.sender.private_text(person.user_id, done.result or gone(tr))
        return
    await ctx.store.add_user_game(person.user_id, gid)
    await keep_lobby(ctx, done.record)
    await ctx.deliver(gid)  # "you joined", owed with the join
    await refresh_lobby(ctx, gid)


async def settings(ctx: Context, place: Place) -> tuple[str, menus.Keyboard]:
    """/settings in a group: language, and the running game's time per turn."""
    lang = await ctx.group_language(place.chat_id)
    tr = texts(lang)
    lines = [
        tr.gettext("<b>Settings of this chat</b>"),
        tr.gettext("Language: {language}", language=presenter.escape_text(tr.native_name)),
    ]
    rows: list[tuple[menus.Button, ...]] = [lobby_texts.language_row()]
    record = await ctx.active(place)
    if record is not None and record.status is Status.PLAYING:
        lines.append(presenter.turn_limit_line(lang, record.lobby.turn_limit_hours))
        rows += lobby_texts.turn_limit_rows(record, lang)
    return "\n".join(lines), tuple(rows)
