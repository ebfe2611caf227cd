"""The Bot API methods the emulator speaks, each a function of the state and the parameters."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from emulator import dates, ephemeral_api, errors
from emulator.errors import bad_request, not_found
from emulator.limits import (
    CALLBACK_ANSWER_SECONDS,
    DELETE_WINDOW_SECONDS,
    MAX_ANSWER_TEXT_LENGTH,
    MAX_CAPTION_LENGTH,
    MAX_TEXT_LENGTH,
    MAX_UPLOAD_BYTES,
)
from emulator.markup import FormattedText, parse_html, trim, validate_reply_markup
from emulator.model import (
    Animation,
    ChatType,
    Content,
    MemberStatus,
    Message,
    Photo,
    WebhookConfig,
)
from emulator.params import Params, UploadedFile
from emulator.state import ALL_UPDATE_TYPES, DEFAULT_UPDATE_TYPES, EmulatorState

JsonDict = dict[str, Any]
Method = Callable[[EmulatorState, Params], object]

_SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
_BOT_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


def call(state: EmulatorState, method: str, params: Params) -> object:
    """Run one Bot API method (names are case-insensitive, as in Telegram)."""
    handler = METHODS.get(method.lower())
    if handler is None:
        raise not_found()
    return handler(state, params)


# -- the bot itself and its updates ---------------------------------------------------------------


def get_me(state: EmulatorState, params: Params) -> JsonDict:
    """The bot's own `User`, with the bot-only fields."""
    return {
        **state.bot.to_api(),
        "can_join_groups": True,
        "can_read_all_group_messages": not state.privacy_mode,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


def set_webhook(state: EmulatorState, params: Params) -> bool:
    """Start (or, with an empty url, stop) delivering updates to a URL."""
    url = params.text("url") or ""
    secret = params.text("secret_token")
    if secret is not None and not _SECRET_TOKEN.fullmatch(secret):
        raise bad_request(errors.SECRET_TOKEN_CHARS)
    if url:
        parts = urlsplit(url)
        # Telegram insists on HTTPS; a local emulator has to accept plain HTTP too.
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise bad_request("bad webhook: HTTPS url must be provided for webhook")
    max_connections = params.integer("max_connections") or 40
    if not 1 <= max_connections <= 100:
        raise bad_request("bad webhook: max_connections must be between 1 and 100")
    _set_allowed_updates(state, params)
    if params.flag("drop_pending_updates"):
        state.pending_updates.clear()
    state.webhook = WebhookConfig(url=url, secret_token=secret, max_connections=max_connections)
    state.changed()
    return True


def delete_webhook(state: EmulatorState, params: Params) -> bool:
    """Stop webhook delivery, so that getUpdates works again."""
    if params.flag("drop_pending_updates"):
        state.pending_updates.clear()
    state.webhook = WebhookConfig()
    state.changed()
    return True


def get_webhook_info(state: EmulatorState, params: Params) -> JsonDict:
    """The webhook's URL, queue length and last delivery error."""
    hook = state.webhook
    info: JsonDict = {
        "url": hook.url,
        "has_custom_certificate": False,
        "pending_update_count": len(state.pending_updates),
    }
    if hook.url:
        info["max_connections"] = hook.max_connections
        info["ip_address"] = "127.0.0.1"
        if state.allowed_updates != DEFAULT_UPDATE_TYPES:
            info["allowed_updates"] = sorted(state.allowed_updates)
    if hook.last_error_date is not None:
        info["last_error_date"] = hook.last_error_date
        info["last_error_message"] = hook.last_error_message
    return info


def get_updates(state: EmulatorState, params: Params) -> list[JsonDict]:
    """One pass of getUpdates; the server repeats it while long polling."""
    _set_allowed_updates(state, params)
    limit = params.integer("limit") or 100
    return state.take_updates(params.integer("offset"), max(1, min(limit, 100)))


def _set_allowed_updates(state: EmulatorState, params: Params) -> None:
    allowed = params.json("allowed_updates")
    if allowed is None:
        return
    if not isinstance(allowed, list):
        raise bad_request("can't parse allowed_updates JSON array")
    state.allowed_updates = frozenset(map(str, allowed)) & ALL_UPDATE_TYPES or DEFAULT_UPDATE_TYPES


# -- sending --------------------------------------------------------------------------------------


def send_message(state: EmulatorState, params: Params) -> JsonDict:
    """Send a text message (an ephemeral one with `ephemeral_message_parameters`)."""
    if "ephemeral_message_parameters" in params:
        return ephemeral_api.send_text(state, params)
    chat = state.bot_chat(params.chat_id())
    thread_id = params.integer("message_thread_id")
    state.check_thread(chat, thread_id)
    text = _text(state, params)
    content = Content(
        text=text.text,
        entities=text.entities,
        raw_text=params.text("text"),
        reply_markup=_reply_markup(params),
    )
    reply_to = _reply_to(state, chat.id, params)
    message = state.send_as_bot(chat, content, thread_id=thread_id, reply_to=reply_to)
    return state.message_to_api(message)


def send_photo(state: EmulatorState, params: Params) -> JsonDict:
    """Send a photo: a new upload, or a file id of a photo sent before (maybe ephemeral)."""
    if "ephemeral_message_parameters" in params:
        return ephemeral_api.send_photo(state, params)
    chat = state.bot_chat(params.chat_id())
    thread_id = params.integer("message_thread_id")
    state.check_thread(chat, thread_id)
    caption = _caption(state, params.text("caption"), params.text("parse_mode"), params, "caption")
    markup = _reply_markup(params)
    reply_to = _reply_to(state, chat.id, params)
    state.limiter.check(chat.id, is_group=chat.is_group)
    photo = _photo(state, params, params.raw("photo"))
    content = Content(
        photo=photo,
        caption=caption.text or None,
        caption_entities=caption.entities,
        raw_caption=params.text("caption"),
        reply_markup=markup,
        show_caption_above_media=params.flag("show_caption_above_media"),
    )
    message = state.send_as_bot(chat, content, thread_id=thread_id, reply_to=reply_to)
    return state.message_to_api(message)


def send_animation(state: EmulatorState, params: Params) -> JsonDict:
    """Send an animation: a new GIF upload, or the file id of an animation sent before."""
    chat = state.bot_chat(params.chat_id())
    thread_id = params.integer("message_thread_id")
    state.check_thread(chat, thread_id)
    caption = _caption(state, params.text("caption"), params.text("parse_mode"), params, "caption")
    markup = _reply_markup(params)
    reply_to = _reply_to(state, chat.id, params)
    state.limiter.check(chat.id, is_group=chat.is_group)
    content = Content(
        animation=_animation(state, params, params.raw("animation")),
        caption=caption.text or None,
        caption_entities=caption.entities,
        raw_caption=params.text("caption"),
        reply_markup=markup,
    )
    message = state.send_as_bot(chat, content, thread_id=thread_id, reply_to=reply_to)
    return state.message_to_api(message)


def send_chat_action(state: EmulatorState, params: Params) -> bool:
    """Show "typing..." or similar; nothing is stored."""
    state.bot_chat(params.chat_id())
    if params.text("action") not in _CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    return True


# -- editing and deleting -------------------------------------------------------------------------


def edit_message_text(state: EmulatorState, params: Params) -> JsonDict:
    """Replace a bot message's text (and keyboard: leaving it out removes it)."""
    message = _own_message(state, params)
    if message.content.text is None:
        raise bad_request(errors.NO_TEXT_TO_EDIT)
    text = _text(state, params)
    new = replace(
        message.content,
        text=text.text,
        entities=text.entities,
        raw_text=params.text("text"),
        reply_markup=_reply_markup(params),
    )
    return _apply_edit(state, message, new)


def edit_message_caption(state: EmulatorState, params: Params) -> JsonDict:
    """Replace a bot photo's or animation's caption (and keyboard)."""
    message = _own_message(state, params)
    if message.content.photo is None and message.content.animation is None:
        raise bad_request(errors.NO_CAPTION_TO_EDIT)
    caption = _caption(state, params.text("caption"), params.text("parse_mode"), params, "caption")
    new = replace(
        message.content,
        caption=caption.text or None,
        caption_entities=caption.entities,
        raw_caption=params.text("caption"),
        reply_markup=_reply_markup(params),
    )
    return _apply_edit(state, message, new)


def edit_message_media(state: EmulatorState, params: Params) -> JsonDict:
    """Replace a bot photo by another photo, with the new media's caption."""
    message = _own_message(state, params)
    media = params.json("media")
    if not isinstance(media, dict) or media.get("type") != "photo":
        raise bad_request("can't parse InputMedia: media type photo expected")
    if message.content.photo is None:
        raise bad_request(errors.NO_MEDIA_TO_EDIT)
    raw_caption = media.get("caption")
    caption = _caption(
        state,
        raw_caption if isinstance(raw_caption, str) else None,
        media.get("parse_mode"),
        Params({"caption_entities": media.get("caption_entities")}),
        "caption",
    )
    markup = _reply_markup(params)
    new = replace(
        message.content,
        photo=_photo(state, params, media.get("media")),
        caption=caption.text or None,
        caption_entities=caption.entities,
        raw_caption=raw_caption if isinstance(raw_caption, str) else None,
        reply_markup=markup,
    )
    return _apply_edit(state, message, new)


def edit_message_reply_markup(state: EmulatorState, params: Params) -> JsonDict:
    """Replace (or, left out, remove) a bot message's inline keyboard."""
    message = _own_message(state, params)
    new = replace(message.content, reply_markup=_reply_markup(params))
    return _apply_edit(state, message, new)


def delete_message(state: EmulatorState, params: Params) -> bool:
    """Delete a message for everyone, within Telegram's rules for bots."""
    chat = state.bot_chat(params.chat_id())
    message = state.bot_message(chat, params.integer("message_id"), errors.DELETE_NOT_FOUND)
    if state.now() - message.date > DELETE_WINDOW_SECONDS:
        raise bad_request(errors.CANT_DELETE)
    if (
        chat.is_group
        and message.sender_id != state.bot.id
        and chat.bot_status is not MemberStatus.ADMINISTRATOR
    ):
        raise bad_request(errors.CANT_DELETE)
    message.deleted = True
    state.changed()
    return True


def _own_message(state: EmulatorState, params: Params) -> Message:
    if "inline_message_id" in params and "chat_id" not in params:
        raise bad_request(errors.EDIT_NOT_FOUND)
    chat = state.bot_chat(params.chat_id())
    message = state.bot_message(chat, params.integer("message_id"), errors.EDIT_NOT_FOUND)
    if message.sender_id != state.bot.id:
        raise bad_request(errors.CANT_EDIT)
    return message


def _apply_edit(state: EmulatorState, message: Message, new: Content) -> JsonDict:
    if new == message.content:
        raise bad_request(errors.NOT_MODIFIED)
    message.history.append(message.content)
    message.content = replace(new, edit_date=int(state.now()))
    state.changed()
    return state.message_to_api(message)


# -- callback queries -----------------------------------------------------------------------------


def answer_callback_query(state: EmulatorState, params: Params) -> bool:
    """Answer a button press, once, within 15 seconds."""
    query = state.callback_queries.get(params.text("callback_query_id") or "")
    if query is None or query.answered or state.now() - query.created_at > CALLBACK_ANSWER_SECONDS:
        raise bad_request(errors.QUERY_INVALID)
    text = params.text("text")
    if text is not None and len(text) > MAX_ANSWER_TEXT_LENGTH:
        raise bad_request(errors.ANSWER_TOO_LONG)
    url = params.text("url")
    if url:
        parts = urlsplit(url)
        bot_path = f"/{state.bot.username}".lower()
        if parts.netloc not in ("t.me", "telegram.me") or parts.path.lower() != bot_path:
            raise bad_request("URL_INVALID")
    query.answered = True
    query.text = text
    query.show_alert = params.flag("show_alert")
    query.url = url or None
    state.changed()
    return True


# -- chats ----------------------------------------------------------------------------------------


def get_chat(state: EmulatorState, params: Params) -> JsonDict:
    """Full information about a chat."""
    chat = state.bot_chat(params.chat_id(), sending=False)
    return {
        **state.chat_to_api(chat),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": {
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,  # Bot API 9.3
        },
    }


