"""The bot's use cases behind one facade, for the handlers: each call goes to its use case.

The use cases live in `tgbot.usecases`, by capability; this class only holds their shared
context and routes button taps. Nothing here reads a Telegram update.
"""

from __future__ import annotations

from collections.abc import Callable

from . import logs
from .animations import Animations, Animator
from .archives import Archives
from .buttons import (
    LOBBY_COMMANDS,
    Command,
    ConfirmRematch,
    KeepGame,
    Noop,
    Rematch,
    ReplayRound,
    SetLanguage,
    ShowHand,
)
from .config import DEFAULT_COMPUTER_PAUSE, DEFAULT_LANGUAGE
from .detached import Detacher, is_handling_update
from .game_ids import GameId
from .i18n import Language, texts
from .memory_archives import MemoryArchives
from .menus import Keyboard
from .pictures import Pictures
from .ports import Deadlines, Lease, Ledger, Painter, Sender
from .store import Store
from .usecases import chats, clocks, delivery, history, lobby, panels, play, practice, rematch
from .usecases.clocks import Target
from .usecases.context import Answer, Context, Person, Place, Toast, invalid_button
from .usecases.lobby_decisions import START_GRACE_SECONDS
from .usecases.panels import Panel

__all__ = [
    "START_GRACE_SECONDS",
    "Answer",
    "GameService",
    "Panel",
    "Person",
    "Place",
    "Target",
    "Toast",
]


