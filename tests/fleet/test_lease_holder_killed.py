"""A replica killed while it holds a query's fleet lease: the other one takes over at the
lease's expiry, never later (two railtrip processes, one Redis, a slow standalone vendor)."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
import redis

from tests.fleet.processes import Process, data_arrivals, start_replicas, start_vendor
from tests.fleet.test_two_replicas import fleet_env, params
from tests.redis_server import RedisServer

pytestmark = pytest.mark.chaos

LEASE_S = 2.0
VENDOR_LATENCY_MS = 1500
SLACK_S = 1.5  # scheduling on a loaded machine; far below a second lease or a deadline


async def test_killing_the_lease_holder_mid_fetch_hands_over_at_the_lease_expiry(
    redis_server: RedisServer,
) -> None:
    redis.Redis.from_url(redis_server.url).flushall()
    started: list[Process] = []
    try:
        vendor = start_vendor("juhe", latency_ms=VENDOR_LATENCY_MS)
        started.append(vendor)
        env = fleet_env(redis_server.url, {"juhe": vendor}, RAILTRIP_FLIGHT_LEASE_S=str(LEASE_S))
        holder, other = start_replicas(env, 2)
        started += [holder, other]
        query = params(3)

        async with httpx.AsyncClient(timeout=30.0) as client:
            doomed = asyncio.create_task(client.get(holder.url + "/v1/tickets", params=query))
            for _ in range(500):  # bounded poll (10 s): the holder's request has arrived
                if data_arrivals(vendor):
                    break
                await asyncio.sleep(0.02)
            (holder_sent,) = data_arrivals(vendor)
            asked = time.monotonic()
            waiting = asyncio.create_task(client.get(other.url + "/v1/tickets", params=query))
            await asyncio.sleep(0.2)  # let it find the lease taken and start waiting
            holder.kill()
            response = await waiting
            took = time.monotonic() - asked
            with pytest.raises(httpx.HTTPError):
                await doomed
        arrivals = data_arrivals(vendor)
    finally:
        for proc in started:
            proc.stop()

    assert response.status_code == 200
    body = response.json()
    assert body["freshness"] == "realtime", "the other replica fetched for itself"
    first, second = arrivals
    assert first == holder_sent
    # It waited for the lease (no double fetch while the holder lived) ...
    assert second - first >= LEASE_S - 0.5, second - first
    # ... and no longer than the lease, then one slow vendor answer.
    assert second - first <= LEASE_S + SLACK_S, second - first
    assert took <= LEASE_S + VENDOR_LATENCY_MS / 1000 + 2 * SLACK_S, took
    print(f"handover {second - first:.2f}s after the holder's request (lease {LEASE_S}s)")
