"""Seeded faults of the Bot API: Telegram's and the network's bad moments, reproducible.

A `Faults` plan says which share of the bot's calls go wrong, how, and which methods it touches.
A `FaultInjector` (one per `BotApiEmulator`) draws the faults call by call from the plan's seed,
keeps the 429 storms and the faults forced by a test, and writes every injected fault to a
`FaultLog`. The server carries the faults out (answers, hangs, dropped connections); this module
does no I/O.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from emulator.botapi import METHOD_NAMES
from emulator.clock import Clock
from emulator.errors import ApiError
from emulator.params import Params

JsonDict = dict[str, Any]

ERROR_500 = "error_500"  # 500 Internal Server Error, the call not carried out
ERROR_502 = "error_502"  # 502 Bad Gateway from the front proxy (an HTML page), not carried out
RESET = "reset"  # the connection dropped with no answer, the call not carried out
TIMEOUT_BEFORE = "timeout_before"  # held open past the client's timeout, not carried out
TIMEOUT_AFTER = "timeout_after"  # carried out, then held open past the client's timeout
RESET_AFTER = "reset_after"  # carried out, then the connection dropped with no answer
SLOW = "slow"  # carried out and answered, late (below the client's timeout)
STORM_429 = "storm_429"  # 429 for this call and every send to its chat for a while
# Not injected: a call carried out and answered, whose client went away before reading the
# answer (its own timeout fired first, as on a loaded machine). Noted only under a plan.
CLIENT_GONE = "client_gone"

KINDS: tuple[str, ...] = (
    ERROR_500,
    ERROR_502,
    RESET,
    TIMEOUT_BEFORE,
    TIMEOUT_AFTER,
    RESET_AFTER,
    SLOW,
    STORM_429,
)
# After these the call has been carried out; after the last two the bot never got the answer.
CARRIED_OUT_KINDS = frozenset({TIMEOUT_AFTER, RESET_AFTER, SLOW})
LOST_ANSWER_KINDS = frozenset({TIMEOUT_AFTER, RESET_AFTER})

# Setup and polling calls: a plan leaves them alone unless it names them in `methods`.
UNAFFECTED_METHODS = frozenset(
    {
        "getMe",
        "setWebhook",
        "deleteWebhook",
        "getWebhookInfo",
        "setMyCommands",
        "getMyCommands",
        "deleteMyCommands",
        "getUpdates",
    }
)
DEFAULT_STORM_METHODS = frozenset({"sendMessage", "sendPhoto"})
_CANONICAL = {name.lower(): name for name in METHOD_NAMES}


def canonical_method(name: str) -> str:
    """The Bot API's spelling of a method name (names are case-insensitive), else `name`."""
    return _CANONICAL.get(name.lower(), name)


def _method_set(names: Iterable[str], what: str) -> frozenset[str]:
    if isinstance(names, str):
        raise TypeError(f"{what} must be a collection of method names, not a string")
    unknown = sorted(name for name in names if name.lower() not in _CANONICAL)
    if unknown:
        raise ValueError(f"{what}: unknown Bot API methods {unknown}")
    return frozenset(canonical_method(name) for name in names)


