"""The session store without Redis (the embedded default) and with Redis unreachable."""

from __future__ import annotations

import pytest

from app.intent.model import TravelIntent
from app.observability.metrics import Metrics
from app.redis_client import build_redis
from app.redis_health import RedisHealth
from app.sessions import SessionLost, SessionStore, SessionUnavailable
from tests.clocks import FakeTime


def intent(destination: str = "上海") -> TravelIntent:
    return TravelIntent(origin="北京", destination=destination)


async def test_memory_store_keeps_a_session_for_its_ttl_then_calls_it_lost() -> None:
    time = FakeTime()
    store = SessionStore(None, 1800, max_local=16, monotonic=time.monotonic)
    assert await store.save("session-1", intent()) is True
    time.advance(1799)
    assert (await store.load("session-1")) == intent()
    time.advance(2)
    with pytest.raises(SessionLost):
        await store.load("session-1")


async def test_memory_store_is_bounded() -> None:
    store = SessionStore(None, 1800, max_local=16)
    for n in range(20):
        await store.save(f"session-{n:02d}", intent())
    with pytest.raises(SessionLost):
        await store.load("session-00")  # the oldest made room
    assert (await store.load("session-19")) == intent()


async def test_with_redis_unreachable_a_change_is_kept_in_memory_for_write_back() -> None:
    health = RedisHealth(Metrics())
    redis = build_redis("redis://127.0.0.1:1/0", timeout_s=0.1, max_connections=2)
    store = SessionStore(redis, 1800, health=health)
    assert await store.save("session-1", intent("杭州")) is False
    assert health.state == "down" and store.pending_write_back == 1
    assert (await store.load("session-1")) == intent("杭州")
    with pytest.raises(SessionUnavailable):
        await store.load("never-seen-here")
    await redis.aclose()
