"""One probe for the fleet after a block: when the cool-down ends, exactly one replica's request
reaches the site (the others keep refusing until its outcome is published), a failed probe
renews the block for every replica, a probe whose caller left hands the probe on at once, and
a replica without Redis probes for itself.

Replicas here are guards on one real Redis and one injected clock (the guards' breakers run on
it); Redis's own clock ends the fleet's cool-down, which the tests stand in for by expiring the
key at the moment the injected clock passes the cool-down.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from app.observability.metrics import Metrics
from app.redis_client import build_redis
from app.redis_health import RedisHealth
from app.settings import SourceSettings
from app.tickets.breaker import BreakerState
from app.tickets.guard import ABANDONED, CircuitOpenError, GuardedSource
from app.tickets.shared_block import BLOCK_KEY, SharedBlock
from sources.errors import SourceBlocked, SourceError, SourceServerError
from tests.app.tickets.fakes import offer, query
from tests.clocks import FakeTime

COOLDOWN_S = 300.0
SOURCE = "probe-site"
KEY = BLOCK_KEY.format(source=SOURCE)


class Site:
    """The one upstream every replica talks to: it counts what reaches it, in order."""

    def __init__(self) -> None:
        self.received: list[str] = []  # which replica sent each request
        self.next_error: SourceError | None = None  # raised by the next request, once
        self.gate: asyncio.Event | None = None  # when set, requests wait on it
        self.arrived = asyncio.Event()

    def replica(self, name: str) -> Replica:
        return Replica(self, name)


class Replica:
    """One replica's adapter for the site."""

    def __init__(self, site: Site, name: str) -> None:
        self.site = site
        self.replica = name
        self.name = SOURCE

    async def search(self, _query):
        self.site.received.append(self.replica)
        self.site.arrived.set()
        if self.site.gate is not None:
            await self.site.gate.wait()
        error, self.site.next_error = self.site.next_error, None
        if error is not None:
            raise error
        return [offer(source=SOURCE)]


@pytest.fixture
async def redis(redis_server) -> AsyncIterator[object]:
    client = build_redis(redis_server.url, timeout_s=1.0, max_connections=8)
    await client.delete(KEY)
    try:
        yield client
    finally:
        await client.delete(KEY)
        await client.aclose()


def fleet(
    site: Site, redis: object, time: FakeTime, n: int = 2, health: RedisHealth | None = None
) -> list[GuardedSource]:
    conf = SourceSettings(rate_per_s=1000, retries=0, block_cooldown_s=COOLDOWN_S)
    return [
        GuardedSource(
            site.replica(f"r{i}"),
            conf,
            Metrics(),
            sleep=time.sleep,
            monotonic=time.monotonic,
            shared_block=SharedBlock(redis, SOURCE, health, clear_s=COOLDOWN_S),
        )
        for i in range(n)
    ]


async def blocked_fleet(
    site: Site, redis, time: FakeTime, n: int = 2, health: RedisHealth | None = None
) -> list[GuardedSource]:
    """`n` replicas, all refusing: the first was blocked by the site, the others saw it."""
    replicas = fleet(site, redis, time, n, health)
    site.next_error = SourceBlocked(SOURCE, "302 to error.html")
    with pytest.raises(SourceBlocked):
        await replicas[0].search(query())
    for other in replicas[1:]:
        with pytest.raises(CircuitOpenError):
            await other.search(query())
    assert site.received == ["r0"]
    site.received.clear()
    return replicas


async def cool_down(redis, time: FakeTime) -> None:
    """The cool-down ends: on the replicas' clock and on Redis's (the key expires)."""
    time.advance(COOLDOWN_S + 1)
    await redis.delete(KEY)


async def ask(replica: GuardedSource) -> object:
    try:
        return await replica.search(query())
    except (SourceError, asyncio.CancelledError) as exc:
        return exc


