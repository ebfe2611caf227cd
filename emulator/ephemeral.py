"""Ephemeral messages (Bot API 10.2-10.4): a message in a group that one member alone sees.

The documented rules the emulator keeps:

- a message sent with `ephemeral_message_parameters` (`receiver_user_id`, `callback_query_id`,
  `replace_callback_query_message`) is shown to its receiver only and is in nobody's chat
  history: it is not stored among the chat's messages, so `EmulatorState.messages` (what every
  member, and the sandbox's other seats, read) never holds it;
- a bot that is not an administrator of the chat may send one only as the reply to a button
  press of the receiver in that chat, within 15 seconds of the press (`callback_query_id`);
  since 10.4 `receiver_user_id` may be left out then (the press says who receives it);
- `replace_callback_query_message` shows the new message in place of the pressed one, for the
  receiver only; it must be False for a press on an ephemeral message (those are edited);
- editEphemeralMessageText/Caption/Media/ReplyMarkup and deleteEphemeralMessage, which answer
  True; a media edit may upload a new file (10.3);
- delivery is not guaranteed, "especially if they are offline": `set_offline` makes the
  emulator accept the bot's sends and edits to that user and drop them, as Telegram may.

Not documented, and the emulator's choice: an ephemeral `Message` carries `message_id` 0 next
to its `ephemeral_message_id` (python-telegram-bot 22.8, which the bot uses, needs a message id
to parse the message of a callback query); the error texts follow Telegram's for ordinary
messages where one fits.

This module holds the model and the simulated users' side; `emulator.ephemeral_api` the methods.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from emulator.errors import SimulationError
from emulator.markup import inline_buttons
from emulator.model import CallbackQuery, Content

if TYPE_CHECKING:
    from emulator.state import EmulatorState

JsonDict = dict[str, Any]

AUTHORIZATION_SECONDS = 15.0  # a non-admin bot sends within this long of the receiver's press


@dataclass
class EphemeralMessage:
    """One ephemeral message: its receiver, what it shows, and whether it reached them."""

    chat_id: int
    ephemeral_message_id: int
    receiver_id: int
    date: int
    content: Content
    delivered: bool  # False: the receiver was offline, Telegram accepted it and dropped it
    replaces: int | None = None  # the message it is shown in place of, for the receiver
    thread_id: int | None = None
    deleted: bool = False
    history: list[Content] = field(default_factory=list)

    @property
    def buttons(self) -> list[JsonDict]:
        """The inline keyboard's buttons, row by row."""
        return inline_buttons(self.content.reply_markup)

    @property
    def caption(self) -> str | None:
        """The plain caption."""
        return self.content.caption

    @property
    def text(self) -> str | None:
        """The plain text."""
        return self.content.text


@dataclass
class EphemeralBook:
    """Every chat's ephemeral messages, the presses on them, and who is offline."""

    messages: dict[tuple[int, int], EphemeralMessage] = field(default_factory=dict)
    pressed: dict[str, int] = field(default_factory=dict)  # query id -> ephemeral message id
    offline: set[int] = field(default_factory=set)
    dropped: int = 0  # sends and edits accepted but never shown (receivers offline)
    next_id: int = 1

    def add(self, message: EphemeralMessage) -> EphemeralMessage:
        """Keep a new message."""
        self.messages[(message.chat_id, message.ephemeral_message_id)] = message
        return message

    def get(self, chat_id: int, ephemeral_message_id: int) -> EphemeralMessage | None:
        """A message of a chat that was not deleted."""
        message = self.messages.get((chat_id, ephemeral_message_id))
        return None if message is None or message.deleted else message

    def new_id(self) -> int:
        """The next ephemeral message id."""
        number = self.next_id
        self.next_id += 1
        return number


# -- simulated users and tests -------------------------------------------------------------------


def set_offline(state: EmulatorState, user_id: int, offline: bool = True) -> None:
    """Make ephemeral deliveries to a user be dropped (or delivered again)."""
    state.user(user_id)
    if offline:
        state.ephemeral.offline.add(user_id)
    else:
        state.ephemeral.offline.discard(user_id)
    state.changed()


def visible(state: EmulatorState, chat_id: int, user_id: int) -> list[EphemeralMessage]:
    """The ephemeral messages a member sees in a chat now, oldest first (theirs alone)."""
    state.chat(chat_id)
    return [
        m
        for m in state.ephemeral.messages.values()
        if m.chat_id == chat_id and m.receiver_id == user_id and m.delivered and not m.deleted
    ]


def replaced_for(state: EmulatorState, chat_id: int, user_id: int) -> set[int]:
    """The ids of the chat's messages a member sees replaced by an ephemeral message."""
    return {m.replaces for m in visible(state, chat_id, user_id) if m.replaces is not None}


def ephemeral_message(
    state: EmulatorState, chat_id: int, ephemeral_message_id: int
) -> EphemeralMessage:
    """A stored ephemeral message, deleted or not (for tests)."""
    message = state.ephemeral.messages.get((chat_id, ephemeral_message_id))
    if message is None:
        raise SimulationError(f"no ephemeral message {ephemeral_message_id} in chat {chat_id}")
    return message


def press(
    state: EmulatorState, user_id: int, chat_id: int, ephemeral_message_id: int, callback_data: str
) -> str:
    """The receiver taps a button of an ephemeral message; returns the callback query id."""
    user = state.user(user_id)
    chat = state.chat(chat_id)
    if not chat.bot_is_present:
        raise SimulationError(f"the bot is no longer in chat {chat_id}")
    message = state.ephemeral.get(chat_id, ephemeral_message_id)
    if message is None or not message.delivered or message.receiver_id != user_id:
        raise SimulationError(
            f"user {user_id} sees no ephemeral message {ephemeral_message_id} in chat {chat_id}"
        )
    if not any(b.get("callback_data") == callback_data for b in message.buttons):
        raise SimulationError(
            f"ephemeral message {ephemeral_message_id} has no button with data {callback_data!r}"
        )
    query = state.new_callback_query(user_id, chat_id, 0, callback_data)
    state.ephemeral.pressed[query.id] = ephemeral_message_id
    state.emit(
        "callback_query",
        {
            "id": query.id,
            "from": user.to_api(),
            "message": to_api(state, message),
            "chat_instance": str(abs(chat_id) * 7919 % 10**12),
            "data": callback_data,
        },
    )
    state.changed()
    return query.id


def pressed_ephemeral(state: EmulatorState, query: CallbackQuery) -> int | None:
    """The ephemeral message a callback query came from, if it came from one."""
    return state.ephemeral.pressed.get(query.id)


def to_api(state: EmulatorState, message: EphemeralMessage) -> JsonDict:
    """The Bot API `Message` object of an ephemeral message."""
    chat = state.chats[message.chat_id]
    out: JsonDict = {
        "message_id": 0,
        "ephemeral_message_id": message.ephemeral_message_id,
        "receiver_user": state.user(message.receiver_id).to_api(),
        "from": state.bot.to_api(),
        "chat": state.chat_to_api(chat),
        "date": message.date,
    }
    if message.thread_id is not None:
        out["message_thread_id"] = message.thread_id
    content = message.content
    if content.text is not None:
        out["text"] = content.text
        if content.entities:
            out["entities"] = list(content.entities)
    if content.photo:
        out["photo"] = [size.to_api() for size in content.photo]
    if content.caption:
        out["caption"] = content.caption
        if content.caption_entities:
            out["caption_entities"] = list(content.caption_entities)
    if content.reply_markup is not None:
        out["reply_markup"] = content.reply_markup
    if content.edit_date is not None:
        out["edit_date"] = content.edit_date
    return out
