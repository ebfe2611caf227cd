"""The bot's Redis connections pack commands with hiredis, byte for byte as redis-py does."""

from __future__ import annotations

import enum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from redis.asyncio.connection import Connection
from redis.exceptions import DataError

from tgbot.redis_pool import LeanConnection

_plain = Connection()
_lean = LeanConnection()

arguments = st.one_of(
    st.text(),
    st.binary(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
)
names = st.sampled_from(
    ["SET", "GET", "ZADD", "EVALSHA", "HSET", b"PEXPIRE", "CONFIG GET", b"CLIENT SETNAME"]
)


def _packed(conn: Any, *args: Any) -> bytes:
    return b"".join(conn.pack_command(*args))


@given(names, st.lists(arguments, max_size=8))
def test_same_bytes_as_redis_py(name: str | bytes, args: list[Any]) -> None:
    assert _packed(_lean, name, *args) == _packed(_plain, name, *args)


@given(st.lists(st.tuples(names, st.lists(arguments, max_size=4)), min_size=1, max_size=6))
def test_a_pipeline_the_same_bytes(commands: list[tuple[str | bytes, list[Any]]]) -> None:
    packed = [(name, *args) for name, args in commands]
    assert b"".join(_lean.pack_commands(packed)) == b"".join(_plain.pack_commands(packed))


def test_a_big_value_packed_whole() -> None:
    value = b"x" * 100_000  # redis-py cuts such a command in pieces; the bytes are the same
    assert _packed(_lean, "SET", "k", value) == _packed(_plain, "SET", "k", value)
    assert len(_lean.pack_command("SET", "k", value)) == 1


def test_a_name_of_two_words_is_two_arguments() -> None:
    assert _packed(_lean, "CONFIG GET", "maxmemory").startswith(b"*3\r\n$6\r\nCONFIG\r\n$3\r\nGET")


class _Colour(enum.IntEnum):
    RED = 1


class _Word(enum.StrEnum):
    A = "a"


@pytest.mark.parametrize("value", [_Colour.RED, _Word.A, memoryview(b"ab"), bytearray(b"cd")])
def test_what_hiredis_refuses_is_packed_by_redis_py(value: Any) -> None:
    assert _packed(_lean, "SET", "k", value) == _packed(_plain, "SET", "k", value)


@pytest.mark.parametrize("value", [True, None, object(), [1]])
def test_what_redis_py_refuses_is_refused(value: Any) -> None:
    with pytest.raises(DataError):
        _lean.pack_command("SET", "k", value)


def test_a_lone_surrogate_is_refused_as_before() -> None:
    with pytest.raises(UnicodeEncodeError):
        _plain.pack_command("SET", "k", "\ud800")
    with pytest.raises(UnicodeEncodeError):
        _lean.pack_command("SET", "k", "\ud800")


def test_another_encoding_goes_to_redis_py() -> None:
    latin = LeanConnection(encoding="latin-1")
    plain = Connection(encoding="latin-1")
    assert (
        _packed(latin, "SET", "k", "é")
        == _packed(plain, "SET", "k", "é")
        == (b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\n\xe9\r\n")
    )
