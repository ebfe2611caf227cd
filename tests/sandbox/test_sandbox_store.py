"""The sandbox with REDIS_URL: games live in that Redis, under keys of the run, gone at Ctrl-C."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

from redis import Redis

from .running import start_sandbox

ANNOUNCED = re.compile(r"Store: Redis at \S+ \(keys under (sandbox-[0-9a-f]+):\*")


def call(url: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or POST a JSON body to) a sandbox or emulator endpoint; its result."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        payload = json.loads(response.read())
    assert payload["ok"], payload
    return payload["result"]


def test_with_redis_url_the_games_are_kept_in_that_redis_until_ctrl_c(redis_url: str) -> None:
    """/new as a seat stores a game in Redis under the run's prefix; Ctrl-C deletes those keys."""
    running = start_sandbox(redis_url=redis_url)
    redis = Redis.from_url(redis_url)
    try:
        announced = ANNOUNCED.search(running.output())
        assert announced, running.output()
        prefix = announced.group(1)
        seat = call(running.url + "_sandbox/seats", {"name": "민준", "language": "ko"})
        group = call(running.url + "_sandbox/view")["group"]["id"]
        call(f"{running.url}_emu/chats/{group}/messages", {"user_id": seat["id"], "text": "/new"})
        deadline = time.monotonic() + 10
        lobby = None
        while lobby is None and time.monotonic() < deadline:
            messages = call(running.url + "_sandbox/view")["group"]["messages"]
            lobby = next((m for m in messages if m["from"]["is_bot"] and "reply_markup" in m), None)
            time.sleep(0.1)
        assert lobby is not None, "the bot posted a lobby"
        assert redis.exists(f"{prefix}:chat:{group}:-"), "the lobby is stored in Redis"
    finally:
        code = running.interrupt()
    try:
        assert code == 0, running.output()
        assert "Stopping the sandbox" in running.output()
        assert list(redis.scan_iter(match=f"{prefix}:*")) == []
    finally:
        redis.close()
