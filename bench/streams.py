"""Open plan streams against a served replica: do health probes and ordinary requests still
answer, and are streams beyond the cap refused fast?

`python -m app serve` (the bounded server: `RAILTRIP_MAX_CONNECTIONS`, default 100) runs in a
subprocess on loopback, on the embedded default with both sandbox vendors hanging
(`_HANG_RATE=1`), so every plan stream stays open until the plan's own deadline (5-10 s).
The bench opens `--streams` (100) `POST /v1/plan/stream` requests at once, each on its own
connection, and while the admitted ones are open sends `--probes` (20) `GET /healthz` and as
many `GET /v1/stations?q=北京` (an ordinary request that needs no source), each on a fresh
connection, as a load balancer's checker and a new client would. The same probes are sent
before the streams, side by side in the same run, for the ratio.

`--route mcp` opens `GET /mcp` event streams instead (what an MCP client asks for to hear
server-initiated messages), which never end by themselves.

Printed: streams answered 200 (open) and refused (503 `overloaded` with `Retry-After`), with
the time to the refusal; the probes answered, and their p50 / max latency against the
baseline. It needs only `python -m app serve`, so it runs unchanged on a checkout from before
the stream cap (`PYTHONPATH=. .venv/bin/python bench/streams.py` there).

Run from the repository root: `.venv/bin/python bench/streams.py [--streams 100] [--route mcp]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
PROBE_TIMEOUT_S = 5.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")} | {
        "PYTHONPATH": str(ROOT),
        "RAILTRIP_SANDBOX_12306_HANG_RATE": "1",
        "RAILTRIP_SANDBOX_JUHE_HANG_RATE": "1",
        "RAILTRIP_LOG_LEVEL": "ERROR",
    }
    argv = [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def wait_ready(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)  # polling a process we started, bounded
    raise RuntimeError("the server never became ready")


async def probe(client: httpx.AsyncClient, path: str) -> tuple[int | None, float]:
    """One request on a fresh connection: (status or None when refused/dropped, seconds)."""
    started = time.perf_counter()
    try:
        status: int | None = (await client.get(path)).status_code
    except httpx.HTTPError:
        status = None
    return status, time.perf_counter() - started


async def probes(url: str, count: int) -> dict[str, list[tuple[int | None, float]]]:
    seen: dict[str, list[tuple[int | None, float]]] = {"healthz": [], "ordinary": []}
    # No keep-alive: each probe opens its own connection, as a new client or a checker does.
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=PROBE_TIMEOUT_S) as client:
        for _ in range(count):
            seen["healthz"].append(await probe(client, "/healthz"))
            seen["ordinary"].append(await probe(client, "/v1/stations?q=北京"))
    return seen


class Streams:
    def __init__(self, url: str, count: int, route: str) -> None:
        self.url = url
        self.count = count
        self.route = route
        self.statuses: list[tuple[int | None, float, bool]] = []  # status, s to it, well-formed
        self.admitted = asyncio.Event()
        self.ended: list[float] = []  # when each open stream ended (perf_counter)
        self.lasted: list[float] = []  # how long each open stream stayed open

    async def one(self, client: httpx.AsyncClient) -> None:
        started = time.perf_counter()
        try:
            method, url, options = self.request()
            async with client.stream(method, url, **options) as response:
                took = time.perf_counter() - started
                formed = True
                if response.status_code == 503:
                    body = (await response.aread()).decode()
                    formed = '"overloaded"' in body and "retry-after" in response.headers
                self.statuses.append((response.status_code, took, formed))
                self._maybe_all_in()
                if response.status_code == 200:
                    async for _ in response.aiter_bytes():
                        pass  # keep reading until the stream ends
                    self.ended.append(time.perf_counter())
                    self.lasted.append(self.ended[-1] - started)
        except httpx.HTTPError:
            self.statuses.append((None, time.perf_counter() - started, False))
            self._maybe_all_in()

    def request(self) -> tuple[str, str, dict]:
        if self.route == "mcp":  # an MCP client's stream for server-initiated messages
            return "GET", self.url + "/mcp", {"headers": {"accept": "text/event-stream"}}
        return "POST", self.url + "/v1/plan/stream", {"json": {"text": "明天从北京去上海"}}

    def _maybe_all_in(self) -> None:
        if len(self.statuses) == self.count:
            self.admitted.set()

    async def run(self) -> None:
        limits = httpx.Limits(max_connections=self.count, max_keepalive_connections=0)
        timeout = httpx.Timeout(30.0, connect=PROBE_TIMEOUT_S)
        async with httpx.AsyncClient(limits=limits, timeout=timeout) as client:
            await asyncio.gather(*(self.one(client) for _ in range(self.count)))


def summary(samples: list[tuple[int | None, float]]) -> tuple[int, float, float]:
    ok = [s for status, s in samples if status == 200]
    if not ok:
        return 0, float("nan"), float("nan")
    return len(ok), statistics.median(ok) * 1000, max(ok) * 1000


async def main(args: argparse.Namespace) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = serve(port)
    try:
        await asyncio.to_thread(wait_ready, url, process)
        await probes(url, 3)  # warm both paths
        before = await probes(url, args.probes)
        streams = Streams(url, args.streams, args.route)
        running = asyncio.create_task(streams.run())
        # Every stream has its answer (200 open, or refused) or 10 s passed.
        admitted = asyncio.create_task(streams.admitted.wait())
        await asyncio.wait({admitted, running}, timeout=10, return_when="FIRST_COMPLETED")
        admitted.cancel()
        opened = sum(1 for status, _, _ in streams.statuses if status == 200)
        during = await probes(url, args.probes)
        probed = time.perf_counter()
        # Plan streams end with their plan (5-10 s); an idle stream (GET /mcp) never does.
        await asyncio.wait({running}, timeout=15)
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        # Open when the last probe answered: those that had not ended by then.
        still_open = opened - sum(1 for ended in streams.ended if ended <= probed)
    finally:
        process.terminate()
        process.wait(timeout=20)

    refused = [(s, formed) for status, s, formed in streams.statuses if status == 503]
    failed = [status for status, _, _ in streams.statuses if status not in (200, 503)]
    others = sorted({str(status) for status in failed})  # None: dropped or no answer
    print(
        f"{args.route} streams asked: {args.streams}; open (200): {opened};"
        f" refused 503: {len(refused)} (well-formed: {sum(f for _, f in refused)});"
        f" other: {len(failed)} {others}"
    )
    if refused:
        times = sorted(s * 1000 for s, _ in refused)
        print(
            f"  time to the refusal: p50 {statistics.median(times):.0f} ms, max {times[-1]:.0f} ms"
        )
    if opened:
        lasted = sorted(streams.lasted)
        span = f"{lasted[0]:.1f}-{lasted[-1]:.1f} s" if lasted else "past the bench's 15 s"
        print(f"  still open when the last probe answered: {still_open}/{opened} (open {span})")
    for kind in ("healthz", "ordinary"):
        n0, p50_0, max0 = summary(before[kind])
        n1, p50_1, max1 = summary(during[kind])
        print(
            f"{kind}: answered {n0}/{args.probes} before, {n1}/{args.probes} with the streams"
            f" open; p50 {p50_0:.1f} → {p50_1:.1f} ms (ratio {p50_1 / p50_0:.2f}),"
            f" max {max0:.1f} → {max1:.1f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--probes", type=int, default=20)
    parser.add_argument(
        "--route",
        choices=("plan", "mcp"),
        default="plan",
        help="plan: POST /v1/plan/stream; mcp: GET /mcp (an MCP client's SSE stream)",
    )
    asyncio.run(main(parser.parse_args()))
