"""A block is honoured at once: requests admitted before it but not yet sent are refused (a
fresh init among them), and a late success of a request sent before the block never closes
it; only the half-open probe after the cool-down may."""

from __future__ import annotations

import asyncio

import pytest

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.breaker import BreakerState
from app.tickets.guard import CircuitOpenError, GuardedSource
from sources.errors import SourceBlocked
from tests.app.tickets.fakes import offer, query
from tests.clocks import FakeTime


class ScriptedSource:
    """Each call waits for its own gate, then answers or raises what it was given."""

    name = "s"

    def __init__(self, steps: list[tuple[asyncio.Event, Exception | None]]) -> None:
        self.steps = steps
        self.sent = 0

    async def search(self, _query):
        gate, error = self.steps[self.sent]
        self.sent += 1
        await gate.wait()
        if error is not None:
            raise error
        return [offer(source=self.name)]


def guard(source, time: FakeTime, **settings: object) -> tuple[GuardedSource, Metrics]:
    metrics = Metrics()
    conf = SourceSettings(**({"rate_per_s": 1000, "retries": 0} | settings))
    return GuardedSource(source, conf, metrics, sleep=time.sleep, monotonic=time.monotonic), metrics


def circuit_open(metrics: Metrics) -> float:
    return (
        metrics.registry.get_sample_value(
            "railtrip_source_requests_total", {"source": "s", "outcome": "circuit_open"}
        )
        or 0.0
    )


async def test_requests_queued_behind_a_block_are_refused_not_sent() -> None:
    time = FakeTime()
    gate = asyncio.Event()
    source = ScriptedSource([(gate, SourceBlocked("s", "302 to error.html"))] + [(gate, None)] * 3)
    guarded, metrics = guard(source, time, concurrency=1, block_cooldown_s=300)
    calls = [asyncio.create_task(guarded.search(query())) for _ in range(4)]
    await asyncio.sleep(0)
    gate.set()
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert isinstance(results[0], SourceBlocked)
    assert all(isinstance(r, CircuitOpenError) for r in results[1:])
    assert source.sent == 1, "nothing admitted before the block went out after it"
    assert circuit_open(metrics) == 3


async def test_a_late_success_sent_before_the_block_never_closes_it() -> None:
    time = FakeTime()
    slow, fast = asyncio.Event(), asyncio.Event()
    source = ScriptedSource([(slow, None), (fast, SourceBlocked("s", "HTML instead of JSON"))])
    guarded, _ = guard(source, time, concurrency=2, block_cooldown_s=300)
    late = asyncio.create_task(guarded.search(query()))
    blocked = asyncio.create_task(guarded.search(query()))
    await asyncio.sleep(0)
    fast.set()
    with pytest.raises(SourceBlocked):
        await blocked
    slow.set()
    assert await late  # it did answer ...
    time.advance(3)
    assert guarded.breaker.state is BreakerState.OPEN  # ... and the block stands
    with pytest.raises(CircuitOpenError):
        await guarded.search(query())
    time.advance(297)  # the cool-down is over: one probe may go out, and close it
    source.steps.append((asyncio.Event(), None))
    source.steps[-1][0].set()
    assert await guarded.search(query())
    assert guarded.breaker.state is BreakerState.CLOSED


async def test_a_block_seen_by_one_replica_stops_the_others_next_request(redis_server) -> None:
    from app.redis_client import build_redis
    from app.tickets.shared_block import BLOCK_KEY, SharedBlock
    from tests.app.tickets.fakes import FakeSource

    redis = build_redis(redis_server.url, timeout_s=1.0, max_connections=4)
    await redis.delete(BLOCK_KEY.format(source="s"))
    time = FakeTime()
    try:
        replicas = []
        for script in ([SourceBlocked("s", "302 to error.html")], []):
            source = FakeSource("s", script=list(script))
            conf = SourceSettings(rate_per_s=1000, retries=0, block_cooldown_s=300)
            guarded = GuardedSource(
                source,
                conf,
                Metrics(),
                sleep=time.sleep,
                monotonic=time.monotonic,
                shared_block=SharedBlock(redis, "s"),
            )
            replicas.append((guarded, source))
        (first, first_source), (second, second_source) = replicas
        with pytest.raises(SourceBlocked):
            await first.search(query())
        with pytest.raises(CircuitOpenError):
            await second.search(query())
        assert second_source.calls == [], "the other replica sent nothing"
        assert second.breaker.state is BreakerState.OPEN
        assert 290 < await redis.pttl(BLOCK_KEY.format(source="s")) / 1000 <= 300
    finally:
        await redis.delete(BLOCK_KEY.format(source="s"))
        await redis.aclose()


