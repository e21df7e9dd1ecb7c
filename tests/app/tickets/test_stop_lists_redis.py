"""Stop lists in Redis, against a real server: shared by replicas with their true age, kept
48 h for when every source fails, and skipped (memory only) while Redis is down or stalled."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aioredis

from app.observability.metrics import Metrics
from app.redis_client import RedisClient
from app.redis_health import RedisHealth
from app.settings import Settings
from app.tickets.stops import FRESH_FOR_S, STALE_FOR_S, SharedStopLists, StopListService
from app.wiring.services import redis_client
from sources.errors import SourceServerError
from tests.app.tickets.fakes import DAY, FakeStopSource, guarded
from tests.clocks import FakeTime
from tests.redis_server import RedisServer

KEY = SharedStopLists.key("G1", DAY)
HANG_GUARD_S = 10.0  # far past the 0.1 s Redis timeout; only a hang on Redis reaches it


def replica(
    url: str,
    source: FakeStopSource,
    time: FakeTime,
    retry_pause_s: float = 0.0,
    client: RedisClient | None = None,
) -> tuple[StopListService, Metrics]:
    """One process's stop-list service: its own memory, health and Redis client."""
    metrics = Metrics()
    health = RedisHealth(metrics, retry_pause_s=retry_pause_s, monotonic=time.monotonic)
    shared = SharedStopLists(client or replica_redis(url), health)
    service = StopListService(
        [guarded(source, metrics, time)],
        metrics,
        shared=shared,
        clock=time.now,
        monotonic=time.monotonic,
    )
    return service, metrics


