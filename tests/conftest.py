"""Suite-wide fixtures: a throwaway Redis the suite owns, apps built with injected clocks."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import redis.asyncio as aioredis

from tests.redis_server import RedisServer


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One redis-server for the whole run, on a free port; never the machine's own."""
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture
async def redis_url(redis_server: RedisServer) -> AsyncIterator[str]:
    """The suite's Redis, emptied before each test that uses it."""
    client = aioredis.Redis.from_url(redis_server.url)
    await client.flushall()
    await client.aclose()
    yield redis_server.url


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A Redis this test alone owns, so it may kill and restart it."""
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.cleanup()
