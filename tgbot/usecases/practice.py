"""Practice games: one person against computer players in the private chat, ended when idle."""

from __future__ import annotations

import dataclasses

from engine import current_player

from .. import menus, notice_texts, notices
from ..buttons import CancelGame
from ..clocks import PRACTICE_IDLE_SECONDS, Deadline, DeadlineKind
from ..game_ids import GameId
from ..i18n import texts
from ..outbox import owe
from ..records import GameRecord, Lobby, LobbyPlayer, Status, is_computer_id
from ..store import ChatBusyError, Decision
from .context import Context, Person, Place, player_language
from .lobby import create, end_when_due, run
from .lobby_decisions import Then, with_computers
from .lobby_message import post_lobby
from .screens import refresh_private
from .turns import keep_lobby

PRACTICE_OPPONENTS = 3  # computer players of a new practice game (its set-up offers 2 to 4)


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
        record = await create(ctx, here, record)
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

    await end_when_due(ctx, gid, decide, Deadline(gid, version, DeadlineKind.IDLE, now + 60))
