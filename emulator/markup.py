"""Message formatting: Telegram's HTML parse mode, entities, and inline keyboards."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from emulator import dates
from emulator.errors import (
    BUTTON_DATA_INVALID,
    BUTTON_STYLE_INVALID,
    BUTTON_URL_INVALID,
    KEYBOARD_JSON,
    ApiError,
    bad_request,
)
from emulator.limits import MAX_CALLBACK_DATA_BYTES

JsonDict = dict[str, Any]

_TAG_ENTITY = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
    "tg-time": dates.DATE_TIME,
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
    "disabled",  # Bot API 10.3: a DisabledButton, which does nothing when pressed
)
# Bot API 9.4: an inline button's optional colour.
BUTTON_STYLES = frozenset({"danger", "success", "primary"})
_COMMAND = re.compile(r"(?<![^\s])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@/])")


@dataclass(frozen=True)
class FormattedText:
    """Text as Telegram stores it: plain characters plus entities with UTF-16 offsets."""

    text: str
    entities: tuple[JsonDict, ...] = ()


def utf16_len(text: str) -> int:
    """The length of `text` in UTF-16 code units, the unit of entity offsets."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def _plain_run_end(source: str, start: int) -> int:
    """Where the plain text from `start` ends: at the next `&` or `<`, or the source's end."""
    amp, tag = source.find("&", start), source.find("<", start)
    if amp < 0:
        return len(source) if tag < 0 else tag
    return amp if tag < 0 else min(amp, tag)


def parse_html(source: str) -> FormattedText:
    """Parse Telegram's HTML parse mode; raise its "can't parse entities" error on bad markup."""
    parser = _HtmlParser(source)
    return trim(parser.parse())


def trim(formatted: FormattedText) -> FormattedText:
    """Strip surrounding whitespace the way Telegram does, clipping entities to the rest."""
    text = formatted.text
    stripped = text.strip()
    if stripped == text:
        return formatted
    if not stripped:
        return FormattedText("")
    shift = utf16_len(text[: len(text) - len(text.lstrip())])
    length = utf16_len(stripped)
    entities = []
    for entity in formatted.entities:
        begin = max(entity["offset"] - shift, 0)
        end = min(entity["offset"] + entity["length"] - shift, length)
        if end > begin:
            entities.append({**entity, "offset": begin, "length": end - begin})
    return FormattedText(stripped, tuple(entities))


def command_entities(text: str) -> tuple[JsonDict, ...]:
    """The `bot_command` entities Telegram marks in a text a user sends."""
    return tuple(
        {
            "type": "bot_command",
            "offset": utf16_len(text[: match.start()]),
            "length": utf16_len(match.group()),
        }
        for match in _COMMAND.finditer(text)
    )


def validate_reply_markup(markup: object) -> JsonDict:
    """Check a `reply_markup` object; inline keyboards are checked button by button."""
    if not isinstance(markup, dict):
        raise bad_request(KEYBOARD_JSON)
    if "inline_keyboard" not in markup:
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array')
    for row in rows:
        for button in row:
            _validate_button(button)
    return markup


def inline_buttons(markup: JsonDict | None) -> list[JsonDict]:
    """The buttons of an inline keyboard, row by row, or none for any other markup."""
    if not markup:
        return []
    return [button for row in markup.get("inline_keyboard", []) for button in row]


def _validate_button(button: object) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request("can't parse inline keyboard button: Text must be non-empty")
    actions = [name for name in _BUTTON_ACTIONS if name in button]
    if not actions:
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    data = button.get("callback_data")
    if "callback_data" in button and (
        not isinstance(data, str) or not data or len(data.encode("utf-8")) > MAX_CALLBACK_DATA_BYTES
    ):
        raise bad_request(BUTTON_DATA_INVALID)
    url = button.get("url")
    if "url" in button and (not isinstance(url, str) or not re.match(r"^(https?|tg)://\S+$", url)):
        raise bad_request(BUTTON_URL_INVALID)
    if "disabled" in button and not isinstance(button["disabled"], dict):
        raise bad_request(
            'can\'t parse inline keyboard button: Field "disabled" must be of type Object'
        )
    if "style" in button:
        style = button["style"]
        if not isinstance(style, str):
            raise bad_request(
                'can\'t parse inline keyboard button: Field "style" must be of type String'
            )
        if style not in BUTTON_STYLES:
            raise bad_request(BUTTON_STYLE_INVALID)


@dataclass
class _OpenTag:
    name: str
    offset: int
    attributes: dict[str, str] = field(default_factory=dict)
    language: str | None = None


