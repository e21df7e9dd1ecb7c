"""Goodput under a burst: how many of a burst of distinct cold queries are served live within
the query deadline, against what the sources' rate allows, side by side for the admission
bound sized from the latency the sources show (the default) and the bound sized from the
attempt timeout (the previous default: concurrency + rate x (deadline - timeout)).

What it measures: railtrip's ticket pipeline (the real adapters, guards, admission, caches
and `TicketService`) in this process, against the two sandbox vendors answering in
`--latency-ms` (800). By default the vendors run as processes of their own (`python -m
sources.sandbox --vendor … --expose-counters`, reached over loopback HTTP as the `rail12306`
and `juhe` sources): rendering a vendor's 40 kB answers is then the vendors' CPU, not this
process's, and each vendor's own arrival log shows what it was asked and when. `--in-process`
mounts them in this process instead, as the embedded default does (the process then does
both sides' work; on a loaded box that, not the sources, bounds what it serves).

Both sources at `--rate` (5/s), concurrency 5, attempt timeout 3 s, no retries, query
deadline 5 s. Each mode first asks 5 distinct queries one after another (caches and sessions
warm, the latency estimate learns), then fires `--burst` (150) distinct cold queries at once.
Per query: served (`realtime`, every source ok, within the deadline), late (answered live
after it), refused (`Overloaded`, fast), other (a source timed out or failed). Allowed per
source: rate x (deadline - observed latency), the observed latency being the mean of the
burst's answered attempts. Target (issue 27): served >= 90% of allowed, nothing late, no
source asked beyond its rate (the most requests any vendor received in one second).

Run from the repository root: `.venv/bin/python bench/overload.py [--burst 150]
[--latency-ms 800] [--rate 5] [--in-process]`.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import time
from contextlib import AsyncExitStack
from typing import Any

from harness import ROOT, query_for, ticket_pipeline, travel_day

from app.errors import Overloaded
from app.settings import Settings
from app.tickets.admission import adaptive_capacity

DEADLINE_S = 5.0
TIMEOUT_S = 3.0
CONCURRENCY = 5
PAIRS = (
    ("北京", "上海"), ("北京", "南京"), ("上海", "杭州"), ("北京", "武汉"), ("广州", "深圳"),
    ("上海", "南京"), ("北京", "天津"), ("杭州", "南京"), ("武汉", "长沙"), ("成都", "重庆"),
    ("西安", "郑州"), ("北京", "济南"),
)  # fmt: skip
DATA_PATHS = ("/otn/leftTicket/query", "/fapigw/train/query")
VERBOSE = False


def settings(rate: float, queue_limit: int | None, vendors: dict[str, Any] | None) -> Settings:
    """Both sources at `rate`; `queue_limit` None = sized from the latency."""
    limits = {
        "rate_per_s": rate,
        "concurrency": CONCURRENCY,
        "timeout_s": TIMEOUT_S,
        "retries": 0,
        "queue_limit": queue_limit,
    }
    if vendors is None:  # the embedded default's sources, mounted in this process
        names = ["sandbox-12306", "sandbox-juhe"]
        overrides = {name: dict(limits) for name in names}
    else:
        names = ["rail12306", "juhe"]
        overrides = {
            "rail12306": limits | {"base_url": vendors["12306"].url},
            "juhe": limits | {"base_url": vendors["juhe"].url, "api_key": "sandbox"},
        }
    return Settings(
        sources=names,
        source_overrides=overrides,
        query_deadline_s=DEADLINE_S,
        log_level="WARNING",
        _env_file=None,  # type: ignore[call-arg]
    )


def busiest_second(arrivals: list[float]) -> int:
    """The most arrivals in any one-second window [t, t + 1)."""
    ordered = sorted(arrivals)
    most = 0
    start = 0
    for end, at in enumerate(ordered):
        while ordered[start] <= at - 1.0:
            start += 1
        most = max(most, end - start + 1)
    return most


async def one_mode(
    label: str, args: argparse.Namespace, fixed: int | None, vendors: dict[str, Any] | None
) -> dict[str, Any]:
    queries = [(pair, day) for day in range(1, 15) for pair in PAIRS]
    async with ticket_pipeline(settings(args.rate, fixed, vendors)) as pipe:
        for faults in pipe.faults.values():  # in-process vendors; processes got it at start
            faults.update(latency_ms=args.latency_ms)

        def resolved(index: int):  # type: ignore[no-untyped-def]
            (origin, destination), day = queries[index]
            return query_for(pipe.directory, origin, destination, travel_day(day))

        # When each source's limiter let a request go (every request to it, session pages
        # too): the rate is railtrip's to keep, measured where it decides.
        sent: dict[str, list[float]] = {s.name: [] for s in pipe.sources}
        for source in pipe.sources:
            source.limiter.acquire = _noting(source.limiter.acquire, sent[source.name])
        for index in range(5):  # warm-up, one at a time: sessions, the latency estimate
            await pipe.service.search(resolved(index))
        before = pipe.upstream_requests()
        durations_before = _durations(pipe)
        bounds_before = {s.name: s.admission.capacity for s in pipe.sources if s.admission}
        warm_samples = {s.name: [round(x, 2) for x in s.latency._recent] for s in pipe.sources}
        burst_wall = time.time()

        in_time: dict[str, int] = {s.name: 0 for s in pipe.sources}

        async def ask(index: int) -> tuple[str, float]:
            started = time.monotonic()
            try:
                result = await pipe.service.search(resolved(index))
            except Overloaded:
                return "refused", time.monotonic() - started
            took = time.monotonic() - started
            for report in result.sources:  # each source's answers that reached a caller in time
                if report.status == "ok" and took <= DEADLINE_S:
                    in_time[report.name] += 1
            if result.freshness == "realtime" and all(r.status == "ok" for r in result.sources):
                return ("served" if took <= DEADLINE_S else "late"), took
            return "other", took

        started = time.monotonic()
        cpu = time.process_time()
        outcomes = await asyncio.gather(*(ask(5 + i) for i in range(args.burst)))
        cpu = time.process_time() - cpu
        sent_in_burst = {name: [t for t in ts if t >= started] for name, ts in sent.items()}
        wall = time.monotonic() - started
        asked = {name: count - before[name] for name, count in pipe.upstream_requests().items()}
        durations = _durations(pipe)
        estimates = {s.name: round(s.latency.seconds, 3) for s in pipe.sources}
        burst_samples = {s.name: [round(x, 2) for x in s.latency._recent] for s in pipe.sources}
    kinds = ("served", "late", "refused", "other")
    counts = {k: sum(1 for o, _ in outcomes if o == k) for k in kinds}
    observed = {
        name: (durations[name][0] - durations_before[name][0])
        / max(1, durations[name][1] - durations_before[name][1])
        for name in durations
    }
    latency = max(observed.values())
    allowed = math.floor(args.rate * (DEADLINE_S - latency))
    busiest = {name: busiest_second(ts) for name, ts in sent_in_burst.items()}
    arrived = (
        {
            name: busiest_second([t for t in _data_arrivals(vendor) if t >= burst_wall])
            for name, vendor in vendors.items()
        }
        if vendors is not None
        else {}
    )
    return {
        "label": label,
        **counts,
        "allowed": allowed,
        "latency": latency,
        "slowest_served": max((t for o, t in outcomes if o == "served"), default=0.0),
        "slowest_refusal": max((t for o, t in outcomes if o == "refused"), default=0.0),
        "asked": asked,
        "in_time": in_time,
        "busiest": busiest,
        "arrived": arrived,
        "bounds": bounds_before,
        "estimates": estimates,
        "wall": wall,
        "cpu": cpu,
        "window": (round(started, 2), round(started + wall, 2)),
        "sent_at": {n: [round(t - started, 2) for t in ts] for n, ts in sent_in_burst.items()},
        "warm_samples": warm_samples,
        "burst_samples": burst_samples,
        "took": sorted(round(t, 2) for o, t in outcomes if o != "refused"),
    }


def _noting(acquire: Any, times: list[float]) -> Any:
    async def noted() -> None:
        await acquire()
        times.append(time.monotonic())

    return noted


def _durations(pipe: Any) -> dict[str, tuple[float, float]]:
    """Per source: (sum, count) of the attempt durations so far (answers and failures)."""
    found: dict[str, list[float]] = {s.name: [0.0, 0.0] for s in pipe.sources}
    for family in pipe.metrics.source_duration.collect():
        for sample in family.samples:
            name = sample.labels.get("source")
            if name in found and sample.name.endswith("_sum"):
                found[name][0] = sample.value
            elif name in found and sample.name.endswith("_count"):
                found[name][1] = sample.value
    return {name: (s, c) for name, (s, c) in found.items()}


def _data_arrivals(vendor: Any) -> list[float]:
    from tests.fleet.processes import counters

    arrivals = counters(vendor)["arrivals"]
    return [t for path, ts in arrivals.items() if path.startswith(DATA_PATHS) for t in ts]


def report(row: dict[str, Any], rate: float) -> None:
    print(
        f"{row['label']:<14} served {row['served']:3} / allowed {row['allowed']} per source "
        f"({row['served'] / max(1, row['allowed']):.2f}); late {row['late']}; "
        f"refused {row['refused']} (slowest refusal {row['slowest_refusal'] * 1000:.0f} ms); "
        f"other {row['other']}; slowest served {row['slowest_served']:.2f} s"
    )
    print(
        f"{'':<14} observed latency {row['latency']:.3f} s (estimate {row['estimates']}); "
        f"bound when the burst came {row['bounds']}; upstream {row['asked']} over "
        f"{row['wall']:.1f} s; this process's CPU in the burst {row['cpu']:.2f} s"
    )
    unanswered = {n: row["asked"][n] - row["in_time"].get(n, 0) for n in row["asked"]}
    print(
        f"{'':<14} answers that reached a caller in time {row['in_time']}; "
        f"sent for no answer {unanswered}"
    )
    if VERBOSE:
        print(f"{'':<14} burst on the monotonic clock {row['window']}")
        print(f"{'':<14} sent at (s after the burst) {row['sent_at']}")
        print(f"{'':<14} answered after (s) {row['took']}")
        print(f"{'':<14} attempts the estimate held before the burst {row['warm_samples']}")
        print(f"{'':<14} and after it (the last 16) {row['burst_samples']}")
    print(
        f"{'':<14} most requests let go in one second {row['busiest']} (rate {rate:g}/s: "
        f"{'within' if max(row['busiest'].values()) <= rate else 'EXCEEDED'})"
        + (
            f"; ticket queries received by a vendor in one second {row['arrived']} (after "
            "loopback jitter)"
            if row["arrived"]
            else ""
        )
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=150)
    parser.add_argument("--rate", type=float, default=5.0)
    parser.add_argument("--latency-ms", type=float, default=800.0)
    parser.add_argument("--in-process", action="store_true", help="vendors in this process")
    parser.add_argument("--verbose", action="store_true", help="when each was sent, answered")
    args = parser.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    timeout_sized = CONCURRENCY + math.floor(args.rate * (DEADLINE_S - TIMEOUT_S))
    print(
        f"burst of {args.burst} distinct cold queries; both sources {args.latency_ms:g} ms, "
        f"{args.rate:g}/s, concurrency {CONCURRENCY}, timeout {TIMEOUT_S:g} s, deadline "
        f"{DEADLINE_S:g} s; vendors {'in this process' if args.in_process else 'as processes'}"
        f" (from {ROOT})"
    )
    nominal = adaptive_capacity(args.rate, CONCURRENCY, DEADLINE_S, args.latency_ms / 1000)
    print(
        f"bounds: sized from the latency (at the nominal latency: {nominal}); "
        f"sized from the timeout {timeout_sized}"
    )
    async with AsyncExitStack() as stack:
        vendors = None
        if not args.in_process:
            from tests.fleet.processes import start_vendor

            vendors = {}
            for vendor in ("12306", "juhe"):
                vendors[vendor] = start_vendor(vendor, latency_ms=args.latency_ms)
                stack.callback(vendors[vendor].stop)
        rows = [
            await one_mode("latency-sized", args, None, vendors),
            await one_mode("timeout-sized", args, timeout_sized - CONCURRENCY, vendors),
        ]
    print()
    for row in rows:
        report(row, args.rate)


if __name__ == "__main__":
    asyncio.run(main())
