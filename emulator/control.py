"""The `/_emu/...` JSON endpoints: the simulated users' side, for a browser page or a script."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from aiohttp import web

from emulator.errors import SimulationError
from emulator.faults import Faults
from emulator.model import Chat, Content, Message
from emulator.photos import image_type
from emulator.state import EmulatorState

if TYPE_CHECKING:
    from emulator.server import BotApiEmulator

JsonDict = dict[str, Any]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_CHAT = "/_emu/chats/{chat_id:-?[0-9]+}"
_USER = "/_emu/users/{user_id:[0-9]+}"
_MESSAGE = _CHAT + "/messages/{message_id:[0-9]+}"


def add_control_routes(app: web.Application, emulator: BotApiEmulator) -> None:
    """Register the control endpoints of `emulator` on `app`."""
    control = _Control(emulator)
    routes: list[tuple[str, str, Handler]] = [
        ("GET", "/_emu/state", control.get_state),
        ("GET", "/_emu/wait", control.wait),
        ("POST", "/_emu/settings", control.settings),
        ("GET", "/_emu/updates", control.updates),
        ("GET", "/_emu/faults", control.get_faults),
        ("POST", "/_emu/faults", control.set_faults),
        ("POST", "/_emu/faults/force", control.force_fault),
        ("DELETE", "/_emu/faults/log", control.clear_fault_log),
        ("POST", "/_emu/users", control.create_user),
        ("POST", _USER + "/start", control.start_bot),
        ("POST", _USER + "/open_link", control.open_link),
        ("POST", _USER + "/block", control.block_bot),
        ("POST", "/_emu/groups", control.create_group),
        ("GET", _CHAT, control.get_chat),
        ("POST", _CHAT + "/members", control.add_member),
        ("DELETE", _CHAT + "/members/{user_id:[0-9]+}", control.remove_member),
        ("POST", _CHAT + "/admins", control.make_admin),
        ("POST", _CHAT + "/topics", control.create_topic),
        ("POST", _CHAT + "/migrate", control.migrate),
        ("POST", _CHAT + "/remove_bot", control.remove_bot),
        ("POST", _CHAT + "/add_bot", control.add_bot),
        ("GET", _CHAT + "/messages", control.list_messages),
        ("POST", _CHAT + "/messages", control.send_text),
        ("GET", _CHAT + "/messages/last", control.last_message),
        ("GET", _MESSAGE + "/photo", control.photo),
        ("POST", _MESSAGE + "/press", control.press_button),
        ("GET", "/_emu/callback_queries/{query_id}", control.callback_query),
        ("GET", "/_emu/files/{file_id}", control.file),
    ]
    for method, path, handler in routes:
        app.router.add_route(method, path, _guarded(handler))


def message_view(state: EmulatorState, message: Message) -> JsonDict:
    """A message as the Bot API shows it, plus what only the emulator knows."""
    view = state.message_to_api(message)
    view["emulator"] = {
        "deleted": message.deleted,
        "raw_text": message.content.raw_text,
        "raw_caption": message.content.raw_caption,
        "photo_url": (
            f"/_emu/files/{message.photo_file_id}" if message.photo_file_id is not None else None
        ),
        "edit_history": [_content_view(content) for content in message.history],
    }
    return view


def chat_view(state: EmulatorState, chat: Chat) -> JsonDict:
    """A chat with its members, admins, topics and the bot's status."""
    return {
        **state.chat_to_api(chat),
        "members": [state.users[user_id].to_api() for user_id in sorted(chat.members)],
        "admins": sorted(chat.admins),
        "creator_id": chat.creator_id,
        "bot_status": chat.bot_status.value,
        "migrated_to": chat.migrated_to,
        "topics": [
            {"message_thread_id": thread_id, "name": name}
            for thread_id, name in chat.topics.items()
        ],
    }


def _content_view(content: Content) -> JsonDict:
    return {
        "text": content.text,
        "raw_text": content.raw_text,
        "caption": content.caption,
        "raw_caption": content.raw_caption,
        "photo_file_id": content.photo[-1].file_id if content.photo else None,
        "reply_markup": content.reply_markup,
        "edit_date": content.edit_date,
    }


def _guarded(handler: Handler) -> Handler:
    async def guarded(request: web.Request) -> web.StreamResponse:
        try:
            return await handler(request)
        except SimulationError as error:
            return web.json_response({"ok": False, "error": str(error)}, status=400)

    return guarded


def _ok(result: object) -> web.Response:
    return web.json_response({"ok": True, "result": result})


