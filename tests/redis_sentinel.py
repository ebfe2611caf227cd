"""A real local Redis Sentinel set-up for tests: a master, its replica and three sentinels.

Each `redis-server` (the sentinels run as `redis-server <conf> --sentinel`) on a free port, in a
folder of its own; the sentinels agree (quorum 2) that a master silent for a second is down and
promote its replica, so a test can kill the master and watch the failover.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from .processes import stop
from .redis_cluster import _cli, _free_ports

SERVICE = "saboteur"
SENTINELS = 3
DOWN_AFTER_MS = 1000  # how long a silent master has before the sentinels call it down
_READY_SECONDS = 30.0


@dataclass
class LocalSentinel:
    """A master, a replica and three sentinels on this machine."""

    directory: Path
    master: int = 0
    replica: int = 0
    sentinels: list[int] = field(default_factory=list)
    procs: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The bot's REDIS_URL: every sentinel, the service, database 0."""
        hosts = ",".join(f"127.0.0.1:{p}" for p in self.sentinels)
        return f"redis+sentinel://{hosts}/{SERVICE}/0"

    def start(self) -> None:
        """Start the master, the replica (in sync) and the sentinels (each seeing the replica and
        the two other sentinels)."""
        binary = shutil.which("redis-server")
        if binary is None or shutil.which("redis-cli") is None:
            raise RuntimeError("redis-server and redis-cli are needed (scripts/setup.sh)")
        self.master, self.replica, *self.sentinels = _free_ports(2 + SENTINELS)
        self._server(binary, self.master)
        self._server(binary, self.replica, "--replicaof", "127.0.0.1", str(self.master))
        self._until(lambda: "master_link_status:up" in _cli(self.replica, "info", "replication"))
        for port in self.sentinels:
            folder = self._folder(port)
            conf = folder / "sentinel.conf"
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {folder}\n"
                f"sentinel monitor {SERVICE} 127.0.0.1 {self.master} 2\n"
                f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
                f"sentinel failover-timeout {SERVICE} 10000\n"
            )
            self._start(port, [binary, str(conf), "--sentinel", "--logfile", str(folder / "log")])
        for port in self.sentinels:
            self._until(lambda p=port: self._sees_everyone(p))

    def _folder(self, port: int) -> Path:
        folder = self.directory / str(port)
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def _server(self, binary: str, port: int, *extra: str) -> None:
        folder = self._folder(port)
        self._start(
            port,
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir",
             str(folder), "--logfile", str(folder / "log"), *extra],
        )  # fmt: skip
        self._until(lambda: _cli(port, "ping").strip() == "PONG")

    def _start(self, port: int, command: list[str]) -> None:
        self.procs[port] = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def _sees_everyone(self, port: int) -> bool:
        words = _cli(port, "sentinel", "master", SERVICE).split()
        info = dict(zip(words[::2], words[1::2], strict=False))
        return info.get("num-slaves") == "1" and info.get("num-other-sentinels") == "2"

    def _until(self, check: object, timeout: float = _READY_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():  # type: ignore[operator]
                return
            time.sleep(0.05)
        raise RuntimeError(f"the Sentinel set-up did not get ready; see {self.directory}")

    def replicated(self) -> int:
        """Wait until the replica has every write the master took (WAIT); how many replicas
        acknowledged them."""
        return int(_cli(self.master, "wait", "1", "5000").strip() or 0)

    def kill_master(self) -> int:
        """SIGKILL the master (no goodbye of any kind); its port."""
        victim = self.master
        proc = self.procs[victim]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        return victim

    def wait_failover(self, dead: int, timeout: float = 30.0) -> int:
        """Wait until every sentinel names the replica as the master, and it acts as one; the
        new master's port."""

        def promoted() -> bool:
            named = {self._named(p) for p in self.sentinels}
            role = "role:master" in _cli(self.replica, "info", "replication")
            return named == {self.replica} and role

        self._until(promoted, timeout)
        assert dead != self.replica
        self.master, self.replica = self.replica, dead
        return self.master

    def _named(self, sentinel: int) -> int:
        out = _cli(sentinel, "sentinel", "get-master-addr-by-name", SERVICE).split()
        return int(out[1]) if len(out) == 2 else 0

    def stop(self) -> None:
        """End every process (sentinels first, so none promotes anything on the way)."""
        for port in [*self.sentinels, *(p for p in self.procs if p not in self.sentinels)]:
            proc = self.procs.get(port)
            if proc is not None:
                stop(proc)
