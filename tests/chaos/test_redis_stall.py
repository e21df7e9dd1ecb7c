"""Redis stalled (SIGSTOP) for 5 s under a steady trickle of warm requests.

A stalled Redis keeps its connections open and answers nothing, the worst case for a client:
only the short socket timeout and the shared health state stand between it and the request.
Figures are printed (`-s`) for the report; the assertions are generous on purpose.

One request per kind may be an outlier: on a shared CI box a single request was once delayed
1.2 s by something other than Redis (the same request costs +0.1 ms to +120 ms everywhere
else, loaded or not). A client that waited on the stalled Redis would be slow on every request,
or once for the whole stall (5 s), and both still fail.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import time

import pytest

from app.settings import Settings
from tests.chaos.conftest import running, sample, ticket_params
from tests.redis_server import RedisServer

pytestmark = pytest.mark.chaos

PAUSE_S = 5.0
BASELINE_S = 1.5
# Generous bounds: the design figure is +100 ms; a loaded 2-core CI box gets 5x headroom.
ADDED_MEDIAN_S = 0.1
ADDED_MAX_S = 0.5
# The one outlier allowed per kind must still be well short of waiting out the stall.
OUTLIER_MAX_S = PAUSE_S / 2


async def measure(client, until: float, sessions: list[str]) -> dict[str, list[float]]:
    """Sequential warm requests until `until`: one cached ticket query, one /readyz, one
    chat turn on an existing session. Latency of each, by kind."""
    seen: dict[str, list[float]] = {"tickets": [], "readyz": [], "chat": []}
    while time.monotonic() < until:
        for kind, call in (
            ("tickets", lambda: client.get("/v1/tickets", params=ticket_params(0))),
            ("readyz", lambda: client.get("/readyz")),
            (
                "chat",
                lambda: client.post(
                    "/v1/chat", json={"session_id": sessions[0], "text": "北京到上海"}
                ),
            ),
        ):
            started = time.perf_counter()
            response = await call()
            seen[kind].append(time.perf_counter() - started)
            assert response.status_code == 200, (kind, response.text[:200])
        await asyncio.sleep(0.02)  # pacing the trickle, not waiting for anything
    return seen


async def test_redis_paused_for_5s_adds_milliseconds_to_warm_requests(own_redis: RedisServer):
    fast = {"rate_per_s": 100.0, "concurrency": 10}
    settings = Settings(
        redis_url=own_redis.url,
        source_overrides={"sandbox-12306": fast, "sandbox-juhe": fast},
        log_level="WARNING",
    )
    async with running(settings) as (app, client):
        assert (await client.get("/v1/tickets", params=ticket_params(0))).status_code == 200
        first = await client.post("/v1/chat", json={"text": "下周末，预算2000"})
        sessions = [first.json()["session_id"]]
        gc.collect()  # a full collection of the suite's heap is not what this test measures
        before = await measure(client, time.monotonic() + BASELINE_S, sessions)
        own_redis.pause()
        try:
            during = await measure(client, time.monotonic() + PAUSE_S, sessions)
            assert sample(app, "railtrip_redis_up") == 0, "the stall was noticed"
        finally:
            own_redis.resume()
        for _ in range(100):  # bounded: /readyz probes in the background, then reports ok
            if (await client.get("/readyz")).json()["redis"] == "ok":
                break
            await asyncio.sleep(0.05)
        assert (await client.get("/readyz")).json()["redis"] == "ok"

    for kind in ("tickets", "readyz", "chat"):
        base = statistics.median(before[kind])
        added_median = statistics.median(during[kind]) - base
        added = sorted(seconds - base for seconds in during[kind])
        print(
            f"{kind}: baseline p50 {base * 1000:.1f} ms; paused p50 +{added_median * 1000:.1f} ms,"
            f" max +{added[-1] * 1000:.1f} ms, second +{added[-2] * 1000:.1f} ms"
            f" over {len(added)} requests"
        )
        assert added_median <= ADDED_MEDIAN_S, (kind, added_median)
        assert added[-2] <= ADDED_MAX_S, (kind, added[-2:])  # all but one outlier
        assert added[-1] <= OUTLIER_MAX_S, (kind, added[-1])
