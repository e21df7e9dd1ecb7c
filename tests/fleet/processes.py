"""Real processes on loopback for fleet tests: sandbox vendors and railtrip replicas.

Each is a subprocess on a free port, started with a clean environment (no `.env`, no
inherited RAILTRIP_ variables) and waited for with a bounded poll; `kill()` is SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx

from sources.sandbox.__main__ import COUNTERS_PATH
from tests.redis_server import free_port

REPO = Path(__file__).resolve().parents[2]
START_WITHIN_S = 30.0


class Process:
    """One child process serving HTTP on 127.0.0.1:`port`."""

    def __init__(self, name: str, argv: list[str], env: Mapping[str, str], port: int) -> None:
        self.name = name
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self._log = tempfile.NamedTemporaryFile(prefix=f"railtrip-{name}-", suffix=".log")
        self._tail: str | None = None  # the log's end, kept when the file goes at `stop`
        base = {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")}
        self._proc = subprocess.Popen(
            argv,
            env={**base, "PYTHONPATH": str(REPO), **env},
            cwd=tempfile.gettempdir(),  # no .env here
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, path: str) -> None:
        deadline = time.monotonic() + START_WITHIN_S
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited:\n{self.output()}")
            try:
                if httpx.get(self.url + path, timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)  # polling a process we just started, bounded
        self.stop()
        raise RuntimeError(f"{self.name} not ready in {START_WITHIN_S}s:\n{self.output()}")

    def output(self) -> str:
        """The end of the process's log, also once `stop` has deleted the file (a replica
        that failed to start is stopped before its error is reported)."""
        if self._tail is not None:
            return self._tail
        return Path(self._log.name).read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        """SIGKILL: the process dies mid-whatever, holding whatever it held."""
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGKILL)
            self._proc.wait(timeout=10)

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._tail is None:
            self._tail = self.output()
        self._log.close()  # deletes the file


def start_vendor(vendor: str, **knobs: float) -> Process:
    """`python -m sources.sandbox --vendor … --expose-counters` on a free port."""
    port = free_port()
    env = {f"RAILTRIP_SANDBOX_{vendor.upper()}_{k.upper()}": str(v) for k, v in knobs.items()}
    argv = [sys.executable, "-m", "sources.sandbox", "--vendor", vendor, "--port", str(port)]
    proc = Process(f"vendor-{vendor}", [*argv, "--expose-counters"], env, port)
    proc.wait_ready(COUNTERS_PATH)
    return proc


def start_railtrip(env: Mapping[str, str]) -> Process:
    """One railtrip replica (`uvicorn app.main:app`) on a free port."""
    (proc,) = start_replicas(env, 1)
    return proc


def start_replicas(env: Mapping[str, str], count: int) -> list[Process]:
    """`count` railtrip replicas started side by side (their imports overlap), each ready."""
    procs = []
    for _ in range(count):
        port = free_port()
        argv = [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)]
        argv += ["--host", "127.0.0.1", "--log-level", "warning"]
        procs.append(Process("railtrip", argv, env, port))
    try:
        for proc in procs:
            proc.wait_ready("/healthz")
    except RuntimeError:
        for proc in procs:
            proc.stop()
        raise
    return procs


def counters(vendor: Process) -> dict[str, Any]:
    """The vendor's own request counters and arrival times."""
    response = httpx.get(vendor.url + COUNTERS_PATH, timeout=5.0)
    response.raise_for_status()
    return response.json()  # type: ignore[no-any-return]


def data_arrivals(vendor: Process) -> list[float]:
    """When each ticket query reached the vendor (session and station paths left out)."""
    arrivals = counters(vendor)["arrivals"]
    return sorted(
        t
        for path, times in arrivals.items()
        if path.startswith(("/otn/leftTicket/query", "/fapigw/train/query"))
        for t in times
    )