class _HtmlParser:
    """A port of the rules of tdlib's HTML parser, kept to what our bot can produce."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.pos = 0
        self.chars: list[str] = []
        self.offset = 0
        self.stack: list[_OpenTag] = []
        self.entities: list[JsonDict] = []

    def parse(self) -> FormattedText:
        source = self.source
        while self.pos < len(source):
            char = source[self.pos]
            if char == "&" and self._entity():
                continue
            if char == "<":
                if source.startswith("</", self.pos):
                    self._end_tag()
                else:
                    self._start_tag()
                continue
            end = _plain_run_end(source, self.pos + 1)  # the text up to the next & or <
            self._emit(source[self.pos : end])
            self.pos = end
        if self.stack:
            raise self._error(
                f'Can\'t find end tag corresponding to start tag "{self.stack[-1].name}"'
            )
        self.entities.sort(key=lambda entity: (entity["offset"], -entity["length"]))
        return FormattedText("".join(self.chars), tuple(self.entities))

    def _emit(self, text: str) -> None:
        self.chars.append(text)
        self.offset += utf16_len(text)

    def _byte_offset(self, pos: int) -> int:
        return len(self.source[:pos].encode("utf-8"))

    def _error(self, detail: str) -> ApiError:
        return bad_request(f"can't parse entities: {detail}")

    def _entity(self) -> bool:
        """Decode `&name;` or `&#N;` at pos; like Telegram, the `;` may be missing."""
        match = re.match(r"&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([A-Za-z]+));?", self.source[self.pos :])
        if match is None:
            return False
        decimal, hexadecimal, name = match.groups()
        if name is not None:
            decoded = _NAMED_ENTITIES.get(name)
            if decoded is None:
                return False
        else:
            code = int(decimal) if decimal is not None else int(hexadecimal, 16)
            if not 0 < code <= 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                return False
            decoded = chr(code)
        self._emit(decoded)
        self.pos += match.end()
        return True

    def _start_tag(self) -> None:
        source, begin = self.source, self.pos
        end = begin + 1
        while end < len(source) and not source[end].isspace() and source[end] != ">":
            end += 1
        if end >= len(source):
            raise self._error(f"Unclosed start tag at byte offset {self._byte_offset(begin)}")
        name = source[begin + 1 : end].lower()
        if name not in _TAG_ENTITY:
            raise self._error(
                f'Unsupported start tag "{name}" at byte offset {self._byte_offset(begin)}'
            )
        self.pos = end
        tag = _OpenTag(name, self.offset, self._attributes(name, begin))
        if name == "span" and tag.attributes.get("class") != "tg-spoiler":
            raise self._error(
                f'Tag "span" must have class "tg-spoiler" at byte offset {self._byte_offset(begin)}'
            )
        if name == "tg-time":
            problem = dates.tag_problem(tag.attributes)
            if problem is not None:
                raise self._error(problem)
        self.stack.append(tag)

    def _attributes(self, tag: str, begin: int) -> dict[str, str]:
        source = self.source
        attributes: dict[str, str] = {}
        unclosed = f"Unclosed start tag at byte offset {self._byte_offset(begin)}"
        while True:
            while self.pos < len(source) and source[self.pos].isspace():
                self.pos += 1
            if self.pos >= len(source):
                raise self._error(unclosed)
            if source[self.pos] == ">":
                self.pos += 1
                return attributes
            name_start = self.pos
            while (
                self.pos < len(source)
                and not source[self.pos].isspace()
                and source[self.pos] not in "=>"
            ):
                self.pos += 1
            name = source[name_start : self.pos].lower()
            if not name:
                raise self._error(
                    f'Empty attribute name in the tag "{tag}" at byte offset '
                    f"{self._byte_offset(begin)}"
                )
            while self.pos < len(source) and source[self.pos].isspace():
                self.pos += 1
            has_value = source[self.pos : self.pos + 1] == "="
            if tag == "blockquote" and name == "expandable" and not has_value:
                attributes[name] = ""
                continue
            if not has_value:
                raise self._error(
                    f'Expected equal sign in declaration of an attribute of the tag "{tag}" at '
                    f"byte offset {self._byte_offset(begin)}"
                )
            self.pos += 1
            while self.pos < len(source) and source[self.pos].isspace():
                self.pos += 1
            attributes[name] = self._attribute_value(unclosed)

    def _attribute_value(self, unclosed: str) -> str:
        source = self.source
        if self.pos >= len(source):
            raise self._error(unclosed)
        quote = source[self.pos]
        if quote in "'\"":
            end = source.find(quote, self.pos + 1)
            if end < 0:
                raise self._error(unclosed)
            value = source[self.pos + 1 : end]
            self.pos = end + 1
        else:
            start = self.pos
            while self.pos < len(source) and (
                source[self.pos].isalnum() or source[self.pos] in ".-"
            ):
                self.pos += 1
            value = source[start : self.pos]
        for name, char in _NAMED_ENTITIES.items():
            value = value.replace(f"&{name};", char)
        return value

    def _end_tag(self) -> None:
        source, begin = self.source, self.pos
        if not self.stack:
            raise self._error(f"Unexpected end tag at byte offset {self._byte_offset(begin)}")
        end = begin + 2
        while end < len(source) and not source[end].isspace() and source[end] != ">":
            end += 1
        name = source[begin + 2 : end].lower()
        while end < len(source) and source[end].isspace():
            end += 1
        if end >= len(source) or source[end] != ">":
            raise self._error(f"Unclosed end tag at byte offset {self._byte_offset(begin)}")
        tag = self.stack[-1]
        if name and name != tag.name:
            raise self._error(
                f"Unmatched end tag at byte offset {self._byte_offset(begin)}, "
                f'expected "</{tag.name}>", found "</{name}>"'
            )
        self.stack.pop()
        self.pos = end + 1
        self._close(tag)

    def _close(self, tag: _OpenTag) -> None:
        length = self.offset - tag.offset
        css_class = tag.attributes.get("class", "")
        parent = self.stack[-1] if self.stack else None
        if (
            tag.name == "code"
            and parent is not None
            and parent.name == "pre"
            and css_class.startswith("language-")
        ):
            parent.language = css_class.removeprefix("language-")
            return
        if length == 0:
            return
        entity: JsonDict = {"type": _TAG_ENTITY[tag.name], "offset": tag.offset, "length": length}
        if tag.name == "a":
            href = tag.attributes.get("href")
            if not href:
                return
            entity["url"] = href
        elif tag.name == "pre" and tag.language:
            entity["language"] = tag.language
        elif tag.name == "blockquote" and "expandable" in tag.attributes:
            entity["type"] = "expandable_blockquote"
        elif tag.name == "tg-emoji":
            entity["custom_emoji_id"] = tag.attributes.get("emoji-id", "")
        elif tag.name == "tg-time":
            entity = dates.from_tag(tag.attributes, tag.offset, length)
        self.entities.append(entity)
