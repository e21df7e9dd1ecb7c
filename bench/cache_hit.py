"""Cache hits: `/v1/tickets` answered from L1 against a bare endpoint with the same body.

Two uvicorn servers run as subprocesses on loopback, one at a time under load, alternating
rounds (and connection counts) so that the shared machine's noise falls on both:
  railtrip  `uvicorn app.main:app` on the embedded default, with RAILTRIP_MEMORY_TTL_S=600
            and RAILTRIP_REFRESH_AFTER_S=600 so that every request of the run is an L1 hit
            (no expiry, no background refresh); as deployed, by default: API keys required
            (the load presents one) and a per-client quota checked on every request (a rate
            the load never reaches, so every answer is a hit with its RateLimit headers),
            metrics and the JSON request log on (the log goes to /dev/null). `--open`: the
            embedded default without keys or quotas; `--redis`: a throwaway redis-server as
            well, so the quota is the fleet-wide one (a GCRA script on Redis per request)
  bare      `bench/bare_endpoint.py`: FastAPI answering the bytes railtrip answered
Both run with `--no-access-log` (railtrip writes its own request log) and uvicorn's default
loop and HTTP parser. The load generator is `wrk` (1 thread, N connections) when installed,
else a bounded async httpx generator in this process; both send the same headers to both
servers. After the load, railtrip's /metrics must show only memory hits and no source
request, or the run is refused. Beside throughput and p99, each server's CPU time per request
(from /proc, the whole process) is printed: it moves far less with the machine's load.

Then the hit path is profiled in-process with pyinstrument (ASGI calls without a socket) and
the share of each part is printed; the full tree is written to
/tmp/railtrip-bench/cache_hit_profile.txt.

Run from the repository root: `.venv/bin/python bench/cache_hit.py [--duration 4]
[--connections 16,32] [--rounds 6] [--generator auto|wrk|python] [--serve-from DIR]
[--open | --redis] [--versus bare|tracing]`. `--serve-from` serves railtrip from another
checkout (to measure a change side by side: an older commit's `git archive`); `--versus
tracing` compares hits with tracing configured and not.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
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
BENCH_KEY = "bench-frontend-key-0001"
# As deployed (deploy/env/production.env.example): keys required, a per-client quota. The rate
# is the setting's maximum, above what one loopback client reaches here: every request is
# checked (and answered with RateLimit headers), none refused.
DEPLOYED_ENV = {
    "RAILTRIP_API_KEYS": f"frontend:{hashlib.sha256(BENCH_KEY.encode()).hexdigest()}",
    "RAILTRIP_CLIENT_RATE_PER_S": "10000",
    "RAILTRIP_CLIENT_BURST": "10000",
}
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
    cpu_us: float = float("nan")  # the server process's CPU time per request


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

    def cpu_s(self) -> float:
        """User + system CPU time of the server process so far (/proc, Linux)."""
        try:
            stat = Path(f"/proc/{self._proc.pid}/stat").read_text()
        except OSError:
            return float("nan")
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


# -- load generators ------------------------------------------------------------------------


def wrk_load(url: str, duration_s: float, connections: int, headers: dict[str, str]) -> Load:
    """`wrk -t1 -cN -d…s --latency [-H …] url`, parsed."""
    given = [arg for name, value in headers.items() for arg in ("-H", f"{name}: {value}")]
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{duration_s:g}s", "--latency", *given, url],
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


def python_load(url: str, duration_s: float, connections: int, headers: dict[str, str]) -> Load:
    """N async workers, each one request at a time on its own keep-alive slot, for a while."""

    async def run() -> Load:
        latencies: list[float] = []
        errors = 0
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        async with httpx.AsyncClient(limits=limits, timeout=10.0, headers=headers) as client:
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
    generator = wrk_load if use_wrk else python_load
    OUT.mkdir(exist_ok=True)
    body_file = OUT / "cache_hit_body.json"
    env = dict(BENCH_ENV)
    headers: dict[str, str] = {}
    if not args.open:
        env |= DEPLOYED_ENV
        headers["Authorization"] = f"Bearer {BENCH_KEY}"
    redis = None
    if args.redis:
        from tests.redis_server import RedisServer  # the suite's throwaway redis-server

        redis = RedisServer()
        redis.start()
        env["RAILTRIP_REDIS_URL"] = redis.url

    def load(server: Server, duration_s: float, connections: int) -> Load:
        cpu = server.cpu_s()
        result = generator(server.base + path, duration_s, connections, headers)
        result.cpu_us = (server.cpu_s() - cpu) / max(1, result.requests) * 1e6
        return result

    railtrip = Server("app.main:app", args.serve_from, env)
    bare: Server | None = None
    try:
        railtrip.wait_ready("/healthz")
        first = httpx.get(railtrip.base + path, headers=headers, timeout=30.0)
        hit = httpx.get(railtrip.base + path, headers=headers, timeout=30.0)
        assert first.status_code == hit.status_code == 200, (first.status_code, first.text[:300])
        assert hit.json()["freshness"] == "cached", "the second request must be an L1 hit"
        body_file.write_bytes(hit.content)
        if args.versus == "tracing":
            bare = Server("app.main:app", args.serve_from, env | TRACING_ENV)
            bare.wait_ready("/healthz")
            assert httpx.get(bare.base + path, headers=headers, timeout=30.0).status_code == 200
            assert httpx.get(bare.base + path, headers=headers).json()["freshness"] == "cached"
        else:
            bare = Server("bare_endpoint:app", ROOT / "bench", {"BENCH_BODY_FILE": str(body_file)})
            bare.wait_ready("/v1/tickets")
            assert httpx.get(bare.base + path).content == hit.content

        before = httpx.get(railtrip.base + "/metrics", headers=headers).text
        # Short warm-up of both under load (first-request imports, connection setup).
        for server in (railtrip, bare):
            load(server, 1, max(args.connections))
        runs: dict[tuple[str, int], list[Load]] = {}
        for n in range(args.rounds):
            for connections in args.connections:
                # Alternate which server goes first, so neither always follows the other.
                order = (railtrip, bare) if n % 2 == 0 else (bare, railtrip)
                for server in order:
                    label = "railtrip" if server is railtrip else "bare"
                    runs.setdefault((label, connections), []).append(
                        load(server, args.duration, connections)
                    )
        after = httpx.get(railtrip.base + "/metrics", headers=headers).text
    finally:
        railtrip.stop()
        if bare is not None:
            bare.stop()
        if redis is not None:
            redis.stop()

    hits = metric_sum(after, "railtrip_cache_requests_total", tier="memory", result="hit")
    misses = metric_sum(after, "railtrip_cache_requests_total", tier="memory", result="miss")
    upstream = metric_sum(after, "railtrip_source_requests_total") - metric_sum(
        before, "railtrip_source_requests_total"
    )
    served = sum(r.requests for (label, _), rs in runs.items() if label == "railtrip" for r in rs)
    assert misses == 1 and upstream == 0, f"not all hits: misses={misses} upstream={upstream}"
    assert all(r.errors == 0 for rs in runs.values() for r in rs), runs

    def agg(label: str, connections: int, field: str) -> float:
        return statistics.median(getattr(r, field) for r in runs[(label, connections)])

    setup = "open (no keys, no quotas)" if args.open else "as deployed: key + quota per request"
    print(
        f"generator: {'wrk -t1' if use_wrk else 'python httpx'} -c{args.connections}, "
        f"{args.rounds} x {args.duration:g} s per server and connection count, alternating; "
        f"body {len(hit.content)} bytes"
    )
    print(
        f"railtrip served from {args.serve_from}; {setup}"
        + ("; quotas on Redis" if args.redis else "")
    )
    print(
        f"railtrip L1 hits {hits:.0f}, L1 misses {misses:.0f} (the warm-up), upstream calls "
        f"during the load 0; requests under load {served}"
    )
    for (label, connections), rs in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        for i, r in enumerate(rs):
            print(
                f"  -c{connections:<3} {label:<8} round {i + 1}: {r.rps:8.0f} req/s  "
                f"p50 {r.p50_ms:6.2f} ms  p99 {r.p99_ms:6.2f} ms  CPU {r.cpu_us:5.0f} µs/req"
            )
    other = "tracing on" if args.versus == "tracing" else "bare endpoint"
    for connections in args.connections:
        rps_ratio = agg("railtrip", connections, "rps") / agg("bare", connections, "rps")
        p99_ratio = agg("railtrip", connections, "p99_ms") / agg("bare", connections, "p99_ms")
        cpu_ratio = agg("bare", connections, "cpu_us") / agg("railtrip", connections, "cpu_us")
        print()
        print(f"== cache hit (L1) vs {other}, {connections} connections (medians) ==")
        print(f"throughput, railtrip L1 hit: {agg('railtrip', connections, 'rps'):.0f} req/s")
        print(f"throughput, {other:<15}: {agg('bare', connections, 'rps'):.0f} req/s")
        print(
            f"p99, railtrip / {other}: {agg('railtrip', connections, 'p99_ms'):.2f} ms / "
            f"{agg('bare', connections, 'p99_ms'):.2f} ms"
        )
        print(
            f"CPU per request, railtrip / {other}: {agg('railtrip', connections, 'cpu_us'):.0f}"
            f" / {agg('bare', connections, 'cpu_us'):.0f} µs"
        )
        target = "" if args.versus == "tracing" else "  (target >= 0.8)"
        print(f"throughput ratio railtrip/{other}: {rps_ratio:.2f}{target}")
        target = "" if args.versus == "tracing" else "  (target <= 1.5)"
        print(f"p99 latency ratio railtrip/{other}: {p99_ratio:.2f}{target}")
        print(f"CPU-per-request ratio {other}/railtrip: {cpu_ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=4.0)
    parser.add_argument(
        "--connections",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[16, 32],
        help="comma-separated connection counts, each measured in every round",
    )
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--generator", choices=("auto", "wrk", "python"), default="auto")
    parser.add_argument("--serve-from", type=Path, default=ROOT)
    setup = parser.add_mutually_exclusive_group()
    setup.add_argument("--open", action="store_true", help="no API keys, no client quotas")
    setup.add_argument("--redis", action="store_true", help="quotas on a throwaway Redis")
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
            + ["--out", str(OUT / "cache_hit_profile.txt")]
            + (["--open"] if args.open else []),
            cwd=args.serve_from,
            check=True,
        )
        print()
    measure(args)


if __name__ == "__main__":
    main()
