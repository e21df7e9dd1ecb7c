"""Where an L1 cache hit on `/v1/tickets` spends its time: pyinstrument, in-process.

The app is built by `create_app` with the cache-hit benchmark's settings and called through
its ASGI interface directly (no socket, no HTTP client), so the profile holds only the server
side. Prints each part's share of the profiled time (parts nest, so shares overlap) and writes
the full pyinstrument tree.

    .venv/bin/python bench/hit_profile.py [--serve-from DIR] [--requests 2000] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]

# (label, function name, a piece of its file path); indented labels nest in the one above.
PARTS = (
    ("BaseHTTPMiddleware, minus the app (it runs in a child task)", "__call__", "middleware/base"),
    ("  its call_next plumbing (anyio task group, memory streams)", "call_next", "middleware/base"),
    ("JSON request log (Logger.info)", "info", "logging/__init__"),
    ("FastAPI parameter + dependency solving", "solve_dependencies", "fastapi/dependencies"),
    ("  sync dependency run in the threadpool", "run_in_threadpool", "starlette/"),
    ("  query-parameter validation", "request_params_to_args", "fastapi/dependencies"),
    ("route handler get_tickets", "get_tickets", "app/http/routers/tickets"),
    ("  TicketResult.model_dump_json (serialise ~20 kB)", "model_dump_json", "pydantic/"),
    ("  TicketService.search (L1 lookup + cached copy)", "search", "app/tickets/service"),
    ("  resolve_query (stations, date)", "resolve_query", "app/usecases/queries"),
    ("Prometheus metrics (labels/inc/observe)", "*", "prometheus_client/"),
    ("Response send through the middleware stack", "__call__", "starlette/responses"),
)


def call_scope(query_string: bytes) -> dict[str, Any]:
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
        "headers": [(b"host", b"bench"), (b"accept", b"*/*")],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }


async def call(app: Any, query_string: bytes) -> tuple[int, bytes]:
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

    await app(call_scope(query_string), receive, send)
    return status, b"".join(chunks)


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


async def profile(requests: int, out: Path) -> None:
    from pyinstrument import Profiler

    from app.main import create_app
    from app.settings import Settings

    today = dt.datetime.now(dt.UTC).astimezone(dt.timezone(dt.timedelta(hours=8))).date()
    query_string = urlencode(
        {"origin": "北京", "destination": "上海", "date": str(today + dt.timedelta(days=3))}
    ).encode()
    # The request log goes where the load test sends it: nowhere (its formatting still runs).
    real_stderr = sys.stderr
    sys.stderr = open(os.devnull, "w")  # noqa: ASYNC230 - once, before the clock starts
    app = create_app(Settings(memory_ttl_s=600, refresh_after_s=600))
    async with app.router.lifespan_context(app):
        status, body = await call(app, query_string)
        assert status == 200, body[:300]
        for _ in range(200):
            await call(app, query_string)
        profiler = Profiler(interval=0.0005)
        started = time.perf_counter()
        profiler.start()
        for _ in range(requests):
            status, _ = await call(app, query_string)
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
    print(
        f"hit path profile: {requests} in-process L1 hits, {elapsed / requests * 1e6:.0f} µs "
        f"per request under pyinstrument ({body.__len__()} byte body); full tree: {out}"
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
    args = parser.parse_args()
    sys.path.insert(0, str(args.serve_from.resolve()))
    asyncio.run(profile(args.requests, args.out))


if __name__ == "__main__":
    main()
