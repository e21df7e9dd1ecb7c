"""The ticket query service: caches, single-flight, fan-out and honest freshness.

search(resolved) ─ L1 hit ───────────────────────────► cached (age), maybe refresh in bg
     │ miss
     └─ flight(key) ─ L2 hit ─────────────────────────► cached (age), maybe refresh in bg
              │ miss                          (N identical misses share one flight)
              ├─ fleet lease held elsewhere ─ its answer in L2 ─► cached (age)
              │     (lease dropped or expired, or waited lease_s: fetch here)
              └─ fan-out ─ any source ok ─ store ─────► realtime
                     └ all failed ─ stale copy ───────► cached + warning
                               └ none ────────────────► unavailable + message

Every answer is then narrowed to the stations the resolved query asks for (北京南, not all of
北京): the caller passes the resolved value whole and never filters by station itself.

A query's deadline is one budget from its arrival in `search` (app/tickets/deadline.py): the
L2 look-up, the wait for another replica's lease, the admission queue and the fan-out spend
it; the sources are cut the answer's reserve before its end, and neither the L2 write nor
the stale look-up holds an answer past it. What cannot be had in time is refused at once
(`Overloaded`) or answered `cached`/`unavailable` by the deadline, never late.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, NamedTuple

from app.errors import Overloaded
from app.observability.metrics import Metrics
from app.tickets import texts
from app.tickets.cache import CacheEntry, MemoryTier, RedisTier
from app.tickets.deadline import Deadline, answer_reserve_s
from app.tickets.fanout import SourceAnswer, fan_out, in_turn, source_report
from app.tickets.fleet_flight import FleetFlight, Lease
from app.tickets.guard import ABANDONED, GuardedSource
from app.tickets.merge import merge_offers
from app.tickets.model import QueryEcho, ResolvedQuery, SourceReport, TicketResult
from sources.base import Clock, shanghai_now
from sources.models import TicketQuery

log = logging.getLogger("railtrip.tickets")

_NO_TIME_LEFT = "not asked: no time was left of the query deadline"


class TicketService:
    """Answers ticket queries from caches or live sources, never inventing freshness."""

    def __init__(
        self,
        sources: Sequence[GuardedSource],
        metrics: Metrics,
        memory: MemoryTier,
        redis: RedisTier | None = None,
        *,
        deadline_s: float = 5.0,
        refresh_after_s: float = 60.0,
        clock: Clock = shanghai_now,
        monotonic: Callable[[], float] = time.monotonic,
        single_flight: bool = True,
        fleet: FleetFlight | None = None,
    ) -> None:
        self.sources = list(sources)
        self.fleet = fleet
        self.memory = memory
        self.redis = redis
        self._metrics = metrics
        self._deadline = deadline_s
        self._reserve = answer_reserve_s(deadline_s)
        self._refresh_after = refresh_after_s
        self._clock = clock
        self._monotonic = monotonic
        self._single_flight = single_flight
        # Keyed by what the caller may be given, so a live-only caller (the precheck) never
        # joins a flight that may end on the stale copy, and vice versa.
        # Bound once: `labels()` is a locked dict lookup, measurable on the cache-hit path.
        self._memory_hit = metrics.cache_requests.labels(tier="memory", result="hit")
        self._memory_miss = metrics.cache_requests.labels(tier="memory", result="miss")
        self._flights: dict[tuple[str, bool, bool], asyncio.Task[TicketResult]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._refreshing: set[str] = set()  # fleet-aware background refreshes under way
        self._waiters: dict[asyncio.Task[TicketResult], int] = {}  # callers per flight
        self._writing: dict[str, asyncio.Task[None]] = {}  # L2 writes that outlived an answer

    async def search(
        self,
        resolved: ResolvedQuery,
        *,
        refresh: bool = False,
        allow_stale: bool = True,
        one_source: bool = False,
    ) -> TicketResult:
        """Offers for `resolved`, at the stations it asks for; `refresh` bypasses both tiers
        for reading (and updates them).

        The sources are asked city-wide (one cache entry per pair of cities, date and types,
        whichever station names the caller used); the answer keeps only the asked stations.

        `one_source`: for a caller that knows which trains it wants confirmed (a leg of the
        timetable's best journey), the sources are asked in turn until one answers in full
        (`fanout.in_turn`) rather than all at once. Such an answer is cached apart (a
        caller asking every source never gets it), and an answer of every source serves it.
        """
        arrived = self._monotonic()
        query = resolved.query
        echo = _echo(resolved)
        if not refresh:
            entry, one = self.memory.get(query.key), False
            if entry is None and one_source:
                entry, one = self.memory.get(_key(query, True)), True
            (self._memory_miss if entry is None else self._memory_hit).inc()
            if entry is not None:
                age = self._age(entry)
                self._refresh_if_old(query, echo, age, one_source=one)
                return self.hit_answer(resolved, entry, age, echo)
        deadline = Deadline(arrived + self._deadline, self._monotonic)
        result = await self._join(
            query, echo, deadline, refresh=refresh, allow_stale=allow_stale, one_source=one_source
        )
        return _narrowed(resolved, result)

    def peek(self, resolved: ResolvedQuery) -> CachedHit | None:
        """An L1 hit for `resolved`, counted and (when old) refreshed in the background as
        `search` does, without building its answer; None on a miss, counting nothing (the
        caller then asks `search`, which counts it).

        For the HTTP hit path (app/http/ticket_hits.py), which serves the answer's bytes
        prepared once per entry (`hit_answer` gives the answer itself)."""
        entry = self.memory.get(resolved.query.key)
        if entry is None:
            return None
        self._memory_hit.inc()
        age = self._age(entry)
        if age >= self._refresh_after:
            self._refresh_if_old(resolved.query, _echo(resolved), age)
        return CachedHit(entry, age)

    def hit_answer(
        self,
        resolved: ResolvedQuery,
        entry: CacheEntry,
        age: float,
        echo: QueryEcho | None = None,
    ) -> TicketResult:
        """What `search` answers for `resolved` when L1 holds `entry`, `age` seconds old."""
        result = self._from_cache(echo or _echo(resolved), entry, age)
        return _narrowed(resolved, result)

    async def aclose(self) -> None:
        """Cancel background refreshes (app shutdown)."""
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)

    # -- single-flight -------------------------------------------------------------------

    async def _join(
        self,
        query: TicketQuery,
        echo: QueryEcho,
        deadline: Deadline,
        *,
        refresh: bool,
        allow_stale: bool,
        one_source: bool = False,
    ) -> TicketResult:
        scope = {"refresh": refresh, "allow_stale": allow_stale, "one_source": one_source}
        if not self._single_flight:
            return await self._fly(query, echo, deadline, **scope)
        # A flight under way started before this caller came: it ends by an earlier deadline.
        task = self._flight(query, echo, deadline, **scope)
        self._waiters[task] = self._waiters.get(task, 0) + 1
        try:
            # Shielded: one caller leaving (a client that disconnected) must not cancel the
            # answer others wait for ...
            return await asyncio.shield(task)
        finally:
            left = self._waiters.pop(task) - 1
            if left:
                self._waiters[task] = left
            elif not task.done() and task not in self._background:
                # ... but once nobody waits, its upstream queries are wasted work: stop them.
                task.cancel(ABANDONED)

    def _flight(
        self,
        query: TicketQuery,
        echo: QueryEcho,
        deadline: Deadline,
        *,
        refresh: bool,
        allow_stale: bool,
        one_source: bool = False,
    ) -> asyncio.Task[TicketResult]:
        """The flight in progress for this key, or a new one by `deadline` (registered
        synchronously)."""
        flight_key = (_key(query, one_source), refresh, allow_stale)
        task = self._flights.get(flight_key)
        if task is None:
            task = asyncio.create_task(
                self._fly(
                    query,
                    echo,
                    deadline,
                    refresh=refresh,
                    allow_stale=allow_stale,
                    one_source=one_source,
                )
            )
            self._flights[flight_key] = task
            task.add_done_callback(lambda _: self._flights.pop(flight_key, None))
        return task

    async def _fly(
        self,
        query: TicketQuery,
        echo: QueryEcho,
        deadline: Deadline,
        *,
        refresh: bool,
        allow_stale: bool,
        one_source: bool = False,
    ) -> TicketResult:
        one = one_source
        if not refresh and self.redis is not None:
            entry, found_one = await self.redis.get(query.key), False
            if entry is None and one:
                entry, found_one = await self.redis.get(_key(query, True)), True
            self._metrics.cache_requests.labels(
                tier="redis", result="hit" if entry else "miss"
            ).inc()
            if entry is not None:
                self.memory.put(_key(query, found_one), entry)
                return self._cached(query, echo, entry, one_source=found_one)
            if self.fleet is not None:
                return await self._fetch_for_fleet(
                    self.fleet, query, echo, deadline, allow_stale, one_source=one
                )
        return await self._fetch(query, echo, deadline, allow_stale=allow_stale, one_source=one)

    async def _fetch_for_fleet(
        self,
        fleet: FleetFlight,
        query: TicketQuery,
        echo: QueryEcho,
        deadline: Deadline,
        allow_stale: bool,
        *,
        one_source: bool = False,
    ) -> TicketResult:
        """Fetch once for the whole fleet: hold the lease, or wait for its holder's answer.

        Waiting and a fetch after it spend the same deadline: a waiter never answers later
        than a fetch started when the request came would have."""
        one = one_source
        key = _key(query, one)
        lease = await fleet.try_lease(key)
        if lease is False:
            waited = await self._wait_for_holder(fleet, query, deadline, one_source=one)
            if isinstance(waited, CacheEntry):
                return self._cached(query, echo, waited, one_source=one)
            lease = waited
        if not isinstance(lease, Lease):
            return await self._fetch(query, echo, deadline, allow_stale=allow_stale, one_source=one)
        async with contextlib.AsyncExitStack() as held:
            await held.enter_async_context(fleet.holding(lease))
            # The previous holder may have answered between our miss and this lease.
            entry = await self._l2_answer(query, one_source=one)
            if entry is not None:
                return self._cached(query, echo, entry, one_source=one)
            # `_fetch` writes L2 before it returns, so the lease drops after the answer lands,
            result = await self._fetch(
                query, echo, deadline, allow_stale=allow_stale, waited_for=True, one_source=one
            )
            writing = self._writing.get(key)
            if writing is not None:
                # ... unless the write outlived the answer's deadline: then the lease is kept
                # until it lands, in the background, and the answer goes now.
                self._keep(self._release_after(writing, held.pop_all()))
            return result

    async def _release_after(
        self, writing: asyncio.Task[None], held: contextlib.AsyncExitStack
    ) -> None:
        async with held:
            await asyncio.wait({writing})

    async def _wait_for_holder(
        self, fleet: FleetFlight, query: TicketQuery, deadline: Deadline, *, one_source: bool
    ) -> CacheEntry | Lease | None:
        """The holder's answer from L2; or the lease once it is gone without one; or None
        (fetch without a lease) once the deadline leaves the sources no time, or after a
        whole TTL without seeing the lease (Redis unusable). A failed poll keeps waiting: the
        holder may be writing."""
        seen = fleet.now()
        while True:
            if deadline.left() <= self._reserve or fleet.now() - seen >= fleet.lease_s:
                return None
            await fleet.pause()
            entry = await self._l2_answer(query, one_source=one_source)
            if entry is not None:
                return entry
            lease = await fleet.try_lease(_key(query, one_source))
            if isinstance(lease, Lease):
                return lease
            if lease is False:
                seen = fleet.now()

    async def _l2_answer(
        self, query: TicketQuery, *, one_source: bool = False
    ) -> CacheEntry | None:
        """Another replica's answer, once it lands in L2 (a hit is counted; polls are not)."""
        key = _key(query, one_source)
        entry = await self.redis.get(key) if self.redis is not None else None
        if entry is not None:
            self._metrics.cache_requests.labels(tier="redis", result="hit").inc()
            self.memory.put(key, entry)
        return entry

    # -- live fetch ----------------------------------------------------------------------

    async def _fetch(
        self,
        query: TicketQuery,
        echo: QueryEcho,
        deadline: Deadline,
        *,
        allow_stale: bool,
        waited_for: bool = False,
        one_source: bool = False,
    ) -> TicketResult:
        """Ask every source (`one_source`: in turn, until one answers in full) until the
        answer's reserve before `deadline`; nothing is asked once no time is left.
        `waited_for`: other replicas wait for this answer in L2 (this replica holds the
        lease)."""
        until = deadline.earlier(self._reserve)
        scope = {"allow_stale": allow_stale, "one_source": one_source}
        if until.left() <= 0:
            reports = tuple(
                source_report(s.name, "timeout", 0.0, _NO_TIME_LEFT) for s in self.sources
            )
            return await self._degrade(query, echo, reports, deadline, **scope)
        ask = in_turn if one_source else fan_out
        answers = await ask(self.sources, query, until)
        reports = tuple(answer.report for answer in answers)
        if not any(a.ok for a in answers) and any(_overloaded(a) for a in answers):
            # Our own queue refused it: say so, rather than blame the sources or go stale.
            raise self._overloaded(answers)
        warnings = [
            (texts.SOURCE_OVERLOADED if _overloaded(a) else texts.SOURCE_FAILED).format(
                name=a.report.name, status=a.report.status
            )
            for a in answers
            if not a.ok
        ]
        if any(a.ok for a in answers):
            for answer in answers:
                if not answer.ok:
                    kind = "source_overloaded" if _overloaded(answer) else "source_down"
                    self._metrics.degradations.labels(kind=kind).inc()
            entry = CacheEntry(
                as_of=self._clock(),
                sources=reports,
                offers=tuple(merge_offers(list(a.offers) for a in answers if a.ok)),
            )
            await self._store(_key(query, one_source), entry, until, waited_for=waited_for)
            return TicketResult(
                query=echo,
                freshness="realtime",
                as_of=entry.as_of,
                age_s=0.0,
                sources=reports,
                offers=entry.offers,
                warnings=tuple(warnings) if any(not a.ok for a in answers) else (),
            )
        return await self._degrade(query, echo, reports, deadline, **scope)

    def _overloaded(self, answers: Sequence[SourceAnswer]) -> Overloaded:
        names = {a.report.name for a in answers if _overloaded(a)}
        waits = [
            s.admission.retry_after_s()
            for s in self.sources
            if s.name in names and s.admission is not None
        ]
        retry_after = min(waits, default=1.0)
        return Overloaded(
            texts.SERVICE_OVERLOADED.format(retry_after=math.ceil(retry_after)), retry_after
        )

    async def _store(
        self, key: str, entry: CacheEntry, until: Deadline, *, waited_for: bool = False
    ) -> None:
        """Into L1 at once, and into L2 until the sources' cut `until` (the answer's reserve
        is for handing it back): a write still going then goes on without the answer (in
        `_writing` until it lands)."""
        self.memory.put(key, entry)
        if self.redis is None:
            return
        # Waited for: tried even if a recent hiccup marked Redis down (a skipped write would
        # send every waiting replica to the sources again).
        write = asyncio.create_task(self.redis.put(key, entry, force=waited_for))
        try:
            await asyncio.wait({write}, timeout=until.left())
        finally:
            if not write.done():
                self._writing[key] = write
                write.add_done_callback(lambda _: self._written(key, write))
                self._keep(write)
        if write.done():
            write.result()  # what the write raised, as when it was awaited in line

    def _written(self, key: str, write: asyncio.Task[None]) -> None:
        if self._writing.get(key) is write:
            del self._writing[key]

    def _keep(self, work: Coroutine[Any, Any, None] | asyncio.Task[None]) -> None:
        """Run `work` on in the background (cancelled by `aclose`)."""
        task = work if isinstance(work, asyncio.Task) else asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _degrade(
        self,
        query: TicketQuery,
        echo: QueryEcho,
        reports: tuple[SourceReport, ...],
        deadline: Deadline,
        *,
        allow_stale: bool,
        one_source: bool = False,
    ) -> TicketResult:
        stale = None
        if allow_stale:
            keys = (_key(query, True), query.key) if one_source else (query.key,)
            for key in keys:
                stale = stale or await self._stale(key, deadline)
        if stale is not None:
            self._metrics.degradations.labels(kind="stale_cache").inc()
            age = self._age(stale)
            served = {name for offer in stale.offers for name in offer.sources}
            return TicketResult(
                query=echo,
                freshness="cached",
                as_of=stale.as_of,
                age_s=age,
                sources=tuple(
                    r.model_copy(
                        update={"freshness": "cached" if r.name in served else "unavailable"}
                    )
                    for r in reports
                ),
                offers=stale.offers,
                warnings=(texts.STALE_COPY.format(age=texts.age_text(age)),),
            )
        self._metrics.degradations.labels(kind="unavailable").inc()
        return TicketResult(
            query=echo,
            freshness="unavailable",
            sources=reports,
            warnings=(
                texts.UNAVAILABLE.format(
                    origin=echo.origin.name, destination=echo.destination.name, date=echo.date
                ),
            ),
        )

    async def _stale(self, key: str, deadline: Deadline) -> CacheEntry | None:
        entry = self.memory.get_stale(key)
        self._metrics.cache_requests.labels(
            tier="memory", result="stale" if entry else "miss"
        ).inc()
        if entry is None and self.redis is not None:
            # Only while the deadline lasts: past it, `unavailable` now beats a copy later.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(deadline.left()):
                    entry = await self.redis.get_stale(key)
            self._metrics.cache_requests.labels(
                tier="redis", result="stale" if entry else "miss"
            ).inc()
        return entry

    # -- cache hits ----------------------------------------------------------------------

    def _cached(
        self, query: TicketQuery, echo: QueryEcho, entry: CacheEntry, *, one_source: bool = False
    ) -> TicketResult:
        """An answer from a cache entry just read (L2, or the holder's answer in it)."""
        age = self._age(entry)
        self._refresh_if_old(query, echo, age, one_source=one_source)
        return self._from_cache(echo, entry, age)

    def _from_cache(self, echo: QueryEcho, entry: CacheEntry, age: float) -> TicketResult:
        # The hot path: every part is already valid, so construct without re-validating and
        # reuse the entry's serialised offers.
        result = TicketResult.model_construct(
            query=echo,
            freshness="cached",
            as_of=entry.as_of,
            age_s=age,
            sources=entry.sources_as_cached,
            offers=entry.offers,
            warnings=(texts.cached_copy(age),),
        )
        result._offers_json = entry.offers_json
        return result

    def _refresh_if_old(
        self, query: TicketQuery, echo: QueryEcho, age: float, *, one_source: bool = False
    ) -> None:
        if age >= self._refresh_after:
            self._refresh_in_background(query, echo, one_source=one_source)

    def _refresh_in_background(
        self, query: TicketQuery, echo: QueryEcho, *, one_source: bool = False
    ) -> None:
        """One background refresh per key at a time, never one per request (nor, with the
        fleet flight, one per replica)."""
        key = _key(query, one_source)
        if (key, True, False) in self._flights or key in self._refreshing:
            return
        task: asyncio.Task[Any]
        if self.fleet is None:
            deadline = Deadline.after(self._deadline, self._monotonic)
            task = self._flight(
                query, echo, deadline, refresh=True, allow_stale=False, one_source=one_source
            )
        else:
            self._refreshing.add(key)
            task = asyncio.create_task(
                self._refresh_for_fleet(self.fleet, query, echo, one_source=one_source)
            )
            task.add_done_callback(lambda _: self._refreshing.discard(key))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_observe_refusal)

    async def _refresh_for_fleet(
        self, fleet: FleetFlight, query: TicketQuery, echo: QueryEcho, *, one_source: bool
    ) -> None:
        """Refresh unless another replica is fetching this query or already refreshed it."""
        lease = await fleet.try_lease(_key(query, one_source))
        if lease is False:
            return  # its answer lands in L2, where this replica reads it once L1 expires
        if isinstance(lease, Lease):
            async with fleet.holding(lease):
                entry = await self._l2_answer(query, one_source=one_source)
                if entry is not None and self._age(entry) < self._refresh_after:
                    return  # another replica refreshed it: now in this L1 too
                await self._background_flight(query, echo, one_source=one_source)
        else:
            await self._background_flight(query, echo, one_source=one_source)

    async def _background_flight(
        self, query: TicketQuery, echo: QueryEcho, *, one_source: bool
    ) -> None:
        deadline = Deadline.after(self._deadline, self._monotonic)
        flight = self._flight(
            query, echo, deadline, refresh=True, allow_stale=False, one_source=one_source
        )
        self._background.add(flight)  # a background flight: never abandoned by a caller
        flight.add_done_callback(self._background.discard)
        await flight

    def _age(self, entry: CacheEntry) -> float:
        return max(0.0, round((self._clock() - entry.as_of).total_seconds(), 3))


