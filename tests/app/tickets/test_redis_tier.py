"""L2 against a real Redis server: versioned entries, shared keys, outages survived."""

from __future__ import annotations

import redis.asyncio as aioredis

from app.observability.metrics import Metrics
from app.settings import Settings
from app.tickets.cache import CacheEntry, MemoryTier, RedisTier
from app.tickets.service import TicketService
from app.wiring.services import redis_client
from sources.errors import SourceServerError
from tests.app.tickets.fakes import BJN, SHQ, FakeSource, city_wide, guarded, query
from tests.clocks import FakeTime
from tests.redis_server import RedisServer


def service_on(url: str, source: FakeSource, time: FakeTime) -> tuple[TicketService, Metrics]:
    metrics = Metrics()
    tier = RedisTier(
        replica_redis(url), metrics, 300, 1800, retry_pause_s=0.0, monotonic=time.monotonic
    )
    memory = MemoryTier(30, 1800, 64, timer=time.monotonic)
    return TicketService(
        [guarded(source, metrics, time)],
        metrics,
        memory,
        tier,
        clock=time.now,
        monotonic=time.monotonic,
    ), metrics


async def test_a_second_process_reads_the_first_ones_answer_from_redis(redis_url: str) -> None:
    time = FakeTime()
    first_src, second_src = FakeSource("a"), FakeSource("a")
    first, _ = service_on(redis_url, first_src, time)
    second, metrics = service_on(redis_url, second_src, time)  # its own empty L1
    await first.search(city_wide(query(), BJN, SHQ))
    time.advance(40)
    result = await second.search(city_wide(query(), BJN, SHQ))
    assert result.freshness == "cached" and result.age_s == 40
    assert second_src.calls == []
    assert (
        metrics.registry.get_sample_value(
            "railtrip_cache_requests_total", {"tier": "redis", "result": "hit"}
        )
        == 1
    )


async def test_entries_are_versioned_and_other_formats_are_ignored(redis_url: str) -> None:
    time = FakeTime()
    src = FakeSource("a")
    service, _ = service_on(redis_url, src, time)
    client = aioredis.Redis.from_url(redis_url)
    await client.set(RedisTier.key(query().key), b'{"v": 0, "offers": "old layout"}')
    await client.aclose()
    result = await service.search(city_wide(query(), BJN, SHQ))
    assert result.freshness == "realtime" and len(src.calls) == 1


async def test_stale_copy_in_redis_survives_a_process_restart(redis_url: str) -> None:
    time = FakeTime()
    first, _ = service_on(redis_url, FakeSource("a"), time)
    await first.search(city_wide(query(), BJN, SHQ))
    time.advance(900)
    down = FakeSource("a", error=SourceServerError("a", "HTTP 500", 500))
    restarted, _ = service_on(redis_url, down, time)
    result = await restarted.search(city_wide(query(), BJN, SHQ))
    assert result.freshness == "cached" and result.age_s == 900
    stored = await aioredis.Redis.from_url(redis_url).ttl(RedisTier.stale_key(query().key))
    assert 0 < stored <= 1800


def test_entry_round_trips_through_bytes() -> None:
    time = FakeTime()
    entry = CacheEntry(as_of=time.now(), sources=(), offers=())
    assert CacheEntry.from_bytes(entry.to_bytes()) == entry
    assert CacheEntry.from_bytes(b"not json") is None


async def test_redis_killed_mid_run_degrades_to_memory_and_reconnects(
    own_redis: RedisServer,
) -> None:
    time = FakeTime()
    src = FakeSource("a")
    service, metrics = service_on(own_redis.url, src, time)
    assert (await service.search(city_wide(query(), BJN, SHQ))).freshness == "realtime"

    own_redis.stop()
    other_day = query().date.replace(day=5)
    during = await service.search(city_wide(query(day=other_day), BJN, SHQ))
    assert during.freshness == "realtime"  # answered, memory only
    assert service.redis is not None and service.redis.state == "down"
    assert metrics.registry.get_sample_value("railtrip_redis_up") == 0
    assert (
        metrics.registry.get_sample_value("railtrip_degradations_total", {"kind": "redis_down"})
        or 0
    ) >= 1

    own_redis.start()
    third = query().date.replace(day=6)
    await service.search(city_wide(query(day=third), BJN, SHQ))
    assert service.redis.state == "ok"
    assert metrics.registry.get_sample_value("railtrip_redis_up") == 1
    client = aioredis.Redis.from_url(own_redis.url)
    assert await client.exists(RedisTier.key(query(day=third).key)) == 1
    await client.aclose()


def replica_redis(url: str):  # type: ignore[no-untyped-def]
    """A replica's Redis client, with the production timeouts and pool."""
    return redis_client(Settings(redis_url=url))
