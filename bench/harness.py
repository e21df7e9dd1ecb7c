"""What the benchmarks share: the real ticket pipeline built outside FastAPI, timing helpers.

`ticket_pipeline()` builds exactly what the app's lifespan builds (sandbox vendors mounted on
one httpx client, guarded adapters from `app.wiring.sources`, the real cache tiers and
`TicketService`), but lets a benchmark choose `single_flight` and add vendors.
"""

from __future__ import annotations

import datetime as dt
import gc
import re
import statistics
import sys
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


from app.observability.metrics import Metrics  # noqa: E402
from app.runtime import Runtime  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.tickets.guard import GuardedSource  # noqa: E402
from app.tickets.model import ResolvedQuery  # noqa: E402
from app.tickets.service import TicketService  # noqa: E402
from app.wiring.sources import (  # noqa: E402
    build_http_client,
    build_sandbox,
    build_sources,
    build_ticket_service,
)
from sources.models import SHANGHAI, TicketQuery  # noqa: E402
from sources.sandbox.faults import FaultConfig  # noqa: E402
from sources.stations import StationDirectory, curated_directory  # noqa: E402

# Generous per-source limits for runs that measure something other than the limiter.
GENEROUS = {"concurrency": 100, "rate_per_s": 1000.0, "timeout_s": 30.0, "retries": 0}


def travel_day(days_ahead: int = 3) -> dt.date:
    """A date inside the sale window by the real clock (the sandbox sells 15 days ahead)."""
    return dt.datetime.now(SHANGHAI).date() + dt.timedelta(days=days_ahead)


def query_for(
    directory: StationDirectory, origin: str, destination: str, day: dt.date
) -> ResolvedQuery:
    """The resolved query between two places, as the tickets use case resolves it."""
    o, d = directory.resolve(origin), directory.resolve(destination)
    return ResolvedQuery(TicketQuery(origin=o.telecode, destination=d.telecode, date=day), o, d)


@dataclass
class Pipeline:
    """The pieces of one ticket pipeline a benchmark reads from."""

    service: TicketService
    sources: tuple[GuardedSource, ...]
    metrics: Metrics
    faults: dict[str, FaultConfig]
    directory: StationDirectory
    http: httpx.AsyncClient  # the one client every adapter sends through

    def upstream_requests(self) -> dict[str, int]:
        """Attempts per source that reached it (`railtrip_source_requests_total` minus
        `circuit_open`, as README "Metrics" defines)."""
        counts = {s.name: 0 for s in self.sources}
        for family in self.metrics.source_requests.collect():
            for sample in family.samples:
                if sample.name.endswith("_total") and sample.labels["outcome"] != "circuit_open":
                    counts[sample.labels["source"]] += int(sample.value)
        return counts


@asynccontextmanager
async def ticket_pipeline(
    settings: Settings,
    *,
    single_flight: bool = True,
    runtime: Runtime | None = None,
) -> AsyncIterator[Pipeline]:
    """The lifespan's ticket pipeline for `settings` (sandbox knobs included, as they read)."""
    runtime = runtime or Runtime()
    directory = curated_directory()
    metrics = Metrics()
    sandbox = build_sandbox(settings, directory, runtime)
    http = build_http_client(sandbox)
    try:
        sources = build_sources(settings, http, directory, metrics, runtime)
        service = build_ticket_service(
            settings, runtime, sources, metrics, single_flight=single_flight
        )
        gc.freeze()  # as the app's lifespan does (app/main.py): start-up's heap out of the GC
        try:
            yield Pipeline(service, sources, metrics, sandbox.faults, directory, http)
        finally:
            gc.unfreeze()
        await service.aclose()
    finally:
        await http.aclose()


def percentile(values: Iterable[float], share: float) -> float:
    """The `share` quantile (0..1) by linear interpolation; what `numpy.percentile` gives."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = (len(ordered) - 1) * share
    low = int(index)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (index - low)


def median(values: Iterable[float]) -> float:
    return statistics.median(list(values))


def rss_kib() -> int:
    """Resident set size of this process now (VmRSS), KiB."""
    text = Path("/proc/self/status").read_text()
    match = re.search(r"^VmRSS:\s+(\d+)\s+kB", text, re.MULTILINE)
    return int(match[1]) if match else -1