async def test_after_a_block_exactly_one_probe_reaches_the_site_fleet_wide(redis) -> None:
    site, time = Site(), FakeTime()
    a, b = await blocked_fleet(site, redis, time)
    (bystander,) = fleet(site, redis, time, 1)  # a replica that never met the block
    await cool_down(redis, time)
    site.gate, site.arrived = asyncio.Event(), asyncio.Event()
    calls = [asyncio.create_task(ask(r)) for r in (a, b, a, b, a, b)]
    await asyncio.wait_for(site.arrived.wait(), 5)
    await asyncio.sleep(0.05)  # let the other five reach their verdicts: all refused
    refused = [c for c in calls if c.done()]
    assert len(refused) == 5 and all(isinstance(c.result(), CircuitOpenError) for c in refused)
    assert isinstance(await ask(bystander), CircuitOpenError), "refused while the probe is out"
    assert len(site.received) == 1, "one probe for the fleet, not one per replica"
    prober, waiter = (a, b) if site.received == ["r0"] else (b, a)
    site.gate.set()  # the probe answers ...
    assert not isinstance(await next(c for c in calls if not c.done()), Exception)
    assert prober.breaker.state is BreakerState.CLOSED
    assert not isinstance(await ask(waiter), Exception), "... and the others close, unprobed"
    assert waiter.breaker.state is BreakerState.CLOSED
    assert len(site.received) == 2
    assert await redis.get(KEY) == b"clear"


@pytest.mark.parametrize(
    "failure",
    [SourceBlocked(SOURCE, "302 to error.html"), SourceServerError(SOURCE, "HTTP 503", 503)],
    ids=["blocked-again", "server-error"],
)
async def test_a_failed_probe_renews_the_block_for_every_replica(redis, failure) -> None:
    site, time = Site(), FakeTime()
    a, b = await blocked_fleet(site, redis, time)
    await cool_down(redis, time)
    site.next_error = failure
    assert isinstance(await ask(a), type(failure))  # a's probe fails ...
    assert await redis.get(KEY) == b"blocked"
    assert COOLDOWN_S - 10 < await redis.pttl(KEY) / 1000 <= COOLDOWN_S
    assert isinstance(await ask(b), CircuitOpenError), "... so b sends nothing"
    time.advance(COOLDOWN_S - 10)
    for replica in (a, b):
        assert isinstance(await ask(replica), CircuitOpenError)
        assert replica.breaker.state is BreakerState.OPEN, "open for the renewed cool-down"
    assert site.received == ["r0"]


async def test_a_probe_whose_caller_left_hands_the_probe_on_at_once(redis) -> None:
    site, time = Site(), FakeTime()
    a, b = await blocked_fleet(site, redis, time)
    await cool_down(redis, time)
    site.gate, site.arrived = asyncio.Event(), asyncio.Event()
    probe = asyncio.create_task(ask(a))
    await asyncio.wait_for(site.arrived.wait(), 5)
    assert isinstance(await ask(b), CircuitOpenError)
    probe.cancel(ABANDONED)  # the client disconnected mid-probe
    await asyncio.gather(probe, return_exceptions=True)
    site.gate.set()
    assert not isinstance(await ask(b), Exception), "b probes next, without waiting a lease out"
    assert not isinstance(await ask(a), Exception), "a closes on b's answer, and sends"
    assert site.received == ["r0", "r1", "r0"]
    assert a.breaker.state is b.breaker.state is BreakerState.CLOSED


async def test_an_abandoned_probe_never_leaves_the_breaker_stuck_half_open() -> None:
    site, time = Site(), FakeTime()
    conf = SourceSettings(rate_per_s=1000, retries=0, block_cooldown_s=COOLDOWN_S)
    alone = GuardedSource(
        site.replica("r0"), conf, Metrics(), sleep=time.sleep, monotonic=time.monotonic
    )
    site.next_error = SourceBlocked(SOURCE, "302 to error.html")
    assert isinstance(await ask(alone), SourceBlocked)
    time.advance(COOLDOWN_S + 1)
    site.gate = asyncio.Event()
    probe = asyncio.create_task(ask(alone))
    await asyncio.wait_for(site.arrived.wait(), 5)
    probe.cancel(ABANDONED)
    await asyncio.gather(probe, return_exceptions=True)
    site.gate.set()
    assert not isinstance(await ask(alone), Exception), "the next caller probes"
    assert alone.breaker.state is BreakerState.CLOSED


async def test_a_replica_without_redis_sends_its_own_probe(redis) -> None:
    site, time = Site(), FakeTime()
    health = RedisHealth(Metrics(), retry_pause_s=COOLDOWN_S * 10, monotonic=time.monotonic)
    a, b = await blocked_fleet(site, redis, time, health=health)
    await cool_down(redis, time)
    health.went_down(ConnectionError("redis gone"))  # both lose Redis
    assert not isinstance(await ask(a), Exception)
    assert not isinstance(await ask(b), Exception)
    assert site.received == ["r0", "r1"], "each honoured the block, then probed for itself"
