"""Bot API error responses with Telegram's own texts, and errors of simulated users."""

from __future__ import annotations

from typing import Any

JsonDict = dict[str, Any]


class ApiError(Exception):
    """A Bot API call that Telegram would refuse: becomes an `{"ok": false, ...}` response."""

    def __init__(
        self, error_code: int, description: str, parameters: dict[str, int] | None = None
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> JsonDict:
        """The response body Telegram sends for this error."""
        body: JsonDict = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = dict(self.parameters)
        return body


class SimulationError(ValueError):
    """A simulated user tried something a real Telegram client would not let them do."""


def bad_request(detail: str) -> ApiError:
    """A 400 error: `Bad Request: <detail>`."""
    return ApiError(400, f"Bad Request: {detail}")


def forbidden(detail: str) -> ApiError:
    """A 403 error: `Forbidden: <detail>`."""
    return ApiError(403, f"Forbidden: {detail}")


def conflict(detail: str) -> ApiError:
    """A 409 error: `Conflict: <detail>`."""
    return ApiError(409, f"Conflict: {detail}")


def too_many_requests(retry_after: int) -> ApiError:
    """A 429 flood-wait error telling the bot how many seconds to wait."""
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


def chat_migrated(new_chat_id: int) -> ApiError:
    """The 400 error for a basic group that became a supergroup."""
    return ApiError(
        400,
        "Bad Request: group chat was upgraded to a supergroup chat",
        {"migrate_to_chat_id": new_chat_id},
    )


def unauthorized() -> ApiError:
    """The 401 error for a token the emulator does not know."""
    return ApiError(401, "Unauthorized")


def not_found() -> ApiError:
    """The 404 error for an unknown method."""
    return ApiError(404, "Not Found")


# Texts after the "Bad Request: " prefix, as the Bot API server words them.
CHAT_NOT_FOUND = "chat not found"
CHAT_ID_EMPTY = "chat_id is empty"
TEXT_EMPTY = "message text is empty"
TEXT_TOO_LONG = "message is too long"
CAPTION_TOO_LONG = "message caption is too long"
BUTTON_DATA_INVALID = "BUTTON_DATA_INVALID"
BUTTON_URL_INVALID = "BUTTON_URL_INVALID"
# Telegram's wording for a style outside danger/success/primary is not documented; this one
# follows its BUTTON_*_INVALID family.
BUTTON_STYLE_INVALID = "BUTTON_STYLE_INVALID"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the"
    " same as a current content and reply markup of the message"
)
MESSAGE_ID_MISSING = "message identifier is not specified"
EDIT_NOT_FOUND = "message to edit not found"
DELETE_NOT_FOUND = "message to delete not found"
CANT_DELETE = "message can't be deleted for everyone"
CANT_EDIT = "message can't be edited"
NO_TEXT_TO_EDIT = "there is no text in the message to edit"
NO_CAPTION_TO_EDIT = "there is no caption in the message to edit"
NO_MEDIA_TO_EDIT = "there is no media in the message to edit"
REPLY_NOT_FOUND = "message to be replied not found"
THREAD_NOT_FOUND = "message thread not found"
QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"
ANSWER_TOO_LONG = "MESSAGE_TOO_LONG"
WRONG_FILE_ID = "wrong file identifier/HTTP URL specified"
INVALID_FILE_ID = "invalid file_id"
IMAGE_PROCESS_FAILED = "IMAGE_PROCESS_FAILED"
PHOTO_INVALID_DIMENSIONS = "PHOTO_INVALID_DIMENSIONS"
USER_NOT_FOUND = "user not found"
UNSUPPORTED_PARSE_MODE = "unsupported parse_mode"
KEYBOARD_JSON = "can't parse reply keyboard markup JSON object"
SECRET_TOKEN_CHARS = "secret token contains unallowed characters"
BOT_COMMAND_INVALID = "BOT_COMMAND_INVALID"

# Texts after the "Forbidden: " prefix.
CANT_INITIATE = "bot can't initiate conversation with a user"
BLOCKED = "bot was blocked by the user"

# Texts after the "Conflict: " prefix.
WEBHOOK_ACTIVE = (
    "can't use getUpdates method while webhook is active; use deleteWebhook to delete the"
    " webhook first"
)
OTHER_GET_UPDATES = (
    "terminated by other getUpdates request; make sure that only one bot instance is running"
)


def kicked(chat_type: str) -> ApiError:
    """The 403 error for a group the bot was removed from (`group` or `supergroup`)."""
    return forbidden(f"bot was kicked from the {chat_type} chat")
