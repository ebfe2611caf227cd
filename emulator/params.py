"""Bot API request parameters: form fields arrive as strings, JSON bodies as native values."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from emulator.errors import bad_request


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


class Params:
    """Typed access to one request's parameters, with Telegram's errors for bad values."""

    def __init__(self, values: Mapping[str, object]) -> None:
        self._values = {name: value for name, value in values.items() if value is not None}

    def __contains__(self, name: str) -> bool:
        return name in self._values and self._values[name] != ""

    def raw(self, name: str) -> object:
        """The value as it arrived, or None."""
        return self._values.get(name)

    def text(self, name: str) -> str | None:
        """A string parameter."""
        value = self._values.get(name)
        if value is None:
            return None
        if isinstance(value, UploadedFile):
            raise bad_request(f'Parameter "{name}" must be a String')
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def integer(self, name: str) -> int | None:
        """An integer parameter; empty counts as absent, like in the Bot API."""
        if name not in self:
            return None
        value = self._values[name]
        if isinstance(value, bool):
            raise bad_request(f'Parameter "{name}" must be an Integer')
        if isinstance(value, int):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            raise bad_request(f'Parameter "{name}" must be an Integer') from None

    def number(self, name: str) -> float | None:
        """A numeric parameter."""
        if name not in self:
            return None
        value = self._values[name]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        try:
            return float(str(value).strip())
        except ValueError:
            raise bad_request(f'Parameter "{name}" must be a Number') from None

    def flag(self, name: str) -> bool:
        """A Boolean parameter; absent means false."""
        value = self._values.get(name)
        if isinstance(value, bool):
            return value
        if value is None:
            return False
        return str(value).strip().lower() in ("true", "1")

    def json(self, name: str) -> Any:
        """A parameter holding a JSON object or array (serialized when sent as a form field)."""
        value = self._values.get(name)
        if not isinstance(value, str):
            return value
        if value == "":
            return None
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(f"can't parse {name} JSON object") from None

    def attachment(self, reference: str) -> UploadedFile | None:
        """The file part an `attach://<name>` reference points to, if any."""
        if not reference.startswith("attach://"):
            return None
        value = self._values.get(reference.removeprefix("attach://"))
        return value if isinstance(value, UploadedFile) else None

    def chat_id(self) -> int | str:
        """The `chat_id` parameter: an integer id, or an `@username` string."""
        value = self._values.get("chat_id")
        if value is None or value == "":
            raise bad_request("chat_id is empty")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        if text.startswith("@"):
            return text
        try:
            return int(text)
        except ValueError:
            raise bad_request("chat not found") from None
