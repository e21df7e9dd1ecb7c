"""Asking one source for trains the caller knows (`search(one_source=True)`, `fanout.in_turn`):
the next source only when the one before cannot answer in full or in time, and such an
answer never stands in for every source's."""

from __future__ import annotations

import asyncio

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.cache import MemoryTier
from app.tickets.guard import GuardedSource
from app.tickets.service import TicketService
from sources.errors import SourceServerError
from sources.models import Seat, SeatClass, SeatStatus
from tests.app.tickets.fakes import BJN, SHQ, FakeSource, city_wide, offer, query
from tests.app.tickets.test_service import build
from tests.virtual_time import run_on_virtual_time

UNPRICED = Seat(seat_class=SeatClass.SECOND, status=SeatStatus.AVAILABLE, available=5, price=None)


async def one(service: TicketService, **kwargs: object):
    return await service.search(city_wide(query(), BJN, SHQ), one_source=True, **kwargs)


async def every(service: TicketService):
    return await service.search(city_wide(query(), BJN, SHQ))


async def test_the_first_source_answering_in_full_is_the_only_one_asked() -> None:
    a, b = FakeSource("a"), FakeSource("b")
    service, _, _ = build(a, b)
    result = await one(service)
    assert (len(a.calls), len(b.calls)) == (1, 0)
    assert result.freshness == "realtime"
    assert [s.name for s in result.sources] == ["a"]
    assert [o.train_number for o in result.offers] == ["G1"]


async def test_a_failing_first_source_sends_the_query_to_the_next() -> None:
    a = FakeSource("a", error=SourceServerError("a", "HTTP 500", 500))
    b = FakeSource("b")
    service, _, _ = build(a, b)
    result = await one(service)
    assert (len(a.calls), len(b.calls)) == (1, 1)
    assert result.freshness == "realtime"
    assert {s.name: s.status for s in result.sources} == {"a": "error", "b": "ok"}
    assert [o.sources for o in result.offers] == [("b",)]


async def test_a_seat_on_sale_without_its_fare_is_priced_by_the_next_source() -> None:
    a = FakeSource("a", lambda q: [offer(source="a", second=UNPRICED)])
    b = FakeSource("b")
    service, _, _ = build(a, b)
    result = await one(service)
    assert (len(a.calls), len(b.calls)) == (1, 1)
    (merged,) = result.offers
    assert merged.seats[0].price == 553.0 and merged.sources == ("a", "b")


async def test_a_one_source_answer_is_never_served_to_a_query_of_every_source() -> None:
    a, b = FakeSource("a"), FakeSource("b")
    service, _, _ = build(a, b)
    await one(service)
    result = await every(service)
    assert result.freshness == "realtime", "not the one-source copy"
    assert (len(a.calls), len(b.calls)) == (2, 1)
    again = await one(service)
    assert again.freshness == "cached" and {s.name for s in again.sources} == {"a", "b"}
    assert (len(a.calls), len(b.calls)) == (2, 1), "every source's answer serves it"


async def test_concurrent_one_source_queries_share_one_flight_apart_from_every_source() -> None:
    gate = asyncio.Event()
    a, b = FakeSource("a", gate=gate), FakeSource("b", gate=gate)
    service, _, _ = build(a, b)
    waiting = [asyncio.create_task(one(service)) for _ in range(5)]
    waiting.append(asyncio.create_task(every(service)))
    await asyncio.sleep(0)
    gate.set()
    results = await asyncio.gather(*waiting)
    assert (len(a.calls), len(b.calls)) == (2, 1)  # one flight in turn, one of every source
    assert [len(r.sources) for r in results] == [1, 1, 1, 1, 1, 2]


def test_a_hanging_first_source_leaves_the_next_half_the_deadline() -> None:
    async def scenario() -> tuple[float, list[str], int]:
        loop = asyncio.get_running_loop()
        metrics = Metrics()
        hanging = FakeSource("a", delay_s=60.0)
        b = FakeSource("b", delay_s=0.5)
        guards = [
            GuardedSource(
                s, SourceSettings(timeout_s=30.0, retries=0), metrics, monotonic=loop.time
            )
            for s in (hanging, b)
        ]
        memory = MemoryTier(30, 1800, 64, timer=loop.time)
        service = TicketService(guards, metrics, memory, deadline_s=5.0, monotonic=loop.time)
        started = loop.time()
        result = await one(service)
        took = loop.time() - started
        await service.aclose()
        return took, [s.status for s in result.sources], len(result.offers)

    took, statuses, offers = run_on_virtual_time(scenario())
    # The sources are cut 0.2 s before the 5 s deadline; b is asked at half of 4.8 s.
    assert statuses == ["timeout", "ok"] and offers == 1
    assert 4.7 < took <= 5.0