def get_chat_member(state: EmulatorState, params: Params) -> JsonDict:
    """A user's membership in a chat."""
    chat = state.bot_chat(params.chat_id(), sending=False)
    user_id = params.integer("user_id")
    if user_id is None:
        raise bad_request('Parameter "user_id" is required')
    return state.member_to_api(chat, user_id)


def get_chat_administrators(state: EmulatorState, params: Params) -> list[JsonDict]:
    """The owner and administrators of a group, the bot included if it is one."""
    chat = state.bot_chat(params.chat_id(), sending=False)
    if chat.type is ChatType.PRIVATE:
        raise bad_request("there are no administrators in the private chat")
    ids = sorted(
        {*chat.admins, *([chat.creator_id] if chat.creator_id is not None else [])} & chat.members
    )
    members = [state.member_to_api(chat, user_id) for user_id in ids]
    if chat.bot_status is MemberStatus.ADMINISTRATOR:
        members.append(state.member_to_api(chat, state.bot.id))
    return members


# -- commands and files ---------------------------------------------------------------------------


def set_my_commands(state: EmulatorState, params: Params) -> bool:
    """Store the command list for a scope and language."""
    commands = params.json("commands")
    if not isinstance(commands, list):
        raise bad_request("can't parse commands JSON object")
    for command in commands:
        if not isinstance(command, dict) or not _BOT_COMMAND.fullmatch(
            str(command.get("command", ""))
        ):
            raise bad_request(errors.BOT_COMMAND_INVALID)
    state.commands[_commands_key(params)] = [
        {"command": c["command"], "description": str(c.get("description", ""))} for c in commands
    ]
    return True


