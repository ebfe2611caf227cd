"""Menu buttons as Bot API inline keyboards: a URL, a callback, or a disabled button."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from .callback import encode
from .menus import Button


def markup(keyboard: Sequence[Sequence[Button]] | None) -> InlineKeyboardMarkup | None:
    """An inline keyboard from menu buttons (None for no keyboard)."""
    if not keyboard:
        return None
    rows = [[_button(b) for b in row] for row in keyboard]
    return InlineKeyboardMarkup(rows)


def _button(b: Button) -> InlineKeyboardButton:
    """One inline button: a URL, a callback, or (neither) a Bot API 10.3 `DisabledButton`."""
    if b.url is not None:
        return InlineKeyboardButton(b.label, url=b.url, style=_style(b))
    if b.command is None:
        # PTB 22.8 knows no `disabled` field: it goes as an extra field of the button.
        return InlineKeyboardButton(b.label, style=_style(b), api_kwargs={"disabled": {}})
    return InlineKeyboardButton(b.label, callback_data=encode(b.command), style=_style(b))


def _style(button: Button) -> str | None:
    """The Bot API `style` of a button (None leaves it to the app)."""
    return button.style.value if button.style is not None else None
