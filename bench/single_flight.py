"""Single-flight: 200 concurrent identical cold queries should cost one upstream call per source.

Runs the real ticket pipeline (sandbox vendors in-process behind the real adapters, guards,
caches and `TicketService`) twice side by side: single-flight on, then off. Both runs use the
same generous per-source limits (concurrency 100, 1000 requests/s, no retries) so that the
run without single-flight shows what reaches the vendors rather than what the limiter holds
back. Upstream requests are read from `railtrip_source_requests_total` and cross-checked with
the sandbox vendors' own counters of data requests (the 12306 session init is excluded: it is
once per adapter, not per query; the 12306 count includes the one `c_url` hop a fresh adapter
makes to learn the current query suffix).

Run from the repository root: `.venv/bin/python bench/single_flight.py [--callers 200]`.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from harness import GENEROUS, ROOT, query_for, ticket_pipeline, travel_day

from app.settings import Settings

SOURCES = ("sandbox-12306", "sandbox-juhe")
DATA_PATHS = {"12306": "/otn/leftTicket/query", "juhe": "/fapigw/train/query"}


async def one_run(callers: int, *, single_flight: bool) -> tuple[dict[str, int], dict, float, str]:
    """Upstream requests per source, vendor data hits, wall time and freshness mix."""
    settings = Settings(
        sources=list(SOURCES), source_overrides={name: dict(GENEROUS) for name in SOURCES}
    )
    async with ticket_pipeline(settings, single_flight=single_flight) as pipe:
        resolved = query_for(pipe.directory, "北京", "上海", travel_day())
        started = time.perf_counter()
        results = await asyncio.gather(*(pipe.service.search(resolved) for _ in range(callers)))
        wall = time.perf_counter() - started
        mix: dict[str, int] = {}
        for result in results:
            mix[result.freshness] = mix.get(result.freshness, 0) + 1
        vendor_hits = {
            vendor: sum(
                n
                for path, n in faults.requests_by_path.items()
                if path.startswith(DATA_PATHS[vendor])
            )
            for vendor, faults in pipe.faults.items()
        }
        freshness = ", ".join(f"{k}={v}" for k, v in sorted(mix.items()))
        return pipe.upstream_requests(), vendor_hits, wall, freshness


def fmt(counts: dict[str, int]) -> str:
    return " ".join(f"{name}={n}" for name, n in counts.items())


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=200)
    args = parser.parse_args()
    on = await one_run(args.callers, single_flight=True)
    off = await one_run(args.callers, single_flight=False)
    print(f"(run from {ROOT}; {args.callers} concurrent identical cold queries 北京→上海)")
    print(f"answers, single-flight on : {on[3]}  in {on[2] * 1000:.0f} ms")
    print(f"answers, single-flight off: {off[3]}  in {off[2] * 1000:.0f} ms")
    print(f"vendor data requests (sandbox counters), on : {fmt(on[1])}")
    print(f"vendor data requests (sandbox counters), off: {fmt(off[1])}")
    print()
    print("== single-flight ==")
    print(f"upstream requests per source, single-flight on : {fmt(on[0])}")
    print(f"upstream requests per source, single-flight off: {fmt(off[0])}")
    total_on, total_off = sum(on[0].values()), sum(off[0].values())
    print(f"ratio off/on: {total_off / max(1, total_on):.1f}")
    print(f"wall time ratio off/on: {off[2] / on[2]:.1f}")


if __name__ == "__main__":
    asyncio.run(main())
