"""Stop lists through the sources that can give them: limited, cached, tagged with freshness.

stops(train, date) ─ fresh copy in memory ────────────────────────► cached (age)
        │ miss          (N identical misses share one flight)
        └─ sources with `stops`, in priority order, each under its guard
               ├ one answers ─ store ─────────────────────────────► realtime
               ├ one says "no such train" ────────────────────────► NotFound (404)
               └ all failed ─ stale copy ─► cached + warning, else unavailable + message

A stop list changes with the timetable, not by the minute, so copies live for hours.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Awaitable, Callable, Sequence

from app.errors import NotFound
from app.metrics import Metrics
from app.tickets import messages
from app.tickets.fanout import report_status
from app.tickets.guard import GuardedSource
from app.tickets.model import Freshness, SourceReport, SourceStatus
from sources.base import Clock, shanghai_now
from sources.capabilities import StopCall, StopList, StopListSource
from sources.errors import NotFoundAtSource, SourceError
from sources.models import Frozen

FRESH_FOR_S = 6 * 3600.0
STALE_FOR_S = 48 * 3600.0


class StopListResult(Frozen):
    """`GET /v1/trains/{train_number}/stops` body."""

    train_number: str
    train_no: str = ""
    date: dt.date
    freshness: Freshness
    as_of: dt.datetime | None = None
    age_s: float | None = None
    sources: tuple[SourceReport, ...] = ()
    stops: tuple[StopCall, ...] = ()
    warnings: tuple[str, ...] = ()


class StopListService:
    """Answers stop-list questions from a memory copy or the first source that can."""

    def __init__(
        self,
        sources: Sequence[GuardedSource],
        metrics: Metrics,
        *,
        deadline_s: float = 5.0,
        clock: Clock = shanghai_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sources = [s for s in sources if isinstance(s.source, StopListSource)]
        self._metrics = metrics
        self._deadline = deadline_s
        self._clock = clock
        self._monotonic = monotonic
        self._copies: dict[tuple[str, dt.date], tuple[float, StopList]] = {}
        self._flights: dict[tuple[str, dt.date], asyncio.Task[StopListResult]] = {}

    async def stops(self, train_number: str, date: dt.date) -> StopListResult:
        """The stops of `train_number` leaving its origin on `date`; NotFound if none."""
        key = (train_number, date)
        copy = self._copies.get(key)
        if copy is not None and self._monotonic() - copy[0] < FRESH_FOR_S:
            self._metrics.cache_requests.labels(tier="memory", result="hit").inc()
            return self._cached(copy, ())
        self._metrics.cache_requests.labels(tier="memory", result="miss").inc()
        task = self._flights.get(key)
        if task is None:
            task = asyncio.create_task(self._fetch(train_number, date))
            self._flights[key] = task
            task.add_done_callback(lambda _: self._flights.pop(key, None))
        return await asyncio.shield(task)

    async def _fetch(self, train_number: str, date: dt.date) -> StopListResult:
        reports: list[SourceReport] = []
        for source in self.sources:
            started = self._monotonic()
            adapter = source.source
            assert isinstance(adapter, StopListSource)

            def ask(adapter: StopListSource = adapter) -> Awaitable[StopList]:
                return adapter.stops(train_number, date)

            try:
                async with asyncio.timeout(self._deadline):
                    found = await source.call(ask)
            except NotFoundAtSource as exc:
                raise NotFound(
                    f"{date} 没有 {train_number} 次列车。", train_number=train_number
                ) from exc
            except (SourceError, TimeoutError) as exc:
                status: SourceStatus = (
                    report_status(exc.outcome) if isinstance(exc, SourceError) else "timeout"
                )
                reports.append(self._report(source.name, status, started, str(exc)))
                continue
            reports.append(self._report(source.name, "ok", started, None))
            self._copies[(train_number, date)] = (self._monotonic(), found)
            return StopListResult(
                train_number=train_number,
                train_no=found.train_no,
                date=date,
                freshness="realtime",
                as_of=found.fetched_at,
                age_s=0.0,
                sources=tuple(reports),
                stops=found.stops,
            )
        copy = self._copies.get((train_number, date))
        if copy is not None and self._monotonic() - copy[0] < STALE_FOR_S:
            self._metrics.degradations.labels(kind="stale_cache").inc()
            return self._cached(copy, tuple(reports))
        self._metrics.degradations.labels(kind="unavailable").inc()
        return StopListResult(
            train_number=train_number,
            date=date,
            freshness="unavailable",
            sources=tuple(reports),
            warnings=(messages.STOPS_UNAVAILABLE.format(train=train_number, date=date),),
        )

    def _cached(
        self, copy: tuple[float, StopList], reports: tuple[SourceReport, ...]
    ) -> StopListResult:
        stored, found = copy
        age = round(max(0.0, self._monotonic() - stored), 3)
        return StopListResult(
            train_number=found.train_number,
            train_no=found.train_no,
            date=found.date,
            freshness="cached",
            as_of=found.fetched_at,
            age_s=age,
            sources=reports,
            stops=found.stops,
            warnings=(messages.STOPS_CACHED.format(age=messages.age_text(age)),),
        )

    def _report(
        self, name: str, status: SourceStatus, started: float, error: str | None
    ) -> SourceReport:
        return SourceReport(
            name=name,
            status=status,
            freshness="realtime" if status == "ok" else "unavailable",
            latency_ms=round((self._monotonic() - started) * 1000),
            error=error,
        )
