"""Fleet-wide pieces on the suite's real Redis: two query services as two replicas.

Leases and slots live in Redis; waiting uses real (short) polls bounded by asyncio.timeout,
so a broken handover fails fast instead of hanging.
"""

from __future__ import annotations

import asyncio
import contextlib

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.gcra import Gcra
from app.observability.metrics import Metrics
from app.redis_health import RedisHealth
from app.settings import Settings, SourceSettings
from app.tickets.cache import MemoryTier, RedisTier
from app.tickets.deadline import answer_reserve_s
from app.tickets.fleet_flight import FleetFlight, Lease
from app.tickets.guard import GuardedSource
from app.tickets.rate_limit import SourceRateLimit
from app.tickets.service import TicketService
from app.wiring.services import redis_client
from sources.errors import SourceServerError
from tests.app.tickets.fakes import BJN, SHQ, FakeSource, city_wide, query
from tests.clocks import FakeTime

LONG_LEASE_S = 30.0  # a handover "at once" must not wait for this
BOUND_S = 10.0


async def called(source: FakeSource) -> None:
    """Until the holder's fetch has reached its source (it then holds the lease)."""
    for _ in range(100_000):
        if source.calls:
            return
        await asyncio.sleep(0)
    raise AssertionError("the holder never reached its source")


def replica(
    url: str,
    source: FakeSource,
    *,
    lease_s: float = LONG_LEASE_S,
    time: FakeTime | None = None,
    deadline_s: float = 5.0,
) -> TicketService:
    """One replica's query service: its own L1, health and client; the shared Redis.

    With `time`, the calendar and L1 follow it (for ages); leases and polls stay real.
    Its Redis health probes with a ping, as wired in production (app/wiring/core.py), and
    again 20 ms after a failure."""
    metrics = Metrics()
    client = replica_redis(url)
    health = RedisHealth(metrics, retry_pause_s=0.02, ping=client.ping)
    tier = RedisTier(client, metrics, 300, 1800, health=health)
    guarded = GuardedSource(source, SourceSettings(retries=0, rate_per_s=1000), metrics)
    fleet = FleetFlight(client, health, lease_s=lease_s, poll_s=0.01)
    if time is None:
        return TicketService(
            [guarded], metrics, MemoryTier(30, 1800, 64), tier, fleet=fleet, deadline_s=deadline_s
        )
    return TicketService(
        [guarded],
        metrics,
        MemoryTier(30, 1800, 64, timer=time.monotonic),
        tier,
        fleet=fleet,
        refresh_after_s=20,
        clock=time.now,
        monotonic=time.monotonic,
    )


async def test_the_second_replica_waits_for_the_first_ones_answer(redis_url: str) -> None:
    gate = asyncio.Event()
    first_src, second_src = FakeSource("a", gate=gate), FakeSource("a")
    first, second = replica(redis_url, first_src), replica(redis_url, second_src)
    async with asyncio.timeout(BOUND_S):
        holder = asyncio.create_task(first.search(city_wide(query(), BJN, SHQ)))
        await called(first_src)
        waiter = asyncio.create_task(second.search(city_wide(query(), BJN, SHQ)))
        await asyncio.sleep(0.05)  # several polls: it keeps waiting while the lease is held
        assert not waiter.done() and second_src.calls == []
        gate.set()
        answers = await asyncio.gather(holder, waiter)
    assert [a.freshness for a in answers] == ["realtime", "cached"]
    assert second_src.calls == [], "the answer came from L2, not a second fetch"


def hiccup(service: TicketService) -> None:
    """A Redis connection of this replica was just reset: its shared health marks Redis down
    (a timeout alone would not: it is confirmed by a probe first)."""
    assert service.redis is not None
    service.redis.health.went_down(RedisConnectionError("Connection reset by peer"))
    assert service.redis.health.state == "down"


async def test_a_waiter_keeps_waiting_through_a_redis_hiccup(redis_url: str) -> None:
    gate = asyncio.Event()
    first_src, second_src = FakeSource("a", gate=gate), FakeSource("a")
    first, second = replica(redis_url, first_src), replica(redis_url, second_src)
    async with asyncio.timeout(BOUND_S):
        holder = asyncio.create_task(first.search(city_wide(query(), BJN, SHQ)))
        await called(first_src)
        waiter = asyncio.create_task(second.search(city_wide(query(), BJN, SHQ)))
        await asyncio.sleep(0.03)
        hiccup(second)  # its next polls are skipped, or fail: no reason to fetch
        await asyncio.sleep(0.03)
        assert not waiter.done() and second_src.calls == []
        gate.set()
        answers = await asyncio.gather(holder, waiter)
    assert [a.freshness for a in answers] == ["realtime", "cached"]
    assert second_src.calls == [], "one fetch for the fleet"


