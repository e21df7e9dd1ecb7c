"""One timed-out Redis command is not a Redis down: the health confirms it with a probe.

On the suite's real Redis (and a stalled one of the test's own): a command whose reply came
late is tried once more when Redis answers the probe, and Redis stays up; a stalled Redis
fails the probe too and is marked down; a refused connection is down at once, no probe.
"""

from __future__ import annotations

import asyncio

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.observability.metrics import Metrics
from app.redis_health import RedisHealth, is_timeout
from app.settings import Settings
from app.wiring.services import redis_client
from tests.redis_server import RedisServer

BOUND_S = 10.0


def client_for(url: str):  # type: ignore[no-untyped-def]
    """A replica's Redis client, with the production timeouts (0.1 s) and pool."""
    return redis_client(Settings(redis_url=url))


def redis_down_count(metrics: Metrics) -> float:
    value = metrics.registry.get_sample_value("railtrip_degradations_total", {"kind": "redis_down"})
    return value or 0.0


async def test_a_command_whose_reply_came_late_is_retried_and_redis_stays_up(
    redis_url: str,
) -> None:
    client = client_for(redis_url)
    metrics = Metrics()
    health = RedisHealth(metrics, ping=client.ping)
    calls = 0

    async def late_once() -> object:
        nonlocal calls
        calls += 1
        value = await client.incr("late")  # it ran in Redis ...
        if calls == 1:
            raise RedisTimeoutError("Timeout reading from socket")  # ... its reply came late
        return value

    async with asyncio.timeout(BOUND_S):
        assert await health.attempt(late_once) == 2
    assert calls == 2 and health.state == "ok"
    assert metrics.registry.get_sample_value("railtrip_redis_up") == 1
    assert redis_down_count(metrics) == 0
    await health.aclose()
    await client.aclose()


async def test_a_stalled_redis_fails_the_probe_too_and_is_marked_down(
    own_redis: RedisServer,
) -> None:
    client = client_for(own_redis.url)
    await client.ping()  # a pooled connection, open when the stall starts
    metrics = Metrics()
    health = RedisHealth(metrics, ping=client.ping)
    calls = 0

    async def get() -> object:
        nonlocal calls
        calls += 1
        return await client.get("k")

    own_redis.pause()
    try:
        async with asyncio.timeout(BOUND_S):
            with pytest.raises(RedisTimeoutError):
                await health.attempt(get)  # one timeout, then the probe's (0.1 s each)
        assert calls == 1, "no retry once the probe failed: a stall is not paid twice"
        assert health.state == "down" and not health.usable()
        assert metrics.registry.get_sample_value("railtrip_redis_up") == 0
    finally:
        own_redis.resume()
    await health.aclose()
    await client.aclose()


async def test_a_refused_connection_is_down_at_once_without_a_probe() -> None:
    client = client_for("redis://127.0.0.1:1/0")
    pings = 0

    async def ping() -> object:
        nonlocal pings
        pings += 1
        return await client.ping()

    health = RedisHealth(Metrics(), ping=ping, retry_pause_s=60)
    with pytest.raises(RedisConnectionError):
        await health.attempt(lambda: client.get("k"))
    assert health.state == "down" and pings == 0
    await health.aclose()
    await client.aclose()


async def test_a_reported_timeout_is_confirmed_in_the_background_not_at_once(
    redis_url: str,
) -> None:
    """The other Redis users (sessions, limiter, stop lists) only report: the probe decides."""
    client = client_for(redis_url)
    health = RedisHealth(Metrics(), ping=client.ping)
    health.went_down(RedisTimeoutError("Timeout reading from socket"))
    assert health.state == "ok" and health.usable(), "not down on one timeout"
    async with asyncio.timeout(BOUND_S):
        assert health._probe is not None
        await health._probe
    assert health.state == "ok"
    await health.aclose()
    await client.aclose()


def test_without_a_ping_or_a_loop_a_timeout_marks_redis_down_as_before() -> None:
    health = RedisHealth(Metrics())
    health.went_down(RedisTimeoutError("Timeout reading from socket"))
    assert health.state == "down"


def test_what_counts_as_a_timeout() -> None:
    assert is_timeout(RedisTimeoutError("Timeout reading from socket"))
    assert is_timeout(TimeoutError())
    assert not is_timeout(RedisConnectionError("Connection refused"))
    assert not is_timeout(ConnectionResetError())
