"""A tap's answer carried in the webhook's own HTTP answer, instead of a Bot API call of its own.

Telegram carries out one request named in a webhook's 2xx answer ("making requests when getting
updates" in the Bot API): its result is never known. For `answerCallbackQuery` nothing is lost by
that (its only errors, a query too old or unknown, change nothing the bot would do), and it saves
a whole call: a round trip to Telegram (100 to 300 ms from a host far from its servers), the
bot's CPU to make it, and the wait before a menu step's edit, which no longer queues behind the
answer's own call.

While the webhook handles an update, `carrying(query_id)` opens a slot for that update's tap:
`offer` puts the tap's answer in it (once, and only for that very query), and the webhook sends
what `Slot.close` gives back as its answer's body. After the update's handling the slot is
closed, so a task started meanwhile (which inherits the context) that answers later makes a call
of its own. An answer whose update is still being handled a second after it was made (an edit
that Telegram answers slowly) is taken back and sent as a call (`Slot.late`). Where there is no
slot (long polling, the sweeper, tests driving the use cases) every answer is a call.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar

ANSWER = "answerCallbackQuery"


class Slot:
    """Room for one answer to one tap, open while its update is handled.

    With `late` given, an answer still waiting `wait` seconds after it was made (the handling
    that follows it is slow: an edit that Telegram answers late) is taken back out and handed to
    `late` to be sent as a call, so a slow edit never holds the tap's answer long."""

    __slots__ = ("closed", "late", "parameters", "query_id", "timer", "wait")

    def __init__(
        self,
        query_id: str,
        *,
        wait: float = 1.0,
        late: Callable[[dict[str, object]], None] | None = None,
    ) -> None:
        self.query_id = query_id
        self.parameters: dict[str, object] | None = None
        self.closed = False
        self.wait = wait
        self.late = late
        self.timer: asyncio.TimerHandle | None = None

    def take(self, query_id: str, parameters: Mapping[str, object]) -> bool:
        """Keep this answer for the webhook's reply: False if it is not this update's tap's,
        the slot is taken already, or the update's handling ended."""
        if self.closed or self.parameters is not None or query_id != self.query_id:
            return False
        self.parameters = {k: v for k, v in parameters.items() if v is not None}
        if self.late is not None:
            self.timer = asyncio.get_running_loop().call_later(self.wait, self._overdue)
        return True

    def close(self) -> dict[str, object] | None:
        """End the slot; the request for the webhook's answer (with its `method`), if any."""
        self.closed = True
        if self.timer is not None:
            self.timer.cancel()
        if self.parameters is None:
            return None
        return {"method": ANSWER, **self.parameters}

    def _overdue(self) -> None:
        """The handling is still going on `wait` seconds after the answer: it goes as a call."""
        if self.closed or self.late is None:
            return
        answer = self.close()
        self.parameters = None  # the webhook's answer carries nothing now
        if answer is not None:
            self.late(answer)


_slot: ContextVar[Slot | None] = ContextVar("webhook_reply_slot", default=None)


@contextlib.contextmanager
def carrying(
    query_id: str,
    *,
    wait: float = 1.0,
    late: Callable[[dict[str, object]], None] | None = None,
) -> Iterator[Slot]:
    """Open a slot for this tap's answer while the block runs (it is closed after)."""
    slot = Slot(query_id, wait=wait, late=late)
    token = _slot.set(slot)
    try:
        yield slot
    finally:
        _slot.reset(token)
        slot.close()  # (what it holds is still given by a later `close`)


def offer(query_id: str, parameters: Mapping[str, object]) -> bool:
    """Put a tap's answer in the webhook's reply if a slot for that tap is open."""
    slot = _slot.get()
    return slot is not None and slot.take(query_id, parameters)
