"""Menu buttons as Bot API inline keyboards: a URL, a callback, or a disabled button.

The keyboard is the Bot API's JSON (`InlineKeyboardMarkup`), built directly: the sender posts
it as it is (`tgbot.bot_calls`), with no python-telegram-bot objects in between.
"""

from __future__ import annotations

from collections.abc import Sequence

from .callback import encode
from .menus import Button

Keyboard = dict[str, list[list[dict[str, object]]]]


def markup(keyboard: Sequence[Sequence[Button]] | None) -> Keyboard | None:
    """An inline keyboard from menu buttons (None for no keyboard)."""
    if not keyboard:
        return None
    return {"inline_keyboard": [[_button(b) for b in row] for row in keyboard]}


def _button(b: Button) -> dict[str, object]:
    """One inline button: a URL, a callback, or (neither) a Bot API 10.3 `DisabledButton`."""
    button: dict[str, object] = {"text": b.label}
    if b.url is not None:
        button["url"] = b.url
    elif b.command is None:
        button["disabled"] = {}
    else:
        button["callback_data"] = encode(b.command)
    if b.style is not None:
        button["style"] = b.style.value  # the Bot API `style` (absent: left to the app)
    return button
