"""Run several Redis users one command at a time, in an order the test chooses.

Each actor gets its own view of a Redis client (`Stepper.client`): every command it sends, and
every script it runs, first waits for its turn. An order is a string of actor names, one letter
per command ("AABA": A sends two commands, then B one, then A one); a command runs alone, and the
actor's next one (or its end) marks it done, so what an actor does between two commands happens
before the next actor's command too. Entries of an actor that has finished are skipped; once the
order is used up, the actors go on one command at a time, in the order they wait.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar, cast

from tgbot.redis_client import RedisClient

T = TypeVar("T")


class Stepper:
    """The turns of several actors over one order of commands."""

    def __init__(self, order: str) -> None:
        self.order = order
        self.trace = ""  # who sent each command, as it happened
        self._pos = 0
        self._busy: str | None = None
        self._finished: set[str] = set()
        self._turns = asyncio.Condition()

    def client(self, actor: str, redis: RedisClient) -> RedisClient:
        """The client `actor` uses: `redis`, each command waiting for `actor`'s turn."""
        return cast(RedisClient, _Gated(self, actor, redis))

    async def run(self, actor: str, work: Awaitable[T]) -> T:
        """Await `work` as `actor`; its end lets the others go on."""
        try:
            return await work
        finally:
            async with self._turns:
                self._finished.add(actor)
                if self._busy == actor:
                    self._busy = None
                self._turns.notify_all()

    async def turn(self, actor: str) -> None:
        """Wait until `actor` may send its next command (its previous one is done)."""
        async with self._turns:
            if self._busy == actor:
                self._busy = None
                self._turns.notify_all()
            await self._turns.wait_for(lambda: self._may_go(actor))
            self._busy = actor
            self._pos += 1
            self.trace += actor
            self._turns.notify_all()

    def _may_go(self, actor: str) -> bool:
        if self._busy is not None:
            return False
        while self._pos < len(self.order) and self.order[self._pos] in self._finished:
            self._pos += 1
        return self._pos >= len(self.order) or self.order[self._pos] == actor


class _Gated:
    """A Redis client whose commands wait for their actor's turn."""

    def __init__(self, stepper: Stepper, actor: str, redis: RedisClient) -> None:
        self._stepper = stepper
        self._actor = actor
        self._redis = redis

    def __getattr__(self, name: str) -> Any:
        command = getattr(self._redis, name)

        async def gated(*args: Any, **kwargs: Any) -> Any:
            await self._stepper.turn(self._actor)
            return await command(*args, **kwargs)

        return gated

    def register_script(self, source: str) -> Callable[..., Awaitable[Any]]:
        """The script, each run waiting for the actor's turn."""
        script = self._redis.register_script(source)

        async def gated(keys: list[Any], args: list[Any] | None = None) -> Any:
            await self._stepper.turn(self._actor)
            return await script(keys=keys, args=args)

        return gated


def orders(length: int, switches: int) -> Iterator[str]:
    """Every order of `length` commands of actors A and B that changes actor at most `switches`
    times (the interleavings bounded-preemption testing covers), either one first."""
    for first, second in ("AB", "BA"):
        for count in range(switches + 1):
            for cuts in itertools.combinations(range(1, length), count):
                order = []
                who, other = first, second
                for pos in range(length):
                    if pos in cuts:
                        who, other = other, who
                    order.append(who)
                yield "".join(order)