async def test_the_holder_writes_its_answer_even_just_after_a_redis_hiccup(
    redis_url: str,
) -> None:
    gate = asyncio.Event()
    first_src, second_src = FakeSource("a", gate=gate), FakeSource("a")
    first = replica(redis_url, first_src, lease_s=0.5)
    second = replica(redis_url, second_src, lease_s=0.5)
    async with asyncio.timeout(BOUND_S):
        holder = asyncio.create_task(first.search(city_wide(query(), BJN, SHQ)))
        await called(first_src)
        waiter = asyncio.create_task(second.search(city_wide(query(), BJN, SHQ)))
        await asyncio.sleep(0.03)
        hiccup(first)  # marked down just before its answer: L2 is written all the same
        gate.set()
        answers = await asyncio.gather(holder, waiter)
    assert [a.freshness for a in answers] == ["realtime", "cached"]
    assert second_src.calls == [], "the waiter found the holder's answer, not an empty L2"


async def test_a_live_holder_keeps_its_lease_however_long_its_fetch_takes(
    redis_url: str,
) -> None:
    gate = asyncio.Event()
    first_src, second_src = FakeSource("a", gate=gate), FakeSource("a")
    # Three Redis command timeouts (0.1 s, the production client's): a renewal may take
    # one under load. A 60 ms lease expired under one slow renewal, or one 60 ms stall of
    # this loaded process, and the waiter took it over (1 run in 12 under load).
    lease_s = 0.3
    first = replica(redis_url, first_src, lease_s=lease_s)
    second = replica(redis_url, second_src, lease_s=lease_s)
    async with asyncio.timeout(BOUND_S):
        holder = asyncio.create_task(first.search(city_wide(query(), BJN, SHQ)))
        await called(first_src)
        waiter = asyncio.create_task(second.search(city_wide(query(), BJN, SHQ)))
        await asyncio.sleep(4 * lease_s)  # four TTLs: the holder renews its lease meanwhile
        assert not waiter.done() and second_src.calls == []
        gate.set()
        answers = await asyncio.gather(holder, waiter)
    assert [a.freshness for a in answers] == ["realtime", "cached"]


async def test_a_wait_for_a_dead_holder_ends_by_the_query_deadline(redis_url: str) -> None:
    client = aioredis.Redis.from_url(redis_url)
    # A lease far longer than the deadline (a holder that died holding an old long lease).
    await client.set(FleetFlight.key(query().key), "dead-holder", px=30_000)
    await client.aclose()
    source = FakeSource("a")
    service = replica(redis_url, source, deadline_s=0.2)
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with asyncio.timeout(BOUND_S):
        answer = await service.search(city_wide(query(), BJN, SHQ))
    took = loop.time() - started
    # It waits while the sources could still answer in time (the answer's reserve kept).
    assert 0.2 - answer_reserve_s(0.2) <= took < 0.2 + 1.0, took
    assert answer.freshness == "unavailable" and source.calls == []
    assert [r.status for r in answer.sources] == ["timeout"]


