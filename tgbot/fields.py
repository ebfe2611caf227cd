"""Field codecs of callback data: each writes one typed value in a few ASCII characters and reads
back only the text it would write (so every input is canonical)."""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Generic, Protocol, TypeVar

E = TypeVar("E", bound=Hashable)


class Field(Protocol):
    """One field of a command on the wire."""

    @property
    def width(self) -> int:
        """The most characters it takes."""
        ...

    def to_wire(self, value: Any) -> str:
        """Its text; ValueError for a value out of range."""
        ...

    def from_wire(self, text: str) -> Any:
        """Its value; ValueError for any text `to_wire` would not write."""
        ...


_DECIMAL = re.compile(r"0|[1-9][0-9]*")
_MAX_DIGIT = 9  # an index of a set is one digit


@dataclass(frozen=True, slots=True)
class Int:
    """A decimal number from `lo` to `hi`, without sign or leading zeros."""

    lo: int
    hi: int

    @property
    def width(self) -> int:
        return len(str(self.hi))

    def to_wire(self, value: Any) -> str:
        if type(value) is not int or not self.lo <= value <= self.hi:
            raise ValueError(f"{value!r} is not an integer from {self.lo} to {self.hi}")
        return str(value)

    def from_wire(self, text: str) -> int:
        if len(text) > self.width or not _DECIMAL.fullmatch(text):
            raise ValueError(f"not a canonical number: {text!r}")
        value = int(text)
        if not self.lo <= value <= self.hi:
            raise ValueError(f"{value} is out of range")
        return value


@dataclass(frozen=True, slots=True)
class Opt:
    """A field's value, or nothing for None."""

    inner: Field

    @property
    def width(self) -> int:
        return self.inner.width

    def to_wire(self, value: Any) -> str:
        return "" if value is None else self.inner.to_wire(value)

    def from_wire(self, text: str) -> Any:
        return None if text == "" else self.inner.from_wire(text)


@dataclass(frozen=True, slots=True)
class Code(Generic[E]):
    """A member of a small set, by its short code."""

    codes: dict[E, str]

    @property
    def width(self) -> int:
        return max(len(c) for c in self.codes.values())

    def to_wire(self, value: Any) -> str:
        try:
            return self.codes[value]
        except (KeyError, TypeError):
            raise ValueError(f"{value!r} has no code") from None

    def from_wire(self, text: str) -> E:
        for member, code in self.codes.items():
            if code == text:
                return member
        raise ValueError(f"unknown code {text!r}")


@dataclass(frozen=True, slots=True)
class IndexSet:
    """A set of one-digit indexes, its digits in increasing order."""

    min_size: int
    max_size: int

    @property
    def width(self) -> int:
        return self.max_size

    def to_wire(self, value: Any) -> str:
        if not isinstance(value, frozenset) or not self.min_size <= len(value) <= self.max_size:
            raise ValueError(f"{value!r} is not a set of {self.min_size}-{self.max_size} indexes")
        if any(type(i) is not int or not 0 <= i <= _MAX_DIGIT for i in value):
            raise ValueError(f"{value!r} holds an index outside 0-{_MAX_DIGIT}")
        return "".join(str(i) for i in sorted(value))

    def from_wire(self, text: str) -> frozenset[int]:
        if not self.min_size <= len(text) <= self.max_size:
            raise ValueError(f"wrong number of indexes: {text!r}")
        digits = [ord(ch) - 48 for ch in text]
        if any(not 0 <= d <= _MAX_DIGIT for d in digits):
            raise ValueError(f"not hand indexes: {text!r}")
        if any(a >= b for a, b in pairwise(digits)):
            raise ValueError(f"indexes not strictly increasing: {text!r}")
        return frozenset(digits)


@dataclass(frozen=True, slots=True)
class Pattern:
    """A string of at most `width` characters matching `pattern` (a game id)."""

    width: int
    pattern: re.Pattern[str]

    def to_wire(self, value: Any) -> str:
        """The string itself, if it matches."""
        if not isinstance(value, str) or not self.pattern.fullmatch(value):
            raise ValueError(f"{value!r} does not match {self.pattern.pattern}")
        return value

    def from_wire(self, text: str) -> str:
        """The string itself, if it matches."""
        return self.to_wire(text)