@dataclass(frozen=True)
class Faults:
    """A fault plan. `Faults()` injects nothing and leaves the emulator exactly as without it.

    `share` of the calls to `methods` (None: every method but `UNAFFECTED_METHODS`) get a fault,
    its kind drawn by the `kinds` weights, all from `seed`: the same seed and the same sequence
    of calls give the same faults. `latency_ms` (± a uniform `jitter_ms`) delays every Bot API
    answer, faulty or not, each call on its own; `upload_kbps` (0: unlimited) delays each call
    by the time its request takes to go up at that many kilobits a second.
    """

    seed: int = 0
    share: float = 0.0
    kinds: Mapping[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 1.0))
    methods: AbstractSet[str] | None = None
    # how long timeout_before/timeout_after hold the request before dropping it
    hang_seconds: float = 30.0
    # how late a slow call is answered
    slow_seconds: float = 1.0
    # how long a 429 storm lasts on the emulator's clock, and which calls to its chat it refuses
    storm_seconds: float = 10.0
    storm_methods: AbstractSet[str] = DEFAULT_STORM_METHODS
    latency_ms: float = 0.0
    jitter_ms: float = 0.0
    upload_kbps: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.share <= 1.0:
            raise ValueError("share must be between 0 and 1")
        unknown = sorted(set(self.kinds) - set(KINDS))
        if unknown:
            raise ValueError(f"unknown fault kinds {unknown}; the kinds are {list(KINDS)}")
        if any(weight < 0 for weight in self.kinds.values()):
            raise ValueError("kind weights must not be negative")
        if self.share > 0 and not any(weight > 0 for weight in self.kinds.values()):
            raise ValueError("a share of faults needs at least one kind with a positive weight")
        for name in (
            "hang_seconds",
            "slow_seconds",
            "storm_seconds",
            "latency_ms",
            "jitter_ms",
            "upload_kbps",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")
        weights = {kind: float(self.kinds[kind]) for kind in KINDS if kind in self.kinds}
        object.__setattr__(self, "kinds", MappingProxyType(weights))
        if self.methods is not None:
            object.__setattr__(self, "methods", _method_set(self.methods, "methods"))
        object.__setattr__(self, "storm_methods", _method_set(self.storm_methods, "storm_methods"))

    def __hash__(self) -> int:
        # `kinds` is a read-only mapping, which hashes by its items.
        return hash((*(v for k, v in vars(self).items() if k != "kinds"), *self.kinds.items()))

    @property
    def affected_methods(self) -> frozenset[str]:
        """The methods whose calls may get a fault, as the Bot API spells them."""
        if self.methods is not None:
            return frozenset(self.methods)
        return frozenset(METHOD_NAMES) - UNAFFECTED_METHODS

    @property
    def active(self) -> bool:
        """Whether the plan does anything at all."""
        return self.share > 0 or self.latency_ms > 0 or self.jitter_ms > 0 or self.upload_kbps > 0

    def to_json(self) -> JsonDict:
        """The plan as the control endpoint shows and takes it."""
        return {
            "seed": self.seed,
            "share": self.share,
            "kinds": dict(self.kinds),
            "methods": None if self.methods is None else sorted(self.methods),
            "hang_seconds": self.hang_seconds,
            "slow_seconds": self.slow_seconds,
            "storm_seconds": self.storm_seconds,
            "storm_methods": sorted(self.storm_methods),
            "latency_ms": self.latency_ms,
            "jitter_ms": self.jitter_ms,
            "upload_kbps": self.upload_kbps,
        }

    @classmethod
    def from_json(cls, body: Mapping[str, object]) -> Faults:
        """A plan from JSON fields; the ones left out take their defaults. Raises ValueError."""
        known = set(Faults().to_json())
        unknown = sorted(set(body) - known)
        if unknown:
            raise ValueError(f"unknown fault settings {unknown}")
        values: dict[str, Any] = {}
        for name, value in body.items():
            if name == "seed":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError("seed must be an integer")
                values[name] = value
            elif name == "kinds":
                values[name] = _weights(value)
            elif name in ("methods", "storm_methods"):
                if value is None and name == "methods":
                    values[name] = None
                elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                    values[name] = frozenset(value)
                else:
                    raise ValueError(f"{name} must be a list of method names")
            else:
                values[name] = _number(value, name)
        return cls(**values)


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number")
    return float(value)


def _weights(value: object) -> dict[str, float]:
    if not isinstance(value, dict):
        raise ValueError('kinds must be an object like {"timeout_after": 1}')
    return {str(kind): _number(weight, f"the weight of {kind}") for kind, weight in value.items()}


@dataclass
class InjectedFault:
    """One fault the emulator injected, and what became of the call."""

    kind: str
    method: str
    chat_id: int | str | None
    # the number of the call in the plans' draws (`FaultLog.calls`); None for a forced fault
    # on a method the plan leaves alone
    call: int | None
    forced: bool = False
    # the call took effect (kinds timeout_after, reset_after, slow) ...
    carried_out: bool = False
    # ... on this message: the one sent or edited, or the message_id the call named
    message_id: int | None = None
    # the Bot API error the carried-out call met instead (then carried_out is False)
    error: str | None = None
    # for storm_429: the retry_after answered
    retry_after: int | None = None

    def to_json(self) -> JsonDict:
        """The entry for the control endpoint."""
        return {
            "kind": self.kind,
            "method": self.method,
            "chat_id": self.chat_id,
            "call": self.call,
            "forced": self.forced,
            "carried_out": self.carried_out,
            "message_id": self.message_id,
            "error": self.error,
            "retry_after": self.retry_after,
        }

    def carried(self, result: object, params: Params) -> None:
        """Record that the call succeeded with `result`."""
        self.carried_out = True
        if isinstance(result, dict) and isinstance(result.get("message_id"), int):
            self.message_id = result["message_id"]
        else:
            self.message_id = _int_or_none(params.raw("message_id"))

    def refused(self, error: ApiError) -> None:
        """Record that the call was run but Telegram refused it."""
        self.error = error.description
        self.message_id = None


@dataclass(frozen=True)
class Storm:
    """A 429 storm on one chat, from `started` until `ends` on the emulator's clock."""

    chat_id: int | str
    started: float
    ends: float


class FaultLog:
    """Every fault injected, with counters by kind and by method, for tests to read."""

    def __init__(self) -> None:
        self.entries: list[InjectedFault] = []
        self.storms: list[Storm] = []
        # how many calls the plans drew a fault for (calls of affected methods, share > 0)
        self.calls = 0
        # the latency applied to each call, in seconds
        self.delays: list[float] = []
        self.uploads: list[float] = []  # seconds each request took to go up (upload_kbps)
        # calls carried out whose client closed the connection before reading the answer
        # (kind CLIENT_GONE); not faults the plan injected, so not in `entries`
        self.gone: list[InjectedFault] = []

    @property
    def by_kind(self) -> Counter[str]:
        """How many faults of each kind were injected."""
        return Counter(entry.kind for entry in self.entries)

    @property
    def by_method(self) -> Counter[str]:
        """How many faults each method got."""
        return Counter(entry.method for entry in self.entries)

    def count(self, kind: str | None = None, method: str | None = None) -> int:
        """How many faults of `kind` (any if None) hit `method` (any if None)."""
        name = None if method is None else canonical_method(method)
        return sum(
            1
            for entry in self.entries
            if (kind is None or entry.kind == kind) and (name is None or entry.method == name)
        )

    def carried_out(self, kind: str | None = None) -> list[InjectedFault]:
        """The faulty calls that still took effect (of `kind`, or of any kind)."""
        return [e for e in self.entries if e.carried_out and (kind is None or e.kind == kind)]

    def lost_answers(self) -> list[InjectedFault]:
        """The calls that took effect but whose answer the client never got: injected ones,
        then those whose client went away by itself (`gone`)."""
        lost = [e for e in self.entries if e.carried_out and e.kind in LOST_ANSWER_KINDS]
        return lost + self.gone

    def clear(self) -> None:
        """Forget everything logged so far."""
        self.entries.clear()
        self.gone.clear()
        self.storms.clear()
        self.calls = 0
        self.delays.clear()
        self.uploads.clear()

    def to_json(self) -> JsonDict:
        """The log for the control endpoint."""
        return {
            "calls": self.calls,
            "by_kind": dict(self.by_kind),
            "by_method": dict(self.by_method),
            "entries": [entry.to_json() for entry in self.entries],
            "storms": [
                {"chat_id": s.chat_id, "started": s.started, "ends": s.ends} for s in self.storms
            ],
            "delayed_calls": len(self.delays),
            "gone": [entry.to_json() for entry in self.gone],
        }


@dataclass
class ForcedFault:
    """A fault a test asked for: the next `times` calls matching `method` and `chat_id`.

    No `method` means any method the plan could fault (by default not getMe, getUpdates...)."""

    kind: str
    method: str | None = None
    chat_id: int | str | None = None
    times: int = 1

    def matches(self, method: str, chat_id: int | str | None, affected: AbstractSet[str]) -> bool:
        """Whether a call of `method` to `chat_id` takes this fault."""
        if self.method is None:
            if method not in affected:
                return False
        elif self.method != method:
            return False
        return self.chat_id is None or self.chat_id == chat_id

    def to_json(self) -> JsonDict:
        """The forced fault for the control endpoint."""
        return {
            "kind": self.kind,
            "method": self.method,
            "chat_id": self.chat_id,
            "times": self.times,
        }


class FaultInjector:
    """Decides, call by call, which fault (if any) the emulator injects."""

    def __init__(self, plan: Faults, clock: Clock) -> None:
        self._clock = clock
        self.log = FaultLog()
        self.forced: list[ForcedFault] = []
        self.plan = plan

    @property
    def plan(self) -> Faults:
        """The plan in force. Setting one restarts its draws from its seed and ends storms."""
        return self._plan

    @plan.setter
    def plan(self, plan: Faults) -> None:
        self._plan = plan
        self._draws = random.Random(plan.seed)
        self._jitter = random.Random(f"latency:{plan.seed}")
        self._storms: dict[int | str, float] = {}

    def engaged(self) -> bool:
        """Whether any call could be touched now; if not, the server takes its plain path."""
        return self._plan.active or bool(self.forced) or bool(self._storms)

    def force(
        self,
        kind: str,
        *,
        method: str | None = None,
        chat_id: int | str | None = None,
        times: int = 1,
    ) -> ForcedFault:
        """Give the next `times` calls of `method` to `chat_id` the fault `kind`.

        No `chat_id`: any chat. No `method`: any of the plan's `affected_methods`; a method named
        is faulted even if the plan leaves it alone. Forced faults come before storms and the
        plan's draws, whatever its share.
        """
        if kind not in KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; the kinds are {list(KINDS)}")
        if times < 1:
            raise ValueError("times must be at least 1")
        name = None if method is None else next(iter(_method_set([method], "method")))
        forced = ForcedFault(kind, name, chat_id, times)
        self.forced.append(forced)
        return forced

    def decide(self, method: str, params: Params) -> InjectedFault | None:
        """The fault for this call (already logged), or None to answer it normally."""
        plan = self._plan
        name = canonical_method(method)
        chat_id = _chat_of(params)
        drawn: str | None = None
        call: int | None = None
        if plan.share > 0 and name in plan.affected_methods:
            # Two draws for every affected call, whatever follows: the faults depend only on
            # the seed and the sequence of calls, not on storms or forced faults in between.
            self.log.calls += 1
            call = self.log.calls
            hit, pick = self._draws.random(), self._draws.random()
            if hit < plan.share:
                drawn = _pick(plan.kinds, pick)
        forced = self._take_forced(name, chat_id)
        storm_retry = self._storm_retry_after(name, chat_id)
        if forced is not None:
            kind = forced
        elif storm_retry is not None:
            entry = InjectedFault(STORM_429, name, chat_id, call, retry_after=storm_retry)
            self.log.entries.append(entry)
            return entry
        elif drawn is not None:
            kind = drawn
        else:
            return None
        entry = InjectedFault(kind, name, chat_id, call, forced=forced is not None)
        if kind == STORM_429:
            entry.retry_after = self._start_storm(chat_id)
        self.log.entries.append(entry)
        return entry

    def unfaulted(self, method: str, params: Params) -> InjectedFault:
        """A note for a call answered normally (kind CLIENT_GONE), kept in the log's `gone`
        only if its client goes away before reading the answer."""
        return InjectedFault(CLIENT_GONE, canonical_method(method), _chat_of(params), None)

    def latency_seconds(self) -> float:
        """How long to delay this call's answer (drawn apart from the faults)."""
        plan = self._plan
        if plan.latency_ms <= 0 and plan.jitter_ms <= 0:
            return 0.0
        jitter = self._jitter.uniform(-plan.jitter_ms, plan.jitter_ms) if plan.jitter_ms else 0.0
        seconds = max(0.0, plan.latency_ms + jitter) / 1000
        self.log.delays.append(seconds)
        return seconds

    def upload_seconds(self, size: int) -> float:
        """How long a request of `size` bytes takes to go up (0 with no bandwidth set)."""
        kbps = self._plan.upload_kbps
        if kbps <= 0:
            return 0.0
        seconds = size * 8 / (kbps * 1000)
        self.log.uploads.append(seconds)
        return seconds

    def _take_forced(self, method: str, chat_id: int | str | None) -> str | None:
        affected = self._plan.affected_methods
        for forced in self.forced:
            if forced.matches(method, chat_id, affected):
                forced.times -= 1
                if forced.times <= 0:
                    self.forced.remove(forced)
                return forced.kind
        return None

    def _storm_retry_after(self, method: str, chat_id: int | str | None) -> int | None:
        if chat_id is None or method not in self._plan.storm_methods:
            return None
        ends = self._storms.get(chat_id)
        if ends is None:
            return None
        now = self._clock()
        if now >= ends:
            del self._storms[chat_id]
            return None
        return _retry_after(ends - now)

    def _start_storm(self, chat_id: int | str | None) -> int:
        seconds = self._plan.storm_seconds
        if chat_id is not None and seconds > 0:
            now = self._clock()
            ends = max(now + seconds, self._storms.get(chat_id, 0.0))
            self._storms[chat_id] = ends
            self.log.storms.append(Storm(chat_id, now, ends))
        return _retry_after(seconds)


def _pick(weights: Mapping[str, float], draw: float) -> str:
    """The kind that a uniform draw in [0, 1) falls on, by cumulative weight."""
    live = [(kind, weight) for kind, weight in weights.items() if weight > 0]
    target = draw * sum(weight for _, weight in live)
    reached = 0.0
    for kind, weight in live:
        reached += weight
        if target < reached:
            return kind
    return live[-1][0]


def _retry_after(seconds: float) -> int:
    return max(1, math.ceil(seconds))


def _int_or_none(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _chat_of(params: Params) -> int | str | None:
    """The chat a call names (an id, or an @username), without Telegram's checks."""
    value = params.raw("chat_id")
    if value is None:
        return None
    number = _int_or_none(value)
    if number is not None:
        return number
    text = str(value).strip()
    return text if text.startswith("@") else None
