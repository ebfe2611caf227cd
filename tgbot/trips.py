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

Writes that need no answer before the code goes on can ride with the next trip (`riding`,
`ride`): the turn's new deadlines, saved after a move, go with the delivery's lease that comes
next, instead of a round trip of their own. They are sent first in that trip (in the order they
were made), so a crash leaves the same prefix as before; whatever has found no trip when the
block ends is sent then, alone.
"""

from __future__ import annotations

import contextlib
import contextvars
import weakref
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, RedisError, ResponseError

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


@dataclass(slots=True)
class _Riders:
    """Commands waiting for the next trip, per client (in the order they were made)."""

    ops: list[tuple[Any, _Op]] = field(default_factory=list)

    def take(self, redis: Any) -> list[_Op]:
        """The commands of `redis` waiting, taken out."""
        mine = [op for client, op in self.ops if client is redis]
        if mine:
            self.ops = [(client, op) for client, op in self.ops if client is not redis]
        return mine


_RIDERS: contextvars.ContextVar[_Riders | None] = contextvars.ContextVar("riders", default=None)


@contextlib.asynccontextmanager
async def riding() -> AsyncIterator[None]:
    """Trips `ride`d inside go with the next trip made inside (by this task or one it starts,
    on the same client); those left at the end are sent then, one trip per client. Inside
    another such block it is that block's."""
    if _RIDERS.get() is not None:
        yield
        return
    riders = _Riders()
    token = _RIDERS.set(riders)
    try:
        yield
    finally:
        _RIDERS.reset(token)
        while riders.ops:
            client = riders.ops[0][0]
            left = Trip(client)
            left._ops = riders.take(client)
            await left.run()


def ride(trip: Trip) -> bool:
    """Queue a trip's commands to go with the next trip (True), inside `riding`; False outside
    it (the caller runs the trip itself). Their answers are not given; an error among them is
    raised by the trip that carries them."""
    riders = _RIDERS.get()
    if riders is None:
        return False
    riders.ops.extend((trip.redis, op) for op in trip._ops)
    trip._ops = []
    return True


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
        """Send everything queued (one round trip on one server), after the commands riding
        with it (`ride`); the answers of what was queued. Raises the first error."""
        riders = _RIDERS.get()
        carried = [] if riders is None or not self._ops else riders.take(self.redis)
        if carried:
            self._ops[:0] = carried
            return (await self._run())[len(carried) :]
        return await self._run()

    async def _run(self) -> list[Any]:
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
        pipe = self.redis.pipeline(transaction=False)  # it only builds the commands' words
        for op in self._ops:
            if isinstance(op, _Script):
                pipe.evalsha(op.script.sha, len(op.keys), *op.keys, *op.args)
            else:
                getattr(pipe, op.name)(*op.args, **op.options)
        commands = list(pipe.command_stack)
        pipe.command_stack.clear()
        answers = await _exchange(self.redis, commands)
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


async def _exchange(
    redis: Any, commands: list[tuple[tuple[Any, ...], Mapping[str, Any]]]
) -> list[Any]:
    """A pipeline's commands written at once on one connection of the pool and their answers
    read, each parsed as redis-py parses it (an error answer in its place), as redis-py's
    `Pipeline.execute(raise_on_error=False)` does without its bookkeeping (observability hooks,
    HIMPORT field sets, WATCH state, a pipeline object's reset): the same retry when the
    connection drops (the whole pipeline sent again on a new connection, as there), the same
    errors otherwise."""
    pool = redis.connection_pool
    conn = await pool.get_connection()

    async def once() -> list[Any]:
        await conn.send_packed_command(conn.pack_commands([args for args, _ in commands]))
        answers: list[Any] = []
        for args, options in commands:
            try:
                answers.append(await redis.parse_response(conn, args[0], **options))
            except ResponseError as err:
                answers.append(err)
        return answers

    async def dropped(error: BaseException) -> None:
        await conn.disconnect()

    try:
        answers: list[Any] = await conn.retry.call_with_retry(once, dropped)
        return answers
    finally:
        await pool.release(conn)


def _raised(answers: list[Any]) -> list[Any]:
    """The answers, unless one is an error: then the first error is raised."""
    for answer in answers:
        if isinstance(answer, Exception):
            raise answer
    return answers