class GameService:
    """The use cases over one set of ports (the store, the sender, deadlines, ledger, lease)."""

    def __init__(
        self,
        store: Store,
        sender: Sender,
        *,
        deadlines: Deadlines,
        ledger: Ledger,
        lease: Lease,
        clock: Callable[[], float],
        seeds: Callable[[], int],
        ids: Callable[[], str] | None = None,
        default_language: Language = DEFAULT_LANGUAGE,
        painter: Painter | None = None,
        archives: Archives | None = None,
        animator: Animator | None = None,
        computer_pause: float = DEFAULT_COMPUTER_PAUSE,
        wake: Callable[[float], None] | None = None,
        detach: bool = False,
        unavailable: Callable[[BaseException], bool] | None = None,
    ) -> None:
        # `detach`: a delivery asked for while an update is handled runs in a task of its own
        # (webhook mode: the update's hold and its POST do not wait for the Bot API calls).
        self.detach = detach
        self.detacher = Detacher(
            lambda gid: self.deliver(gid), unavailable=unavailable or (lambda _err: False)
        )
        self.ctx = Context(
            store=store,
            sender=sender,
            deadlines=deadlines,
            ledger=ledger,
            lease=lease,
            # `deliver` is looked up at each call: it is the one way out, so a process that
            # "dies" between saving and sending can be staged by replacing it.
            deliver=self._deliver,
            clock=clock,
            seeds=seeds,
            ids=ids,
            default_language=default_language,
            painter=painter or Pictures(),
            archives=archives if archives is not None else MemoryArchives(clock=clock),
            animator=animator or Animations(),
            computer_pause=computer_pause,
            wake=wake or (lambda _seconds: None),
        )

    @property
    def store(self) -> Store:
        """Where games are kept."""
        return self.ctx.store

    @property
    def sender(self) -> Sender:
        """Where messages go."""
        return self.ctx.sender

    @property
    def archives(self) -> Archives:
        """Where finished games and statistics are kept."""
        return self.ctx.archives

    @property
    def ledger(self) -> Ledger:
        """Which updates were handled."""
        return self.ctx.ledger

    async def group_language(self, chat_id: int) -> Language:
        """The group's language (set with /lang), else the bot's default."""
        return await self.ctx.group_language(chat_id)

    async def user_language(self, person: Person) -> Language:
        """A user's language: chosen with /lang, else their app's, else the default."""
        return await self.ctx.user_language(person)

    async def new_lobby(self, place: Place, person: Person) -> None:
        """/new."""
        await lobby.new_lobby(self.ctx, place, person)

    async def practice(self, person: Person) -> None:
        """/practice in private."""
        await practice.practice(self.ctx, person)

    async def practice_in_group(self, place: Place) -> None:
        """/practice in a group."""
        await practice.practice_in_group(self.ctx, place)

    async def cancel_practice(self, person: Person) -> None:
        """/cancel in private."""
        await practice.cancel_practice(self.ctx, person)

    async def join_hint(self, place: Place) -> None:
        """/join in a group."""
        await lobby.join_hint(self.ctx, place)

    async def start_command(self, place: Place, person: Person) -> None:
        """/start in a group."""
        await lobby.start_command(self.ctx, place, person)

    async def leave_command(self, place: Place, person: Person) -> None:
        """/leave."""
        await lobby.leave_command(self.ctx, place, person)

    async def cancel_command(self, place: Place, person: Person, is_admin: bool) -> None:
        """/cancel."""
        await lobby.cancel_command(self.ctx, place, person, is_admin)

    async def settings(self, place: Place) -> tuple[str, Keyboard]:
        """/settings in a group."""
        return await lobby.settings(self.ctx, place)

    async def open_link(self, person: Person, payload: str | None) -> None:
        """/start in private."""
        await play.open_link(self.ctx, person, payload)

    async def repost_board(self, place: Place) -> None:
        """/board."""
        await play.repost_board(self.ctx, place)

    async def status_text(self, place: Place) -> str:
        """/status."""
        return await play.status_text(self.ctx, place)

    async def history(self, place: Place) -> tuple[str, Keyboard]:
        """/history in a group."""
        return await history.history(self.ctx, place)

    async def group_stats(self, place: Place) -> str:
        """/stats in a group."""
        return await history.group_stats(self.ctx, place)

    async def private_stats(self, person: Person) -> str:
        """/stats in private."""
        return await history.private_stats(self.ctx, person)

    async def kick(
        self, place: Place, person: Person, is_admin: bool, target: Target | None = None
    ) -> str:
        """/kick, maybe naming whom; the reply, or "" when the game now plays for the player."""
        return await clocks.kick(self.ctx, place, person, is_admin, target)

    async def handle_deadline(self, member: str) -> None:
        """A due reminder or timeout."""
        await clocks.handle_deadline(self.ctx, member)

    async def migrate(self, old_chat: int, new_chat: int) -> None:
        """A group became a supergroup."""
        await chats.migrate(self.ctx, old_chat, new_chat)

    async def bot_removed(self, chat_id: int) -> None:
        """The bot was removed from a group."""
        await chats.bot_removed(self.ctx, chat_id)

    async def _deliver(self, gid: GameId) -> None:
        """The use cases' one way out: detached while an update is handled (if `detach`),
        else inline."""
        if self.detach and is_handling_update():
            self.detacher.ask(gid)
        else:
            await self.deliver(gid)

    async def deliver(self, gid: GameId) -> None:
        """Send what a game owes."""
        with logs.about(gid):
            await delivery.deliver(self.ctx, gid)

    async def sweep(self) -> None:
        """Serve due deadlines and deliver whatever is owed."""
        await delivery.sweep(self.ctx)

    async def tap(
        self,
        person: Person,
        command: Command | None,
        chat_id: int,
        message_id: int | None,
        *,
        thread_id: int | None = None,
        answer: Answer | None = None,
        panel: Panel | None = None,
    ) -> Toast:
        """A button was tapped: answer with a toast; change and announce only if legal.

        `answer` is called exactly once, as soon as the toast is known: for a move, right after
        it is saved and before it is announced. `panel` says a group tap may be answered with
        an ephemeral message (the board's "My hand", or a tap inside a player's panel).
        """
        answered = False

        async def once(toast: Toast) -> None:
            nonlocal answered
            if not answered and answer is not None:
                answered = True
                await answer(toast)

        gid = getattr(command, "game", None)
        with logs.about(gid if isinstance(gid, str) else None):
            toast = await self._tap(person, command, chat_id, message_id, thread_id, once, panel)
        await once(toast)
        return toast

    async def _tap(
        self,
        person: Person,
        command: Command | None,
        chat_id: int,
        message_id: int | None,
        thread_id: int | None,
        answer: Answer,
        panel: Panel | None = None,
    ) -> Toast:
        if command is None:
            return invalid_button(texts(await self.user_language(person)))
        if panel is not None and (
            panel.ephemeral_message_id is not None or isinstance(command, ShowHand)
        ):
            return await panels.tap(self.ctx, person, command, panel, answer)
        if isinstance(command, Noop):
            return Toast("")
        if isinstance(command, SetLanguage):
            return await chats.choose_language(
                self.ctx, person, command, chat_id, thread_id, message_id
            )
        if isinstance(command, ReplayRound):
            return await history.replay_tap(self.ctx, person, command, chat_id, thread_id)
        if isinstance(command, Rematch | ConfirmRematch):
            return await rematch.tap(self.ctx, person, command, chat_id)
        if isinstance(command, KeepGame):
            return await lobby.keep_tap(self.ctx, person, command, chat_id, message_id)
        if isinstance(command, LOBBY_COMMANDS):
            return await lobby.tap(self.ctx, person, command, chat_id, message_id)
        return await play.hand_tap(self.ctx, person, command, chat_id, message_id, answer)
