"""Admission control: a full source queue refuses at once, `overloaded`, never blamed on the
source, never an attempt, while the requests already admitted are served live."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from app.errors import Overloaded
from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.admission import SourceAdmission, SourceOverloaded, default_queue_limit
from app.tickets.cache import MemoryTier
from app.tickets.guard import GuardedSource
from app.tickets.service import TicketService
from tests.app.tickets.fakes import BJN, DAY, SHQ, FakeSource, city_wide, query
from tests.clocks import FakeTime


def counter(metrics: Metrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


def gated(*sources: FakeSource, queue_limit: int) -> tuple[TicketService, Metrics]:
    time = FakeTime()
    metrics = Metrics()
    guarded = [
        GuardedSource(
            s,
            SourceSettings(concurrency=1, rate_per_s=1000, retries=0),
            metrics,
            sleep=time.sleep,
            monotonic=time.monotonic,
            queue_limit=queue_limit,
        )
        for s in sources
    ]
    memory = MemoryTier(30, 1800, 256, timer=time.monotonic)
    return TicketService(guarded, metrics, memory, clock=time.now), metrics


async def until(condition) -> None:  # type: ignore[no-untyped-def]
    """Yield to the loop until `condition()` holds (no timer, no real sleep)."""
    for _ in range(10_000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("condition never held")


def test_the_default_queue_is_what_the_rate_drains_while_an_attempt_still_fits():
    assert default_queue_limit(5.0, 5.0, 3.0) == 10  # the defaults: 5/s, 5 s deadline, 3 s
    assert default_queue_limit(50.0, 1.0, 0.5) == 25
    assert default_queue_limit(5.0, 3.0, 3.0) == 0


def test_a_full_admission_refuses_with_a_retry_after_from_the_queue_length():
    admission = SourceAdmission("a", concurrency=1, queue_limit=2, rate_per_s=1.0)
    with admission.enter(), admission.enter(), admission.enter():
        with pytest.raises(SourceOverloaded) as refused:
            with admission.enter():
                pass
        assert refused.value.retry_after_s == 3  # two waiting ahead, plus this one, at 1/s
    assert admission.inside == 0


async def test_a_query_beyond_the_queue_is_refused_at_once_and_never_reaches_the_source():
    gate = asyncio.Event()
    source = FakeSource("a", gate=gate)
    service, metrics = gated(source, queue_limit=1)
    days = [DAY + dt.timedelta(days=k) for k in range(3)]
    admitted = [
        asyncio.create_task(service.search(city_wide(query(day), BJN, SHQ))) for day in days[:2]
    ]
    guard = service.sources[0]
    await until(lambda: guard.admission is not None and guard.admission.inside == 2)

    with pytest.raises(Overloaded) as refused:
        await service.search(city_wide(query(days[2]), BJN, SHQ))
    assert refused.value.code == "overloaded" and refused.value.retry_after_s >= 1
    assert "所有数据源均无响应" not in refused.value.message
    assert len(source.calls) == 1  # one running, one waiting, the third never went out

    gate.set()
    results = await asyncio.gather(*admitted)
    assert [r.freshness for r in results] == ["realtime", "realtime"]
    attempts = counter(metrics, "railtrip_source_requests_total", source="a", outcome="ok")
    assert attempts == 2
    assert counter(metrics, "railtrip_degradations_total", kind="unavailable") == 0


async def test_one_overloaded_source_beside_an_answering_one_is_named_as_ours_not_theirs():
    gate = asyncio.Event()
    busy = FakeSource("busy", gate=gate)
    free = FakeSource("free")
    service, metrics = gated(busy, free, queue_limit=0)
    first = asyncio.create_task(service.search(city_wide(query(DAY), BJN, SHQ)))
    guard = service.sources[0]
    await until(lambda: guard.admission is not None and guard.admission.inside == 1)

    result = await service.search(city_wide(query(DAY + dt.timedelta(days=1)), BJN, SHQ))
    assert result.freshness == "realtime"
    statuses = {r.name: r.status for r in result.sources}
    assert statuses == {"busy": "overloaded", "free": "ok"}
    assert any("并非数据源故障" in w for w in result.warnings)
    assert counter(metrics, "railtrip_degradations_total", kind="source_overloaded") == 1
    assert counter(metrics, "railtrip_degradations_total", kind="source_down") == 0
    gate.set()
    await first
