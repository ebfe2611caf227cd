"""Ending a subprocess a test started: SIGTERM, then SIGKILL if it does not end within 10 s."""

from __future__ import annotations

import subprocess


def stop(proc: subprocess.Popen[bytes]) -> None:
    """End the process (a no-op when it has ended) and reap it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