async def _body(request: web.Request) -> JsonDict:
    if not request.body_exists:
        return {}
    try:
        body = await request.json()
    except ValueError:
        raise SimulationError("the body must be a JSON object") from None
    if not isinstance(body, dict):
        raise SimulationError("the body must be a JSON object")
    return body


def _int(values: JsonDict, name: str) -> int:
    value = values.get(name)
    if isinstance(value, bool) or value is None:
        raise SimulationError(f"{name} must be an integer")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise SimulationError(f"{name} must be an integer") from None


def _optional_int(values: JsonDict, name: str) -> int | None:
    return None if values.get(name) is None else _int(values, name)


def _str(values: JsonDict, name: str) -> str:
    value = values.get(name)
    if not isinstance(value, str):
        raise SimulationError(f"{name} must be a string")
    return value


def _chat_id(request: web.Request) -> int:
    return int(request.match_info["chat_id"])


class _Control:
    """Request handlers; each one maps to one method of `EmulatorState`."""

    def __init__(self, emulator: BotApiEmulator) -> None:
        self.emulator = emulator
        self.state = emulator.state

    async def get_state(self, request: web.Request) -> web.Response:
        state = self.state
        return _ok(
            {
                "version": state.version,
                "bot": state.bot.to_api(),
                "users": [u.to_api() for u in state.users.values() if not u.is_bot],
                "chats": [chat_view(state, chat) for chat in state.chats.values()],
            }
        )

    async def wait(self, request: web.Request) -> web.Response:
        after = _int(dict(request.query), "after") if "after" in request.query else 0
        timeout = min(float(request.query.get("timeout", "25")), 60.0)
        return _ok({"version": await self.emulator.wait_for_version(after, timeout=timeout)})

    async def settings(self, request: web.Request) -> web.Response:
        body = await _body(request)
        if "duplicate_webhook_deliveries" in body:
            self.emulator.duplicate_webhook_deliveries = bool(body["duplicate_webhook_deliveries"])
        if "privacy_mode" in body:
            self.state.privacy_mode = bool(body["privacy_mode"])
        return _ok(
            {
                "duplicate_webhook_deliveries": self.emulator.duplicate_webhook_deliveries,
                "privacy_mode": self.state.privacy_mode,
            }
        )

    async def updates(self, request: web.Request) -> web.Response:
        return _ok(self.state.update_log)

    def _faults_view(self) -> JsonDict:
        emulator = self.emulator
        return {
            "faults": emulator.faults.to_json(),
            "affected_methods": sorted(emulator.faults.affected_methods),
            "forced": [forced.to_json() for forced in emulator.forced_faults],
            "log": emulator.fault_log.to_json(),
            "in_flight": emulator.in_flight,
            "max_in_flight": emulator.max_in_flight,
            "delayed": emulator.delayed,
            "max_delayed": emulator.max_delayed,
        }

    async def get_faults(self, request: web.Request) -> web.Response:
        return _ok(self._faults_view())

    async def set_faults(self, request: web.Request) -> web.Response:
        try:
            self.emulator.faults = Faults.from_json(await _body(request))
        except (TypeError, ValueError) as error:
            raise SimulationError(str(error)) from None
        return _ok(self._faults_view())

    async def force_fault(self, request: web.Request) -> web.Response:
        body = await _body(request)
        method = body.get("method")
        chat_id = body.get("chat_id")
        if method is not None and not isinstance(method, str):
            raise SimulationError("method must be a string")
        if chat_id is not None and not isinstance(chat_id, str):
            chat_id = _int(body, "chat_id")
        try:
            self.emulator.force_fault(
                _str(body, "kind"),
                method=method,
                chat_id=chat_id,
                times=_int(body, "times") if "times" in body else 1,
            )
        except ValueError as error:
            raise SimulationError(str(error)) from None
        return _ok(self._faults_view())

    async def clear_fault_log(self, request: web.Request) -> web.Response:
        self.emulator.fault_log.clear()
        self.emulator.max_in_flight = self.emulator.in_flight
        self.emulator.max_delayed = self.emulator.delayed
        return _ok(self._faults_view())

    async def create_user(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self.state.create_user(
            _str(body, "first_name"),
            username=body.get("username"),
            last_name=body.get("last_name"),
            language_code=body.get("language_code", "en"),
            user_id=_optional_int(body, "id"),
        )
        return _ok(user.to_api())

    async def start_bot(self, request: web.Request) -> web.Response:
        body = await _body(request)
        payload = body.get("payload")
        message = self.state.start_bot(
            int(request.match_info["user_id"]), payload if isinstance(payload, str) else None
        )
        return _ok(message_view(self.state, message))

    async def open_link(self, request: web.Request) -> web.Response:
        body = await _body(request)
        message = self.state.open_link(int(request.match_info["user_id"]), _str(body, "url"))
        return _ok(message_view(self.state, message))

    async def block_bot(self, request: web.Request) -> web.Response:
        self.state.block_bot(int(request.match_info["user_id"]))
        return _ok(True)

    async def create_group(self, request: web.Request) -> web.Response:
        body = await _body(request)
        members = body.get("members", [])
        if not isinstance(members, list):
            raise SimulationError("members must be a list of user ids")
        chat = self.state.create_group(
            _str(body, "title"),
            creator=_int(body, "creator"),
            members=[_int({"member": m}, "member") for m in members],
            supergroup=bool(body.get("supergroup", False)),
            forum=bool(body.get("forum", False)),
            bot_admin=bool(body.get("bot_admin", False)),
        )
        return _ok(chat_view(self.state, chat))

    async def get_chat(self, request: web.Request) -> web.Response:
        return _ok(chat_view(self.state, self.state.chat(_chat_id(request))))

    async def add_member(self, request: web.Request) -> web.Response:
        body = await _body(request)
        self.state.add_member(_chat_id(request), _int(body, "user_id"))
        return _ok(True)

    async def remove_member(self, request: web.Request) -> web.Response:
        self.state.remove_member(_chat_id(request), int(request.match_info["user_id"]))
        return _ok(True)

    async def make_admin(self, request: web.Request) -> web.Response:
        body = await _body(request)
        self.state.make_admin(_chat_id(request), _int(body, "user_id"))
        return _ok(True)

    async def create_topic(self, request: web.Request) -> web.Response:
        body = await _body(request)
        thread_id = self.state.create_topic(
            _chat_id(request), _int(body, "user_id"), _str(body, "name")
        )
        return _ok({"message_thread_id": thread_id})

    async def migrate(self, request: web.Request) -> web.Response:
        body = await _body(request)
        chat = self.state.migrate_to_supergroup(_chat_id(request), by=_int(body, "by"))
        return _ok(chat_view(self.state, chat))

    async def remove_bot(self, request: web.Request) -> web.Response:
        body = await _body(request)
        self.state.remove_bot(_chat_id(request), by=_int(body, "by"))
        return _ok(True)

    async def add_bot(self, request: web.Request) -> web.Response:
        body = await _body(request)
        self.state.add_bot(_chat_id(request), by=_int(body, "by"))
        return _ok(True)

    async def list_messages(self, request: web.Request) -> web.Response:
        query = dict(request.query)
        messages = self.state.messages(
            _chat_id(request),
            user_id=_optional_int(query, "user_id"),
            include_deleted=query.get("include_deleted", "").lower() in ("1", "true"),
        )
        return _ok([message_view(self.state, message) for message in messages])

    async def last_message(self, request: web.Request) -> web.Response:
        message = self.state.last_message(
            _chat_id(request), user_id=_optional_int(dict(request.query), "user_id")
        )
        return _ok(None if message is None else message_view(self.state, message))

    async def send_text(self, request: web.Request) -> web.Response:
        body = await _body(request)
        message = self.state.send_text(
            _int(body, "user_id"),
            _chat_id(request),
            _str(body, "text"),
            thread_id=_optional_int(body, "message_thread_id"),
            reply_to=_optional_int(body, "reply_to_message_id"),
        )
        return _ok(message_view(self.state, message))

    async def photo(self, request: web.Request) -> web.Response:
        data = self.state.photo_bytes(_chat_id(request), int(request.match_info["message_id"]))
        return web.Response(body=data, content_type=image_type(data))

    async def press_button(self, request: web.Request) -> web.Response:
        body = await _body(request)
        query_id = self.state.press_button(
            _int(body, "user_id"),
            _chat_id(request),
            int(request.match_info["message_id"]),
            _str(body, "callback_data"),
        )
        return _ok({"callback_query_id": query_id})

    async def callback_query(self, request: web.Request) -> web.Response:
        query = self.state.callback_query(request.match_info["query_id"])
        return _ok(asdict(query))

    async def file(self, request: web.Request) -> web.Response:
        stored = self.state.file(request.match_info["file_id"])
        return web.Response(body=stored.data, content_type=image_type(stored.data))
