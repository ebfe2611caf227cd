"""Start `saboteur-bot sandbox` as a newcomer would, in a subprocess, and stop it with Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

READY = re.compile(r"open (http://127\.0\.0\.1:\d+/) in a browser")
START_SECONDS = 30.0
STOP_SECONDS = 15.0


@dataclass
class Running:
    """A sandbox process, its page's URL and what it printed so far."""

    process: subprocess.Popen[str]
    url: str
    lines: list[str] = field(default_factory=list)
    pump: threading.Thread | None = None

    def output(self) -> str:
        """Everything printed so far (stdout and stderr)."""
        return "".join(self.lines)

    def interrupt(self) -> int:
        """Ctrl-C, then the exit code (killed after a while if it hangs: a failure to report,
        with every thread's stack in the output, dumped by faulthandler on SIGABRT)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.send_signal(signal.SIGABRT)
                try:
                    self.process.wait(timeout=STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
                self._drain()
                return -1
        self._drain()
        return self.process.returncode

    def _drain(self) -> None:
        """Let the reader take in what the ended process printed last."""
        if self.pump is not None:
            self.pump.join(timeout=STOP_SECONDS)


def _pump(process: subprocess.Popen[str], lines: list[str], seen: queue.Queue[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)
        seen.put(line)


@contextlib.contextmanager
def ctrl_c_heard() -> Iterator[None]:
    """A process started here hears Ctrl-C, as one started in a terminal does, even when the
    tests were started where SIGINT is ignored (a shell's background job without job control,
    some CI runners): an ignored SIGINT is inherited, and the sandbox would never stop."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def start_sandbox(*, redis_url: str | None, seed: int | None = None) -> Running:
    """`saboteur-bot sandbox --port 0` (a free port), no token; REDIS_URL only if given; with
    `--seed` if `seed` is given."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("TELEGRAM_BOT_TOKEN", "REDIS_URL", "BOT_LANGUAGE")
    }
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    env["PYTHONFAULTHANDLER"] = "1"  # a hang at Ctrl-C is reported with the stacks (SIGABRT)
    script = Path(sys.executable).with_name("saboteur-bot")
    seeded = [] if seed is None else ["--seed", str(seed)]
    with ctrl_c_heard():
        process = subprocess.Popen(
            [str(script), "sandbox", "--port", "0", *seeded],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
    lines: list[str] = []
    seen: queue.Queue[str] = queue.Queue()
    pump = threading.Thread(target=_pump, args=(process, lines, seen), daemon=True)
    pump.start()
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            line = seen.get(timeout=0.2)
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        match = READY.search(line)
        if match:
            return Running(process, match.group(1), lines, pump)
    process.kill()
    process.wait()
    raise AssertionError(f"the sandbox did not start:\n{''.join(lines)}")
