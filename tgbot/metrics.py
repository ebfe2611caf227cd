"""Prometheus metrics of one bot process, served as GET /metrics on the webhook port.

Each process counts its own work (Prometheus scrapes every process and adds them up); the
outbox backlog is read from Redis at each scrape, so every process reports the same figure.
Nothing here is labelled by chat, user or game: no hidden information, and few series.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

REGISTRY = CollectorRegistry()
CONTENT_TYPE = CONTENT_TYPE_LATEST

MOVES = Counter(
    "saboteur_moves",
    "Moves saved: players', computers' and timed-out turns'.",
    registry=REGISTRY,
)
TAP_SECONDS = Histogram(
    "saboteur_tap_seconds",
    "Time from a button tap's arrival to the end of its handling (the move saved, drawn and "
    "announced).",
    buckets=(0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
DELIVERIES = Counter(
    "saboteur_deliveries",
    "Bot API calls by outcome (done, retry, unknown, gone, blocked, moved, refused).",
    ["fate"],
    registry=REGISTRY,
)
WEBHOOK_REPLIES = Counter(
    "saboteur_webhook_replies",
    "Taps answered in the webhook's own HTTP answer (no Bot API call of their own).",
    registry=REGISTRY,
)
FLOOD_WAITS = Counter(
    "saboteur_telegram_429",
    "Telegram's 429 answers (Too Many Requests).",
    registry=REGISTRY,
)
BUDGET_WAITS = Counter(
    "saboteur_budget_waits",
    "Sends held back because a budget was spent (group: 20 a minute; bot: 30 a second).",
    ["budget"],
    registry=REGISTRY,
)
BACKLOG = Gauge(
    "saboteur_outbox_backlog",
    "Games that owe Telegram something (the outbox, over every shard), read at each scrape.",
    registry=REGISTRY,
)


@contextmanager
def timed_tap() -> Iterator[None]:
    """Observe the handling time of one tap."""
    start = time.perf_counter()
    try:
        yield
    finally:
        TAP_SECONDS.observe(time.perf_counter() - start)


def scrape(backlog: int | None) -> bytes:
    """The text exposition of every metric; `backlog` None when Redis did not answer."""
    if backlog is not None:
        BACKLOG.set(backlog)
    return generate_latest(REGISTRY)