class CachedHit(NamedTuple):
    """An L1 entry found for a query, and its age in seconds now."""

    entry: CacheEntry
    age: float


ONE_SOURCE_KEY = "|one-source"
"""What a key of an answer asked in turn (`search(one_source=True)`) ends with: one source's
answer, which a caller asking every source must not be given."""


def _key(query: TicketQuery, one_source: bool) -> str:
    """The key a query's answer is cached, shared and leased under."""
    return query.key + ONE_SOURCE_KEY if one_source else query.key


def _echo(resolved: ResolvedQuery) -> QueryEcho:
    query = resolved.query
    # Every part is already validated (stations from the directory, a TicketQuery).
    return QueryEcho.model_construct(
        origin=resolved.origin_station,
        destination=resolved.destination_station,
        date=query.date,
        train_types=tuple(sorted(query.train_types)),
        fare=query.fare,
    )


def _narrowed(resolved: ResolvedQuery, result: TicketResult) -> TicketResult:
    """The answer at the stations asked for (city-wide entries hold every station's rides)."""
    kept = resolved.keep(result.offers)
    return result if kept is None else result.with_offers(kept)


def _overloaded(answer: SourceAnswer) -> bool:
    return answer.report.status == "overloaded"


def _observe_refusal(task: asyncio.Task[TicketResult]) -> None:
    """A background refresh refused by admission control is simply skipped."""
    error = None if task.cancelled() else task.exception()
    if isinstance(error, Overloaded):
        log.debug("background refresh skipped: source queue full")
    elif error is not None:
        log.warning("background refresh failed", exc_info=error)