class GatedLimiter:
    """A limiter whose turns come when the test says: requests wait in it, admitted."""

    def __init__(self, expected: int) -> None:
        self.gate, self.all_waiting = asyncio.Event(), asyncio.Event()
        self.waiting, self.expected = 0, expected

    async def acquire(self) -> None:
        self.waiting += 1
        if self.waiting == self.expected:
            self.all_waiting.set()
        await self.gate.wait()


async def test_requests_queued_on_another_replica_when_the_site_blocks_one_are_not_sent(
    redis_server,
) -> None:
    from app.redis_client import build_redis
    from app.tickets.shared_block import BLOCK_KEY, SharedBlock
    from tests.app.tickets.fakes import FakeSource

    redis = build_redis(redis_server.url, timeout_s=1.0, max_connections=4)
    await redis.delete(BLOCK_KEY.format(source="s"))
    time = FakeTime()
    conf = SourceSettings(rate_per_s=1000, retries=0, block_cooldown_s=300)
    try:
        blocked_source = FakeSource("s", script=[SourceBlocked("s", "302 to error.html")])
        first = GuardedSource(
            blocked_source,
            conf,
            Metrics(),
            sleep=time.sleep,
            monotonic=time.monotonic,
            shared_block=SharedBlock(redis, "s"),
        )
        queued_source, turns = FakeSource("s"), GatedLimiter(5)
        second = GuardedSource(
            queued_source,
            conf,
            Metrics(),
            sleep=time.sleep,
            monotonic=time.monotonic,
            shared_block=SharedBlock(redis, "s"),
            limiter=turns,
        )
        queued = [asyncio.create_task(second.search(query())) for _ in range(5)]
        await asyncio.wait_for(turns.all_waiting.wait(), 5)  # admitted, waiting for a turn
        with pytest.raises(SourceBlocked):
            await first.search(query())
        turns.gate.set()
        results = await asyncio.gather(*queued, return_exceptions=True)
        assert all(isinstance(r, CircuitOpenError) for r in results), results
        assert queued_source.calls == [], "nothing queued on the other replica went out"
        assert second.breaker.state is BreakerState.OPEN
    finally:
        await redis.delete(BLOCK_KEY.format(source="s"))
        await redis.aclose()


async def test_an_attempt_under_way_on_another_replica_sends_no_fresh_init_after_a_block(
    redis_server,
) -> None:
    from app.redis_client import build_redis
    from app.tickets.shared_block import BLOCK_KEY, SharedBlock
    from tests.app.tickets.fakes import FakeSource

    redis = build_redis(redis_server.url, timeout_s=1.0, max_connections=4)
    await redis.delete(BLOCK_KEY.format(source="s"))
    time = FakeTime()
    conf = SourceSettings(rate_per_s=1000, retries=0, block_cooldown_s=300)
    entered, gate, inits = asyncio.Event(), asyncio.Event(), []

    class Renewing:
        """An adapter whose attempt waits, then renews its session (an init) before querying."""

        name = "s"
        pacer: GuardedSource

        async def search(self, _query):
            entered.set()
            await gate.wait()
            async with self.pacer.extra_request():
                inits.append("init")
            return [offer(source="s")]

    try:
        first = GuardedSource(
            FakeSource("s", script=[SourceBlocked("s", "302 to error.html")]),
            conf,
            Metrics(),
            sleep=time.sleep,
            monotonic=time.monotonic,
            shared_block=SharedBlock(redis, "s"),
        )
        adapter = Renewing()
        second = GuardedSource(
            adapter,
            conf,
            Metrics(),
            sleep=time.sleep,
            monotonic=time.monotonic,
            shared_block=SharedBlock(redis, "s"),
        )
        adapter.pacer = second
        under_way = asyncio.create_task(second.search(query()))
        await asyncio.wait_for(entered.wait(), 5)  # past the fleet's check, under way
        with pytest.raises(SourceBlocked):
            await first.search(query())
        gate.set()
        with pytest.raises(CircuitOpenError):
            await under_way
        assert inits == [], "no fresh init after the other replica's block"
        assert second.breaker.state is BreakerState.OPEN
    finally:
        await redis.delete(BLOCK_KEY.format(source="s"))
        await redis.aclose()