def get_my_commands(state: EmulatorState, params: Params) -> list[JsonDict]:
    """The command list stored for a scope and language."""
    return state.commands.get(_commands_key(params), [])


def delete_my_commands(state: EmulatorState, params: Params) -> bool:
    """Forget the command list of a scope and language."""
    state.commands.pop(_commands_key(params), None)
    return True


def _commands_key(params: Params) -> str:
    scope = params.json("scope") or {"type": "default"}
    return f"{json.dumps(scope, sort_keys=True)}|{params.text('language_code') or ''}"


def get_file(state: EmulatorState, params: Params) -> JsonDict:
    """A file's path for downloading from `/file/bot<token>/<file_path>`."""
    stored = state.stored_file(params.text("file_id") or "")
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": len(stored.data),
        "file_path": stored.file_path,
    }


# -- shared parameter rules -----------------------------------------------------------------------


def _formatted(
    state: EmulatorState, raw: str, parse_mode: object, entities: object
) -> FormattedText:
    """A text as Telegram stores it, from HTML or explicit entities; its `date_time` entities
    name moments Telegram takes (`emulator.dates`)."""
    formatted = _parsed(raw, parse_mode, entities)
    dates.check_moments(formatted.entities, state.now())
    return formatted


def _parsed(raw: str, parse_mode: object, entities: object) -> FormattedText:
    if parse_mode is None or parse_mode == "":
        if isinstance(entities, list):
            given = (dates.explicit(e) for e in entities if isinstance(e, dict))
            return FormattedText(raw, tuple(given))
        return trim(FormattedText(raw))
    if isinstance(parse_mode, str) and parse_mode.lower() == "html":
        return parse_html(raw)
    raise bad_request(errors.UNSUPPORTED_PARSE_MODE)


