"""The query service: single-flight, cache tiers, freshness and degradation (fake sources)."""

from __future__ import annotations

import asyncio

import pytest

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.cache import MemoryTier
from app.tickets.guard import GuardedSource
from app.tickets.service import TicketService
from sources.errors import SourceServerError
from tests.app.tickets.fakes import BJN, SHQ, FakeSource, city_wide, query
from tests.clocks import FakeTime


def counter(metrics: Metrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


def build(
    *sources: FakeSource, time: FakeTime | None = None, retries: int = 0, **kwargs: object
) -> tuple[TicketService, Metrics, FakeTime]:
    time = time or FakeTime()
    metrics = Metrics()
    guarded = [
        GuardedSource(
            s,
            SourceSettings(retries=retries, rate_per_s=1000, breaker_failures=100),
            metrics,
            sleep=time.sleep,
            monotonic=time.monotonic,
        )
        for s in sources
    ]
    memory = MemoryTier(30, 1800, 256, timer=time.monotonic)
    service = TicketService(
        guarded, metrics, memory, clock=time.now, monotonic=time.monotonic, **kwargs
    )
    return service, metrics, time


async def search(service: TicketService, **kwargs: object):
    return await service.search(city_wide(query(), BJN, SHQ), **kwargs)


async def test_fifty_concurrent_identical_cold_queries_cost_one_call_per_source() -> None:
    gate = asyncio.Event()
    a, b = FakeSource("a", gate=gate), FakeSource("b", gate=gate)
    service, metrics, _ = build(a, b)
    waiting = [asyncio.create_task(search(service)) for _ in range(50)]
    await asyncio.sleep(0)  # let every request reach the flight before the sources answer
    gate.set()
    results = await asyncio.gather(*waiting)
    assert (len(a.calls), len(b.calls)) == (1, 1)
    assert {r.freshness for r in results} == {"realtime"}
    assert counter(metrics, "railtrip_source_requests_total", source="a", outcome="ok") == 1


async def test_repeat_within_memory_ttl_is_cached_with_its_real_age() -> None:
    a = FakeSource("a")
    service, metrics, time = build(a)
    first = await search(service)
    time.advance(12)
    second = await search(service)
    assert first.freshness == "realtime" and first.age_s == 0
    assert second.freshness == "cached" and second.age_s == pytest.approx(12)
    assert second.as_of == first.as_of
    assert [s.freshness for s in second.sources] == ["cached"]
    assert len(a.calls) == 1
    assert counter(metrics, "railtrip_cache_requests_total", tier="memory", result="hit") == 1


async def test_memory_entry_expires_after_its_ttl() -> None:
    a = FakeSource("a")
    service, _, time = build(a)
    await search(service)
    time.advance(31)
    again = await search(service)
    assert again.freshness == "realtime"
    assert len(a.calls) == 2


async def test_one_source_failing_keeps_the_others_and_names_it() -> None:
    good = FakeSource("good")
    bad = FakeSource("bad", error=SourceServerError("bad", "HTTP 500", 500))
    service, metrics, _ = build(good, bad)
    result = await search(service)
    assert result.freshness == "realtime"
    assert [o.train_number for o in result.offers] == ["G1"]
    reports = {s.name: s for s in result.sources}
    assert reports["good"].status == "ok" and reports["good"].freshness == "realtime"
    assert reports["bad"].status == "error" and reports["bad"].freshness == "unavailable"
    assert any("bad" in w for w in result.warnings)
    assert counter(metrics, "railtrip_degradations_total", kind="source_down") == 1


async def test_all_sources_down_serves_stale_copy_tagged_cached() -> None:
    a = FakeSource("a")
    service, metrics, time = build(a)
    await search(service)
    time.advance(600)  # past L1's 30 s, within the 30 min stale window
    a.error = SourceServerError("a", "HTTP 503", 503)
    result = await search(service)
    assert result.freshness == "cached"
    assert result.age_s == pytest.approx(600)
    assert [o.train_number for o in result.offers] == ["G1"]
    assert result.sources[0].status == "error" and result.sources[0].freshness == "cached"
    assert "可能已经变化" in result.warnings[0]
    assert counter(metrics, "railtrip_degradations_total", kind="stale_cache") == 1


async def test_all_sources_down_and_nothing_cached_is_unavailable_with_a_message() -> None:
    a = FakeSource("a", error=SourceServerError("a", "HTTP 500", 500))
    service, metrics, _ = build(a)
    result = await search(service)
    assert result.freshness == "unavailable"
    assert result.offers == () and result.as_of is None
    assert "暂时无法获取" in result.warnings[0]


async def test_stale_copy_expires_after_the_stale_window() -> None:
    a = FakeSource("a")
    service, _, time = build(a)
    await search(service)
    time.advance(1801)
    a.error = SourceServerError("a", "HTTP 503", 503)
    assert (await search(service)).freshness == "unavailable"


async def test_refresh_bypasses_the_cache_for_reading_and_updates_it() -> None:
    a = FakeSource("a")
    service, _, time = build(a)
    await search(service)
    time.advance(5)
    refreshed = await search(service, refresh=True)
    assert refreshed.freshness == "realtime" and len(a.calls) == 2
    time.advance(5)
    cached = await search(service)
    assert cached.freshness == "cached" and cached.age_s == pytest.approx(5)


async def test_refresh_with_every_source_down_degrades_to_the_stale_copy() -> None:
    a = FakeSource("a")
    service, _, time = build(a)
    await search(service)
    a.error = SourceServerError("a", "HTTP 503", 503)
    time.advance(3)
    result = await search(service, refresh=True)
    assert result.freshness == "cached" and result.warnings


async def test_live_only_callers_never_get_the_stale_copy() -> None:
    a = FakeSource("a")
    service, _, _ = build(a)
    await search(service)
    a.error = SourceServerError("a", "HTTP 503", 503)
    result = await search(service, refresh=True, allow_stale=False)
    assert result.freshness == "unavailable" and result.offers == ()


async def test_an_old_hit_serves_the_cache_and_starts_exactly_one_background_refresh() -> None:
    gate = asyncio.Event()
    a = FakeSource("a")
    service, _, time = build(a, refresh_after_s=10)
    await search(service)
    a.gate = gate
    time.advance(15)
    hits = await asyncio.gather(*(search(service) for _ in range(10)))
    assert {h.freshness for h in hits} == {"cached"}
    gate.set()
    await asyncio.gather(*service._background)
    assert len(a.calls) == 2  # the first fetch and one refresh, not one per request
    assert (await search(service)).age_s == pytest.approx(0)


async def test_single_flight_can_be_disabled_for_comparison() -> None:
    gate = asyncio.Event()
    a = FakeSource("a", gate=gate)
    service, _, _ = build(a, single_flight=False)
    waiting = [asyncio.create_task(search(service)) for _ in range(5)]
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(*waiting)
    assert len(a.calls) == 5


async def test_a_result_with_a_train_type_filter_keeps_only_those_trains() -> None:
    from tests.app.tickets.fakes import offer

    a = FakeSource("a", lambda q: [offer("G1"), offer("K5", hour=20)])
    service, _, _ = build(a)
    typed = query().model_copy(update={"train_types": frozenset({"K"})})
    result = await service.search(city_wide(typed, BJN, SHQ))
    assert [o.train_number for o in result.offers] == ["K5"]


async def test_a_live_only_caller_never_joins_a_flight_that_may_serve_the_stale_copy() -> None:
    gate = asyncio.Event()
    a = FakeSource("a")
    service, _, _ = build(a)
    await search(service)
    a.error = SourceServerError("a", "HTTP 503", 503)
    a.gate = gate
    refresh = asyncio.create_task(search(service, refresh=True))
    live_only = asyncio.create_task(search(service, refresh=True, allow_stale=False))
    await asyncio.sleep(0)
    gate.set()
    assert (await refresh).freshness == "cached"  # the stale copy, with its warning
    assert (await live_only).freshness == "unavailable"
    assert len(a.calls) == 3  # the first fetch, then one live attempt per kind of caller
