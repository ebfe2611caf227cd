"""Lobby use cases: open a game, join, leave, set options, start, cancel (in a group or private)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .. import lobby_texts, menus, notice_texts, notices, presenter
from ..buttons import CancelGame, GameCommand, KeepGame, LeaveGame, SetTurnLimit, StartGame
from ..clocks import LOBBY_IDLE_SECONDS, Deadline, DeadlineKind
from ..game_ids import GameId
from ..i18n import texts
from ..outbox import owe
from ..records import GameRecord, LobbyPlayer, Status
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
)
from .lobby_decisions import (
    Outcome,
    Request,
    Then,
    decide_join,
    decide_tap,
    once,
)
from .lobby_message import post_lobby, refresh_lobby
from .turns import keep_lobby, lobby_started, schedule, unschedule


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
        record = await create(ctx, place, record)
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


async def create(ctx: Context, place: Place, record: GameRecord) -> GameRecord:
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

    await end_when_due(ctx, gid, decide, Deadline(gid, revision, DeadlineKind.EXPIRE, now + 60))


async def end_when_due(
    ctx: Context,
    gid: GameId,
    decide: Callable[[GameRecord | None], Decision[bool]],
    later: Deadline,
) -> None:
    """A deadline ends a game if `decide` says it is still due, then frees it as a cancelled one;
    when other saves keep winning, the deadline comes again (`later`)."""
    try:
        done = await ctx.store.update(gid, decide)
    except ContentionError:
        # Deliveries save too, without a new deadline: look again in a minute.
        await ctx.deadlines.add([later])
        return
    if done.result and done.record is not None:
        await cancelled(ctx, done.record)


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
        await cancelled(ctx, record)
    elif then is Then.RETIMED:
        assert record.state is not None
        await schedule(ctx, record, record.state.version)
        await ctx.deliver(record.game_id)  # the live messages say the new deadline


async def _started(ctx: Context, record: GameRecord) -> None:
    """The first turn is scheduled; the lobby saying the game started, the board and the hands
    were saved as owed with the start, and are delivered."""
    await lobby_started(ctx, record)
    await schedule(ctx, record, None)
    await ctx.deliver(record.game_id)


async def cancelled(ctx: Context, record: GameRecord) -> None:
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
