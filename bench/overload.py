"""Goodput under a burst: how many of a burst of distinct cold queries are served live within
the query deadline, against what the sources' rate allows, side by side for the deployed
queue bound (rate x (deadline - timeout)) and a bound sized from the latency the sources show
(rate x (deadline - latency), what an adaptive bound would settle at).

The real pipeline (sandbox vendors behind the real adapters, guards, admission, caches and
`TicketService`), both vendors answering in `--latency-ms` (800) at `--rate` (5/s) per source,
concurrency 5, attempt timeout 3 s, query deadline 5 s. Each mode first asks 5 distinct queries
one after another (caches and sessions warm), then fires `--burst` (150) distinct cold
queries at once. Per query: served (`realtime`, every source ok, answered within the deadline
plus 0.5 s), late (answered live after that), refused (`Overloaded`, fast), other (a source
timed out or failed). Allowed per source: rate x (deadline - latency). Target (issue 27): served
≥ 90% of allowed, nothing late, every source within its rate.

Run from the repository root: `.venv/bin/python bench/overload.py [--burst 150]`.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import time

from harness import query_for, ticket_pipeline, travel_day

from app.errors import Overloaded
from app.settings import Settings

DEADLINE_S = 5.0
SOURCES = ("SANDBOX_12306", "SANDBOX_JUHE")
PAIRS = (
    ("北京", "上海"), ("北京", "南京"), ("上海", "杭州"), ("北京", "武汉"), ("广州", "深圳"),
    ("上海", "南京"), ("北京", "天津"), ("杭州", "南京"), ("武汉", "长沙"), ("成都", "重庆"),
    ("西安", "郑州"), ("北京", "济南"),
)  # fmt: skip


def settings(rate: float, queue_limit: int | None) -> Settings:
    for name in SOURCES:
        os.environ[f"RAILTRIP_{name}_RATE_PER_S"] = str(rate)
        os.environ[f"RAILTRIP_{name}_CONCURRENCY"] = "5"
        os.environ[f"RAILTRIP_{name}_TIMEOUT_S"] = "3"
        os.environ[f"RAILTRIP_{name}_RETRIES"] = "0"
        key = f"RAILTRIP_{name}_QUEUE_LIMIT"
        if queue_limit is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = str(queue_limit)
    return Settings(query_deadline_s=DEADLINE_S, log_level="WARNING")


async def one_mode(label: str, rate: float, latency_ms: float, burst: int, fixed: int | None):
    queries = [(pair, day) for day in range(1, 15) for pair in PAIRS]
    async with ticket_pipeline(settings(rate, fixed)) as pipe:
        for faults in pipe.faults.values():
            faults.update(latency_ms=latency_ms)

        def resolved(index: int):  # type: ignore[no-untyped-def]
            (origin, destination), day = queries[index]
            return query_for(pipe.directory, origin, destination, travel_day(day))

        for index in range(5):  # warm-up, one at a time: the latency estimate learns
            await pipe.service.search(resolved(index))
        before = pipe.upstream_requests()

        async def ask(index: int) -> tuple[str, float]:
            started = time.monotonic()
            try:
                result = await pipe.service.search(resolved(index))
            except Overloaded:
                return "refused", time.monotonic() - started
            took = time.monotonic() - started
            if result.freshness == "realtime" and all(r.status == "ok" for r in result.sources):
                return ("served" if took <= DEADLINE_S + 0.5 else "late"), took
            return "other", took

        started = time.monotonic()
        outcomes = await asyncio.gather(*(ask(5 + i) for i in range(burst)))
        wall = time.monotonic() - started
        after = pipe.upstream_requests()
        bounds = {s.name: s.admission.capacity for s in pipe.sources if s.admission}
    kinds = ("served", "late", "refused", "other")
    counts = {k: sum(1 for o, _ in outcomes if o == k) for k in kinds}
    refused_took = max((t for o, t in outcomes if o == "refused"), default=0.0)
    allowed = math.floor(rate * (DEADLINE_S - latency_ms / 1000))
    asked = {name: after[name] - before[name] for name in after}
    print(
        f"{label:8} served {counts['served']:3} / allowed {allowed} per source "
        f"({counts['served'] / allowed:.2f}); late {counts['late']}; refused {counts['refused']} "
        f"(slowest refusal {refused_took * 1000:.0f} ms); other {counts['other']}; "
        f"upstream {asked} over {wall:.1f} s (≤ {rate:g}/s: "
        f"{max(asked.values()) <= rate * wall + 5}); bound at the end {bounds}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--burst", type=int, default=150)
    parser.add_argument("--rate", type=float, default=5.0)
    parser.add_argument("--latency-ms", type=float, default=800.0)
    args = parser.parse_args()
    await one_mode("deployed", args.rate, args.latency_ms, args.burst, None)
    by_latency = math.floor(args.rate * (DEADLINE_S - args.latency_ms / 1000))
    await one_mode("latency", args.rate, args.latency_ms, args.burst, by_latency)


if __name__ == "__main__":
    asyncio.run(main())
