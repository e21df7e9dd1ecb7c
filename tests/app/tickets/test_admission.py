"""Admission control: a full source queue refuses at once, `overloaded`, never blamed on the
source, never an attempt, while the requests already admitted are served live; the bound
follows the latency the source shows (a moving estimate), not the attempt timeout."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import math

import pytest

from app.errors import Overloaded
from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.admission import (
    LatencyEstimate,
    SourceAdmission,
    SourceOverloaded,
    adaptive_capacity,
)
from app.tickets.cache import MemoryTier
from app.tickets.guard import GuardedSource
from app.tickets.service import TicketService
from tests.app.tickets.fakes import BJN, DAY, SHQ, FakeSource, SlowL2, city_wide, query
from tests.clocks import FakeTime
from tests.virtual_time import run_on_virtual_time


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


def test_the_bound_is_what_the_drain_answers_within_the_deadline_after_one_latency():
    # 5/s, 5 at once, a 5 s deadline, 0.8 s answers: 21 would end by 4.8 s; one slot spare
    assert adaptive_capacity(5.0, 5, 5.0, 0.8) == 20
    # At the 3 s timeout (the worst case), 5 at once drain 5/3 a second, not 5.
    assert adaptive_capacity(5.0, 5, 5.0, 3.0) == 3
    assert adaptive_capacity(5.0, 2, 5.0, 1.0) == 7  # two at once drain 2/s
    assert adaptive_capacity(5.0, 5, 5.0, 4.99) == 1  # never 0: a slow source may recover
    assert adaptive_capacity(5.0, 5, 5.0, 6.0) == 1


def test_the_latency_estimate_starts_at_the_timeout_and_follows_what_the_source_shows():
    latency = LatencyEstimate(timeout_s=3.0)
    assert latency.seconds == 3.0  # nothing seen yet: the worst case
    latency.observe(1.8)  # a first attempt that also opened a session
    assert latency.seconds == 1.8
    for _ in range(4):
        latency.observe(0.8)
    assert latency.seconds == 0.8  # one slow attempt in five does not hold the bound down
    for _ in range(5):
        latency.observe(2.0)  # the source slowed down: a few answers move it
    assert latency.seconds == 2.0
    for _ in range(16):
        latency.observe(30.0)  # timeouts: no attempt lasts beyond the timeout
    assert latency.seconds == 3.0


def test_a_full_admission_refuses_with_a_retry_after_from_the_queue_length():
    latency = LatencyEstimate(3.0)
    latency.observe(0.5)  # one at a time at 0.5 s would drain 2/s: the rate (1/s) binds
    admission = SourceAdmission("a", 1, 1.0, latency=latency, deadline_s=5.0, queue_limit=2)
    with admission.enter(), admission.enter(), admission.enter():
        with pytest.raises(SourceOverloaded) as refused:
            with admission.enter():
                pass
        assert refused.value.retry_after_s == 3  # two waiting ahead, plus this one, at 1/s
    assert admission.inside == 0


class SlowSource(FakeSource):
    """Answers after `latency_s` of the fake clock (the guard times attempts on it)."""

    def __init__(self, name: str, time: FakeTime, latency_s: float) -> None:
        super().__init__(name)
        self.time = time
        self.latency_s = latency_s

    async def search(self, query):  # type: ignore[no-untyped-def]
        self.time.advance(self.latency_s)
        return await super().search(query)


def test_the_bound_is_sized_from_injected_latencies_not_from_the_timeout():
    async def scenario() -> None:
        time = FakeTime()  # the attempts' latency; the limiter's 5/s waits on virtual time
        source = SlowSource("a", time, latency_s=0.8)
        settings = SourceSettings(concurrency=5, rate_per_s=5.0, timeout_s=3.0, retries=0)
        metrics = Metrics()
        guard = GuardedSource(source, settings, metrics, monotonic=time.monotonic, deadline_s=5)
        assert guard.admission is not None

        def exported(name: str) -> float | None:  # what Prometheus reads at a scrape
            return metrics.registry.get_sample_value(name, {"source": "a"})

        # Nothing seen yet: sized from the 3 s timeout, as before, within the sources' 4.8 s
        # of the 5 s deadline (the answer's reserve kept): 5 + 5/s x (4.8 s - 3 s).
        assert guard.admission.capacity == 14
        for k in range(12):
            await guard.search(query(DAY + dt.timedelta(days=k % 10)))
        assert guard.admission.capacity == 19  # 0.8 s answers: rate x (4.8 s - latency) - 1
        assert exported("railtrip_source_admission_limit") == 19
        assert exported("railtrip_source_latency_seconds") == pytest.approx(0.8)
        source.latency_s = 2.0
        for k in range(30):
            await guard.search(query(DAY + dt.timedelta(days=k % 10)))
        # Slower answers: five at once now drain 2.5 a second, for 2.8 s: fewer fit.
        assert guard.admission.capacity == 6
        fixed = GuardedSource(source, settings, Metrics(), deadline_s=5.0, queue_limit=3)
        assert fixed.admission is not None and fixed.admission.capacity == 8  # 5 + 3, as set

    run_on_virtual_time(scenario())


def burst_scenario(
    queue_limit: int | None, l2: SlowL2 | None = None, burst_latency_s: float = 0.8
) -> dict[str, float]:
    """150 distinct cold queries at once against two sources answering in 0.8 s at 5/s, a 5 s
    query deadline, on virtual time (behind `l2` when given; the sources answering in
    `burst_latency_s` once the burst came): how many were served in time, late, refused, the
    slowest refusal, and how many requests each source was sent in the burst."""

    async def scenario() -> dict[str, float]:
        loop = asyncio.get_running_loop()
        metrics = Metrics()
        settings = SourceSettings(concurrency=5, rate_per_s=5.0, timeout_s=3.0, retries=0)
        calls: dict[str, list[float]] = {"a": [], "b": []}
        burst_at = math.inf

        class Answering(FakeSource):
            async def search(self, query):  # type: ignore[no-untyped-def]
                calls[self.name].append(loop.time())
                await asyncio.sleep(0.8 if loop.time() < burst_at else burst_latency_s)
                return await super().search(query)

        guards = [
            GuardedSource(
                Answering(name),
                settings,
                metrics,
                monotonic=loop.time,
                deadline_s=5.0,
                queue_limit=queue_limit,
            )
            for name in calls
        ]
        memory = MemoryTier(30, 1800, 4096, timer=loop.time)
        service = TicketService(guards, metrics, memory, l2, deadline_s=5.0, monotonic=loop.time)
        days = [DAY + dt.timedelta(days=k) for k in range(14)]
        queries = [
            city_wide(query(day, origin, "SHH"), BJN, SHQ)
            for origin in (
                "BJP",
                "TJP",
                "NJH",
                "HZH",
                "WHN",
                "CSQ",
                "CDW",
                "XAY",
                "ZZF",
                "JNK",
                "GZQ",
                "SZQ",
            )
            for day in days
        ]
        for warm in queries[:5]:  # one at a time: the estimate learns the latency
            await service.search(warm)
        outcome = {"served": 0, "late": 0, "refused": 0, "other": 0, "slowest_refusal": 0.0}

        async def ask(resolved) -> None:  # type: ignore[no-untyped-def]
            started = loop.time()
            try:
                result = await service.search(resolved)
            except Overloaded:
                took = loop.time() - started
                outcome["slowest_refusal"] = max(outcome["slowest_refusal"], took)
                outcome["refused"] += 1
                return
            in_time = loop.time() - started <= 5.0
            if result.freshness == "realtime" and {r.status for r in result.sources} == {"ok"}:
                outcome["served" if in_time else "late"] += 1
            else:
                outcome["other"] += 1

        burst_at = loop.time()
        await asyncio.gather(*(ask(q) for q in queries[5:155]))
        for name, times in calls.items():  # never beyond the rate: at most 5 in any second
            sent = [t for t in times if t >= burst_at]
            gaps = [later - earlier for earlier, later in itertools.pairwise(sent)]
            assert min(gaps) >= 0.2 - 1e-6
            outcome[f"sent_{name}"] = len(sent)
        await service.aclose()
        return outcome

    return run_on_virtual_time(scenario())


def test_a_burst_is_served_up_to_what_the_rate_answers_in_time_and_the_rest_refused_fast():
    allowed = math.floor(5.0 * (5.0 - 0.8))  # 21 per source
    outcome = burst_scenario(queue_limit=None)
    assert outcome["served"] >= 0.9 * allowed and outcome["served"] <= allowed
    assert outcome["late"] == 0 and outcome["other"] == 0
    assert outcome["refused"] == 150 - outcome["served"]
    assert outcome["slowest_refusal"] < 0.01  # refused at once
    # Sized from the timeout instead (the old default: 5 running + 5/s x (5 s - 3 s)), the
    # same burst was cut at 15.
    assert burst_scenario(queue_limit=10)["served"] == 15


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


def test_time_spent_before_the_sources_counts_a_burst_is_admitted_to_what_is_left():
    # Every query's L2 look-up takes 0.5 s (a Redis stalled on its pool): the sources have
    # what is left of the 5 s. Counted from the fan-out, 20 were admitted and the last
    # answered at 5.1 s; admitted to what is left, none is late and the answers that fit in
    # the time left are served, the rest refused as soon as the look-up came back empty.
    allowed = math.floor(5.0 * (5.0 - 0.5 - 0.8))  # 18 per source in the 4.5 s left
    outcome = burst_scenario(queue_limit=None, l2=SlowL2(read_s=0.5))
    assert outcome["late"] == 0 and outcome["other"] == 0
    assert 0.9 * allowed <= outcome["served"] <= allowed
    assert outcome["refused"] == 150 - outcome["served"]
    assert outcome["slowest_refusal"] < 0.5 + 0.01


def test_a_request_is_admitted_behind_only_as_many_as_the_drain_answers_in_its_time_left():
    latency = LatencyEstimate(3.0)
    latency.observe(0.8)
    admission = SourceAdmission("a", 5, 5.0, latency=latency, deadline_s=4.8)
    assert admission.bound() == admission.bound(4.8) == 19  # straight from arrival
    assert admission.bound(2.8) == 9  # 2 s spent waiting for another replica's lease
    assert admission.bound(0.9) == 0  # not even an idle source answers in time: refused
    with pytest.raises(SourceOverloaded):
        with admission.enter(0.9):
            pass
    assert admission.inside == 0
    # A source slower than the whole deadline still takes one at a time, to show it recovers.
    for _ in range(16):
        latency.observe(3.0)
    slow = SourceAdmission("a", 5, 5.0, latency=latency, deadline_s=2.5)
    assert slow.bound() == slow.bound(0.5) == 1


def test_a_request_whose_turn_comes_too_late_for_an_answer_is_not_sent():
    # The sources answered in 0.8 s before the burst (the bound: 19 each) and in 1.3 s under
    # it: 5 at a time, 0.2 s apart, a round every 1.3 s, so the 15th goes at 3.4 s and is
    # answered at 4.7 s, the 16th would go at 3.9 s: 15 fit in the 4.8 s the sources have.
    # The 4 admitted beyond were sent all the same and cut at the deadline ("other", 19
    # requests each source answered, 4 for nobody); now each is refused at its turn, before
    # the deadline, and never sent.
    outcome = burst_scenario(queue_limit=None, burst_latency_s=1.3)
    fit = 15
    assert outcome["served"] == fit
    assert outcome["late"] == 0 and outcome["other"] == 0
    assert outcome["refused"] == 150 - fit
    assert outcome["slowest_refusal"] < 4.8  # refused before the sources' share ran out
    assert outcome["sent_a"] == outcome["sent_b"] == fit  # every request sent was answered


def test_a_request_is_too_late_at_its_turn_with_less_time_left_than_an_answer_takes():
    latency = LatencyEstimate(3.0)
    admission = SourceAdmission("a", 5, 5.0, latency=latency, deadline_s=4.8)
    assert not admission.too_late(0.1)  # nothing answered yet: no estimate to go by
    latency.observe(0.8)
    assert admission.too_late(0.79) and not admission.too_late(0.8)
    fixed = SourceAdmission("a", 5, 5.0, latency=latency, deadline_s=4.8, queue_limit=10)
    assert not fixed.too_late(0.1)  # a configured queue limit holds whatever the time left