async def test_a_holder_whose_l2_write_outlives_its_deadline_answers_and_keeps_the_lease(
    redis_url: str,
) -> None:
    stall_s = 1.0  # the write waits this long for a pooled connection, far past the deadline
    first_src, second_src = FakeSource("a"), FakeSource("a")
    first = replica(redis_url, first_src, deadline_s=0.3)
    second = replica(redis_url, second_src)
    tier = first.redis
    assert tier is not None
    put = tier.put

    async def stalled_put(*args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        await asyncio.sleep(stall_s)
        await put(*args, **kwargs)

    tier.put = stalled_put  # type: ignore[method-assign]
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(BOUND_S):
        started = loop.time()
        holder = asyncio.create_task(first.search(city_wide(query(), BJN, SHQ)))
        await called(first_src)
        waiter = asyncio.create_task(second.search(city_wide(query(), BJN, SHQ)))
        answer = await holder
        took = loop.time() - started
        # Answered by its deadline, not when the write lands; the lease is held till then.
        assert answer.freshness == "realtime" and took < stall_s, took
        assert not waiter.done()
        waited = await waiter
    assert waited.freshness == "cached"
    assert second_src.calls == [], "the waiter read the late write, not the source"


async def test_a_holder_that_fails_hands_over_at_once_not_at_lease_expiry(redis_url: str) -> None:
    gate = asyncio.Event()
    failing = FakeSource("a", gate=gate, error=SourceServerError("a", "HTTP 500", 500))
    healthy = FakeSource("a")
    first, second = replica(redis_url, failing), replica(redis_url, healthy)
    async with asyncio.timeout(BOUND_S):  # far below LONG_LEASE_S
        holder = asyncio.create_task(first.search(city_wide(query(), BJN, SHQ)))
        await called(failing)
        waiter = asyncio.create_task(second.search(city_wide(query(), BJN, SHQ)))
        await asyncio.sleep(0.05)
        gate.set()
        failed, answered = await asyncio.gather(holder, waiter)
    assert failed.freshness == "unavailable"
    assert answered.freshness == "realtime" and len(healthy.calls) == 1


async def test_a_dead_holders_lease_delays_the_others_no_longer_than_its_ttl(
    redis_url: str,
) -> None:
    client = aioredis.Redis.from_url(redis_url)
    # A replica took the lease for 300 ms and died: nobody will drop it.
    await client.set(FleetFlight.key(query().key), "dead-holder", px=300)
    await client.aclose()
    source = FakeSource("a")
    service = replica(redis_url, source, lease_s=LONG_LEASE_S)
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with asyncio.timeout(BOUND_S):
        answer = await service.search(city_wide(query(), BJN, SHQ))
    assert answer.freshness == "realtime" and len(source.calls) == 1
    assert loop.time() - started < 0.3 + 2.0, "took over once the lease expired"


async def test_an_old_hit_is_refreshed_once_for_the_fleet_not_once_per_replica(
    redis_url: str,
) -> None:
    time = FakeTime()
    a_src, b_src = FakeSource("a"), FakeSource("a")
    a, b = replica(redis_url, a_src, time=time), replica(redis_url, b_src, time=time)
    await a.search(city_wide(query(), BJN, SHQ))
    assert (
        await b.search(city_wide(query(), BJN, SHQ))
    ).freshness == "cached"  # via L2, now in b's L1
    time.advance(25)  # past refresh_after (20 s), inside L1's 30 s
    assert (await a.search(city_wide(query(), BJN, SHQ))).age_s == 25
    await asyncio.gather(*a._background)
    assert len(a_src.calls) == 2, "a refreshed in the background"
    assert (await b.search(city_wide(query(), BJN, SHQ))).age_s == 25
    await asyncio.gather(*b._background)
    assert b_src.calls == [], "b found a's refresh in L2 instead of fetching again"
    assert (await b.search(city_wide(query(), BJN, SHQ))).age_s == 0


async def test_only_the_holder_can_drop_its_lease(redis_url: str) -> None:
    metrics = Metrics()
    client = replica_redis(redis_url)
    fleet = FleetFlight(client, RedisHealth(metrics), lease_s=5, poll_s=0.01)
    lease = await fleet.try_lease("q1")
    assert isinstance(lease, Lease)
    assert await fleet.try_lease("q1") is False
    await fleet.release(Lease(lease.key, "someone-else"))
    assert await fleet.try_lease("q1") is False
    await fleet.release(lease)
    assert isinstance(await fleet.try_lease("q1"), Lease)


async def test_the_lease_renewer_stops_with_its_holder_even_if_its_cancel_is_lost(
    redis_url: str,
) -> None:
    fleet = FleetFlight(replica_redis(redis_url), RedisHealth(Metrics()), lease_s=0.03, poll_s=0.01)
    renewals: list[Lease] = []
    renewing = asyncio.Event()

    async def renew_swallowing_cancel(lease: Lease) -> bool:
        # redis-py can turn a cancel that lands mid-command into a timeout (a RedisError),
        # which `renew` reports as a failed renewal: the cancel is lost.
        renewals.append(lease)
        if len(renewals) == 2:
            renewing.set()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(0.02)
        return False

    fleet.renew = renew_swallowing_cancel  # type: ignore[method-assign]
    lease = await fleet.try_lease("q1")
    assert isinstance(lease, Lease)
    async with asyncio.timeout(BOUND_S):
        async with fleet.holding(lease):
            await renewing.wait()  # a renewal under way when the holder lets go
            renewers = [t for t in asyncio.all_tasks() if "_keep" in repr(t.get_coro())]
        await asyncio.wait(renewers, timeout=1.0)
    assert renewers and all(t.done() for t in renewers), "the renewer outlived its lease"


async def test_with_redis_down_every_replica_fetches_for_itself() -> None:
    metrics = Metrics()
    health = RedisHealth(metrics)
    fleet = FleetFlight(replica_redis("redis://127.0.0.1:1/0"), health, lease_s=5, poll_s=0.01)
    assert await fleet.try_lease("q1") is None
    assert health.state == "down"


async def test_two_replicas_share_one_source_budget(redis_url: str) -> None:
    sleeps: list[float] = []

    async def record(seconds: float) -> None:
        sleeps.append(seconds)

    limits = [
        SourceRateLimit(
            "rail12306",
            0.01,  # one slot per 100 s: the second replica is handed the next one
            gcra=Gcra(replica_redis(redis_url)),
            health=RedisHealth(Metrics()),
            sleep=record,
        )
        for _ in range(2)
    ]
    await limits[0].acquire()
    await limits[1].acquire()
    assert len(sleeps) == 1 and 70 < sleeps[0] <= 100, sleeps


async def test_the_limiter_falls_back_to_its_share_of_the_rate_when_redis_is_down() -> None:
    health = RedisHealth(Metrics())
    limit = SourceRateLimit(
        "rail12306",
        6.0,
        gcra=Gcra(replica_redis("redis://127.0.0.1:1/0")),
        health=health,
        expected_replicas=3,
    )
    await limit.acquire()  # Redis refuses: this request is paced locally instead
    assert health.state == "down" and not limit.fleet_wide
    assert limit.fallback_rate_per_s == 2.0


def replica_redis(url: str):  # type: ignore[no-untyped-def]
    """A replica's Redis client, with the production timeouts and pool."""
    return redis_client(Settings(redis_url=url))


def late_reply_once(service: TicketService, key: str) -> list[str]:
    """This replica's first command touching `key` reaches Redis and runs there, but its
    reply is read past the client's timeout (a CPU-starved process): it raises the timeout.
    Returns the commands seen touching `key`, in order."""
    assert service.redis is not None
    client = service.redis.client
    execute = client.execute_command
    seen: list[str] = []

    async def late_once(*args, **options):  # type: ignore[no-untyped-def]
        touching = key in args or key.encode() in args
        if touching:
            seen.append(str(args[0]))
        result = await execute(*args, **options)
        if touching and len(seen) == 1:
            raise RedisTimeoutError("Timeout reading from 127.0.0.1:6379")
        return result

    client.execute_command = late_once  # type: ignore[method-assign]
    return seen


async def test_one_late_l2_reply_neither_marks_redis_down_nor_costs_a_second_fetch(
    redis_url: str,
) -> None:
    gate = asyncio.Event()
    first_src, second_src = FakeSource("a", gate=gate), FakeSource("a")
    first, second = replica(redis_url, first_src), replica(redis_url, second_src)
    seen = late_reply_once(second, RedisTier.key(query().key))
    async with asyncio.timeout(BOUND_S):
        holder = asyncio.create_task(first.search(city_wide(query(), BJN, SHQ)))
        await called(first_src)
        # Its L2 look-up times out: before, Redis was marked down and it fetched alone.
        waiter = asyncio.create_task(second.search(city_wide(query(), BJN, SHQ)))
        await asyncio.sleep(0.05)
        assert not waiter.done() and second_src.calls == []
        gate.set()
        answers = await asyncio.gather(holder, waiter)
    assert seen[:2] == ["GET", "GET"], "the timed-out look-up was tried once more"
    assert [a.freshness for a in answers] == ["realtime", "cached"]
    assert second_src.calls == [], "one fetch for the fleet"
    assert second.redis is not None and second.redis.health.state == "ok"
    registry = second._metrics.registry
    assert registry.get_sample_value("railtrip_redis_up") == 1
    assert not registry.get_sample_value("railtrip_degradations_total", {"kind": "redis_down"})


async def test_a_lease_taken_whose_reply_came_late_is_held_not_fetched_around(
    redis_url: str,
) -> None:
    gate = asyncio.Event()
    first_src, second_src = FakeSource("a", gate=gate), FakeSource("a")
    first, second = replica(redis_url, first_src), replica(redis_url, second_src)
    # The lease is taken in Redis, but its taker reads the reply too late.
    seen = late_reply_once(first, FleetFlight.key(query().key))
    async with asyncio.timeout(BOUND_S):
        holder = asyncio.create_task(first.search(city_wide(query(), BJN, SHQ)))
        await called(first_src)
        waiter = asyncio.create_task(second.search(city_wide(query(), BJN, SHQ)))
        await asyncio.sleep(0.05)
        assert not waiter.done() and second_src.calls == []
        gate.set()
        answers = await asyncio.gather(holder, waiter)
    assert [a.freshness for a in answers] == ["realtime", "cached"]
    assert second_src.calls == [] and len(first_src.calls) == 1
    assert first.redis is not None and first.redis.health.state == "ok"
    assert len(seen) >= 2, "the lease call was tried once more"
    client = aioredis.Redis.from_url(redis_url)
    try:
        # The retry found the lease its own, held it and dropped it: not left to expire.
        assert await client.exists(FleetFlight.key(query().key)) == 0
    finally:
        await client.aclose()
