"""The command list is the one source of the handlers, the command menus and /help."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from telegram import BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.ext import CommandHandler

from tgbot import app as app_module
from tgbot import guide
from tgbot.commands import COMMANDS, Scope, help_lines, menu, readme_list
from tgbot.handlers import GROUPS, PRIVATE, Handlers
from tgbot.i18n import LANGUAGES, Language, texts

EN = Language("en")
NAMES = [c.name for c in COMMANDS]


class _App:
    """Collects what `Handlers.install` registers."""

    def __init__(self) -> None:
        self.handlers: list[Any] = []

    def add_handler(self, handler: Any, group: int = 0) -> None:
        self.handlers.append(handler)

    def add_error_handler(self, callback: Any) -> None:
        pass


def _installed() -> tuple[Handlers, list[Any]]:
    handlers = Handlers(service=None)  # type: ignore[arg-type]
    fake = _App()
    handlers.install(fake)  # type: ignore[arg-type]
    return handlers, fake.handlers


def _answer(name: str, where: str) -> Any:
    """The callback of the first command handler for this command and kind of chat."""
    chats = {"Group": GROUPS, "Private": PRIVATE}[where]
    _, registered = _installed()
    for handler in registered:
        if (
            isinstance(handler, CommandHandler)
            and name in handler.commands
            and handler.filters is not None
            and chats in (handler.filters, getattr(handler.filters, "and_filter", None))
        ):
            return handler.callback
    raise AssertionError(f"/{name} is not handled in {where}")


def test_the_names_are_unique_and_telegram_s_shape() -> None:
    assert len(set(NAMES)) == len(NAMES)
    assert all(n.isascii() and n.islower() and 1 <= len(n) <= 32 for n in NAMES)


def test_every_handler_named_exists() -> None:
    handlers, _ = _installed()
    for command in COMMANDS:
        for scope in Scope:
            name = command.handler(scope)
            assert name is None or callable(getattr(handlers, name)), (command.name, scope)


@pytest.mark.parametrize("name", NAMES)
def test_each_command_is_handled_in_groups_and_in_private(name: str) -> None:
    assert _answer(name, "Group").__name__ != "unknown"
    assert _answer(name, "Private").__name__ != "unknown"


@pytest.mark.parametrize("name", ["new", "join", "leave", "board", "status", "kick"])
def test_group_commands_in_private_say_they_work_in_a_group(name: str) -> None:
    assert _answer(name, "Private").__name__ == "group_only"


def test_practice_is_played_in_private_and_cancel_there_ends_it() -> None:
    assert _answer("practice", "Private").__name__ == "practice"
    assert _answer("practice", "Group").__name__ == "practice_in_group"
    assert _answer("cancel", "Private").__name__ == "cancel_private"
    assert _answer("cancel", "Group").__name__ == "cancel"


def test_settings_in_private_is_the_language_choice() -> None:
    assert _answer("settings", "Group").__name__ == "settings"
    assert _answer("settings", "Private").__name__ == "lang"


def test_start_opens_the_bot_in_private_and_starts_the_game_in_a_group() -> None:
    assert _answer("start", "Group").__name__ == "start_group"
    assert _answer("start", "Private").__name__ == "start_private"


def test_the_group_menu_lists_every_group_command_settings_included() -> None:
    listed = [name for name, _ in menu(Scope.GROUP, texts(EN))]
    assert listed == [n for n in NAMES if n != "practice"] and "settings" in listed


def test_the_private_menu_lists_only_what_works_in_private() -> None:
    listed = [name for name, _ in menu(Scope.PRIVATE, texts(EN))]
    assert listed == ["start", "practice", "stats", "rules", "help", "lang"]


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_menus_are_translated_and_fit_telegram(lang: Language) -> None:
    for scope in Scope:
        for name, text in menu(scope, texts(lang)):
            assert 1 <= len(text) <= 256 and "<" not in text, name
    if lang != EN:
        assert menu(Scope.GROUP, texts(lang)) != menu(Scope.GROUP, texts(EN))


@pytest.mark.parametrize("lang", LANGUAGES, ids=str)
def test_help_lists_the_commands_of_both_kinds_of_chat(lang: Language) -> None:
    text = guide.help_text(lang)
    for scope in Scope:
        for line in help_lines(scope, texts(lang)):
            assert line in text
    assert text.index("/kick") < text.index("/lang: ") < len(text)


def test_the_readme_list_names_every_command() -> None:
    listing = readme_list()
    assert all(f"`/{name}`" in listing for name in NAMES)
    assert listing.startswith("In a group:") and "In private:" in listing


async def test_the_menus_are_published_per_scope_and_language() -> None:
    calls: list[tuple[list[str], object, str | None]] = []

    class Bot:
        async def set_my_commands(self, commands: Any, *, scope: Any, language_code: Any) -> None:
            calls.append(([c.command for c in commands], scope, language_code))

    class Redis:
        async def ping(self) -> bool:
            return True

    class App:
        def __init__(self) -> None:
            self.bot = Bot()
            self.bot_data: dict[str, Any] = {
                "redis": Redis(),
                "language": EN,
                "service": None,
                "waker": None,
            }

    real_sweep = app_module._sweep_forever

    async def no_sweep(service: object, waker: object) -> None:
        return None

    app = App()
    app_module._sweep_forever = no_sweep
    try:
        await app_module._post_init(app)  # type: ignore[arg-type]
    finally:
        app_module._sweep_forever = real_sweep
        await app.bot_data.pop("sweeper")
    assert len(calls) == 2 * len(LANGUAGES)
    groups = [c for c in calls if isinstance(c[1], BotCommandScopeAllGroupChats)]
    private = [c for c in calls if isinstance(c[1], BotCommandScopeAllPrivateChats)]
    assert {code for _, _, code in groups} == {None, "ko"}
    assert all("settings" in names and "kick" in names for names, _, _ in groups)
    assert all("kick" not in names and "lang" in names for names, _, _ in private)


def test_the_readme_shows_the_command_list_as_the_code_has_it() -> None:
    """README.md's command list is readme_list(), line for line (regenerate it after a change)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    lines = [line for line in readme_list().splitlines() if line.startswith("- ")]
    assert lines and all(line in readme.splitlines() for line in lines)
