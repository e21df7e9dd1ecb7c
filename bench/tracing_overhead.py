"""Tracing's cost on an L1 cache hit: the same app with tracing configured and without.

Two apps are built by `create_app` with the cache-hit benchmark's settings, one with a tracer
provider (the SDK with an in-memory exporter, so nothing leaves the process), one without,
and called through their ASGI interfaces directly. Blocks of hits alternate between them and
each block is timed in process CPU time, which other processes on a shared machine disturb
far less than wall-clock throughput. A hit opens no span, so the exporter must stay empty
(checked), and the ratio should be 1 within noise.

    .venv/bin/python bench/tracing_overhead.py [--requests 2000] [--blocks 10]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import statistics
import sys
import time
from urllib.parse import urlencode

from harness import ROOT
from hit_profile import call

sys.path.insert(0, str(ROOT))


async def measure(requests: int, blocks: int) -> None:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from app.main import create_app
    from app.settings import Settings

    today = dt.datetime.now(dt.UTC).astimezone(dt.timezone(dt.timedelta(hours=8))).date()
    query = urlencode(
        {"origin": "北京", "destination": "上海", "date": str(today + dt.timedelta(days=3))}
    ).encode()
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    settings = Settings(memory_ttl_s=600, refresh_after_s=600)
    apps = {"off": create_app(settings), "on": create_app(settings, tracer_provider=provider)}
    real_stderr = sys.stderr
    sys.stderr = open(os.devnull, "w")  # noqa: ASYNC230 - the request log, as under load
    cpu: dict[str, list[float]] = {"off": [], "on": []}
    async with apps["off"].router.lifespan_context(apps["off"]):
        async with apps["on"].router.lifespan_context(apps["on"]):
            for app in apps.values():
                for _ in range(200):  # the miss, then warm hits
                    status, _ = await call(app, query)
                assert status == 200
            exporter.clear()
            for block in range(blocks):
                # ABBA order, so whatever one block leaves behind (garbage) falls on both.
                order = list(apps.items()) if block % 2 == 0 else list(apps.items())[::-1]
                for label, app in order:
                    started = time.process_time()
                    for _ in range(requests):
                        await call(app, query)
                    cpu[label].append((time.process_time() - started) / requests)
    sys.stderr = real_stderr
    assert exporter.get_finished_spans() == (), "a cache hit opened a span"
    off, on = statistics.median(cpu["off"]), statistics.median(cpu["on"])
    print(
        f"{blocks} alternating blocks of {requests} in-process L1 hits per app; "
        f"median CPU per hit: tracing off {off * 1e6:.1f} µs, on {on * 1e6:.1f} µs"
    )
    spread = max(cpu["off"]) / min(cpu["off"])
    print(f"block-to-block spread with tracing off (noise): {spread:.2f}x")
    print(f"throughput ratio on/off (CPU per hit off/on): {off / on:.3f}; spans exported: 0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--blocks", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(measure(args.requests, args.blocks))


if __name__ == "__main__":
    main()
