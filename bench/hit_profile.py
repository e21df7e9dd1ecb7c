"""Where an L1 cache hit on `/v1/tickets` spends its time: pyinstrument, in-process.

The app is built by `create_app` with the cache-hit benchmark's settings (as deployed: an API
key required and presented, a per-client quota; `--open` for neither) and called through its
ASGI interface directly (no socket, no HTTP client), so the profile holds only the server
side. First the CPU time per hit is measured without the profiler, in alternating blocks
beside a bare FastAPI app answering the same bytes; then the profile prints each part's share
of the profiled time (parts nest, so shares overlap) and writes the full pyinstrument tree.

    .venv/bin/python bench/hit_profile.py [--serve-from DIR] [--requests 2000] [--open]
        [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import hashlib
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]

# (label, function name, a piece of its file path); indented labels nest in the one above.
# Parts of older checkouts (to profile one with --serve-from) are kept: they show 0.0% here.
PARTS = (
    ("request observer (ObserveRequests), all inside it", "__call__", "observability/requests"),
    ("  JSON request log line (formatted; written off the loop)", "log_fields", "obser"),
    ("  JSON request log line (Logger.info, written in the loop)", "info", "logging/__init__"),
    ("  access gate (key, quota, RateLimit headers), all inside it", "__call__", "http/access"),
    ("    hit path (TicketHits), all inside it", "__call__", "http/ticket_hits"),
    ("      L1 lookup, hit counted (TicketService.peek)", "peek", "app/tickets/service"),
    ("      body made once per entry (hit_body)", "hit_body", "app/usecases/tickets"),
    ("      age spliced into the body (HitBody.render)", "render", "app/tickets/hits"),
    ("FastAPI parameter + dependency solving", "solve_dependencies", "fastapi/dependencies"),
    ("route handler get_tickets", "get_tickets", "app/http/routers/tickets"),
    ("  TicketService.search (L1 lookup + cached copy)", "search", "app/tickets/service"),
    ("Prometheus metrics (labels/inc/observe)", "*", "prometheus_client/"),
)
KEY = "bench-frontend-key-0001"


def call_scope(query_string: bytes, headers: tuple[tuple[bytes, bytes], ...]) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/v1/tickets",
        "raw_path": b"/v1/tickets",
        "query_string": query_string,
        "root_path": "",
        "headers": [(b"host", b"bench"), (b"accept", b"*/*"), *headers],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }


async def call(
    app: Any, query_string: bytes, headers: tuple[tuple[bytes, bytes], ...] = ()
) -> tuple[int, bytes]:
    """One request through the app's ASGI interface."""
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(call_scope(query_string, headers), receive, send)
    return status, b"".join(chunks)


def bare_app(body: bytes) -> Any:
    """The control: FastAPI answering `body` at the same path (as bench/bare_endpoint.py)."""
    from fastapi import FastAPI, Response

    app = FastAPI()

    @app.get("/v1/tickets")
    async def tickets() -> Response:
        return Response(body, media_type="application/json")

    return app


async def cpu_per_hit(
    apps: dict[str, Any], query_string: bytes, headers: tuple[tuple[bytes, bytes], ...]
) -> dict[str, float]:
    """Median CPU time per request of each app, in alternating blocks (µs)."""
    blocks: dict[str, list[float]] = {name: [] for name in apps}
    for n in range(6):
        order = list(apps.items()) if n % 2 == 0 else list(reversed(apps.items()))
        for name, app in order:
            started = time.process_time()
            for _ in range(1000):
                await call(app, query_string, headers)
            blocks[name].append((time.process_time() - started) / 1000 * 1e6)
    return {name: statistics.median(values) for name, values in blocks.items()}


def frames(frame: Any) -> Iterator[Any]:
    yield frame
    for child in frame.children:
        yield from frames(child)


def part_time(root: Any, function: str, path_piece: str) -> float:
    """Inclusive time of the outermost frames matching (function, file), nested ones once."""

    def matches(frame: Any) -> bool:
        path = (frame.file_path or "").replace("\\", "/")
        return path_piece in path and (function == "*" or frame.function == function)

    def walk(frame: Any) -> float:
        if matches(frame):
            return float(frame.time)
        return sum(walk(child) for child in frame.children)

    return walk(root)


async def profile(requests: int, out: Path, *, deployed: bool) -> None:
    from pyinstrument import Profiler

    from app.main import create_app
    from app.settings import Settings

    today = dt.datetime.now(dt.UTC).astimezone(dt.timezone(dt.timedelta(hours=8))).date()
    query_string = urlencode(
        {"origin": "北京", "destination": "上海", "date": str(today + dt.timedelta(days=3))}
    ).encode()
    settings: dict[str, Any] = {"memory_ttl_s": 600, "refresh_after_s": 600}
    headers: tuple[tuple[bytes, bytes], ...] = ()
    if deployed:  # as cache_hit.py's default: a key required and shown, a quota checked
        settings |= {
            "api_keys": [f"frontend:{hashlib.sha256(KEY.encode()).hexdigest()}"],
            "client_rate_per_s": 10000,
            "client_burst": 10000,
        }
        headers = ((b"authorization", f"Bearer {KEY}".encode()),)
    # The request log goes where the load test sends it: nowhere (its formatting still runs).
    real_stderr = sys.stderr
    sys.stderr = open(os.devnull, "w")  # noqa: ASYNC230 - once, before the clock starts
    app = create_app(Settings(**settings))
    async with app.router.lifespan_context(app):
        status, body = await call(app, query_string, headers)
        assert status == 200, body[:300]
        for _ in range(200):
            status, body = await call(app, query_string, headers)
        assert status == 200 and b'"freshness":"cached"' in body, body[:300]
        control = bare_app(body)
        cpu = await cpu_per_hit({"railtrip": app, "bare": control}, query_string, headers)
        profiler = Profiler(interval=0.0005)
        started = time.perf_counter()
        profiler.start()
        for _ in range(requests):
            status, _ = await call(app, query_string, headers)
        profiler.stop()
        elapsed = time.perf_counter() - started
        assert status == 200
    sys.stderr = real_stderr
    out.parent.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 - after the clock stops
    out.write_text(  # noqa: ASYNC240
        profiler.output_text(unicode=True, color=False, show_all=True)
    )
    session = profiler.last_session
    root = session.root_frame()
    total = float(root.time)
    setup = "as deployed (key + quota)" if deployed else "open (no key, no quota)"
    print(
        f"CPU per in-process L1 hit, {setup}, median of 6 alternating blocks of 1000: "
        f"railtrip {cpu['railtrip']:.1f} µs, bare FastAPI endpoint {cpu['bare']:.1f} µs "
        f"(ratio bare/railtrip {cpu['bare'] / cpu['railtrip']:.2f})"
    )
    print(
        f"hit path profile: {requests} in-process L1 hits, {elapsed / requests * 1e6:.0f} µs "
        f"per request under pyinstrument ({len(body)} byte body); full tree: {out}"
    )
    for label, function, piece in PARTS:
        share = part_time(root, function, piece) / total
        print(f"  {share * 100:5.1f}%  {label}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve-from", type=Path, default=ROOT)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument(
        "--out", type=Path, default=Path("/tmp/railtrip-bench/cache_hit_profile.txt")
    )
    parser.add_argument("--open", action="store_true", help="no API keys, no client quotas")
    args = parser.parse_args()
    sys.path.insert(0, str(args.serve_from.resolve()))
    asyncio.run(profile(args.requests, args.out, deployed=not args.open))


if __name__ == "__main__":
    main()