def _text(state: EmulatorState, params: Params) -> FormattedText:
    text = _formatted(
        state, params.text("text") or "", params.text("parse_mode"), params.json("entities")
    )
    if not text.text:
        raise bad_request(errors.TEXT_EMPTY)
    if len(text.text) > MAX_TEXT_LENGTH:
        raise bad_request(errors.TEXT_TOO_LONG)
    return text


def _caption(
    state: EmulatorState, raw: str | None, parse_mode: object, params: Params, name: str
) -> FormattedText:
    caption = _formatted(state, raw or "", parse_mode, params.json(f"{name}_entities"))
    if len(caption.text) > MAX_CAPTION_LENGTH:
        raise bad_request(errors.CAPTION_TOO_LONG)
    return caption


def _reply_markup(params: Params) -> JsonDict | None:
    if "reply_markup" not in params:
        return None
    try:
        markup = params.json("reply_markup")
    except errors.ApiError:
        raise bad_request(errors.KEYBOARD_JSON) from None
    return validate_reply_markup(markup)


def _reply_to(state: EmulatorState, chat_id: int, params: Params) -> int | None:
    reply = params.json("reply_parameters")
    if isinstance(reply, dict):
        message_id = reply.get("message_id")
        allow_missing = bool(reply.get("allow_sending_without_reply"))
    else:
        message_id = params.integer("reply_to_message_id")
        allow_missing = params.flag("allow_sending_without_reply")
    if not isinstance(message_id, int):
        return None
    if state.visible_message(state.chats[chat_id], message_id) is not None:
        return message_id
    if allow_missing:
        return None
    raise bad_request(errors.REPLY_NOT_FOUND)


