"""Stop lists through the sources that can give them: limited, cached, tagged with freshness.

stops(train, date) ─ fresh copy in memory ────────────────────────► cached (age)
        │ miss          (N identical misses share one flight)
        └─ fresh copy in Redis (another replica's) ─ kept in memory too ─► cached (true age)
           └ miss ─ sources with `stops`, in priority order, each under its guard
               ├ one answers ─ store in memory and Redis ─────────► realtime
               ├ one says "no such train" ────────────────────────► NotFound (404)
               └ all failed ─ youngest stale copy (memory or Redis) ─► cached + warning,
                              else unavailable + message

A stop list changes with the timetable, not by the minute, so copies live for hours. Redis is
optional: down or stalled, the replica's shared `RedisHealth` skips it after one short
timeout and the service answers from memory and the sources.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from cachetools import LRUCache
from pydantic import AwareDatetime, ValidationError

from app.errors import NotFound
from app.observability.metrics import Metrics
from app.redis_health import RedisHealth, redis_errors
from app.tickets import texts
from app.tickets.fanout import first_answer
from app.tickets.guard import GuardedSource
from app.tickets.model import SourceReport
from sources.base import Clock, shanghai_now
from sources.capabilities import StopCall, StopList, StopListSource
from sources.errors import NotFoundAtSource
from sources.models import Freshness, Frozen

if TYPE_CHECKING:
    from app.redis_client import RedisClient  # redis-py only where Redis is configured

CAPABILITY = "stops"
"""The guard's breaker these calls count against: never the left-ticket search's."""
FRESH_FOR_S = 6 * 3600.0
STALE_FOR_S = 48 * 3600.0
MAX_MEMORY_COPIES = 4096
"""Stop lists kept in process memory (a few KiB each), least recently used dropped first."""
STOPS_FORMAT: Literal[1] = 1

Copy = tuple[float, StopList]
"""A copy of a stop list with its age in seconds."""


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


class StoredStopList(Frozen):
    """A stop list as kept in Redis, with when it was stored by the storing replica's clock."""

    v: Literal[1] = STOPS_FORMAT
    stored_at: AwareDatetime
    stop_list: StopList


class SharedStopLists:
    """The copies in Redis every replica reads: one key per train and date, kept 48 h.

    One key, not a fresh and a stale one as tickets have: a wall-clock `stored_at` that every
    replica can compare tells fresh from stale. A Redis failure never escapes: the replica's
    shared `RedisHealth` is asked first and told every outcome.
    """

    def __init__(self, client: RedisClient, health: RedisHealth) -> None:
        self._client = client
        self._health = health

    @staticmethod
    def key(train_number: str, date: dt.date) -> str:
        return f"railtrip:stops:v{STOPS_FORMAT}:{train_number}:{date.isoformat()}"

    async def get(self, train_number: str, date: dt.date) -> StoredStopList | None:
        """The copy; None when absent, of another format, or Redis is down."""
        raw = await self._call(lambda: self._client.get(self.key(train_number, date)))
        if raw is None:
            return None
        try:
            return StoredStopList.model_validate_json(raw)
        except ValidationError:
            return None

    async def put(self, train_number: str, date: dt.date, stored: StoredStopList) -> None:
        key, raw = self.key(train_number, date), stored.model_dump_json()
        await self._call(lambda: self._client.set(key, raw, ex=round(STALE_FOR_S)))

    async def _call(self, call: Callable[[], Awaitable[Any]]) -> Any:
        """`call()`'s result, or None when Redis is known down or fails now (reported)."""
        if not self._health.usable():
            return None
        try:
            result = await call()
        except redis_errors() as exc:
            self._health.went_down(exc)
            return None
        self._health.came_back()
        return result


