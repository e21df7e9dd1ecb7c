"""Redis killed and restarted under mixed load: memory only while down, L2 back by itself."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field

import pytest
import redis.asyncio as aioredis

from app.sessions import SESSION_KEY, decode_record
from app.settings import Settings
from app.tickets.cache import CacheEntry
from tests.chaos.conftest import assert_honest_freshness, running, sample, ticket_params

pytestmark = pytest.mark.chaos

UP_S, DOWN_S, AFTER_S = 2.5, 3.0, 2.5
TICKET_WORKERS = 6
# The tier probes again 1 s after a failure and /readyz probes at once. What is checked is that
# L2 comes back by itself, not how fast: on a loaded 2-core box the test's own Redis client took
# 3.5 s for its first command after the restart, and a CI-like run beside eight busy processes
# saw the app's first write 7.3 s after it. An app that never reconnects without a restart
# still fails the bound; one that does costs no more time for it.
L2_BACK_WITHIN_S = 20.0
HOT_QUERIES = 5
# Each phase lasts its time and then until this many ticket answers were sent in it: CI once
# answered only 7 in a 3 s outage on a saturated box (0.6 s per request while up), and the
# properties need requests in every phase, not a throughput. An app stuck in a phase hits the cap.
MIN_ANSWERS, PHASE_CAP_S = 10, 30.0


@dataclass
class Run:
    """What the load saw, each request tagged with the phase it was sent in."""

    phase: str = "up"
    stop: bool = False
    tickets: list[tuple[str, int, dict]] = field(default_factory=list)
    # /readyz answers with when each request was sent and answered (monotonic seconds).
    ready: list[tuple[float, float, int, dict]] = field(default_factory=list)
    distinct: int = HOT_QUERIES
    killing_at: float = 0.0
    killed_at: float = 0.0
    restarting_at: float = 0.0
    enough: asyncio.Event = field(default_factory=asyncio.Event)

    def answered(self, phase: str) -> int:
        return sum(1 for p, _, _ in self.tickets if p == phase)

    def record(self, phase: str, status: int, body: dict) -> None:
        self.tickets.append((phase, status, body))
        if phase == self.phase and self.answered(phase) >= MIN_ANSWERS:
            self.enough.set()

    def enter(self, phase: str) -> None:
        self.phase = phase
        self.enough.clear()

    async def hold(self, seconds: float) -> None:
        """Stay in the current phase `seconds`, then until MIN_ANSWERS were sent in it (capped)."""
        await asyncio.sleep(seconds)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.enough.wait(), PHASE_CAP_S)

    def readiness_between(self, after: float, before: float) -> set[str]:
        """Redis states /readyz reported for requests sent and answered inside the window."""
        return {
            body["redis"] for sent, got, _, body in self.ready if after <= sent and got <= before
        }


async def ticket_worker(client, run: Run, seed: int) -> None:
    """Repeated and distinct queries, sometimes with refresh=true."""
    rng = random.Random(seed)
    while not run.stop:
        if rng.random() < 0.6:
            params = ticket_params(rng.randrange(HOT_QUERIES))
        else:
            run.distinct += 1
            params = ticket_params(run.distinct)
        if rng.random() < 0.2:
            params["refresh"] = "true"
        phase = run.phase
        response = await client.get("/v1/tickets", params=params)
        run.record(phase, response.status_code, response.json())
        await asyncio.sleep(0.005)  # pacing: six flat-out workers starve the loop they measure


async def readiness_worker(client, run: Run) -> None:
    while not run.stop:
        sent = time.monotonic()
        response = await client.get("/readyz")
        run.ready.append((sent, time.monotonic(), response.status_code, response.json()))
        await asyncio.sleep(0.05)  # pacing the probe, not waiting for anything


async def test_redis_killed_and_restarted_under_load_never_5xx_and_l2_returns(own_redis):
    """~8 s of load instead of 30 s: 2.5 s up, 3 s down, 2.5 s back show every property
    (the tier's reconnect pause is 1 s, so longer phases add requests, not coverage).

    No 5xx; every ticket answer tagged; /readyz says redis down for the whole outage; after
    the restart on the same port a fresh key lands in Redis and `railtrip_redis_up` is 1
    again within a few seconds, without restarting the app."""
    fast = {"rate_per_s": 100.0, "concurrency": 10}
    settings = Settings(
        redis_url=own_redis.url,
        memory_ttl_s=0.5,  # short L1, so repeated queries keep reaching L2 through the outage
        # A kill refuses connections at once, so the timeout does not shape this test; at the
        # 0.1 s default a loaded CI box timed out on a live Redis and /readyz said "down"
        # before the kill. The short timeout is the stall test's subject.
        redis_timeout_s=1.0,
        source_overrides={"sandbox-12306": fast, "sandbox-juhe": fast},
    )
    direct = aioredis.Redis.from_url(own_redis.url, socket_timeout=1.0)
    run = Run()
    async with running(settings) as (app, client):
        workers = [
            asyncio.create_task(ticket_worker(client, run, seed)) for seed in range(TICKET_WORKERS)
        ]
        workers.append(asyncio.create_task(readiness_worker(client, run)))
        try:
            await run.hold(UP_S)
            assert await direct.keys("railtrip:tickets:*"), "L2 should be filling before the kill"

            run.killing_at = time.monotonic()
            await asyncio.to_thread(own_redis.stop)
            run.killed_at = time.monotonic()
            run.enter("down")
            await run.hold(DOWN_S)
            assert sample(app, "railtrip_redis_up") == 0

            run.restarting_at = time.monotonic()
            await asyncio.to_thread(own_redis.start)
            restarted = time.monotonic()
            run.enter("back")
            await direct.connection_pool.disconnect()
            back_after = None
            while time.monotonic() - restarted < AFTER_S + L2_BACK_WITHIN_S:
                keys = await direct.keys("railtrip:tickets:*")
                if keys and sample(app, "railtrip_redis_up") == 1:
                    back_after = time.monotonic() - restarted
                    entry = CacheEntry.from_bytes(await direct.get(keys[0]))
                    assert entry is not None and entry.offers
                    break
                await asyncio.sleep(0.05)
            await run.hold(max(0.0, AFTER_S - (time.monotonic() - restarted)))
        finally:
            run.stop = True
            await asyncio.gather(*workers)
            await direct.aclose()

    assert back_after is not None and back_after <= L2_BACK_WITHIN_S, back_after

    statuses = [status for _, status, _ in run.tickets] + [s for _, _, s, _ in run.ready]
    assert not [s for s in statuses if s >= 500], "a Redis outage must never be a 5xx"
    for phase in ("up", "down", "back"):
        assert run.answered(phase) >= MIN_ANSWERS, f"too little load {phase}"
    for _, _, body in run.tickets:
        assert_honest_freshness(body)

    # Requests in flight across a kill or a restart may see either state; the rest may not.
    assert run.readiness_between(0.0, run.killing_at) == {"ok"}
    assert run.readiness_between(run.killed_at, run.restarting_at) == {"down"}
    assert run.ready[-1][3]["redis"] == "ok"
    assert sample(app, "railtrip_degradations_total", kind="redis_down") > 0


async def test_l2_reconnects_from_ticket_traffic_alone_without_readyz(own_redis):
    """/readyz pings Redis itself, which masks the tier's own reconnect: here nothing probes
    but ticket traffic, so L2 must come back through the tier's 1 s retry pause."""
    fast = {"rate_per_s": 100.0}
    settings = Settings(
        redis_url=own_redis.url,
        source_overrides={"sandbox-12306": fast, "sandbox-juhe": fast},
    )
    direct = aioredis.Redis.from_url(own_redis.url, socket_timeout=1.0)
    async with running(settings) as (app, client):
        distinct = iter(range(1000))

        async def fresh_query() -> dict:
            response = await client.get("/v1/tickets", params=ticket_params(next(distinct)))
            assert response.status_code == 200
            body = response.json()
            assert_honest_freshness(body)
            return body

        await fresh_query()
        await asyncio.to_thread(own_redis.stop)
        body = await fresh_query()
        assert body["freshness"] == "realtime", "sources still answer while Redis is down"
        assert sample(app, "railtrip_redis_up") == 0

        await asyncio.to_thread(own_redis.start)
        restarted = time.monotonic()
        back_after = None
        try:
            while time.monotonic() - restarted < L2_BACK_WITHIN_S:
                await fresh_query()
                if await direct.keys("railtrip:tickets:*"):
                    back_after = time.monotonic() - restarted
                    break
                await asyncio.sleep(0.05)
        finally:
            await direct.aclose()
        assert back_after is not None, f"L2 not back {L2_BACK_WITHIN_S}s after the restart"
        assert sample(app, "railtrip_redis_up") == 1


async def test_chat_keeps_its_session_in_memory_while_redis_is_down_and_writes_it_back(own_redis):
    fast = {"rate_per_s": 100.0}
    settings = Settings(
        redis_url=own_redis.url,
        source_overrides={"sandbox-12306": fast, "sandbox-juhe": fast},
    )
    direct = aioredis.Redis.from_url(own_redis.url, socket_timeout=1.0)
    async with running(settings) as (app, client):
        await asyncio.to_thread(own_redis.stop)
        response = await client.post("/v1/chat", json={"text": "后天从北京去上海"})
        assert response.status_code == 200, response.text[:300]
        session_id = response.json()["session_id"]
        assert not any("单轮" in warning for warning in response.json()["warnings"])
        assert sample(app, "railtrip_degradations_total", kind="session_memory_only") == 1

        second = await client.post(
            "/v1/chat", json={"session_id": session_id, "text": "改成去杭州"}
        )
        assert second.status_code == 200
        intent = second.json()["intent"]
        assert (intent["origin"], intent["destination"]) == ("北京", "杭州")

        await asyncio.to_thread(own_redis.start)
        # Bounded poll: the write-back runs when any Redis user sees Redis again.
        key = SESSION_KEY.format(session_id=session_id)
        deadline = time.monotonic() + L2_BACK_WITHIN_S
        stored = None
        try:
            while stored is None and time.monotonic() < deadline:
                await client.get("/readyz")  # probes Redis; recovery triggers the write-back
                stored = await direct.get(key)
                if stored is None:
                    await asyncio.sleep(0.05)
        finally:
            await direct.aclose()
        assert stored is not None, "the change made while Redis was down was not written back"
        decoded = decode_record(stored)
        assert decoded is not None and decoded[1].destination == "杭州"
