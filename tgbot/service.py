"""What the bot does for each request: load the game, decide, save (compare-and-set), announce.

Handlers turn updates into calls of `GameService`; nothing here reads a Telegram update.
Sending goes through `tgbot.telegram_io.Sender`, after the new state is saved.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import (
    GameState,
    IllegalAction,
    Options,
    Phase,
    Transition,
    apply,
    current_player,
    new_game,
)
from engine.events import (
    Event,
    GameEnded,
    GoalPeeked,
    GoldReceived,
    HandDealt,
    RoleDealt,
    RoleSeen,
    RoundEnded,
    RoundStarted,
)
from engine.model import GoldRule

from . import clocks, menus, presenter
from .callback import (
    Back,
    CancelGame,
    Command,
    GameCommand,
    HandLink,
    JoinGame,
    JoinLink,
    LeaveGame,
    Noop,
    SetEdition,
    SetLanguage,
    SetTurnLimit,
    ShowHand,
    StartGame,
    ToggleVariant,
    Variant,
    join_payload,
    new_game_id,
    parse_start_payload,
    start_link,
)
from .config import DEFAULT_LANGUAGE
from .dedupe import UpdateLedger
from .i18n import Language, parse_language, texts
from .names import card_name, reason_text
from .outbox import (
    Owed,
    board_posted,
    delete_later,
    deleted,
    notes_for,
    owe,
    private_sent,
    text_sent,
)
from .pictures import board_png, screen_png
from .records import GameRecord, Lobby, LobbyPlayer, MessageIds, Status
from .redis_store import RedisStore
from .scheduler import DeadlineIndex
from .store import ChatBusyError
from .telegram_io import Sender

log = logging.getLogger(__name__)

# KEYS: a lease. ARGV: the holder's token, milliseconds. Extends it only for its holder.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""

SAVE_RETRIES = 8
LEASE_MS = 15_000  # a game's delivery lease, renewed after each item; a dead holder's expires
START_GRACE_SECONDS = 120  # after this, any joined player may start the lobby's game
FINISHED_TTL_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Person:
    """Who sent a request: id, display name, the language their Telegram app reports."""

    user_id: int
    name: str
    language_code: str | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """Where a group request came from: the chat, its forum topic, its title."""

    chat_id: int
    thread_id: int | None
    title: str


@dataclass(frozen=True, slots=True)
class Toast:
    """The answer to a button tap: a toast, or a t.me link for Telegram to open."""

    text: str
    alert: bool = False
    url: str | None = None


class GameService:
    """The bot's use cases, each: load, decide, save with a version check, then announce."""

    def __init__(
        self,
        store: RedisStore,
        sender: Sender,
        *,
        clock: Callable[[], float],
        seeds: Callable[[], int],
        ids: Callable[[], str] | None = None,
        default_language: Language = DEFAULT_LANGUAGE,
    ) -> None:
        self.store = store
        self.sender = sender
        self.clock = clock
        self.seeds = seeds
        self.ids = ids
        self.default_language = default_language
        self.deadlines = DeadlineIndex(store.redis, prefix=store.prefix)
        self.ledger = UpdateLedger(store.redis, prefix=store.prefix)
        self._renew_script = store.redis.register_script(_RENEW)

    # ------------------------------------------------------------ languages

    async def group_language(self, chat_id: int) -> Language:
        """The group's language (set with /lang), else the bot's default."""
        return await self.store.group_language(chat_id) or self.default_language

    async def user_language(self, person: Person) -> Language:
        """A user's language: chosen with /lang, else their app's, else the default."""
        chosen = await self.store.user_language(person.user_id)
        return chosen or parse_language(person.language_code) or self.default_language

    def _now(self) -> int:
        return int(self.clock())

    def _new_id(self) -> str:
        if self.ids is not None:
            return self.ids()
        import random as _random

        return new_game_id(_random.Random(self.seeds()))

    # ------------------------------------------------------------ group commands

    async def new_lobby(self, place: Place, person: Person) -> None:
        """/new: open a lobby in this chat (or topic) unless a game is active there."""
        lang = await self.group_language(place.chat_id)
        tr = texts(lang)
        now = self._now()
        record = GameRecord(
            game_id=self._new_id(),
            chat_id=place.chat_id,
            thread_id=place.thread_id,
            language=lang,
            creator_id=person.user_id,
            created_at=now,
            updated_at=now,
            title=place.title,
            creator_name=person.name,
        )
        try:
            record = await self.store.create(record)
        except ChatBusyError:
            await self.sender.group_text(
                place.chat_id,
                place.thread_id,
                tr.gettext("A game is already running here. /status shows whose turn it is."),
            )
            return
        await self._post_lobby(record)

    async def _post_lobby(self, record: GameRecord) -> None:
        message_id = await self.sender.group_text(
            record.chat_id,
            record.thread_id,
            self._lobby_text(record),
            presenter.lobby_keyboard(record, record.language, self.sender.username),
        )
        if message_id is not None:
            old = record.messages.lobby
            await self._remember(record.game_id, lambda m: dataclasses.replace(m, lobby=message_id))
            if old is not None:
                await self.sender.delete(record.chat_id, old)

    def _lobby_text(self, record: GameRecord) -> str:
        anyone = self._now() - record.created_at >= START_GRACE_SECONDS
        return presenter.lobby_text(record, record.language, can_anyone_start=anyone)

    async def _refresh_lobby(self, record: GameRecord) -> None:
        """Redraw the lobby from the latest record, again if it changed meanwhile (another
        process may have drawn an older revision after ours)."""
        drawn: int | None = None
        for _ in range(SAVE_RETRIES):
            latest = await self.store.load(record.game_id)
            if latest is None or latest.status is not Status.LOBBY:
                return
            if latest.lobby.revision == drawn:
                return
            drawn = latest.lobby.revision
            if latest.messages.lobby is None:
                await self._post_lobby(latest)
                return
            ok = await self.sender.edit_text(
                latest.chat_id,
                latest.messages.lobby,
                self._lobby_text(latest),
                presenter.lobby_keyboard(latest, latest.language, self.sender.username),
            )
            if not ok:
                await self._post_lobby(latest)
                return

    async def join_hint(self, place: Place) -> None:
        """/join in a group: the lobby (with its Join deep link) is posted again."""
        record = await self._active(place)
        lang = await self.group_language(place.chat_id)
        tr = texts(lang)
        if record is None:
            await self.sender.group_text(
                place.chat_id,
                place.thread_id,
                tr.gettext("There is no game here. Open one with /new."),
            )
        elif record.status is Status.LOBBY:
            await self._post_lobby(record)
        else:
            await self.sender.group_text(
                place.chat_id,
                place.thread_id,
                tr.pgettext("toast", "The game is already running."),
            )

    async def _active(self, place: Place) -> GameRecord | None:
        gid = await self.store.active_game(place.chat_id, place.thread_id)
        return None if gid is None else await self.store.load(gid)

    async def _active_or_say(self, place: Place) -> GameRecord | None:
        """The chat's active game; when there is none, the group is told so."""
        record = await self._active(place)
        if record is None:
            lang = await self.group_language(place.chat_id)
            tr = texts(lang)
            await self.sender.group_text(
                place.chat_id,
                place.thread_id,
                tr.gettext("There is no game here. Open one with /new."),
            )
        return record

    async def start_command(self, place: Place, person: Person) -> None:
        """/start in a group: start the lobby's game."""
        record = await self._active_or_say(place)
        if record is None:
            return
        command = StartGame(record.game_id, record.lobby.revision)
        toast = await self._lobby_tap(record.game_id, person, command, True)
        if toast.text != texts(record.language).pgettext("toast", "Done!"):
            await self.sender.group_text(place.chat_id, place.thread_id, toast.text)

    async def cancel_command(self, place: Place, person: Person, is_admin: bool) -> None:
        """/cancel in a group: the creator or an admin ends the lobby or game."""
        record = await self._active_or_say(place)
        if record is None:
            return
        toast = await self._cancel(record, person, is_admin)
        if toast is not None:
            await self.sender.group_text(place.chat_id, place.thread_id, toast.text)

    async def leave_command(self, place: Place, person: Person) -> None:
        """/leave in a group: leave the lobby."""
        record = await self._active_or_say(place)
        if record is None:
            return
        command = LeaveGame(record.game_id, record.lobby.revision)
        toast = await self._lobby_tap(record.game_id, person, command, True)
        await self.sender.group_text(place.chat_id, place.thread_id, toast.text)

    async def repost_board(self, place: Place) -> None:
        """/board: the current board again, as the one board post of the chat."""
        record = await self._active(place)
        lang = await self.group_language(place.chat_id)
        tr = texts(lang)
        if record is None or record.state is None:
            if record is not None and record.status is Status.LOBBY:
                await self._post_lobby(record)
                return
            await self.sender.group_text(
                place.chat_id,
                place.thread_id,
                tr.gettext("There is no game here. Open one with /new."),
            )
            return
        version = record.state.version
        await self._change(
            record.game_id,
            lambda r: dataclasses.replace(r, owed=owe(r.owed, board_version=version)),
        )
        await self.deliver(record.game_id)

    async def status_text(self, place: Place) -> str:
        """/status: whose turn, without anything private."""
        record = await self._active(place)
        lang = await self.group_language(place.chat_id)
        tr = texts(lang)
        if record is None:
            return tr.gettext("There is no game here. Open one with /new.")
        if record.state is None:
            count = len(record.lobby.players)
            return tr.ngettext(
                "The game is being set up: {count} player so far.",
                "The game is being set up: {count} players so far.",
                count,
                count=count,
            )
        names = presenter.names_of(record)
        player = current_player(record.state)
        lines = [
            tr.gettext(
                "Round {round}/3. {name} is playing.",
                round=record.state.round,
                name=presenter.mention(player, names.get(player, str(player)))
                if player is not None
                else "?",
            )
        ]
        limit = record.lobby.turn_limit_hours
        if limit is None:
            lines.append(tr.gettext("No time limit."))
        else:
            left = record.turn_started_at + 3600 * limit - self._now()
            lines.append(
                tr.gettext(
                    "Time left for this turn: {time}.", time=presenter.duration(lang, max(0, left))
                )
            )
        return "\n".join(lines)

    async def set_group_language(self, chat_id: int, lang: Language) -> None:
        """Remember a group's language."""
        await self.store.set_group_language(chat_id, lang)

    async def set_user_language(self, user_id: int, lang: Language) -> None:
        """Remember a user's language for private chats."""
        await self.store.set_user_language(user_id, lang)

    async def _relabel_game(self, chat_id: int, thread_id: int | None, lang: Language) -> None:
        """The active game of this chat (or topic) speaks the group's new language from now on."""
        gid = await self.store.active_game(chat_id, thread_id)
        if gid is None:
            return
        record = await self._change(gid, lambda r: dataclasses.replace(r, language=lang))
        if record is not None and record.status is Status.LOBBY:
            await self._refresh_lobby(record)

    async def _relabel_player(self, user_id: int, lang: Language) -> None:
        """A user's active games write to them in their new language from now on."""

        def relabel(record: GameRecord) -> GameRecord:
            players = tuple(
                dataclasses.replace(p, language=lang) if p.user_id == user_id else p
                for p in record.lobby.players
            )
            return dataclasses.replace(
                record, lobby=dataclasses.replace(record.lobby, players=players)
            )

        for gid in await self.store.user_games(user_id):
            record = await self._change(gid, relabel)
            if record is not None and record.state is not None and record.status is Status.PLAYING:
                await self._refresh_private(record, user_id, new_message=False)

    async def _change(
        self, gid: str, change: Callable[[GameRecord], GameRecord]
    ) -> GameRecord | None:
        """Save a change to an active game (retrying on concurrent saves); the saved record."""
        for _ in range(SAVE_RETRIES):
            record = await self.store.load(gid)
            if record is None or not record.status.is_active:
                return None
            new = change(record)
            if new == record:
                return record
            if await self.store.save(new, record.rev):
                return dataclasses.replace(new, rev=record.rev + 1)
        log.warning("could not change game %s", gid)
        return None

    # ------------------------------------------------------------ private: deep links

    async def open_link(self, person: Person, payload: str | None) -> None:
        """/start in private, with or without a deep-link payload (join a game, open a hand)."""
        lang = await self.user_language(person)
        tr = texts(lang)
        link = parse_start_payload(payload)
        if isinstance(link, JoinLink):
            await self._join(link.game, person)
            return
        if isinstance(link, HandLink):
            record = await self.store.load(link.game)
            if (
                record is not None
                and record.state is not None
                and person.user_id in record.state.players
            ):
                await self._refresh_private(record, person.user_id, new_message=True)
                return
            await self.sender.private_text(
                person.user_id, tr.pgettext("toast", "This game no longer exists.")
            )
            return
        await self.sender.private_text(
            person.user_id,
            tr.gettext(
                "Hi! I run games of Saboteur in groups.\n"
                "Add me to a group and type /new there. Your cards will come to this chat."
            ),
        )

    async def _join(self, gid: str, person: Person) -> None:
        lang = await self.user_language(person)
        tr = texts(lang)
        for _ in range(SAVE_RETRIES):
            record = await self.store.load(gid)
            if record is None or not record.status.is_active:
                await self.sender.private_text(
                    person.user_id, tr.pgettext("toast", "This game no longer exists.")
                )
                return
            if record.status is Status.PLAYING:
                await self.sender.private_text(
                    person.user_id, tr.pgettext("toast", "The game is already running.")
                )
                return
            lobby = record.lobby
            if lobby.has_player(person.user_id):
                await self.sender.private_text(
                    person.user_id, tr.pgettext("toast", "You are already in this game.")
                )
                return
            if len(lobby.players) >= presenter.range_of(lobby.edition).stop - 1:
                await self.sender.private_text(
                    person.user_id, tr.pgettext("toast", "The game is full.")
                )
                return
            player = LobbyPlayer(person.user_id, person.name, lang)
            new = dataclasses.replace(
                record,
                lobby=lobby.changed(players=(*lobby.players, player)),
                updated_at=self._now(),
            )
            if await self.store.save(new, record.rev):
                await self.store.add_user_game(person.user_id, gid)
                new = dataclasses.replace(new, rev=record.rev + 1)
                await self.sender.private_text(
                    person.user_id,
                    tr.gettext(
                        "You joined the game in <b>{chat}</b>. Your cards will appear here.",
                        chat=presenter.escape_text(record.title),
                    ),
                )
                await self._refresh_lobby(new)
                return
        await self.sender.private_text(
            person.user_id,
            tr.pgettext("toast", "Something else happened at the same moment. Please tap again."),
        )

    # ------------------------------------------------------------ buttons

    async def tap(
        self,
        person: Person,
        command: Command | None,
        chat_id: int,
        message_id: int | None,
        *,
        thread_id: int | None = None,
    ) -> Toast:
        """A button was tapped: answer with a toast; change and announce only if legal."""
        lang = await self.user_language(person)
        tr = texts(lang)
        if command is None:
            return Toast(tr.pgettext("toast", "This button is not valid."), alert=True)
        if isinstance(command, Noop):
            return Toast("")
        if isinstance(command, SetLanguage):
            if chat_id == person.user_id:
                await self.set_user_language(person.user_id, command.language)
                await self._relabel_player(person.user_id, command.language)
            else:
                await self.set_group_language(chat_id, command.language)
                await self._relabel_game(chat_id, thread_id, command.language)
            chosen = texts(command.language)
            return Toast(
                chosen.pgettext("toast", "Language: {language}", language=chosen.native_name)
            )
        if isinstance(
            command,
            JoinGame
            | LeaveGame
            | StartGame
            | CancelGame
            | SetEdition
            | ToggleVariant
            | SetTurnLimit,
        ):
            return await self._lobby_tap(command.game, person, command, False, chat_id=chat_id)
        return await self._hand_tap(person, command, chat_id, message_id)

    async def _lobby_tap(
        self,
        gid: str,
        person: Person,
        command: GameCommand,
        by_command: bool,
        *,
        chat_id: int | None = None,
        is_admin: bool = False,
    ) -> Toast:
        for _ in range(SAVE_RETRIES):
            record = await self.store.load(gid)
            lang = record.language if record is not None else await self.user_language(person)
            tr = texts(lang)
            if record is None or not record.status.is_active:
                return Toast(tr.pgettext("toast", "This game no longer exists."))
            if chat_id is not None and chat_id != record.chat_id:
                return Toast(tr.pgettext("toast", "These buttons are not yours."), alert=True)
            if isinstance(command, CancelGame):
                toast = await self._cancel(
                    record,
                    person,
                    is_admin or await self.sender.is_admin(record.chat_id, person.user_id),
                )
                return toast or Toast(tr.gettext("The game was cancelled."))
            if isinstance(command, SetTurnLimit) and record.status is Status.PLAYING:
                return await self._set_turn_limit(record, person, command)
            if record.status is not Status.LOBBY:
                return Toast(tr.pgettext("toast", "The game is already running."))
            if not by_command and command.version != record.lobby.revision:
                await self._refresh_lobby(record)
                return Toast(
                    tr.pgettext("toast", "That button was out of date; the lobby has been updated.")
                )
            if isinstance(command, JoinGame):
                # Joining goes through the private chat, so the bot can send the cards there.
                return Toast("", url=start_link(self.sender.username, join_payload(gid)))
            lobby = record.lobby
            joined = lobby.has_player(person.user_id)
            if isinstance(command, LeaveGame):
                if not joined:
                    return Toast(tr.pgettext("toast", "You are not in this game."))
                lobby = lobby.changed(
                    players=tuple(p for p in lobby.players if p.user_id != person.user_id)
                )
                done = Toast(tr.pgettext("toast", "You left the game."))
            elif isinstance(command, StartGame):
                allowed = person.user_id == record.creator_id or (
                    joined and self._now() - record.created_at >= START_GRACE_SECONDS
                )
                if not allowed:
                    if self._now() - record.created_at >= START_GRACE_SECONDS:
                        return Toast(tr.pgettext("toast", "You are not in this game."))
                    names = presenter.names_of(record)
                    return Toast(
                        tr.pgettext(
                            "toast",
                            "Only {name} can do that for now.",
                            name=names.get(record.creator_id, "?"),
                        )
                    )
                count = len(lobby.players)
                legal = presenter.range_of(lobby.edition)
                if count not in legal:
                    return Toast(
                        tr.npgettext(
                            "toast",
                            "{edition} needs at least {min} player.",
                            "{edition} needs at least {min} players.",
                            legal.start,
                            edition=presenter.edition_label(lang, lobby.edition),
                            min=legal.start,
                        ),
                        alert=True,
                    )
                return await self._start(record)
            else:
                if person.user_id != record.creator_id:
                    names = presenter.names_of(record)
                    return Toast(
                        tr.pgettext(
                            "toast",
                            "Only {name} can do that for now.",
                            name=names.get(record.creator_id, "?"),
                        )
                    )
                lobby = _lobby_setting(lobby, command)
                done = Toast(tr.pgettext("toast", "Saved."))
            new = dataclasses.replace(record, lobby=lobby, updated_at=self._now())
            if await self.store.save(new, record.rev):
                if isinstance(command, LeaveGame):
                    await self.store.remove_user_game(person.user_id, gid)
                await self._refresh_lobby(dataclasses.replace(new, rev=record.rev + 1))
                return done
        return Toast(
            tr.pgettext("toast", "Something else happened at the same moment. Please tap again.")
        )

    async def _set_turn_limit(
        self, record: GameRecord, person: Person, command: SetTurnLimit
    ) -> Toast:
        """/settings during play: the creator or an admin changes the time per turn."""
        lang = record.language
        tr = texts(lang)
        if person.user_id != record.creator_id and not await self.sender.is_admin(
            record.chat_id, person.user_id
        ):
            return Toast(
                tr.pgettext("toast", "Only the game's creator or a group admin can do that."),
                alert=True,
            )
        if command.version != record.lobby.revision:
            return Toast(
                tr.pgettext("toast", "That button was out of date; the lobby has been updated.")
            )
        new = dataclasses.replace(
            record, lobby=record.lobby.changed(turn_limit_hours=command.hours)
        )
        if not await self.store.save(new, record.rev):
            return Toast(
                tr.pgettext(
                    "toast", "Something else happened at the same moment. Please tap again."
                )
            )
        new = dataclasses.replace(new, rev=record.rev + 1)
        assert new.state is not None
        await self._schedule(new, new.state.version)
        return Toast(tr.pgettext("toast", "Saved."))

    async def settings(self, place: Place) -> tuple[str, menus.Keyboard]:
        """/settings in a group: language, and the running game's time per turn."""
        lang = await self.group_language(place.chat_id)
        tr = texts(lang)
        lines = [
            tr.gettext("<b>Settings of this chat</b>"),
            tr.gettext("Language: {language}", language=presenter.escape_text(tr.native_name)),
        ]
        rows: list[tuple[menus.Button, ...]] = [presenter.language_row()]
        record = await self._active(place)
        if record is not None and record.status is Status.PLAYING:
            lines.append(presenter.turn_limit_line(lang, record.lobby.turn_limit_hours))
            rows.append(presenter.turn_limit_row(record, lang))
        return "\n".join(lines), tuple(rows)

    async def _cancel(self, record: GameRecord, person: Person, is_admin: bool) -> Toast | None:
        lang = record.language
        tr = texts(lang)
        if person.user_id != record.creator_id and not is_admin:
            return Toast(
                tr.pgettext("toast", "Only the game's creator or a group admin can do that."),
                alert=True,
            )
        new = dataclasses.replace(record, status=Status.CANCELLED, updated_at=self._now())
        if not await self.store.save(new, record.rev):
            return Toast(
                tr.pgettext(
                    "toast", "Something else happened at the same moment. Please tap again."
                )
            )
        await self.store.finish(record.game_id, FINISHED_TTL_SECONDS)
        for uid in record.player_ids:
            await self.store.remove_user_game(uid, record.game_id)
        if record.status is Status.LOBBY and record.messages.lobby is not None:
            await self.sender.edit_text(
                record.chat_id,
                record.messages.lobby,
                tr.gettext("The game was cancelled."),
                (),
            )
        else:
            # A game in play: its lobby is far up the chat, so say it where people look.
            await self.sender.group_text(
                record.chat_id, record.thread_id, tr.gettext("The game was cancelled.")
            )
        if record.state is not None:
            new = dataclasses.replace(new, rev=record.rev + 1)
            for uid in record.state.players:
                note = texts(self._player_language(new, uid)).gettext("The game was cancelled.")
                await self._refresh_private(new, uid, new_message=False, prompt=(note,))
        return None

    async def _start(self, record: GameRecord) -> Toast:
        lang = record.language
        tr = texts(lang)
        lobby = record.lobby
        players = [p.user_id for p in lobby.players]
        state = new_game(players, edition=lobby.edition, seed=self.seeds(), options=lobby.options)
        new = dataclasses.replace(
            record,
            status=Status.PLAYING,
            state=state,
            updated_at=self._now(),
            turn_started_at=self._now(),
            owed=owe(record.owed, board_version=state.version, fresh=state.players),
        )
        if not await self.store.save(new, record.rev):
            return Toast(
                tr.pgettext(
                    "toast", "Something else happened at the same moment. Please tap again."
                )
            )
        new = dataclasses.replace(new, rev=record.rev + 1)
        if record.messages.lobby is not None:
            await self.sender.edit_text(
                record.chat_id,
                record.messages.lobby,
                self._lobby_text(record)
                + "\n\n"
                + tr.ngettext(
                    "The game has started with {count} player. Good digging!",
                    "The game has started with {count} players. Good digging!",
                    len(players),
                    count=len(players),
                ),
                (),
            )
        await self._schedule(new, None)
        await self.deliver(new.game_id)
        return Toast(tr.pgettext("toast", "Done!"))

    async def _hand_tap(
        self, person: Person, command: Command, chat_id: int, message_id: int | None
    ) -> Toast:
        lang = await self.user_language(person)
        tr = texts(lang)
        gid = getattr(command, "game", None)
        version = getattr(command, "version", None)
        if not isinstance(gid, str) or not isinstance(version, int):
            return Toast(tr.pgettext("toast", "This button is not valid."), alert=True)
        for _ in range(SAVE_RETRIES):
            record = await self.store.load(gid)
            if record is None or record.state is None:
                return Toast(tr.pgettext("toast", "This game no longer exists."))
            state = record.state
            if person.user_id not in state.players or chat_id != person.user_id:
                return Toast(tr.pgettext("toast", "These buttons are not yours."), alert=True)
            if record.status is Status.CANCELLED:
                return Toast(tr.pgettext("toast", "This game was cancelled."))
            if state.phase is Phase.OVER:
                return Toast(tr.pgettext("toast", "This game is over."))
            if version > state.version:
                return Toast(tr.pgettext("toast", "This button is not valid."), alert=True)
            if person.user_id in record.automatic:
                # Any tap of a player the game plays for brings them back (turn.auto_on says so).
                back = dataclasses.replace(
                    record, automatic=tuple(u for u in record.automatic if u != person.user_id)
                )
                if not await self.store.save(back, record.rev):
                    continue
                back = dataclasses.replace(back, rev=record.rev + 1)
                await self._schedule(back, state.version)
                await self._refresh_private(back, person.user_id, new_message=False)
                return Toast(tr.pgettext("toast", "Welcome back: you play your own turns again."))
            seat = menus.Seat(gid, state, person.user_id, presenter.names_of(record), lang)
            out_of_turn = not isinstance(command, ShowHand | Back) and not seat.is_turn
            if version != state.version:
                await self._refresh_private(
                    record, person.user_id, new_message=False, tapped=message_id
                )
                if not out_of_turn:
                    # Version v is drawn before the game's move v + 1: count turns from 1.
                    return Toast(
                        tr.pgettext(
                            "toast",
                            "This hand is from turn {old}; here is your current hand.",
                            old=version + 1,
                        )
                    )
            if out_of_turn:
                player = current_player(state)
                names = presenter.names_of(record)
                name = names.get(player, "?") if player is not None else "?"
                return Toast(
                    tr.pgettext("toast", "It is not your turn: {name} is playing.", name=name)
                )
            outcome = menus.respond(seat, command)
            if isinstance(outcome, menus.Refusal):
                return Toast(outcome.text, alert=True)
            if isinstance(outcome, menus.Screen):
                await self._show(record, person.user_id, outcome, tapped=message_id)
                return Toast("")
            try:
                transition = apply(state, person.user_id, outcome.action)
            except IllegalAction as err:
                reason = reason_text(tr, err.reason)
                return Toast(
                    tr.pgettext("toast", "Not allowed: {reason}", reason=reason),
                    alert=True,
                )
            if await self._commit_move(record, transition, person.user_id) is None:
                continue
            return Toast(tr.pgettext("toast", "Done!"))
        return Toast(
            tr.pgettext("toast", "Something else happened at the same moment. Please tap again.")
        )

    # ------------------------------------------------------------ announcing

    def _owed_after(
        self, record: GameRecord, state: GameState, actor: int, events: Sequence[Event]
    ) -> Owed:
        """What a move owes the chats: summaries, the board post, private messages."""
        lang = record.language
        names = presenter.names_of(record)
        moves = presenter.move_lines(events, names, lang)
        announcements: list[str] = []
        for i, e in enumerate(events):
            if isinstance(e, RoundEnded):
                starter = next((x.starter for x in events[i:] if isinstance(x, RoundStarted)), None)
                next_round = e.result.round + 1 if starter is not None else None
                text = presenter.round_text(e.result, names, lang, next_round, starter, events)
                announcements.append("\n".join([*moves, "", text]) if moves else text)
                moves = []
        ended = next((e for e in events if isinstance(e, GameEnded)), None)
        if ended is not None:
            moves.append(presenter.game_text(ended, names, lang))
            return owe(
                record.owed,
                texts=announcements,
                lines=moves,
                board_version=state.version,
                edits=state.players,
            )
        new_round = any(isinstance(e, RoundStarted) for e in events)
        nxt = current_player(state)
        fresh = list(state.players) if new_round else [nxt] if nxt is not None else []
        touched = {actor} | {
            e.audience
            for e in events
            if isinstance(e, GoalPeeked | RoleSeen | HandDealt | RoleDealt | GoldReceived)
            and e.audience is not None
        }
        return owe(
            record.owed,
            texts=announcements,
            lines=moves,
            board_version=state.version,
            fresh=fresh,
            edits=[u for u in state.players if u in touched],
        )

    async def _commit_move(
        self,
        record: GameRecord,
        transition: Transition,
        actor: int,
        *,
        stand_in: bool = False,
        texts: Sequence[str] = (),
        notes: Sequence[tuple[int, str]] = (),
    ) -> GameRecord | None:
        """Save a move with what it owes the chats (one compare-and-set), then deliver."""
        before = record.state
        assert before is not None
        state = transition.state
        now = self._now()
        owed = self._owed_after(record, state, actor, transition.events)
        if texts:
            owed = dataclasses.replace(owed, texts=(*texts, *owed.texts))
        if notes:
            owed = owe(owed, notes=notes)
        misses = dict(record.misses)
        automatic = list(record.automatic)
        if not stand_in:
            misses.pop(actor, None)
            if actor in automatic:
                automatic.remove(actor)
        new = dataclasses.replace(
            record,
            state=state,
            updated_at=now,
            turn_started_at=now,
            owed=owed,
            misses=tuple(sorted(misses.items())),
            automatic=tuple(automatic),
            kick_votes=(),
        )
        if state.phase is Phase.OVER:
            new = dataclasses.replace(new, status=Status.FINISHED)
        if not await self.store.save(new, record.rev):
            return None
        new = dataclasses.replace(new, rev=record.rev + 1)
        if state.phase is Phase.OVER:
            await self.store.finish(record.game_id, FINISHED_TTL_SECONDS)
            for uid in state.players:
                await self.store.remove_user_game(uid, record.game_id)
        await self._schedule(new, before.version)
        await self.deliver(record.game_id)
        return new

    async def _schedule(self, record: GameRecord, previous_version: int | None) -> None:
        """Replace the deadlines of the previous turn by those of the current one."""
        if previous_version is not None:
            await self.deadlines.drop(
                clocks.Deadline(record.game_id, previous_version, kind, 0).member
                for kind in clocks.DeadlineKind
            )
        state = record.state
        if state is None or record.status is not Status.PLAYING:
            return
        player = current_player(state)
        await self.deadlines.add(
            clocks.deadlines(
                record.game_id,
                state,
                turn_started_at=record.turn_started_at,
                limit_hours=record.lobby.turn_limit_hours,
                automatic=player in record.automatic,
            )
        )

    # ------------------------------------------------------------ delivering (the outbox)

    async def deliver(self, gid: str) -> None:
        """Send what a game owes, striking each item off once sent; one process at a time."""
        redis = self.store.redis
        lease = self.store.keys.lease(gid)
        token = uuid.uuid4().hex
        if not await redis.set(lease, token, nx=True, px=LEASE_MS):
            return  # another process delivers; what it leaves the sweeper picks up
        try:
            group_open = True
            for _ in range(200):
                record = await self.store.load(gid)
                if record is None or record.owed.is_empty or record.state is None:
                    return
                if not await self._renew(lease, token):
                    return  # the lease ran out (a very slow send): another process goes on
                step = await self._deliver_one(record, group_open=group_open)
                if step is None:
                    group_open = False  # the group must wait; private messages need not
                elif not step:
                    return
        finally:
            if await redis.get(lease) in (token, token.encode()):
                await redis.delete(lease)

    async def _renew(self, lease: str, token: str) -> bool:
        """Extend our delivery lease if we still hold it."""
        held = await self._renew_script(keys=[lease], args=[token, LEASE_MS])
        return bool(held)

    async def _deliver_one(self, record: GameRecord, *, group_open: bool) -> bool | None:
        """Deliver the first owed item: group texts, then the board, then private messages.

        True after progress; None when the group must wait (its budget is spent) and the group
        items were skipped; False when nothing can be delivered now.
        """
        owed = record.owed
        state = record.state
        assert state is not None
        gid, chat = record.game_id, record.chat_id
        if owed.deletions:
            where, message = owed.deletions[0]
            await self.sender.delete(where, message)  # refused (too old, gone): done all the same
            await self._strike(gid, _deletion_done(where, message))
            return True
        if group_open and owed.texts:
            text = owed.texts[0]
            sent = await self.sender.group_text(chat, record.thread_id, text)
            if sent is None and await self._flooded(chat):
                return None
            await self._strike(gid, lambda r: dataclasses.replace(r, owed=text_sent(r.owed, text)))
            return True
        if group_open and owed.board_version is not None:
            lines = owed.board_lines
            names = presenter.names_of(record)
            caption = presenter.board_caption(state, names, record.language, lines)
            posted = await self.sender.group_photo(
                chat, record.thread_id, board_png(state, names), caption
            )
            if posted is None and await self._flooded(chat):
                return None
            version = state.version

            def done(r: GameRecord) -> GameRecord:
                messages, owed = r.messages, board_posted(r.owed, version, lines)
                if posted is not None:
                    owed = delete_later(owed, r.chat_id, messages.board)
                    messages = dataclasses.replace(messages, board=posted)
                return dataclasses.replace(r, owed=owed, messages=messages)

            await self._strike(gid, done)
            return True
        for fresh, users in ((True, owed.fresh), (False, owed.edits)):
            if users:
                user = users[0]
                prompt = notes_for(owed, user)
                await self._refresh_private(record, user, new_message=fresh, prompt=prompt)
                await self._strike(gid, _private_done(user, fresh))
                return True
        return False

    async def _delete_owed(self, gid: str) -> None:
        """Carry out the deletions a game owes now (what a crash leaves, the sweeper does)."""
        record = await self.store.load(gid)
        for where, message in record.owed.deletions if record is not None else ():
            await self.sender.delete(where, message)
            await self._strike(gid, _deletion_done(where, message))

    async def _flooded(self, chat: int) -> bool:
        """After a refused group send: True when it should be tried again later (the group's
        budget is spent, or Telegram said 429, or the group moved and is followed) rather than
        dropped."""
        moved = self.sender.migrations.pop(chat, None)
        if moved is not None:
            await self.migrate(chat, moved)
            return True
        return self.sender.take_retry_after() is not None

    async def _strike(
        self, gid: str, change: Callable[[GameRecord], GameRecord]
    ) -> GameRecord | None:
        """Apply a delivery change to the latest record (retrying); the record before it."""
        for _ in range(SAVE_RETRIES):
            record = await self.store.load(gid)
            if record is None:
                return None
            if await self.store.save(change(record), record.rev):
                return record
        log.warning("could not strike off a delivery of %s", gid)
        return None

    async def sweep(self) -> None:
        """Serve due deadlines and deliver whatever any game still owes (run periodically)."""
        for member in await self.deadlines.claim_due(self.clock()):
            try:
                await self.handle_deadline(member)
            except Exception:
                log.exception("deadline %s failed", member)
        for gid in await self.store.owing_games():
            await self.deliver(gid)

    # ------------------------------------------------------------ absent players, moved groups

    async def kick(self, place: Place, person: Person, is_admin: bool) -> str:
        """/kick: an admin, or a majority of the other players, lets the game play for the
        player it waits for (from now until they act again); the reply, or "" when done."""
        lang = await self.group_language(place.chat_id)
        tr = texts(lang)
        for _ in range(SAVE_RETRIES):
            record = await self._active(place)
            if record is None or record.state is None or record.status is not Status.PLAYING:
                return tr.gettext("There is no game here. Open one with /new.")
            state = record.state
            player = current_player(state)
            if player is None:
                return tr.gettext("Nobody is being waited for right now.")
            names = presenter.names_of(record)
            target = presenter.mention(player, names.get(player, str(player)))
            if person.user_id == player:
                return tr.gettext("You cannot vote about your own turn.")
            if not is_admin:
                if person.user_id not in state.players:
                    return tr.gettext("Only players of this game can vote.")
                if person.user_id in record.kick_votes:
                    return tr.gettext("You have already voted.")
                votes = (*record.kick_votes, person.user_id)
                needed = (len(state.players) - 1) // 2 + 1
                if len(votes) < needed:
                    if await self.store.save(
                        dataclasses.replace(record, kick_votes=votes), record.rev
                    ):
                        return tr.gettext(
                            "{name} votes to let the game play for {target} ({votes}/{needed}).",
                            name=presenter.escape_text(person.name),
                            target=target,
                            votes=len(votes),
                            needed=needed,
                        )
                    continue
            move = clocks.stand_in_move(state, player)
            if move is None:
                return tr.gettext("Nobody is being waited for right now.")
            updated = dataclasses.replace(
                record, automatic=(*[u for u in record.automatic if u != player], player)
            )
            text = texts(record.language).gettext(
                "The game now plays for {name} until they come back.", name=target
            )
            if await self._commit_move(
                updated, apply(state, player, move), player, stand_in=True, texts=[text]
            ):
                return ""
        return tr.pgettext("toast", "Something else happened at the same moment. Please tap again.")

    async def migrate(self, old_chat: int, new_chat: int) -> None:
        """A group was upgraded to a supergroup: its games follow to the new chat id."""
        for gid in await self.store.chat_games(old_chat):
            record = await self._change(gid, lambda r: dataclasses.replace(r, chat_id=new_chat))
            if record is not None:
                await self.store.move_chat(gid, old_chat, new_chat, record.thread_id)
                await self.deliver(gid)

    async def bot_removed(self, chat_id: int) -> None:
        """The bot was removed from a group: its games end cleanly and the players are told."""
        for gid in await self.store.chat_games(chat_id):
            record = await self._change(
                gid,
                lambda r: dataclasses.replace(
                    r, status=Status.CANCELLED, owed=Owed(), updated_at=self._now()
                ),
            )
            if record is None:
                continue
            await self.store.finish(gid, FINISHED_TTL_SECONDS)
            for uid in record.player_ids:
                await self.store.remove_user_game(uid, gid)
                lang = self._player_language(record, uid)
                tr = texts(lang)
                chat = presenter.escape_text(record.title)
                await self.sender.private_text(
                    uid,
                    tr.gettext(
                        "I was removed from <b>{chat}</b>, so the game there has ended.", chat=chat
                    ),
                )

    # ------------------------------------------------------------ turn clocks

    async def handle_deadline(self, member: str) -> None:
        """A reminder or a timeout of a turn; stale ones (the turn was played) do nothing."""
        parsed = clocks.parse_member(member)
        if parsed is None:
            return
        gid, version, kind = parsed
        for _ in range(SAVE_RETRIES):
            record = await self.store.load(gid)
            if record is None or record.state is None or record.status is not Status.PLAYING:
                return
            state = record.state
            player = current_player(state)
            if state.version != version or player is None:
                return
            lang = self._player_language(record, player)
            tr = texts(lang)
            names = presenter.names_of(record)
            if kind is clocks.DeadlineKind.REMIND:
                left = max(
                    0,
                    record.turn_started_at
                    + 3600 * (record.lobby.turn_limit_hours or 0)
                    - self._now(),
                )
                await self.sender.private_text(
                    player,
                    tr.gettext(
                        "⏰ Your turn in <b>{chat}</b> ends in {time}.",
                        chat=presenter.escape_text(record.title),
                        time=presenter.duration(lang, left),
                    ),
                )
                return
            move = clocks.stand_in_move(state, player)
            if move is None:
                return
            transition = apply(state, player, move)
            announcements: list[str] = []
            misses = dict(record.misses)
            automatic = list(record.automatic)
            name = presenter.mention(player, names.get(player, str(player)))
            what = ", ".join(
                presenter.escape_text(card_name(tr, c)) for c in getattr(move, "cards", ())
            )
            notes = [
                (
                    player,
                    tr.gettext(
                        "Time is up: I played for you ({what}).",
                        what=tr.gettext("discarded {card}", card=what),
                    ),
                )
            ]
            if player not in automatic:
                misses[player] = misses.get(player, 0) + 1
                announcements.append(
                    texts(record.language).gettext("{name} did not play in time.", name=name)
                )
                if misses[player] >= clocks.MISSES_FOR_AUTO:
                    automatic.append(player)
                    announcements.append(
                        texts(record.language).gettext(
                            "{name} is away; I play for them.", name=name
                        )
                    )
                    notes.append(
                        (
                            player,
                            tr.gettext(
                                "You missed several turns, so I now play for you. "
                                "Tap any button to return."
                            ),
                        )
                    )
            updated = dataclasses.replace(
                record, misses=tuple(sorted(misses.items())), automatic=tuple(automatic)
            )
            if await self._commit_move(
                updated, transition, player, stand_in=True, texts=announcements, notes=notes
            ):
                return

    async def _remember(
        self, gid: str, change: Callable[[MessageIds], MessageIds]
    ) -> MessageIds | None:
        """Store message ids (retrying on concurrent saves); return the ids before the change."""
        for _ in range(SAVE_RETRIES):
            record = await self.store.load(gid)
            if record is None:
                return None
            new = dataclasses.replace(record, messages=change(record.messages))
            if await self.store.save(new, record.rev):
                return record.messages
        log.warning("could not store message ids of %s", gid)
        return None

    async def _refresh_private(
        self,
        record: GameRecord,
        user_id: int,
        *,
        new_message: bool,
        tapped: int | None = None,
        prompt: Sequence[str] = (),
    ) -> None:
        state = record.state
        assert state is not None
        lang = self._player_language(record, user_id)
        seat = menus.Seat(record.game_id, state, user_id, presenter.names_of(record), lang)
        await self._show(
            record, user_id, menus.home(seat, prompt), new_message=new_message, tapped=tapped
        )

    def _player_language(self, record: GameRecord, user_id: int) -> Language:
        player = record.lobby.player(user_id)
        return player.language if player is not None else record.language

    async def _show(
        self,
        record: GameRecord,
        user_id: int,
        screen: menus.Screen,
        *,
        new_message: bool = False,
        tapped: int | None = None,
    ) -> None:
        state = record.state
        assert state is not None
        lang = self._player_language(record, user_id)
        names = presenter.names_of(record)
        caption = presenter.hand_caption(record, state, user_id, lang, screen.prompt)
        png = screen_png(state, user_id, screen, names)
        in_play = record.status is Status.PLAYING and state.phase is Phase.PLAYING
        keyboard = screen.keyboard if in_play else ()
        live = record.messages.hand_of(user_id)
        if tapped is not None and live is not None and tapped != live:
            await self.sender.delete(user_id, tapped)
        if (
            not new_message
            and live is not None
            and await self.sender.edit_photo(user_id, live, png, caption, keyboard)
        ):
            return
        message_id = await self.sender.private_photo(user_id, png, caption, keyboard)
        if message_id is None:
            if not new_message:
                return  # only a player's turn is worth a notice in the group
            await self.sender.group_text(
                record.chat_id,
                record.thread_id,
                texts(record.language).gettext(
                    "I could not send {name} their cards. "
                    "{name}, please open a private chat with me and press Start.",
                    name=presenter.escape_text(names.get(user_id, "?")),
                ),
            )
            return

        def replaced(r: GameRecord) -> GameRecord:
            previous = r.messages.hand_of(user_id)
            owed = r.owed if previous == message_id else delete_later(r.owed, user_id, previous)
            return dataclasses.replace(
                r, owed=owed, messages=r.messages.with_hand(user_id, message_id)
            )

        await self._strike(record.game_id, replaced)
        await self._delete_owed(record.game_id)


def _deletion_done(chat_id: int, message_id: int) -> Callable[[GameRecord], GameRecord]:
    """The change striking a done deletion off what a game owes."""

    def change(record: GameRecord) -> GameRecord:
        return dataclasses.replace(record, owed=deleted(record.owed, chat_id, message_id))

    return change


def _private_done(user: int, fresh: bool) -> Callable[[GameRecord], GameRecord]:
    """The change striking a player's live message off what a game owes."""

    def change(record: GameRecord) -> GameRecord:
        return dataclasses.replace(record, owed=private_sent(record.owed, user, fresh=fresh))

    return change


def _lobby_setting(lobby: Lobby, command: GameCommand) -> Lobby:
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