class StopListService:
    """Answers stop-list questions from a copy (memory, then Redis) or the first source that can."""

    def __init__(
        self,
        sources: Sequence[GuardedSource],
        metrics: Metrics,
        *,
        shared: SharedStopLists | None = None,
        deadline_s: float = 5.0,
        max_copies: int = MAX_MEMORY_COPIES,
        clock: Clock = shanghai_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sources = [s for s in sources if isinstance(s.source, StopListSource)]
        self.shared = shared
        self._metrics = metrics
        self._deadline = deadline_s
        self._clock = clock
        self._monotonic = monotonic
        # Bounded: a crawler asking every train of every date must not grow the process.
        self._copies: LRUCache[tuple[str, dt.date], tuple[float, StopList]] = LRUCache(max_copies)
        self._flights: dict[tuple[str, dt.date], asyncio.Task[StopListResult]] = {}

    async def stops(self, train_number: str, date: dt.date) -> StopListResult:
        """The stops of `train_number` leaving its origin on `date`; NotFound if none."""
        key = (train_number, date)
        copy = self._memory_copy(key)
        if copy is not None and copy[0] < FRESH_FOR_S:
            self._metrics.cache_requests.labels(tier="memory", result="hit").inc()
            return self._cached(copy, ())
        self._metrics.cache_requests.labels(tier="memory", result="miss").inc()
        task = self._flights.get(key)
        if task is None:
            task = asyncio.create_task(self._fetch(train_number, date))
            self._flights[key] = task
            task.add_done_callback(lambda _: self._flights.pop(key, None))
        return await asyncio.shield(task)

    def _memory_copy(self, key: tuple[str, dt.date]) -> Copy | None:
        copy = self._copies.get(key)
        if copy is None:
            return None
        return max(0.0, self._monotonic() - copy[0]), copy[1]

    async def _shared_copy(self, train_number: str, date: dt.date) -> Copy | None:
        """Redis's copy with its true age (by the wall clock: another replica may have stored
        it), counted as a hit only when fresh."""
        if self.shared is None:
            return None
        stored = await self.shared.get(train_number, date)
        if stored is None:
            self._metrics.cache_requests.labels(tier="redis", result="miss").inc()
            return None
        age = max(0.0, (self._clock() - stored.stored_at).total_seconds())
        result = "hit" if age < FRESH_FOR_S else "miss"
        self._metrics.cache_requests.labels(tier="redis", result=result).inc()
        return age, stored.stop_list

    async def _fetch(self, train_number: str, date: dt.date) -> StopListResult:
        key = (train_number, date)
        shared = await self._shared_copy(train_number, date)
        if shared is not None and shared[0] < FRESH_FOR_S:
            # Kept here too, dated back by its age, so it expires when the original does.
            self._copies[key] = (self._monotonic() - shared[0], shared[1])
            return self._cached(shared, ())

        def ask(source: GuardedSource) -> Awaitable[StopList]:
            adapter = source.source
            assert isinstance(adapter, StopListSource)
            return adapter.stops(train_number, date)

        try:
            found, reports = await first_answer(
                self.sources, ask, self._deadline, self._monotonic, capability=CAPABILITY
            )
        except NotFoundAtSource as exc:
            raise NotFound(
                f"{date} 没有 {train_number} 次列车。", train_number=train_number
            ) from exc
        if found is not None:
            self._copies[key] = (self._monotonic(), found)
            if self.shared is not None:
                stored = StoredStopList(stored_at=self._clock(), stop_list=found)
                await self.shared.put(train_number, date, stored)
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
        stale = [
            c for c in (self._memory_copy(key), shared) if c is not None and c[0] < STALE_FOR_S
        ]
        if stale:
            copy = min(stale, key=lambda c: c[0])
            if copy is shared:
                self._metrics.cache_requests.labels(tier="redis", result="stale").inc()
            self._metrics.degradations.labels(kind="stale_cache").inc()
            return self._cached(copy, tuple(reports))
        self._metrics.degradations.labels(kind="unavailable").inc()
        return StopListResult(
            train_number=train_number,
            date=date,
            freshness="unavailable",
            sources=tuple(reports),
            warnings=(texts.STOPS_UNAVAILABLE.format(train=train_number, date=date),),
        )

    def _cached(self, copy: Copy, reports: tuple[SourceReport, ...]) -> StopListResult:
        age, found = round(copy[0], 3), copy[1]
        return StopListResult(
            train_number=found.train_number,
            train_no=found.train_no,
            date=found.date,
            freshness="cached",
            as_of=found.fetched_at,
            age_s=age,
            sources=reports,
            stops=found.stops,
            warnings=(texts.STOPS_CACHED.format(age=texts.age_text(age)),),
        )
