"""The Bot API methods of ephemeral messages (see `emulator.ephemeral` for the rules kept).

sendMessage and sendPhoto hand a call with `ephemeral_message_parameters` here; the edits and
the deletion are methods of their own. The parsing helpers of `emulator.botapi` are shared
(imported when called, since `emulator.botapi` registers these methods).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from emulator import errors
from emulator.ephemeral import AUTHORIZATION_SECONDS, EphemeralMessage, to_api
from emulator.errors import bad_request
from emulator.model import Chat, ChatType, Content, MemberStatus
from emulator.params import Params
from emulator.state import EmulatorState

JsonDict = dict[str, Any]

NO_RIGHTS = "not enough rights to send ephemeral messages without a callback query"
NOT_PARTICIPANT = "USER_NOT_PARTICIPANT"
PRIVATE_CHAT = "ephemeral messages can be sent only to groups and supergroups"
RECEIVER_MISSING = "receiver_user_id is not specified"
WRONG_RECEIVER = "the callback query was sent by another user"
REPLACE_EPHEMERAL = (
    "replace_callback_query_message must be False for callback queries from ephemeral messages"
)
EPHEMERAL_ID_MISSING = "ephemeral_message_id is not specified"
EDIT_NOT_FOUND = "ephemeral message to edit not found"
DELETE_NOT_FOUND = "ephemeral message to delete not found"


def send_text(state: EmulatorState, params: Params) -> JsonDict:
    """sendMessage with `ephemeral_message_parameters`."""
    from emulator import botapi

    chat, receiver, replaces = _authorized(state, params)
    text = botapi._text(state, params)
    content = Content(
        text=text.text,
        entities=text.entities,
        raw_text=params.text("text"),
        reply_markup=botapi._reply_markup(params),
    )
    return _store(state, chat, receiver, content, replaces, params)


def send_photo(state: EmulatorState, params: Params) -> JsonDict:
    """sendPhoto with `ephemeral_message_parameters` (a new upload or an earlier file id)."""
    from emulator import botapi

    chat, receiver, replaces = _authorized(state, params)
    raw = params.text("caption")
    caption = botapi._caption(state, raw, params.text("parse_mode"), params, "caption")
    markup = botapi._reply_markup(params)
    content = Content(
        photo=botapi._photo(state, params, params.raw("photo")),
        caption=caption.text or None,
        caption_entities=caption.entities,
        raw_caption=raw,
        reply_markup=markup,
    )
    return _store(state, chat, receiver, content, replaces, params)


def edit_text(state: EmulatorState, params: Params) -> bool:
    """editEphemeralMessageText."""
    from emulator import botapi

    message = _own(state, params, EDIT_NOT_FOUND)
    if message.content.text is None:
        raise bad_request(errors.NO_TEXT_TO_EDIT)
    text = botapi._text(state, params)
    new = replace(
        message.content,
        text=text.text,
        entities=text.entities,
        raw_text=params.text("text"),
        reply_markup=botapi._reply_markup(params),
    )
    return _edit(state, message, new)


def edit_caption(state: EmulatorState, params: Params) -> bool:
    """editEphemeralMessageCaption."""
    from emulator import botapi

    message = _own(state, params, EDIT_NOT_FOUND)
    if message.content.photo is None:
        raise bad_request(errors.NO_CAPTION_TO_EDIT)
    raw = params.text("caption")
    caption = botapi._caption(state, raw, params.text("parse_mode"), params, "caption")
    new = replace(
        message.content,
        caption=caption.text or None,
        caption_entities=caption.entities,
        raw_caption=raw,
        reply_markup=botapi._reply_markup(params),
    )
    return _edit(state, message, new)


def edit_media(state: EmulatorState, params: Params) -> bool:
    """editEphemeralMessageMedia: a photo by an earlier file id or, since 10.3, a new upload."""
    from emulator import botapi

    message = _own(state, params, EDIT_NOT_FOUND)
    media = params.json("media")
    if not isinstance(media, dict) or media.get("type") != "photo":
        raise bad_request("can't parse InputMedia: media type photo expected")
    if message.content.photo is None:
        raise bad_request(errors.NO_MEDIA_TO_EDIT)
    raw = media.get("caption")
    raw_caption = raw if isinstance(raw, str) else None
    caption = botapi._caption(
        state,
        raw_caption,
        media.get("parse_mode"),
        Params({"caption_entities": media.get("caption_entities")}),
        "caption",
    )
    new = replace(
        message.content,
        photo=botapi._photo(state, params, media.get("media")),
        caption=caption.text or None,
        caption_entities=caption.entities,
        raw_caption=raw_caption,
        reply_markup=botapi._reply_markup(params),
    )
    return _edit(state, message, new)


def edit_reply_markup(state: EmulatorState, params: Params) -> bool:
    """editEphemeralMessageReplyMarkup (left out: the keyboard is removed)."""
    from emulator import botapi

    message = _own(state, params, EDIT_NOT_FOUND)
    return _edit(
        state, message, replace(message.content, reply_markup=botapi._reply_markup(params))
    )


def delete(state: EmulatorState, params: Params) -> bool:
    """deleteEphemeralMessage."""
    message = _own(state, params, DELETE_NOT_FOUND)
    message.deleted = True
    if not message.delivered:
        state.ephemeral.dropped += 1
    state.changed()
    return True


METHODS: dict[str, Callable[[EmulatorState, Params], object]] = {
    "editEphemeralMessageText": edit_text,
    "editEphemeralMessageCaption": edit_caption,
    "editEphemeralMessageMedia": edit_media,
    "editEphemeralMessageReplyMarkup": edit_reply_markup,
    "deleteEphemeralMessage": delete,
}


# -- the rules ------------------------------------------------------------------------------------


def _authorized(state: EmulatorState, params: Params) -> tuple[Chat, int, int | None]:
    """The chat, the receiver and the replaced message of a send, if Telegram allows it."""
    chat = state.bot_chat(params.chat_id())
    if chat.type is ChatType.PRIVATE:
        raise bad_request(PRIVATE_CHAT)
    state.check_thread(chat, params.integer("message_thread_id"))
    options = params.json("ephemeral_message_parameters")
    if not isinstance(options, dict):
        raise bad_request("can't parse ephemeral message parameters JSON object")
    receiver = options.get("receiver_user_id")
    query_id = options.get("callback_query_id")
    replace_pressed = bool(options.get("replace_callback_query_message"))
    query = None
    if query_id is not None:
        query = state.callback_queries.get(str(query_id))
        if query is None or state.now() - query.created_at > AUTHORIZATION_SECONDS:
            raise bad_request(errors.QUERY_INVALID)
        if query.chat_id != chat.id:
            raise bad_request(errors.QUERY_INVALID)
        if receiver is None:
            receiver = query.user_id  # 10.4: the press names the receiver
        elif receiver != query.user_id:
            raise bad_request(WRONG_RECEIVER)
    if not isinstance(receiver, int):
        raise bad_request(RECEIVER_MISSING)
    if receiver not in state.users or receiver not in chat.members:
        raise bad_request(NOT_PARTICIPANT)
    if query is None and chat.bot_status is not MemberStatus.ADMINISTRATOR:
        raise bad_request(NO_RIGHTS)
    replaces = None
    if replace_pressed:
        if query is None:
            raise bad_request("replace_callback_query_message needs a callback_query_id")
        if query.id in state.ephemeral.pressed:
            raise bad_request(REPLACE_EPHEMERAL)
        replaces = query.message_id
    return chat, receiver, replaces


def _store(
    state: EmulatorState,
    chat: Chat,
    receiver: int,
    content: Content,
    replaces: int | None,
    params: Params,
) -> JsonDict:
    book = state.ephemeral
    delivered = receiver not in book.offline
    if not delivered:
        book.dropped += 1
    message = book.add(
        EphemeralMessage(
            chat_id=chat.id,
            ephemeral_message_id=book.new_id(),
            receiver_id=receiver,
            date=int(state.now()),
            content=content,
            delivered=delivered,
            replaces=replaces,
            thread_id=params.integer("message_thread_id"),
        )
    )
    state.changed()
    return to_api(state, message)


def _own(state: EmulatorState, params: Params, not_found: str) -> EphemeralMessage:
    chat = state.bot_chat(params.chat_id())
    number = params.integer("ephemeral_message_id")
    if number is None:
        raise bad_request(EPHEMERAL_ID_MISSING)
    message = state.ephemeral.get(chat.id, number)
    if message is None or message.receiver_id != params.integer("receiver_user_id"):
        raise bad_request(not_found)
    return message


def _edit(state: EmulatorState, message: EphemeralMessage, new: Content) -> bool:
    if new == message.content:
        raise bad_request(errors.NOT_MODIFIED)
    if message.receiver_id in state.ephemeral.offline or not message.delivered:
        # Accepted and dropped: what the receiver sees (if anything) stays as it was.
        state.ephemeral.dropped += 1
        return True
    message.history.append(message.content)
    message.content = replace(new, edit_date=int(state.now()))
    state.changed()
    return True
