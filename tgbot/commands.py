"""Every command the bot answers, in one place: the handlers, Telegram's command menus (per
language, for groups and for private chats), /help and the README's list all come from here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .i18n import NC_, Language, Marked, Texts, texts


class Scope(Enum):
    """Where a command is typed."""

    GROUP = "group"
    PRIVATE = "private"


@dataclass(frozen=True, slots=True)
class ChatCommand:
    """A command: its menu text, and the handler answering it in each kind of chat.

    A handler is named by its method on `tgbot.handlers.Handlers`; a command without a private
    handler answers in private that it works in a group. `menu` lists the chats whose command
    menu shows it.
    """

    name: str
    description: Marked
    group: str
    private: str | None = None
    menu: frozenset[Scope] = frozenset({Scope.GROUP, Scope.PRIVATE})

    def handler(self, scope: Scope) -> str | None:
        """The handler's name in this kind of chat (None: the command is for groups)."""
        return self.group if scope is Scope.GROUP else self.private

    def listed(self, scope: Scope) -> bool:
        """Whether the command menu of this kind of chat shows the command."""
        return scope in self.menu and self.handler(scope) is not None


_GROUP_MENU = frozenset({Scope.GROUP})
_PRIVATE_MENU = frozenset({Scope.PRIVATE})

COMMANDS: tuple[ChatCommand, ...] = (
    # Translators: a command's description in Telegram's command menu.
    ChatCommand("new", NC_("command menu", "Open a new game in this chat"), "new"),
    ChatCommand("join", NC_("command menu", "Join the game being set up"), "join"),
    ChatCommand("leave", NC_("command menu", "Leave the game being set up"), "leave"),
    ChatCommand(
        "start",
        NC_("command menu", "Start the game (or open the bot in private)"),
        "start_group",
        "start_private",
    ),
    ChatCommand("board", NC_("command menu", "Post the board again"), "board"),
    ChatCommand("status", NC_("command menu", "Whose turn it is and how long is left"), "status"),
    ChatCommand("kick", NC_("command menu", "Skip a player who is away"), "kick"),
    # In private, /cancel ends one's practice game (the practice command's text says so).
    ChatCommand(
        "cancel",
        NC_("command menu", "Cancel the game (creator or admin)"),
        "cancel",
        "cancel_private",
        menu=_GROUP_MENU,
    ),
    ChatCommand(
        "practice",
        NC_("command menu", "A practice game against computer players, here (/cancel ends it)"),
        "practice_in_group",
        "practice",
        menu=_PRIVATE_MENU,
    ),
    ChatCommand("history", NC_("command menu", "The last games here, to watch again"), "history"),
    ChatCommand(
        "stats",
        NC_("command menu", "Who wins how often (in private: your own figures)"),
        "stats_group",
        "stats_private",
    ),
    # In private, /settings is /lang: a private chat has only its language to set.
    ChatCommand(
        "settings",
        NC_("command menu", "The language, and the time per turn of the game"),
        "settings",
        "lang",
        menu=_GROUP_MENU,
    ),
    ChatCommand("rules", NC_("command menu", "The rules in short"), "rules", "rules"),
    ChatCommand("help", NC_("command menu", "How to play with this bot"), "help", "help"),
    ChatCommand("lang", NC_("command menu", "Choose the language"), "lang", "lang"),
)


def menu(scope: Scope, tr: Texts) -> list[tuple[str, str]]:
    """The command menu of a kind of chat in a language: (command, description) pairs."""
    return [(c.name, tr.marked(c.description)) for c in COMMANDS if c.listed(scope)]


def help_lines(scope: Scope, tr: Texts) -> list[str]:
    """The lines of /help listing a kind of chat's commands."""
    return [f"/{name}: {text}" for name, text in menu(scope, tr)]


def readme_list() -> str:
    """The README's list of commands (in English), as Markdown."""
    tr = texts(Language("en"))
    out = []
    for scope, title in ((Scope.GROUP, "In a group"), (Scope.PRIVATE, "In private")):
        out.append(f"{title}:")
        out.extend(f"- `/{name}`: {text}" for name, text in menu(scope, tr))
    return "\n".join(out)
