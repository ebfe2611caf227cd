"""multipart/form-data bodies (RFC 7578) read from their bytes.

aiohttp's reader parses every part's headers with the standard library's e-mail parser, which
made reading a photo upload most of the emulator's CPU under `bench/load.py`. Bodies as clients
write them (each part a `form-data` disposition with a quoted or plain name and filename, an
optional Content-Type, ASCII headers) are read here by splitting the bytes at the boundary;
anything else (folded or non-ASCII headers, RFC 2231 `filename*`, a transfer encoding, a
preamble) is read by the standard library's MIME parser, which knows them all.
"""

from __future__ import annotations

import email.parser
import email.policy
from dataclasses import dataclass
from email.message import EmailMessage


class MalformedBody(ValueError):
    """A body that is not multipart/form-data with the boundary given."""


@dataclass(frozen=True, slots=True)
class Part:
    """One field: its name, its filename (a file) or None (a text field), its Content-Type."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes


def media_type(header: str | None) -> str:
    """The media type of a Content-Type header, lower case, without its parameters."""
    return (header or "").split(";", 1)[0].strip().lower()


def boundary_of(header: str) -> str | None:
    """The boundary parameter of a multipart Content-Type header."""
    for name, value in _header_parameters(header):
        if name == "boundary":
            return value
    return None


def charset_of(header: str | None) -> str | None:
    """The charset parameter of a Content-Type header."""
    for name, value in _header_parameters(header):
        if name == "charset":
            return value
    return None


def parse(body: bytes, content_type: str) -> list[Part]:
    """The fields of a multipart/form-data body, in order."""
    boundary = boundary_of(content_type)
    if not boundary:
        raise MalformedBody("no boundary")
    simple = _simple(body, boundary.encode("latin-1"))
    return simple if simple is not None else _general(body, content_type)


def _simple(body: bytes, boundary: bytes) -> list[Part] | None:
    """The fields, read by splitting at the boundary; None where the body is not plain."""
    first = b"--" + boundary
    if not body.startswith(first + b"\r\n"):
        return None
    close = body.rfind(b"\r\n" + first + b"--")
    if close < 0 or body[close + len(first) + 4 :].strip(b"\r\n"):
        return None
    parts = []
    for chunk in body[len(first) + 2 : close].split(b"\r\n" + first + b"\r\n"):
        head, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep or not head.isascii():
            return None
        part = _part(head.decode("ascii"), data)
        if part is None:
            return None
        parts.append(part)
    return parts


def _part(head: str, data: bytes) -> Part | None:
    """One part from its header lines; None where they are not plain."""
    disposition = content_type = None
    for line in head.split("\r\n"):
        name, colon, value = line.partition(":")
        key = name.strip().lower()
        if not colon or line[:1] in (" ", "\t") or key != name.lower():
            return None  # a folded or odd line
        if key == "content-disposition":
            disposition = value.strip()
        elif key == "content-type":
            content_type = value.strip()
        elif key == "content-transfer-encoding":
            return None
    if disposition is None or media_type(disposition) != "form-data":
        return None
    fields: dict[str, str] = {}
    for key, value in _header_parameters(disposition):
        if key.endswith("*") or key in fields:
            return None  # RFC 2231 values, repeated parameters: for the general reader
        fields[key] = value
    if "name" not in fields:
        return None
    return Part(fields["name"], fields.get("filename"), content_type, data)


def _header_parameters(header: str | None) -> list[tuple[str, str]]:
    """The parameters of a header's value (after its first `;`)."""
    return _parameters((header or "").partition(";")[2])


def _parameters(text: str) -> list[tuple[str, str]]:
    """`; key=value` pairs: a token or a quoted string (backslash escapes), keys lower case."""
    out, at, end = [], 0, len(text)
    while at < end:
        while at < end and text[at] in " \t;":
            at += 1
        equals = text.find("=", at)
        if equals < 0:
            break
        key = text[at:equals].strip().lower()
        at = equals + 1
        while at < end and text[at] in " \t":
            at += 1
        if at < end and text[at] == '"':
            value, at = _quoted(text, at + 1)
        else:
            stop = text.find(";", at)
            stop = end if stop < 0 else stop
            value, at = text[at:stop].strip(), stop
        out.append((key, value))
    return out


def _quoted(text: str, at: int) -> tuple[str, int]:
    """A quoted string's value from just after its opening quote, and where it ends."""
    chars = []
    while at < len(text):
        char = text[at]
        if char == "\\" and at + 1 < len(text):
            chars.append(text[at + 1])
            at += 2
        elif char == '"':
            return "".join(chars), at + 1
        else:
            chars.append(char)
            at += 1
    raise MalformedBody("an unterminated quoted string")


def _general(body: bytes, content_type: str) -> list[Part]:
    """The fields, read by the standard library's MIME parser."""
    parser = email.parser.BytesParser(policy=email.policy.HTTP)
    message = parser.parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body
    )
    if not isinstance(message, EmailMessage) or not message.is_multipart():
        raise MalformedBody("not a multipart body")
    parts = []
    for part in message.iter_parts():
        if not isinstance(part, EmailMessage) or part.get_content_disposition() != "form-data":
            raise MalformedBody("a part that is not form-data")
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            raise MalformedBody("a part without a name")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        given = part.get("content-type")
        parts.append(Part(name, part.get_filename(), None if given is None else str(given), data))
    return parts
