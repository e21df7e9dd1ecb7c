"""A query's deadline is one budget from its arrival: what it spends before the sources (an
L2 look-up) and after them (the L2 write) counts, and an answer that cannot be had in time
is the stale copy or `unavailable` by the deadline, never a live answer after it.

On virtual time (tests/virtual_time.py): a slow Redis is a wait on the loop's clock."""

from __future__ import annotations

import asyncio
import datetime as dt

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.cache import CacheEntry, MemoryTier
from app.tickets.guard import GuardedSource
from app.tickets.model import TicketResult
from app.tickets.service import TicketService
from sources.models import SHANGHAI
from tests.app.tickets.fakes import BJN, SHQ, FakeSource, SlowL2, city_wide, offer, query
from tests.virtual_time import run_on_virtual_time

DEADLINE_S = 5.0
EPSILON_S = 1e-3  # the loop's virtual microsecond per iteration, a few of them


def asked(
    source: FakeSource, l2: SlowL2, *, stale: CacheEntry | None = None
) -> tuple[TicketResult, float]:
    """One cold query to a service over `source` (its attempts may take 6 s: only the
    deadline cuts them) and `l2`, with `stale` the only copy in this replica's L1: its answer
    and how long it took, on virtual time."""

    async def scenario() -> tuple[TicketResult, float]:
        loop = asyncio.get_running_loop()
        metrics = Metrics()
        guard = GuardedSource(
            source,
            SourceSettings(timeout_s=6.0, retries=0),
            metrics,
            monotonic=loop.time,
            deadline_s=DEADLINE_S,
        )
        memory = MemoryTier(0.5, 1800, 64, timer=loop.time)  # fresh 0.5 s, then stale
        if stale is not None:
            memory.put(query().key, stale)
        service = TicketService(
            [guard], metrics, memory, l2, deadline_s=DEADLINE_S, monotonic=loop.time
        )
        await asyncio.sleep(1.0)  # the copy is stale now
        started = loop.time()
        answer = await service.search(city_wide(query(), BJN, SHQ))
        took = loop.time() - started
        await asyncio.sleep(DEADLINE_S)  # what goes on without the answer ends meanwhile
        await service.aclose()
        return answer, took

    return run_on_virtual_time(scenario())


def test_a_slow_l2_write_never_holds_a_live_answer_past_its_deadline():
    # The source answers at 4.5 s, then the L2 write takes 0.6 s (a Redis pool wait).
    # Awaited in line, the live answer came at 5.1 s.
    l2 = SlowL2(write_s=0.6)
    answer, took = asked(FakeSource("a", delay_s=4.5), l2)
    assert answer.freshness == "realtime"
    assert took <= DEADLINE_S + EPSILON_S, took
    assert [key for key, _ in l2.written] == [query().key]  # it landed, without the answer


def test_what_the_sources_cannot_answer_in_the_time_left_is_the_stale_copy_by_the_deadline():
    # The L2 look-up takes 0.3 s and the source answers 4.9 s after it: counted from the
    # fan-out, that was a live answer at 5.2 s. Counted from arrival, the source is cut in
    # time and the stale copy this replica holds is served, tagged `cached`.
    copy = CacheEntry(
        as_of=dt.datetime(2026, 12, 1, 7, 0, tzinfo=SHANGHAI),
        sources=(),
        offers=(offer(source="a"),),
    )
    answer, took = asked(FakeSource("a", delay_s=4.9), SlowL2(read_s=0.3), stale=copy)
    assert took <= DEADLINE_S + EPSILON_S, took
    assert answer.freshness == "cached" and answer.offers
    assert [(r.name, r.status, r.freshness) for r in answer.sources] == [("a", "timeout", "cached")]


def test_with_no_copy_it_is_unavailable_by_the_deadline():
    answer, took = asked(FakeSource("a", delay_s=4.9), SlowL2(read_s=0.3))
    assert took <= DEADLINE_S + EPSILON_S, took
    assert answer.freshness == "unavailable" and not answer.offers
    assert [r.status for r in answer.sources] == ["timeout"]
