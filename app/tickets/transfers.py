"""The railway's own transfer search through the sources that have one: limited, cached, honest.

transfers(query, pages) ─ fresh copy in memory ───────────────────► cached (age)
        │ miss          (N identical misses share one flight)
        └─ sources with `transfers`, in priority order, each under its guard and the deadline
               ├ one answers ─ store ─────────────────────────────► realtime
               └ all failed ─ stale copy ─► cached + warning, else unavailable + message
        no source has the capability ─────────────────────────────► unavailable, no sources

One call of the official search (12306's `lcquery`) answers a whole one-transfer question —
middle stations, both trains, seats and fares — where the planner's own hub search costs two
leg queries per hub. Its plans change with the inventory, so copies live as long as the
ticket service's memory copies, and a stale copy stands in only when every source failed.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Awaitable, Callable, Sequence

from app.observability.metrics import Metrics
from app.tickets import texts
from app.tickets.fanout import first_answer
from app.tickets.guard import GuardedSource
from app.tickets.model import QueryEcho, SourceReport
from sources.base import Clock, shanghai_now
from sources.capabilities import TransferOffer, TransferSource
from sources.models import Freshness, Frozen, Station, TicketQuery

CAPABILITY = "transfers"
"""The guard's breaker these calls count against: never the left-ticket search's."""
FRESH_FOR_S = 30.0
STALE_FOR_S = 300.0

CopyKey = tuple[str, str, str, int]  # origin, destination, date, pages


class TransferResult(Frozen):
    """What the transfer search answered for one origin, destination and date."""

    query: QueryEcho
    freshness: Freshness
    as_of: dt.datetime | None = None
    age_s: float | None = None
    sources: tuple[SourceReport, ...] = ()
    offers: tuple[TransferOffer, ...] = ()
    warnings: tuple[str, ...] = ()


class _Copy(Frozen):
    stored: float
    result: TransferResult


class TransferSearchService:
    """Answers one-transfer questions from a memory copy or the first source that can."""

    def __init__(
        self,
        sources: Sequence[GuardedSource],
        metrics: Metrics,
        *,
        deadline_s: float = 5.0,
        fresh_for_s: float = FRESH_FOR_S,
        stale_for_s: float = STALE_FOR_S,
        clock: Clock = shanghai_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sources = [s for s in sources if isinstance(s.source, TransferSource)]
        self._metrics = metrics
        self._deadline = deadline_s
        self._fresh_for = fresh_for_s
        self._stale_for = max(stale_for_s, fresh_for_s)
        self._clock = clock
        self._monotonic = monotonic
        self._copies: dict[CopyKey, _Copy] = {}
        self._flights: dict[CopyKey, asyncio.Task[TransferResult]] = {}

    @property
    def available(self) -> bool:
        """Whether any enabled source can run the railway's transfer search at all."""
        return bool(self.sources)

    async def search(
        self, query: TicketQuery, origin: Station, destination: Station, *, pages: int = 1
    ) -> TransferResult:
        """One-transfer plans for `query` (its first `pages` pages), tagged with freshness."""
        echo = QueryEcho(origin=origin, destination=destination, date=query.date)
        if not self.sources:
            return TransferResult(query=echo, freshness="unavailable")
        key: CopyKey = (query.origin, query.destination, query.date.isoformat(), pages)
        copy = self._copies.get(key)
        if copy is not None and self._monotonic() - copy.stored < self._fresh_for:
            self._metrics.cache_requests.labels(tier="memory", result="hit").inc()
            return self._cached(copy, ())
        self._metrics.cache_requests.labels(tier="memory", result="miss").inc()
        task = self._flights.get(key)
        if task is None:
            task = asyncio.create_task(self._fetch(key, query, echo, pages))
            self._flights[key] = task
            task.add_done_callback(lambda _: self._flights.pop(key, None))
        return await asyncio.shield(task)

    async def _fetch(
        self, key: CopyKey, query: TicketQuery, echo: QueryEcho, pages: int
    ) -> TransferResult:
        def ask(source: GuardedSource) -> Awaitable[list[TransferOffer]]:
            adapter = source.source
            assert isinstance(adapter, TransferSource)
            return adapter.transfers(query, pages=pages)

        found, reports = await first_answer(
            self.sources, ask, self._deadline, self._monotonic, counted=len, capability=CAPABILITY
        )
        if found is not None:
            result = TransferResult(
                query=echo,
                freshness="realtime",
                as_of=self._clock(),
                age_s=0.0,
                sources=tuple(reports),
                offers=tuple(found),
            )
            self._copies[key] = _Copy(stored=self._monotonic(), result=result)
            return result
        copy = self._copies.get(key)
        if copy is not None and self._monotonic() - copy.stored < self._stale_for:
            self._metrics.degradations.labels(kind="stale_cache").inc()
            return self._cached(copy, tuple(reports))
        self._metrics.degradations.labels(kind="unavailable").inc()
        return TransferResult(
            query=echo,
            freshness="unavailable",
            sources=tuple(reports),
            warnings=(
                texts.TRANSFERS_UNAVAILABLE.format(
                    origin=echo.origin.city, destination=echo.destination.city, date=echo.date
                ),
            ),
        )

    def _cached(self, copy: _Copy, reports: tuple[SourceReport, ...]) -> TransferResult:
        age = round(max(0.0, self._monotonic() - copy.stored), 3)
        # The copy's own reports, re-tagged: what answered then is served from memory now.
        answered = tuple(r.model_copy(update={"freshness": "cached"}) for r in copy.result.sources)
        return copy.result.model_copy(
            update={
                "freshness": "cached",
                "age_s": age,
                "sources": reports + answered if reports else answered,
                "warnings": (texts.TRANSFERS_CACHED.format(age=texts.age_text(age)),),
            }
        )
