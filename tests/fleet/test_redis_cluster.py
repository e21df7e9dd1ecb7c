"""The cache, the fleet limiter, single-flight and sessions on a three-master Redis Cluster.

Two apps (two replicas' worth of state) share one throwaway cluster made by the test; the
keys they use land in different slots, which the cluster client routes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from redis.asyncio.cluster import RedisCluster

from app.gcra import Gcra, gcra_key
from app.redis_client import BoundedRedisCluster, build_redis
from app.sessions import SESSION_KEY
from app.settings import Settings
from app.tickets.cache import RedisTier
from tests.app.apps import upstream_requests
from tests.chaos.conftest import running, state_of, ticket_params
from tests.fleet.redis_cluster import ThrowawayCluster

FAST = {"rate_per_s": 200.0, "concurrency": 20}
SOURCES = ("sandbox-12306", "sandbox-juhe")


@pytest.fixture(scope="module")
def cluster() -> Iterator[ThrowawayCluster]:
    made = ThrowawayCluster()
    made.start()
    try:
        yield made
    finally:
        made.cleanup()


def on(cluster: ThrowawayCluster, **limits: float) -> Settings:
    return Settings(
        redis_url=cluster.url,
        source_overrides=dict.fromkeys(SOURCES, {**FAST, **limits}),
        log_level="WARNING",
    )


async def cluster_client(cluster: ThrowawayCluster) -> RedisCluster:
    client = RedisCluster(host="127.0.0.1", port=cluster.ports[0])
    await client.initialize()
    return client


async def test_the_app_builds_an_initialised_bounded_cluster_client(
    cluster: ThrowawayCluster,
) -> None:
    async with running(on(cluster)) as (app, client):
        redis = state_of(app).redis
        assert isinstance(redis, BoundedRedisCluster)
        assert len(redis.get_primaries()) == 3, "slots learnt at start-up"
        ready = (await client.get("/readyz")).json()
    assert ready["redis"] == "ok"


async def test_an_answer_cached_by_one_app_is_a_hit_for_another(cluster: ThrowawayCluster) -> None:
    query = ticket_params(100)
    async with running(on(cluster)) as (_, client):
        first = (await client.get("/v1/tickets", params=query)).json()
    async with running(on(cluster)) as (app, client):
        second = (await client.get("/v1/tickets", params=query)).json()
        assert all(upstream_requests(state_of(app), name) == 0 for name in SOURCES)
    assert (first["freshness"], second["freshness"]) == ("realtime", "cached")
    assert second["offers"] == first["offers"]


async def test_identical_cold_queries_on_two_apps_cost_one_request_per_source(
    cluster: ThrowawayCluster,
) -> None:
    query = ticket_params(101)
    async with running(on(cluster)) as (one, a), running(on(cluster)) as (two, b):
        # One warm-up query per app: each opens its 12306 session (a counted request).
        for client, days in ((a, 103), (b, 104)):
            await client.get("/v1/tickets", params=ticket_params(days))

        def sent(name: str) -> float:
            return upstream_requests(state_of(one), name) + upstream_requests(state_of(two), name)

        before = {name: sent(name) for name in SOURCES}
        bodies = await asyncio.gather(
            *((a if i % 2 else b).get("/v1/tickets", params=query) for i in range(20))
        )
        for name in SOURCES:
            assert sent(name) - before[name] == 1, name
    assert {r.status_code for r in bodies} == {200}
    assert {r.json()["freshness"] for r in bodies} <= {"realtime", "cached"}


async def test_the_fleet_limiter_reserves_slots_on_the_cluster(cluster: ThrowawayCluster) -> None:
    # One slot per 20 s: the slot key outlives the query (whose first request waits for
    # nothing; no retries, which would wait for the next slot).
    async with running(on(cluster, rate_per_s=0.05, retries=0)) as (app, client):
        assert all(s.limiter.fleet_wide for s in state_of(app).sources)
        await client.get("/v1/tickets", params=ticket_params(102))
    direct = await cluster_client(cluster)
    try:
        for name in SOURCES:
            assert await direct.exists(gcra_key(f"source:{name}")) == 1, name
        gcra = Gcra(direct)
        waits = [await gcra.reserve("cluster-check", 0.01, 1) for _ in range(3)]
        assert waits[0] == 0.0 and 170 < waits[2] <= 200, waits
        assert not (await gcra.check("cluster-check", 0.01, 1)).allowed
    finally:
        await direct.aclose()


async def test_a_chat_continues_on_another_app_through_the_cluster(
    cluster: ThrowawayCluster,
) -> None:
    async with running(on(cluster)) as (_, client):
        first = (await client.post("/v1/chat", json={"text": "下周末，预算2000"})).json()
    sid = first["session_id"]
    async with running(on(cluster)) as (_, client):
        second = (
            await client.post("/v1/chat", json={"session_id": sid, "text": "北京到上海"})
        ).json()
    assert second["intent"]["budget"] == 2000
    direct = await cluster_client(cluster)
    try:
        assert await direct.exists(SESSION_KEY.format(session_id=sid)) == 1
        assert await direct.exists(RedisTier.key("no-such-query")) == 0
    finally:
        await direct.aclose()


async def test_a_cold_cluster_client_survives_many_concurrent_first_commands(
    cluster: ThrowawayCluster,
) -> None:
    client = build_redis(cluster.url, timeout_s=1.0, max_connections=16)  # not initialised
    try:
        answers = await asyncio.gather(*(client.get(f"cold:{n}") for n in range(300)))
    finally:
        await client.aclose()
    assert answers == [None] * 300
