"""Per-source gentleness: retries, backoff, Retry-After, breaker, timeouts, rate limit."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.breaker import BreakerState, CircuitBreaker
from app.tickets.deadline import Deadline
from app.tickets.fanout import fan_out
from app.tickets.guard import CircuitOpenError, GuardedSource
from sources.errors import (
    QueryRefused,
    SourceBlocked,
    SourceParseError,
    SourceRateLimited,
    SourceRejected,
    SourceServerError,
    SourceTimeout,
)
from tests.app.tickets.fakes import FakeSource, query
from tests.clocks import FakeTime


def guard(source: FakeSource, time: FakeTime, **settings: object) -> tuple[GuardedSource, Metrics]:
    metrics = Metrics()
    conf = SourceSettings(**({"rate_per_s": 1000} | settings))
    return GuardedSource(source, conf, metrics, sleep=time.sleep, monotonic=time.monotonic), metrics


def attempts(metrics: Metrics, source: str, outcome: str) -> float:
    return (
        metrics.registry.get_sample_value(
            "railtrip_source_requests_total", {"source": source, "outcome": outcome}
        )
        or 0.0
    )


async def test_transient_errors_are_retried_with_growing_backoff() -> None:
    time = FakeTime()
    src = FakeSource(
        "s",
        script=[SourceServerError("s", "HTTP 502", 502), SourceRateLimited("s", "HTTP 429")],
    )
    guarded, metrics = guard(src, time, retries=2)
    offers = await guarded.search(query())
    assert [o.train_number for o in offers] == ["G1"]
    assert len(src.calls) == 3
    assert len(time.sleeps) == 2 and 0 < time.sleeps[0] < time.sleeps[1]
    assert attempts(metrics, "s", "error") == 1
    assert attempts(metrics, "s", "rate_limited") == 1
    assert attempts(metrics, "s", "ok") == 1


async def test_a_block_is_not_retried_at_once_and_opens_the_breaker_for_minutes() -> None:
    time = FakeTime()
    src = FakeSource("s", script=[SourceBlocked("s", "302 to error.html")])
    guarded, metrics = guard(src, time, retries=2, block_cooldown_s=300)
    with pytest.raises(SourceBlocked):
        await guarded.search(query())
    assert len(src.calls) == 1 and time.sleeps == []  # no retry, no backoff sleep
    assert attempts(metrics, "s", "rate_limited") == 1
    assert guarded.breaker.state is BreakerState.OPEN
    time.advance(299)
    with pytest.raises(CircuitOpenError):
        await guarded.search(query())
    assert len(src.calls) == 1 and attempts(metrics, "s", "circuit_open") == 1
    time.advance(1)  # the block cool-down is over: one probe goes out and succeeds
    assert await guarded.search(query())
    assert guarded.breaker.state is BreakerState.CLOSED


async def test_a_query_refused_before_any_request_is_neither_counted_nor_a_failure() -> None:
    time = FakeTime()
    src = FakeSource("s", script=[QueryRefused("s", "2026-12-20 is not on sale")] * 6)
    guarded, metrics = guard(src, time, retries=2, breaker_failures=1)
    for _ in range(3):
        with pytest.raises(QueryRefused):
            await guarded.search(query())
    assert len(src.calls) == 3  # permanent: not retried
    assert sum(attempts(metrics, "s", o) for o in ("ok", "error", "rate_limited")) == 0
    assert guarded.breaker.state is BreakerState.CLOSED


async def test_extra_requests_inside_an_attempt_wait_for_the_limiter_and_are_counted() -> None:
    # aiolimiter runs on the loop's real clock; at 50/s five requests need four intervals.
    rate = 50.0
    guarded, metrics = guard(FakeSource("s"), FakeTime(), rate_per_s=rate)
    stamps: list[float] = []
    for _ in range(5):
        async with guarded.extra_request():
            stamps.append(time.monotonic())
    assert attempts(metrics, "s", "ok") == 5
    assert stamps[-1] - stamps[0] >= 4 / rate * 0.95


async def test_rate_limited_answers_honour_retry_after() -> None:
    time = FakeTime()
    src = FakeSource("s", script=[SourceRateLimited("s", "HTTP 429", retry_after=1.5)])
    guarded, _ = guard(src, time, retries=2)
    await guarded.search(query())
    assert time.sleeps[0] >= 1.5


@pytest.mark.parametrize(
    "error",
    [SourceRejected("s", "HTTP 400", 400), SourceParseError("s", "bad payload")],
    ids=["4xx", "parse"],
)
async def test_permanent_errors_are_never_retried(error: Exception) -> None:
    time = FakeTime()
    src = FakeSource("s", error=error)  # type: ignore[arg-type]
    guarded, metrics = guard(src, time, retries=2)
    with pytest.raises(type(error)):
        await guarded.search(query())
    assert len(src.calls) == 1 and time.sleeps == []
    assert attempts(metrics, "s", "error") == 1


async def test_retries_stop_after_the_configured_number() -> None:
    time = FakeTime()
    src = FakeSource("s", error=SourceServerError("s", "HTTP 500", 500))
    guarded, metrics = guard(src, time, retries=2)
    with pytest.raises(SourceServerError):
        await guarded.search(query())
    assert len(src.calls) == 3
    assert attempts(metrics, "s", "error") == 3


async def test_breaker_opens_fails_fast_then_lets_one_probe_through_after_cooldown() -> None:
    time = FakeTime()
    src = FakeSource("s", error=SourceServerError("s", "HTTP 500", 500))
    guarded, metrics = guard(src, time, retries=0, breaker_failures=3, breaker_cooldown_s=30)
    for _ in range(3):
        with pytest.raises(SourceServerError):
            await guarded.search(query())
    assert guarded.breaker.state is BreakerState.OPEN
    with pytest.raises(CircuitOpenError):
        await guarded.search(query())
    assert len(src.calls) == 3  # refused without reaching the source
    assert attempts(metrics, "s", "circuit_open") == 1
    assert metrics.registry.get_sample_value("railtrip_source_circuit_state", {"source": "s"}) == 2

    time.advance(30)
    src.error = None
    assert guarded.readiness() == "half-open-circuit"
    await guarded.search(query())
    assert guarded.breaker.state is BreakerState.CLOSED
    assert guarded.readiness() == "ok"


def test_half_open_admits_a_single_probe_and_a_failed_probe_reopens() -> None:
    time = FakeTime()
    breaker = CircuitBreaker(1, 10, clock=time.monotonic)
    breaker.record_failure()
    assert not breaker.allow()
    time.advance(10)
    assert breaker.allow() and not breaker.allow()
    breaker.record_failure()
    assert breaker.state is BreakerState.OPEN and not breaker.allow()


@pytest.mark.looptime
async def test_a_hanging_source_is_cut_at_its_timeout_and_counted() -> None:
    src = FakeSource("s", gate=asyncio.Event())  # never opened
    metrics = Metrics()
    guarded = GuardedSource(src, SourceSettings(timeout_s=2, retries=1, rate_per_s=1000), metrics)
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(SourceTimeout):
        await guarded.search(query())
    assert attempts(metrics, "s", "timeout") == 2
    assert loop.time() - started < 5  # two 2 s attempts plus a short backoff


@pytest.mark.looptime
async def test_the_query_deadline_bounds_a_hanging_source_and_keeps_the_other() -> None:
    metrics = Metrics()
    hanging = GuardedSource(
        FakeSource("hang", gate=asyncio.Event()), SourceSettings(timeout_s=3, retries=2), metrics
    )
    fine = GuardedSource(FakeSource("fine"), SourceSettings(), metrics)
    loop = asyncio.get_running_loop()
    started = loop.time()
    answers = await fan_out([hanging, fine], query(), Deadline.after(5.0, loop.time))
    assert loop.time() - started == pytest.approx(5.0, abs=0.01)
    assert [a.report.status for a in answers] == ["timeout", "ok"]
    assert answers[1].offers and not answers[0].offers


async def test_rate_limit_spaces_requests_to_a_source_at_least_one_interval_apart() -> None:
    # aiolimiter runs on the loop's real clock; at 50/s the 40 queries take ~0.8 s.
    rate = 50.0
    stamps: list[float] = []
    src = FakeSource("s", lambda q: stamps.append(time.monotonic()) or [])
    guarded = GuardedSource(src, SourceSettings(rate_per_s=rate, concurrency=40), Metrics())
    days = [query().date.replace(day=d) for d in range(1, 29)] + [query().date] * 12
    await asyncio.gather(*(guarded.search(query().model_copy(update={"date": d})) for d in days))
    assert len(stamps) == 40
    assert stamps[-1] - stamps[0] >= 39 / rate * 0.95  # 40 requests need 39 intervals
    # A leaky bucket of capacity 1: any window of length W holds at most W * rate + 1
    # requests (a task woken late may be followed sooner, never by a burst).
    for window in (0.1, 0.25, 0.5):
        busiest = max(sum(1 for t in stamps if s <= t < s + window) for s in stamps)
        assert busiest <= window * rate + 1


async def test_concurrency_cap_limits_attempts_in_flight() -> None:
    gate, three_in = asyncio.Event(), asyncio.Event()
    in_flight = peak = 0

    class Counting(FakeSource):
        async def search(self, q):  # type: ignore[no-untyped-def]
            nonlocal in_flight, peak
            in_flight += 1
            peak = max(peak, in_flight)
            if in_flight == 3:
                three_in.set()
            await gate.wait()
            in_flight -= 1
            return []

    guarded = GuardedSource(
        Counting("s"), SourceSettings(concurrency=3, rate_per_s=1000), Metrics()
    )
    tasks = [asyncio.create_task(guarded.search(query())) for _ in range(10)]
    await asyncio.wait_for(three_in.wait(), timeout=5)
    assert guarded._semaphore.locked()  # the other seven queue on the cap, not the source
    assert peak == 3
    gate.set()
    await asyncio.gather(*tasks)


async def test_each_capability_has_its_own_breaker_and_only_the_search_speaks_for_readiness() -> (
    None
):
    time = FakeTime()
    src = FakeSource("s")
    guarded, metrics = guard(src, time, retries=0, breaker_failures=2, block_cooldown_s=300)

    async def failing_transfer_search() -> list[object]:
        raise SourceServerError("s", "HTTP 502", 502)

    async def blocked_stop_list() -> list[object]:
        raise SourceBlocked("s", "stop list redirected to error.html")

    for _ in range(2):
        with pytest.raises(SourceServerError):
            await guarded.call(failing_transfer_search, "transfers")
    with pytest.raises(SourceBlocked):
        await guarded.call(blocked_stop_list, "stops")
    assert guarded.breaker_for("transfers").state is BreakerState.OPEN
    assert guarded.breaker_for("stops").state is BreakerState.OPEN
    with pytest.raises(CircuitOpenError):
        await guarded.call(failing_transfer_search, "transfers")
    # The left-ticket search never heard of them: closed, ready, and it reaches the source.
    assert guarded.breaker.state is BreakerState.CLOSED and guarded.readiness() == "ok"
    assert await guarded.search(query())
    assert attempts(metrics, "s", "ok") == 1 and attempts(metrics, "s", "circuit_open") == 1
