"""A real local Redis Cluster for tests: six `redis-server --cluster-enabled yes` nodes.

Three masters and three replicas on free ports, created with `redis-cli --cluster create
--cluster-replicas 1`, each node in a folder of its own (append-only, every write synced), so a
test can kill a master and watch its replica take over.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

NODES = 6
_READY_SECONDS = 30.0
NODE_TIMEOUT_MS = 1000  # how long a silent master has before its replica is promoted


def _free_ports(count: int) -> list[int]:
    """`count` free ports whose cluster-bus ports (port + 10000) are free too."""
    ports: list[int] = []
    while len(ports) < count:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port: int = sock.getsockname()[1]
        if port + 10000 > 65535 or port in ports:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        ports.append(port)
    return ports


def _cli(port: int, *args: str) -> str:
    out = subprocess.run(
        ["redis-cli", "-p", str(port), *args], capture_output=True, text=True, timeout=30
    )
    return out.stdout


@dataclass
class LocalCluster:
    """Six cluster nodes on this machine (start, kill one, stop)."""

    directory: Path
    persistent: bool = True  # append-only, every write synced (False: in memory only)
    ports: list[int] = field(default_factory=list)
    procs: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """A cluster URL naming one node (the client discovers the others)."""
        return f"redis+cluster://127.0.0.1:{self.ports[0]}/0"

    @property
    def startup_nodes(self) -> str:
        """Every node as host:port, comma-separated."""
        return ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> None:
        """Start six nodes and join them into a cluster; wait until every slot is served."""
        binary = shutil.which("redis-server")
        if binary is None or shutil.which("redis-cli") is None:
            raise RuntimeError("redis-server and redis-cli are needed (scripts/setup.sh)")
        self.ports = _free_ports(NODES)
        for port in self.ports:
            self._start_node(binary, port)
        for port in self.ports:
            self._wait_ping(port)
        addresses = [f"127.0.0.1:{p}" for p in self.ports]
        command = ["redis-cli", "--cluster", "create", *addresses]
        created = subprocess.run(
            [*command, "--cluster-replicas", "1", "--cluster-yes"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if created.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {created.stdout[-2000:]}")
        self.wait_healthy()
        self.wait_replicas_in_sync()

    def _start_node(self, binary: str, port: int) -> None:
        folder = self.directory / str(port)
        folder.mkdir(parents=True, exist_ok=True)
        self.procs[port] = subprocess.Popen(
            [
                binary,
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                "--appendonly", "yes" if self.persistent else "no",
                "--appendfsync", "always",
                "--save", "",
                "--dir", str(folder),
                "--logfile", str(folder / "redis.log"),
                "--daemonize", "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def _wait_ping(self, port: int) -> None:
        deadline = time.monotonic() + _READY_SECONDS
        while time.monotonic() < deadline:
            if _cli(port, "ping").strip() == "PONG":
                return
            time.sleep(0.05)
        raise RuntimeError(f"cluster node {port} did not start; see {self.directory}")

    def wait_healthy(self, timeout: float = _READY_SECONDS) -> None:
        """Wait until a live node reports the cluster ok, with all 16384 slots served."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for port in self.live_ports():
                info = _cli(port, "cluster", "info")
                if "cluster_state:ok" in info and "cluster_slots_ok:16384" in info:
                    return
            time.sleep(0.1)
        raise RuntimeError("the cluster did not become healthy")

    def wait_replicas_in_sync(self, timeout: float = _READY_SECONDS) -> None:
        """Wait until every replica's link to its master is up and no first sync is running.
        While a new cluster's replicas make their first full sync, a master closes new client
        connections in their handshake ("Connection closed by server"), and redis-py 8.1 then
        drops that node's other connections mid-handshake (AttributeError: 'NoneType' object has
        no attribute 'writelines'): 10 to 15 of 40 concurrent first commands failed on a cluster
        just created, none of 40 (three trials) once the replicas were in sync."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            infos = [_cli(port, "info", "replication") for port in self.live_ports()]
            linked = all("master_link_status:up" in i for i in infos if "role:slave" in i)
            if linked and not any("master_sync_in_progress:1" in i for i in infos):
                return
            time.sleep(0.05)
        raise RuntimeError("the cluster's replicas did not get in sync")

    def live_ports(self) -> list[int]:
        """The nodes whose process runs."""
        return [p for p, proc in self.procs.items() if proc.poll() is None]

    def masters(self) -> list[int]:
        """The ports of the live masters, as the cluster sees them now."""
        port = self.live_ports()[0]
        out: list[int] = []
        for line in _cli(port, "cluster", "nodes").splitlines():
            parts = line.split()
            serves = len(parts) > 8  # a master with slots lists them after its eighth field
            if serves and "master" in parts[2] and "fail" not in parts[2]:
                p = int(parts[1].split("@")[0].rsplit(":", 1)[1])
                if p in self.live_ports():
                    out.append(p)
        return sorted(out)

    def kill_master(self, port: int | None = None) -> int:
        """SIGKILL one master (the first by default); its replica takes over. Its port."""
        victim = port if port is not None else self.masters()[0]
        proc = self.procs[victim]
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        return victim

    def wait_failover(self, dead: int, timeout: float = _READY_SECONDS) -> None:
        """Wait until the slots of the killed master are served by its promoted replica."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            live = self.live_ports()
            if live:
                info = _cli(live[0], "cluster", "info")
                masters = self.masters()
                if "cluster_state:ok" in info and dead not in masters and len(masters) == 3:
                    return
            time.sleep(0.1)
        raise RuntimeError("the replica did not take over")

    def stop(self) -> None:
        """Stop every node."""
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
