"""The sandbox's corner of the emulated world: one group with the bot, and the seats around it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from emulator import botapi, ephemeral
from emulator.control import message_view
from emulator.errors import SimulationError
from emulator.params import Params
from emulator.state import EmulatorState
from tgbot.i18n import CODES, LANGUAGES, texts

JsonDict = dict[str, Any]

GROUP_TITLE = "Saboteur sandbox"
HOST_NAME = "Sandbox"
MAX_SEATS = 12
MAX_NAME_LENGTH = 64


@dataclass
class Table:
    """The sandbox group (the bot is its admin, so it hears everything) and its seats."""

    state: EmulatorState
    group_id: int
    store: str
    is_embedded: bool
    seats: list[int] = field(default_factory=list)

    @classmethod
    def open(cls, state: EmulatorState, *, store: str, is_embedded: bool) -> Table:
        """Create the group, owned by a host account that is no seat."""
        host = state.create_user(HOST_NAME, language_code=None)
        group = state.create_group(GROUP_TITLE, creator=host.id, bot_admin=True)
        return cls(state, group.id, store, is_embedded)

    def add_seat(self, name: str, language: str) -> JsonDict:
        """A new user who joins the group and starts the bot; raises SimulationError if invalid."""
        name = " ".join(name.split())
        if not name:
            raise SimulationError("a seat needs a name")
        if len(name) > MAX_NAME_LENGTH:
            raise SimulationError(f"a name has at most {MAX_NAME_LENGTH} characters")
        if language not in CODES:
            raise SimulationError(f"language must be one of {', '.join(CODES)}")
        if len(self.seats) >= MAX_SEATS:
            raise SimulationError(f"the sandbox seats at most {MAX_SEATS} players")
        user = self.state.create_user(name, language_code=language)
        self.seats.append(user.id)
        self.state.add_member(self.group_id, user.id)
        self.state.start_bot(user.id)
        return self._seat(user.id)

    def view(self) -> JsonDict:
        """Everything the page shows, read at one version of the world."""
        state = self.state
        group = state.chat(self.group_id)
        return {
            "version": state.version,
            "bot": state.bot.to_api(),
            "store": {"text": self.store, "embedded": self.is_embedded},
            "group": {
                "id": group.id,
                "title": group.title,
                "members": len(group.members) + 1,
                "commands": self._commands(None),
                "messages": self._messages(group.id),
            },
            "seats": [self._seat(user_id) for user_id in self.seats],
            "languages": [
                {"code": lang.code, "name": texts(lang).native_name} for lang in LANGUAGES
            ],
        }

    def _seat(self, user_id: int) -> JsonDict:
        user = self.state.user(user_id)
        return {
            "id": user.id,
            "name": user.first_name,
            "language": user.language_code,
            "commands": self._commands(user.language_code),
            "messages": self._messages(user.id),
            # The group's ephemeral messages this seat alone sees (Bot API 10.2): its panels.
            "group_ephemeral": self._ephemeral(user.id),
        }

    def _ephemeral(self, user_id: int) -> list[JsonDict]:
        out = []
        for message in ephemeral.visible(self.state, self.group_id, user_id):
            view = ephemeral.to_api(self.state, message)
            photo = message.content.photo
            view["emulator"] = {
                "ephemeral": True,
                "photo_url": f"/_emu/files/{photo[-1].file_id}" if photo else None,
            }
            out.append(view)
        return out

    def press_ephemeral(self, user_id: int, ephemeral_message_id: int, data: str) -> str:
        """A seat taps a button of its own ephemeral message in the group; the query id."""
        if user_id not in self.seats:
            raise SimulationError(f"no seat {user_id}")
        return ephemeral.press(self.state, user_id, self.group_id, ephemeral_message_id, data)

    def _messages(self, chat_id: int) -> list[JsonDict]:
        if chat_id not in self.state.chats:
            return []
        out = []
        for message in self.state.messages(chat_id):
            view = message_view(self.state, message)
            del view["emulator"]["edit_history"]  # the page shows messages as they are now
            out.append(view)
        return out

    def _commands(self, language: str | None) -> list[JsonDict]:
        """The bot's command menu as Telegram would show it to a user of this language."""
        own = botapi.get_my_commands(self.state, Params({"language_code": language}))
        return own or botapi.get_my_commands(self.state, Params({}))