def count(metrics: Metrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


def failing(name: str = "a") -> FakeStopSource:
    return FakeStopSource(name, error=SourceServerError(name, "HTTP 500", 500))


async def test_a_second_replica_serves_the_first_ones_copy_with_its_true_age(
    redis_url: str,
) -> None:
    time = FakeTime()
    first_src, second_src = FakeStopSource("a"), FakeStopSource("a")
    first, _ = replica(redis_url, first_src, time)
    second, metrics = replica(redis_url, second_src, time)
    assert (await first.stops("G1", DAY)).freshness == "realtime"
    time.advance(40)
    result = await second.stops("G1", DAY)
    assert result.freshness == "cached" and result.age_s == 40
    assert [s.name for s in result.stops] == ["北京南", "上海虹桥"] and result.warnings
    assert second_src.stop_calls == []
    assert count(metrics, "railtrip_cache_requests_total", tier="redis", result="hit") == 1
    time.advance(60)  # now from the second replica's memory, the age still the true one
    again = await second.stops("G1", DAY)
    assert again.freshness == "cached" and again.age_s == 100
    assert count(metrics, "railtrip_cache_requests_total", tier="memory", result="hit") == 1
    client = aioredis.Redis.from_url(redis_url)
    assert FRESH_FOR_S < await client.ttl(KEY) <= STALE_FOR_S  # the stale copy's lifetime
    await client.aclose()


async def test_a_copy_past_six_hours_is_refetched_and_still_serves_when_sources_fail(
    redis_url: str,
) -> None:
    time = FakeTime()
    first, _ = replica(redis_url, FakeStopSource("a"), time)
    await first.stops("G1", DAY)
    time.advance(FRESH_FOR_S + 60)
    down, metrics = replica(redis_url, failing(), time)  # a restarted replica, sources failing
    stale = await down.stops("G1", DAY)
    assert stale.freshness == "cached" and stale.age_s == FRESH_FOR_S + 60
    assert stale.sources[0].status == "error" and stale.stops
    assert count(metrics, "railtrip_cache_requests_total", tier="redis", result="stale") == 1
    assert count(metrics, "railtrip_degradations_total", kind="stale_cache") == 1
    source = FakeStopSource("a")
    live, _ = replica(redis_url, source, time)
    assert (await live.stops("G1", DAY)).freshness == "realtime"
    assert source.stop_calls == [("G1", DAY)]


async def test_past_48_hours_nothing_is_served_but_the_truth(redis_url: str) -> None:
    time = FakeTime()
    first, _ = replica(redis_url, FakeStopSource("a"), time)
    await first.stops("G1", DAY)
    time.advance(STALE_FOR_S + 1)  # Redis's TTL runs on its own clock; the age decides here
    down, _ = replica(redis_url, failing(), time)
    result = await down.stops("G1", DAY)
    assert result.freshness == "unavailable" and result.stops == () and result.warnings


async def test_other_formats_and_corrupt_copies_in_redis_are_ignored(redis_url: str) -> None:
    time = FakeTime()
    client = aioredis.Redis.from_url(redis_url)
    await client.set(KEY, b'{"v": 0, "stops": "old layout"}')
    await client.set(SharedStopLists.key("G1", DAY.replace(day=5)), b"not json")
    await client.aclose()
    source = FakeStopSource("a")
    service, _ = replica(redis_url, source, time)
    assert (await service.stops("G1", DAY)).freshness == "realtime"
    assert (await service.stops("G1", DAY.replace(day=5))).freshness == "realtime"
    assert len(source.stop_calls) == 2


async def test_redis_killed_degrades_to_memory_and_the_copies_return_with_it(
    own_redis: RedisServer,
) -> None:
    service, metrics = replica(own_redis.url, FakeStopSource("a"), FakeTime())
    assert (await service.stops("G1", DAY)).freshness == "realtime"

    own_redis.stop()
    for expected in ("realtime", "cached"):  # from the source, no error; then from memory
        assert (await service.stops("G1", DAY.replace(day=5))).freshness == expected
    assert count(metrics, "railtrip_redis_up") == 0
    assert count(metrics, "railtrip_degradations_total", kind="redis_down") >= 1

    own_redis.start()
    third = DAY.replace(day=6)
    assert (await service.stops("G1", third)).freshness == "realtime"
    assert count(metrics, "railtrip_redis_up") == 1
    client = aioredis.Redis.from_url(own_redis.url)
    assert await client.exists(SharedStopLists.key("G1", third)) == 1
    await client.aclose()


async def test_a_stalled_redis_costs_one_timeout_then_is_skipped(
    own_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    time = FakeTime()
    source = FakeStopSource("a")
    client = replica_redis(own_redis.url)
    sent: list[str] = []
    send = client.execute_command

    async def recorded(*args: Any, **options: Any) -> Any:
        sent.append(str(args[0]))
        return await send(*args, **options)

    monkeypatch.setattr(client, "execute_command", recorded)
    # No probe within the test: only a request could reach Redis again.
    service, metrics = replica(own_redis.url, source, time, retry_pause_s=60.0, client=client)
    own_redis.pause()
    try:
        async with asyncio.timeout(HANG_GUARD_S):
            first = await service.stops("G1", DAY)
            second = await service.stops("G1", DAY.replace(day=5))
    finally:
        own_redis.resume()
    assert first.freshness == second.freshness == "realtime"
    assert len(source.stop_calls) == 2
    assert count(metrics, "railtrip_redis_up") == 0
    # One read waited out the short timeout; everything after asked the health and skipped.
    assert sent == ["GET"]
    assert count(metrics, "railtrip_degradations_total", kind="redis_down") == 4


async def test_the_memory_copies_are_bounded_least_recently_used_first() -> None:
    time = FakeTime()
    source = FakeStopSource("a")
    metrics = Metrics()
    service = StopListService(
        [guarded(source, metrics, time)],
        metrics,
        max_copies=2,
        clock=time.now,
        monotonic=time.monotonic,
    )
    for train in ("G1", "G3", "G1", "G5"):  # G1 used again, so G3 is the one dropped
        await service.stops(train, DAY)
    assert source.stop_calls == [("G1", DAY), ("G3", DAY), ("G5", DAY)]
    assert (await service.stops("G1", DAY)).freshness == "cached"
    assert (await service.stops("G3", DAY)).freshness == "realtime"  # asked again
    assert source.stop_calls[-1] == ("G3", DAY)


def replica_redis(url: str):  # type: ignore[no-untyped-def]
    """A replica's Redis client, with the production timeouts and pool."""
    return redis_client(Settings(redis_url=url))