def _photo(state: EmulatorState, params: Params, reference: object) -> Photo:
    """A new upload (a file part, or `attach://<part>`) or the file id of an earlier photo."""
    upload = reference if isinstance(reference, UploadedFile) else None
    if isinstance(reference, str):
        upload = params.attachment(reference)
    if upload is not None:
        return state.store_photo(upload.data)
    if not isinstance(reference, str) or not reference or reference.startswith("attach://"):
        raise bad_request("there is no photo in the request")
    if "://" in reference:
        raise bad_request(errors.WRONG_FILE_ID)
    return state.photo_by_file_id(reference)


def _animation(state: EmulatorState, params: Params, reference: object) -> Animation:
    """A new GIF upload (a file part, or `attach://<part>`) or the file id of an animation."""
    upload = reference if isinstance(reference, UploadedFile) else None
    if isinstance(reference, str):
        upload = params.attachment(reference)
    if upload is not None:
        if len(upload.data) > MAX_UPLOAD_BYTES:
            raise errors.ApiError(413, "Request Entity Too Large")
        return state.store_animation(upload.data, upload.filename)
    if not isinstance(reference, str) or not reference or reference.startswith("attach://"):
        raise bad_request("there is no animation in the request")
    if "://" in reference:
        raise bad_request(errors.WRONG_FILE_ID)
    return state.animation_by_file_id(reference)


_BY_NAME: dict[str, Method] = {
    "getMe": get_me,
    "setWebhook": set_webhook,
    "deleteWebhook": delete_webhook,
    "getWebhookInfo": get_webhook_info,
    "getUpdates": get_updates,
    "sendMessage": send_message,
    "sendPhoto": send_photo,
    "sendAnimation": send_animation,
    "sendChatAction": send_chat_action,
    "editMessageText": edit_message_text,
    "editMessageCaption": edit_message_caption,
    "editMessageMedia": edit_message_media,
    "editMessageReplyMarkup": edit_message_reply_markup,
    "deleteMessage": delete_message,
    "answerCallbackQuery": answer_callback_query,
    "getChat": get_chat,
    "getChatMember": get_chat_member,
    "getChatAdministrators": get_chat_administrators,
    "setMyCommands": set_my_commands,
    "getMyCommands": get_my_commands,
    "deleteMyCommands": delete_my_commands,
    "getFile": get_file,
    **ephemeral_api.METHODS,
}
# The methods as the Bot API spells them, and by their lower-case names for look-ups.
METHOD_NAMES: tuple[str, ...] = tuple(_BY_NAME)
METHODS: dict[str, Method] = {name.lower(): method for name, method in _BY_NAME.items()}
