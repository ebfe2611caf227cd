"""A real `haproxy` (Debian's) balancing HTTP POSTs round-robin over local webhook ports.

Used by the fleet test and by `bench/load.py`: health-checked backends (a dead one is taken out
within a fifth of a second), a request to a dead backend redispatched to another.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from tests.e2e.harness import free_port
from tests.processes import stop


@contextlib.contextmanager
def haproxy(directory: Path, backends: list[int]) -> Iterator[int]:
    """haproxy balancing round-robin over the backends' ports on 127.0.0.1, until the block
    ends; the port it listens on."""
    binary = shutil.which("haproxy")
    if binary is None:
        raise RuntimeError("haproxy is not installed (scripts/setup.sh --test installs it)")
    port = free_port()
    servers = "\n".join(
        f"    server bot{i} 127.0.0.1:{p} check inter 200ms fall 1 rise 2"
        for i, p in enumerate(backends)
    )
    config = directory / "haproxy.cfg"
    config.write_text(
        f"""global
    maxconn 256
defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch
frontend webhook
    bind 127.0.0.1:{port}
    default_backend bots
backend bots
    balance roundrobin
{servers}
"""
    )
    proc = subprocess.Popen(
        [binary, "-db", "-f", str(config)],
        stdout=(directory / "haproxy.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(100):  # listening
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
                break
            time.sleep(0.05)
        yield port
    finally:
        stop(proc)
