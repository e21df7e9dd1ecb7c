"""Suite-wide fixtures: a throwaway Redis the suite owns, apps built with injected clocks,
and a hermetic run (tests/hermetic.py: no RAILTRIP_ environment, no `.env`, no network)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import redis.asyncio as aioredis

from tests import hermetic
from tests.redis_server import RedisServer


def pytest_configure(config: pytest.Config) -> None:
    # Before collection: importing app.main builds settings, which must not see them either.
    hermetic.enter()


@pytest.fixture(autouse=True)
def no_real_network_requests() -> Iterator[None]:
    """Fail the test that tried to reach a real host (a model endpoint, 12306, ...)."""
    hermetic.take_refused()
    yield
    refused = hermetic.take_refused()
    if refused:
        pytest.fail(f"tests may not reach the network; refused: {refused}", pytrace=False)


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
