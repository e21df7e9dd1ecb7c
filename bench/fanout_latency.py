"""Fan-out latency: three sources at 100, 200 and 300 ms should cost about the slowest one.

Three sandbox vendors run in-process behind the real adapters and guards: the 12306 sandbox
(100 ms), the Juhe sandbox (200 ms) and a second 12306 sandbox mounted at another host
and read by a second `Rail12306Source` named `sandbox-12306-b` (300 ms). Latency is the
vendors' `latency_ms` knob: a real `asyncio.sleep` per HTTP request. Per-source limits are
the defaults (5 concurrent, 5 requests/s, 2 retries); each source is asked at most once per
300 ms here, so the rate limiter never waits.

Each round measures, side by side and in rotating order:
  fan-out     `TicketService.search(refresh=True)`: all three at once, merged, cached
  sequential  each guarded source awaited one after another (the baseline)
  slowest     the 300 ms source alone through its guard (the floor)
Ratios are medians over rounds divided by the slowest source's median.

Run from the repository root: `.venv/bin/python bench/fanout_latency.py [--rounds 15]`.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable

import httpx
from harness import median, percentile, query_for, travel_day

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.cache import MemoryTier
from app.tickets.guard import GuardedSource
from app.tickets.service import TicketService
from sources.base import TicketSource
from sources.juhe import JuheSource
from sources.rail12306 import Rail12306Source
from sources.sandbox import FaultConfig, Timetable, create_12306_app, create_juhe_app
from sources.stations import curated_directory

# name, vendor, host, latency
VENDORS = (
    ("sandbox-12306", "12306", "http://sandbox-12306.internal", 100.0),
    ("sandbox-juhe", "juhe", "http://sandbox-juhe.internal", 200.0),
    ("sandbox-12306-b", "12306", "http://sandbox-12306-b.internal", 300.0),
)


async def timed(call: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await call()
    return (time.perf_counter() - started) * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    directory = curated_directory()
    timetable = Timetable(directory)
    metrics = Metrics()
    mounts: dict[str, httpx.AsyncBaseTransport] = {}
    faults: dict[str, FaultConfig] = {}
    for name, vendor, host, _ in VENDORS:
        faults[name] = FaultConfig(vendor)
        factory = create_12306_app if vendor == "12306" else create_juhe_app
        app = factory(faults=faults[name], directory=directory, timetable=timetable)
        mounts[host] = httpx.ASGITransport(app=app)

    async with httpx.AsyncClient(mounts=mounts, timeout=10.0) as http:
        guarded = []
        for name, vendor, host, _ in VENDORS:
            adapter: TicketSource = (
                Rail12306Source(name, http, host, directory)
                if vendor == "12306"
                else JuheSource(name, http, host, directory, "bench")
            )
            guarded.append(GuardedSource(adapter, SourceSettings.for_source(name), metrics))
        service = TicketService(guarded, metrics, MemoryTier(30, 1800, 4096))
        resolved = query_for(directory, "北京", "上海", travel_day())
        query = resolved.query

        # Warm up without latency: 12306 sessions (init), imports, first parses.
        await service.search(resolved, refresh=True)
        await asyncio.sleep(0.3)
        for name, *_, latency in VENDORS:
            faults[name].update(latency_ms=latency)

        slowest = guarded[-1]
        runs: dict[str, Callable[[], Awaitable[object]]] = {
            "fan-out": lambda: service.search(resolved, refresh=True),
            "sequential": lambda: sequential(guarded, query),
            "slowest": lambda: slowest.search(query),
        }
        times: dict[str, list[float]] = {label: [] for label in runs}
        order = list(runs)
        for round_no in range(args.rounds):
            for label in order[round_no % 3 :] + order[: round_no % 3]:
                times[label].append(await timed(runs[label]))
        # Every timed fan-out must have been a full answer, or the ratio would flatter it.
        answer = await service.search(resolved)
        assert all(s.status == "ok" for s in answer.sources), answer.sources
        await service.aclose()

    floor = median(times["slowest"])
    print(
        f"{args.rounds} rounds, 北京→上海, sources: "
        + ", ".join(f"{name} {latency:g} ms" for name, *_, latency in VENDORS)
    )
    for label, values in times.items():
        print(
            f"{label:<10} median {median(values):7.1f} ms   p90 {percentile(values, 0.9):7.1f} ms"
            f"   min {min(values):7.1f} ms"
        )
    print()
    print("== fan-out latency ==")
    print(f"slowest source alone (300 ms knob): {floor:.1f} ms median")
    print(f"fan-out end to end                : {median(times['fan-out']):.1f} ms median")
    print(f"sequential baseline               : {median(times['sequential']):.1f} ms median")
    print(f"ratio fan-out/slowest   : {median(times['fan-out']) / floor:.2f}  (target <= 1.15)")
    print(f"ratio sequential/slowest: {median(times['sequential']) / floor:.2f}  (expected ~2.0)")
    print(f"ratio fan-out/300 ms knob: {median(times['fan-out']) / 300:.2f}")


async def sequential(sources: list[GuardedSource], query: object) -> None:
    for source in sources:
        await source.search(query)  # type: ignore[arg-type]


if __name__ == "__main__":
    asyncio.run(main())
