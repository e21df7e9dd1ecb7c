"""`RAILTRIP_REDIS_URL` forms, the client each builds, and the shared health state."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError
from redis.asyncio import BlockingConnectionPool, Redis

from app.observability.metrics import Metrics
from app.redis_client import BoundedRedisCluster, build_redis
from app.redis_health import RedisHealth
from app.redis_url import RedisUrlError, parse_redis_url
from app.settings import Settings
from tests.clocks import FakeTime


def test_cluster_url_lists_startup_nodes() -> None:
    target = parse_redis_url("redis+cluster://:s3cret@10.0.0.1:6379,10.0.0.2:6380/0")
    assert target.kind == "cluster"
    assert target.hosts == (("10.0.0.1", 6379), ("10.0.0.2", 6380))
    assert target.password == "s3cret" and target.db == 0


def test_sentinel_url_names_the_master_and_database() -> None:
    target = parse_redis_url("redis+sentinel://s1:26379,s2:26379/mymaster/2")
    assert (target.kind, target.service, target.db) == ("sentinel", "mymaster", 2)
    assert target.hosts == (("s1", 26379), ("s2", 26379))


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:6379",
        "redis+cluster://",
        "redis+cluster://h1",
        "redis+cluster://h1:6379/3",
        "redis+sentinel://s1:26379",
        "redis+sentinel://s1:26379/mymaster/x",
    ],
)
def test_malformed_urls_are_refused_naming_the_variable(url: str) -> None:
    with pytest.raises(RedisUrlError, match="RAILTRIP_REDIS_URL"):
        parse_redis_url(url)
    with pytest.raises(ValidationError, match="redis_url"):
        Settings(redis_url=url)


async def test_single_server_client_queues_on_a_bounded_pool_with_short_timeouts() -> None:
    client = build_redis("redis://127.0.0.1:6379/0", timeout_s=0.1, max_connections=7)
    assert isinstance(client, Redis)
    pool = client.connection_pool
    assert isinstance(pool, BlockingConnectionPool)
    assert pool.max_connections == 7 and pool.timeout == 0.5
    assert pool.connection_kwargs["socket_timeout"] == 0.1
    await client.aclose()


async def test_cluster_client_gates_commands_at_the_bound() -> None:
    client = build_redis("redis+cluster://127.0.0.1:7000", timeout_s=0.1, max_connections=5)
    assert isinstance(client, BoundedRedisCluster)
    assert client._gate._value == 5


async def test_sentinel_client_uses_a_blocking_pool() -> None:
    client = build_redis(
        "redis+sentinel://127.0.0.1:26379/mymaster", timeout_s=0.1, max_connections=9
    )
    assert isinstance(client.connection_pool, BlockingConnectionPool)
    assert client.connection_pool.max_connections == 9


async def test_a_burst_far_past_the_pool_bound_queues_instead_of_failing(redis_url: str) -> None:
    client = build_redis(redis_url, timeout_s=1.0, max_connections=8)
    try:
        answers = await asyncio.gather(*(client.incr("burst") for _ in range(300)))
    finally:
        await client.aclose()
    assert sorted(answers) == list(range(1, 301))


def test_health_skips_redis_while_down_except_one_probe_per_pause() -> None:
    time = FakeTime()
    metrics = Metrics()
    health = RedisHealth(metrics, retry_pause_s=1.0, monotonic=time.monotonic)
    assert health.usable() and health.state == "ok"
    health.went_down(ConnectionError("refused"))
    assert [health.usable() for _ in range(3)] == [False, False, False]
    time.advance(1.0)
    assert health.usable(), "one call may probe after the pause"
    assert not health.usable(), "only one"
    assert metrics.registry.get_sample_value("railtrip_redis_up") == 0


async def test_with_a_ping_the_probe_runs_in_the_background_not_on_a_request() -> None:
    time = FakeTime()
    pings: list[str] = []

    async def ping() -> bool:
        pings.append("ping")
        return True

    health = RedisHealth(Metrics(), retry_pause_s=1.0, monotonic=time.monotonic, ping=ping)
    health.went_down(ConnectionError("refused"))
    time.advance(1.0)
    assert health.usable() is False, "the request itself never waits for the probe"
    await asyncio.sleep(0)
    assert pings == ["ping"] and health.state == "ok"
    assert health.usable() is True
    await health.aclose()


async def test_recovery_runs_the_write_back_listeners() -> None:
    health = RedisHealth(Metrics())
    ran: list[str] = []

    async def write_back() -> None:
        ran.append("written")

    health.on_recovery(write_back)
    health.came_back()  # already up: nothing to write back
    await asyncio.sleep(0)
    assert ran == []
    health.went_down(ConnectionError("refused"))
    health.came_back()
    await asyncio.sleep(0)  # the listener runs as a background task
    await health.aclose()
    assert ran == ["written"]
