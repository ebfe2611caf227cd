"""One Redis round trip for several commands: a pipeline (not a transaction) that runs scripts too.

redis-py asks the server whether a pipeline's scripts are loaded (SCRIPT EXISTS, a round trip of
its own) before every pipeline that holds one; a `Trip` loads a script once per client, before
the first trip that holds it, then sends it by hash (EVALSHA), and runs again, alone, a script
the server forgot (after a restart of Redis: it is loaded again then).
On one Redis server the commands run in the order they were added, so a crash between two of
them leaves a prefix, as when they were sent one by one.

A Redis Cluster client refuses scripts in a pipeline and sends each node its share at once (no
order across slots), so on a Cluster a trip's commands are sent one after another, in order:
the same answers, a round trip each.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, RedisError

from .redis_client import RedisClient


@dataclass(frozen=True, slots=True)
class _Command:
    name: str  # a redis-py method
    args: tuple[Any, ...]
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Script:
    script: AsyncScript
    keys: list[Any]
    args: list[Any]


_Op = _Command | _Script
_LOADED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()  # by client


class Trip:
    """Commands added, then sent together by `run`, their answers in the order added."""

    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis
        self._ops: list[_Op] = []

    def add(self, name: str, *args: Any, **options: Any) -> int:
        """Queue a command by its redis-py method name; its index in the answers."""
        self._ops.append(_Command(name, args, options))
        return len(self._ops) - 1

    def script(self, script: AsyncScript, keys: list[Any], args: list[Any]) -> int:
        """Queue a registered script; its index in the answers."""
        self._ops.append(_Script(script, keys, args))
        return len(self._ops) - 1

    def __len__(self) -> int:
        return len(self._ops)

    async def run(self) -> list[Any]:
        """Send everything queued (one round trip on one server); the answers. Raises the first
        error."""
        if not self._ops:
            return []
        if isinstance(self.redis, RedisCluster):
            answers = [await self._caught(op) for op in self._ops]
            return _raised(answers)
        loaded = _LOADED.setdefault(self.redis, set())
        for op in self._ops:
            if isinstance(op, _Script) and op.script.sha not in loaded:
                await self.redis.script_load(op.script.script)
                loaded.add(op.script.sha)
        pipe = self.redis.pipeline(transaction=False)
        for op in self._ops:
            if isinstance(op, _Script):
                pipe.evalsha(op.script.sha, len(op.keys), *op.keys, *op.args)
            else:
                getattr(pipe, op.name)(*op.args, **op.options)
        answers = list(await pipe.execute(raise_on_error=False))
        for index, op in enumerate(self._ops):
            if isinstance(op, _Script) and isinstance(answers[index], NoScriptError):
                answers[index] = await self._caught(op)  # the server forgot it: load, run
        return _raised(answers)

    async def _caught(self, op: _Op) -> Any:
        try:
            return await self._one(op)
        except RedisError as err:  # as a pipeline answers: the others still run
            return err

    async def _one(self, op: _Op) -> Any:
        if isinstance(op, _Script):
            return await op.script(keys=op.keys, args=op.args)
        return await getattr(self.redis, op.name)(*op.args, **op.options)


def _raised(answers: list[Any]) -> list[Any]:
    """The answers, unless one is an error: then the first error is raised."""
    for answer in answers:
        if isinstance(answer, Exception):
            raise answer
    return answers
