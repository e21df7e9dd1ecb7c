"""Two railtrip processes on one real Redis and the standalone sandbox vendors.

Everything is counted where it happens: at the vendors' own request counters
(`python -m sources.sandbox --expose-counters`), so an extra upstream request cannot hide.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Iterator

import httpx
import pytest
import redis

from sources.base import shanghai_now
from tests.fleet.processes import Process, data_arrivals, start_replicas, start_vendor
from tests.redis_server import RedisServer

RATE_PER_S = 10.0
PAIRS = (("北京", "上海"), ("北京", "南京"), ("上海", "杭州"), ("北京", "武汉"), ("广州", "深圳"))
SOURCES = ("rail12306", "juhe")


def params(index: int) -> dict[str, str]:
    """The `index`-th distinct ticket query inside the sale window (by the vendors' clock)."""
    day, pair = divmod(index, len(PAIRS))
    date = shanghai_now().date() + dt.timedelta(days=1 + day % 13)
    origin, destination = PAIRS[pair]
    return {"origin": origin, "destination": destination, "date": date.isoformat()}


class Fleet:
    def __init__(self, vendors: dict[str, Process], replicas: list[Process]) -> None:
        self.vendors = vendors
        self.replicas = replicas

    def queries(self) -> dict[str, int]:
        """Ticket queries each vendor has received so far."""
        return {name: len(data_arrivals(vendor)) for name, vendor in self.vendors.items()}


def fleet_env(redis_url: str, vendors: dict[str, Process], **extra: str) -> dict[str, str]:
    return {
        "RAILTRIP_REDIS_URL": redis_url,
        "RAILTRIP_SOURCES": ",".join(vendors),
        "RAILTRIP_SANDBOX_ADMIN": "0",
        "RAILTRIP_QUERY_DEADLINE_S": "20",
        "RAILTRIP_LOG_LEVEL": "WARNING",
        "RAILTRIP_JUHE_API_KEY": "fleet-test-key",  # the standalone vendor takes any key
        **{f"RAILTRIP_{name.upper()}_BASE_URL": vendor.url for name, vendor in vendors.items()},
        **{f"RAILTRIP_{name.upper()}_RATE_PER_S": str(RATE_PER_S) for name in vendors},
        **extra,
    }


@pytest.fixture(scope="module")
def fleet(redis_server: RedisServer) -> Iterator[Fleet]:
    redis.Redis.from_url(redis_server.url).flushall()
    started: list[Process] = []
    try:
        vendors = {"rail12306": start_vendor("12306"), "juhe": start_vendor("juhe")}
        started += vendors.values()
        env = fleet_env(redis_server.url, vendors)
        replicas = start_replicas(env, 2)
        started += replicas
        yield Fleet(vendors, replicas)
    finally:
        for proc in started:
            proc.stop()


async def get_tickets(
    replica: Process, query: dict[str, str], client: httpx.AsyncClient | None = None
) -> dict:
    if client is None:
        async with httpx.AsyncClient(timeout=30.0) as own:
            return await get_tickets(replica, query, own)
    response = await client.get(replica.url + "/v1/tickets", params=query)
    assert response.status_code == 200, response.text[:300]
    return response.json()


async def test_1_a_query_cached_by_one_replica_is_a_hit_on_the_other(fleet: Fleet) -> None:
    first, second = fleet.replicas
    # One warm-up query per replica: each learns its 12306 session cookies and query path.
    await get_tickets(second, params(1))
    answered = await get_tickets(first, params(0))
    assert answered["freshness"] == "realtime"
    before = fleet.queries()
    again = await get_tickets(second, params(0))
    assert again["freshness"] == "cached"
    assert again["offers"] == answered["offers"]
    assert fleet.queries() == before, "a hit in L2 must not reach any vendor"


BURSTS = 10


async def test_2_identical_cold_queries_on_both_replicas_cost_one_request_per_source(
    fleet: Fleet,
) -> None:
    """Every run, not most: the same burst of 100 over both replicas, 10 times."""
    costs = []
    # No keep-alive: a server closing an idle connection between bursts is not our subject.
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=30.0, limits=limits) as client:
        for burst in range(BURSTS):
            before = fleet.queries()
            query = params(40 + burst)  # a cold query each time (tests 1 and 3 use others)
            bodies = await asyncio.gather(
                *(get_tickets(fleet.replicas[i % 2], query, client) for i in range(100))
            )
            after = fleet.queries()
            costs.append({name: after[name] - before[name] for name in SOURCES})
            assert {b["freshness"] for b in bodies} <= {"realtime", "cached"}
            assert len({str(b["offers"]) for b in bodies}) == 1, "every caller got one answer"
    print("upstream requests per burst:", costs)
    assert costs == [dict.fromkeys(SOURCES, 1)] * BURSTS


async def test_3_a_burst_of_distinct_queries_keeps_each_source_within_its_one_rate(
    fleet: Fleet,
) -> None:
    count = 30
    started = time.time()
    bodies = await asyncio.gather(
        *(get_tickets(fleet.replicas[i % 2], params(10 + i)) for i in range(count))
    )
    assert all(b["freshness"] == "realtime" for b in bodies)
    for name, vendor in fleet.vendors.items():
        arrivals = [t for t in data_arrivals(vendor) if t >= started]
        assert len(arrivals) == count, name
        # The fleet's slots are exactly 1/rate apart (GCRA on Redis time, tested in
        # tests/app/test_gcra.py); arrivals jitter by the senders' scheduling on a loaded
        # machine. So: the whole burst takes at least its slots' length, and no 2 s window
        # holds more than 2 s of slots plus half a second of jitter. One limiter per replica
        # (the bug) sends the 30 in ~1.5 s, failing both.
        span = arrivals[-1] - arrivals[0]
        assert span >= (count - 1) / RATE_PER_S * 0.8, (name, span)
        busiest = max(
            sum(1 for t in arrivals[i:] if t < start + 2.0) for i, start in enumerate(arrivals)
        )
        assert busiest <= 2.5 * RATE_PER_S + 1, (name, busiest)
        print(f"{name}: {count} queries over {span:.2f}s; busiest 2 s window {busiest}")
