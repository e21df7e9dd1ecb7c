"""Cache hits: `/v1/tickets` answered from L1 against a bare endpoint with the same body.

Two uvicorn servers run as subprocesses on loopback, one at a time under load, alternating
rounds so that the shared machine's noise falls on both:
  railtrip  `uvicorn app.main:app` on the embedded default, with RAILTRIP_MEMORY_TTL_S=600
            and RAILTRIP_REFRESH_AFTER_S=600 so that every request of the run is an L1 hit
            (no expiry, no background refresh); its JSON request log goes to /dev/null
  bare      `bench/bare_endpoint.py`: FastAPI answering the bytes railtrip answered
Both run with `--no-access-log` (railtrip writes its own request log) and uvicorn's default
loop and HTTP parser. The load generator is `wrk` (1 thread, N connections) when installed,
else a bounded async httpx generator in this process. After the load, railtrip's /metrics
must show only memory hits and no source request, or the run is refused.

Then the hit path is profiled in-process with pyinstrument (ASGI calls without a socket) and
the share of each part is printed; the full tree is written to
/tmp/railtrip-bench/cache_hit_profile.txt.

Run from the repository root: `.venv/bin/python bench/cache_hit.py [--duration 8]
[--connections 16] [--rounds 2] [--generator auto|wrk|python] [--serve-from DIR]
[--versus bare|tracing]`. `--serve-from` serves railtrip from another checkout (to measure a
proposed change); `--versus tracing` compares hits with tracing configured and not.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import httpx
from harness import ROOT, percentile, travel_day

OUT = Path(tempfile.gettempdir()) / "railtrip-bench"
BENCH_ENV = {"RAILTRIP_MEMORY_TTL_S": "600", "RAILTRIP_REFRESH_AFTER_S": "600"}
# `--versus tracing`: the same app with tracing configured (a loopback OTLP endpoint nobody
# listens on: a cache hit must open no span, so nothing is ever exported).
TRACING_ENV = BENCH_ENV | {"RAILTRIP_OTEL_ENDPOINT": "http://127.0.0.1:9/v1/traces"}


@dataclass
class Load:
    """What one load run measured."""

    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """One uvicorn subprocess on a free loopback port."""

    def __init__(self, target: str, app_dir: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", target, "--app-dir", str(app_dir)]
            + ["--host", "127.0.0.1", "--port", str(self.port)]
            + ["--no-access-log", "--log-level", "warning"],
            cwd=app_dir,
            env=os.environ | env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def wait_ready(self, path: str, timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"server exited with {self._proc.returncode}")
            try:
                if httpx.get(self.base + path, timeout=1.0).status_code < 500:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError(f"server on {self.base} not ready in {timeout_s}s")

    def stop(self) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


# -- load generators ------------------------------------------------------------------------


def wrk_load(url: str, duration_s: float, connections: int) -> Load:
    """`wrk -t1 -cN -d…s --latency url`, parsed."""
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{duration_s:g}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]
    requests = int(re.search(r"(\d+) requests in", out)[1])  # type: ignore[index]
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    socket_errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out
    )
    errors = int(bad[1]) if bad else 0
    if socket_errors:
        errors += sum(int(n) for n in socket_errors.groups())
    return Load(rps, _wrk_ms(out, "50%"), _wrk_ms(out, "99%"), requests, errors)


def _wrk_ms(out: str, label: str) -> float:
    match = re.search(rf"^\s+{re.escape(label)}\s+([\d.]+)(us|ms|s)\s*$", out, re.MULTILINE)
    if match is None:
        return float("nan")
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[match[2]]
    return float(match[1]) * scale


def python_load(url: str, duration_s: float, connections: int) -> Load:
    """N async workers, each one request at a time on its own keep-alive slot, for a while."""

    async def run() -> Load:
        latencies: list[float] = []
        errors = 0
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        async with httpx.AsyncClient(limits=limits, timeout=10.0) as client:
            deadline = time.perf_counter() + duration_s

            async def worker() -> None:
                nonlocal errors
                while time.perf_counter() < deadline:
                    started = time.perf_counter()
                    try:
                        response = await client.get(url)
                        ok = response.status_code == 200
                    except httpx.HTTPError:
                        ok = False
                    latencies.append((time.perf_counter() - started) * 1000)
                    errors += not ok

            started = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(connections)))
            elapsed = time.perf_counter() - started
        return Load(
            len(latencies) / elapsed,
            percentile(latencies, 0.5),
            percentile(latencies, 0.99),
            len(latencies),
            errors,
        )

    return asyncio.run(run())


# -- the run --------------------------------------------------------------------------------


def metric_sum(text: str, name: str, **labels: str) -> float:
    """Sum of the samples of `name` whose labels include `labels`."""
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        if all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


def measure(args: argparse.Namespace) -> None:
    path = "/v1/tickets?" + urlencode(
        {"origin": "北京", "destination": "上海", "date": travel_day().isoformat()}
    )
    use_wrk = args.generator == "wrk" or (args.generator == "auto" and shutil.which("wrk"))
    load = wrk_load if use_wrk else python_load
    OUT.mkdir(exist_ok=True)
    body_file = OUT / "cache_hit_body.json"

    railtrip = Server("app.main:app", args.serve_from, BENCH_ENV)
    bare: Server | None = None
    try:
        railtrip.wait_ready("/healthz")
        first = httpx.get(railtrip.base + path, timeout=30.0)
        hit = httpx.get(railtrip.base + path, timeout=30.0)
        assert first.status_code == hit.status_code == 200, (first.status_code, first.text[:300])
        assert hit.json()["freshness"] == "cached", "the second request must be an L1 hit"
        body_file.write_bytes(hit.content)
        if args.versus == "tracing":
            bare = Server("app.main:app", args.serve_from, TRACING_ENV)
            bare.wait_ready("/healthz")
            assert httpx.get(bare.base + path, timeout=30.0).status_code == 200  # the miss
            assert httpx.get(bare.base + path).json()["freshness"] == "cached"
        else:
            env = {"BENCH_BODY_FILE": str(body_file)}
            bare = Server("bare_endpoint:app", ROOT / "bench", env)
            bare.wait_ready("/v1/tickets")
            assert httpx.get(bare.base + path).content == hit.content

        before = httpx.get(railtrip.base + "/metrics").text
        # Short warm-up of both under load (first-request imports, connection setup).
        load(railtrip.base + path, 1, args.connections)
        load(bare.base + path, 1, args.connections)
        runs: dict[str, list[Load]] = {"railtrip": [], "bare": []}
        for _ in range(args.rounds):
            runs["railtrip"].append(load(railtrip.base + path, args.duration, args.connections))
            runs["bare"].append(load(bare.base + path, args.duration, args.connections))
        after = httpx.get(railtrip.base + "/metrics").text
    finally:
        railtrip.stop()
        if bare is not None:
            bare.stop()

    hits = metric_sum(after, "railtrip_cache_requests_total", tier="memory", result="hit")
    misses = metric_sum(after, "railtrip_cache_requests_total", tier="memory", result="miss")
    upstream = metric_sum(after, "railtrip_source_requests_total") - metric_sum(
        before, "railtrip_source_requests_total"
    )
    served = sum(r.requests for r in runs["railtrip"])
    assert misses == 1 and upstream == 0, f"not all hits: misses={misses} upstream={upstream}"
    assert all(r.errors == 0 for rs in runs.values() for r in rs), runs

    def agg(label: str, field: str) -> float:
        return statistics.median(getattr(r, field) for r in runs[label])

    print(
        f"generator: {'wrk -t1' if use_wrk else 'python httpx'} -c{args.connections}, "
        f"{args.rounds} x {args.duration:g} s per server, alternating; "
        f"body {len(hit.content)} bytes"
    )
    print(f"railtrip served from {args.serve_from}; env {BENCH_ENV}")
    print(
        f"railtrip L1 hits {hits:.0f}, L1 misses {misses:.0f} (the warm-up), upstream calls "
        f"during the load 0; requests under load {served}"
    )
    for label, rs in runs.items():
        for i, r in enumerate(rs):
            print(
                f"  {label:<8} round {i + 1}: {r.rps:8.0f} req/s  p50 {r.p50_ms:6.2f} ms  "
                f"p99 {r.p99_ms:6.2f} ms"
            )
    rps_ratio = agg("railtrip", "rps") / agg("bare", "rps")
    p99_ratio = agg("railtrip", "p99_ms") / agg("bare", "p99_ms")
    if args.versus == "tracing":
        print()
        print("== cache hit (L1): tracing configured vs not ('bare' above = traced) ==")
        print(f"throughput, tracing off: {agg('railtrip', 'rps'):.0f} req/s")
        print(f"throughput, tracing on : {agg('bare', 'rps'):.0f} req/s")
        print(f"throughput ratio on/off: {1 / rps_ratio:.2f}  (expected ~1.00, within noise)")
        print(f"p99 latency ratio on/off: {1 / p99_ratio:.2f}")
        return
    print()
    print("== cache hit (L1) vs bare endpoint ==")
    print(f"throughput, railtrip L1 hit: {agg('railtrip', 'rps'):.0f} req/s")
    print(f"throughput, bare endpoint  : {agg('bare', 'rps'):.0f} req/s")
    print(
        f"p99, railtrip / bare       : {agg('railtrip', 'p99_ms'):.2f} ms / "
        f"{agg('bare', 'p99_ms'):.2f} ms"
    )
    print(f"throughput ratio railtrip/bare: {rps_ratio:.2f}  (target >= 0.6)")
    print(f"p99 latency ratio railtrip/bare: {p99_ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=8.0)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--generator", choices=("auto", "wrk", "python"), default="auto")
    parser.add_argument("--serve-from", type=Path, default=ROOT)
    parser.add_argument(
        "--versus",
        choices=("bare", "tracing"),
        default="bare",
        help="compare with the bare endpoint, or with the same app with tracing configured",
    )
    parser.add_argument("--profile-requests", type=int, default=2000)
    parser.add_argument("--no-profile", action="store_true")
    args = parser.parse_args()
    args.serve_from = args.serve_from.resolve()
    if not args.no_profile:
        # A subprocess, so the profiled app is imported from --serve-from, not from here.
        subprocess.run(
            [sys.executable, str(ROOT / "bench" / "hit_profile.py")]
            + ["--serve-from", str(args.serve_from), "--requests", str(args.profile_requests)]
            + ["--out", str(OUT / "cache_hit_profile.txt")],
            cwd=args.serve_from,
            check=True,
        )
        print()
    measure(args)


if __name__ == "__main__":
    main()
