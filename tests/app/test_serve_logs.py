"""`python -m app serve` (what `make run` runs) logs JSON request lines at INFO on stderr.

A real uvicorn on a free loopback port, in a subprocess with the RAILTRIP_ environment
stripped; the test waits for uvicorn's "running" line on the pipe (no sleeps) and stops the
server itself.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator

import httpx
import pytest

from tests.deploy.conftest import ROOT
from tests.redis_server import free_port

STARTUP_BOUND_S = 60  # a bound for a loaded machine, not an assertion about speed


def hermetic_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")}


@pytest.fixture
def served() -> Iterator[tuple[str, queue.Queue[str]]]:
    """The CLI's `serve` on a free port; yields its base URL and its stderr lines."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", str(port)],
        cwd=ROOT,
        env=hermetic_env(),
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stderr is not None
    stderr = proc.stderr
    reader = threading.Thread(target=lambda: [lines.put(x) for x in stderr], daemon=True)
    reader.start()
    try:
        seen = []
        while not any("Uvicorn running on" in line for line in seen):
            seen.append(lines.get(timeout=STARTUP_BOUND_S))
        for line in seen:
            lines.put(line)
        yield f"http://127.0.0.1:{port}", lines
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        reader.join(timeout=30)


def test_serve_logs_one_json_request_line_at_info_and_only_json(served) -> None:
    base, lines = served
    with httpx.Client(base_url=base, timeout=30) as client:
        assert client.get("/healthz", headers={"X-Request-ID": "serve-check"}).status_code == 200
    records = []
    while True:
        records.append(json.loads(lines.get(timeout=STARTUP_BOUND_S)))  # every line is JSON
        if records[-1].get("request_id") == "serve-check":
            break
    request = records[-1]
    assert request["level"] == "info" and request["logger"] == "railtrip.http"
    assert request["msg"] == "request" and request["endpoint"] == "/healthz"
    assert request["status"] == 200


def test_make_run_takes_the_port_from_make() -> None:
    dry = subprocess.run(
        ["make", "-n", "run", "PORT=8123"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "-m app serve --host 127.0.0.1 --port 8123" in dry.stdout
