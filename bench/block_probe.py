"""After a block: how many requests reach the site from a fleet of replicas on one Redis.

N guards (`GuardedSource`, one per replica) share one real Redis (a throwaway redis-server)
and one injected clock. The site blocks the first replica; every replica then refuses. At the
cool-down's end (the clock moves past it and the Redis key is expired) each replica gets three
concurrent requests while the site holds the first one it receives: the figure is how many
requests reached the site before that first probe's outcome (the issue's target: one, for the
whole fleet). A second run keeps the site failing (503) and sends one request per replica
every 10 s for the next 290 s of the clock: requests the site received meanwhile.

It only counts (no timings) and uses the guard's public constructor with
`SharedBlock(redis, source)`, so it runs unchanged on a checkout from before the fleet probe:
`PYTHONPATH=. .venv/bin/python bench/block_probe.py` there gives the "before" column.

`--processes` runs the same question end to end instead: two railtrip processes on one
Redis and a standalone 12306 sandbox vendor that blocks every query (`rate_limit_rate=1`,
a 302 to error.html), with a 3 s block cool-down; one query on each replica, then, past the
cool-down, six at once over both: queries reaching the vendor's query path, from its own
counters.

Run from the repository root: `.venv/bin/python bench/block_probe.py [--processes]`.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.observability.metrics import Metrics  # noqa: E402
from app.redis_client import build_redis  # noqa: E402
from app.settings import SourceSettings  # noqa: E402
from app.tickets.guard import GuardedSource  # noqa: E402
from app.tickets.shared_block import BLOCK_KEY, SharedBlock  # noqa: E402
from sources.errors import SourceBlocked, SourceError, SourceServerError  # noqa: E402
from tests.app.tickets.fakes import offer, query  # noqa: E402
from tests.clocks import FakeTime  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

SOURCE = "site"
KEY = BLOCK_KEY.format(source=SOURCE)


class Site:
    """The one upstream: counts what reaches it; can hold requests and fail them."""

    def __init__(self) -> None:
        self.received = 0
        self.gate: asyncio.Event | None = None
        self.error: SourceError | None = None
        self.failing = False  # keep raising `error` (else once)


class Adapter:
    name = SOURCE

    def __init__(self, site: Site) -> None:
        self.site = site

    async def search(self, _query):
        self.site.received += 1
        if self.site.gate is not None:
            await self.site.gate.wait()
        error = self.site.error
        if not self.site.failing:
            self.site.error = None
        if error is not None:
            raise error
        return [offer(source=SOURCE)]


async def ask(replica: GuardedSource) -> object:
    try:
        return await replica.search(query())
    except SourceError as exc:
        return exc


async def one_fleet(url: str, replicas: int, *, site_still_failing: bool) -> tuple[int, int]:
    """(requests reaching the site before the first probe's outcome, requests in 290 s after)."""
    redis = build_redis(url, timeout_s=1.0, max_connections=16)
    await redis.delete(KEY)
    time, site = FakeTime(), Site()
    conf = SourceSettings(rate_per_s=1000, retries=0, block_cooldown_s=300)
    fleet = [
        GuardedSource(
            Adapter(site),
            conf,
            Metrics(),
            sleep=time.sleep,
            monotonic=time.monotonic,
            shared_block=SharedBlock(redis, SOURCE),
        )
        for _ in range(replicas)
    ]
    try:
        site.error = SourceBlocked(SOURCE, "302 to error.html")
        for replica in fleet:  # the first is blocked; the others see it
            await ask(replica)
        site.received = 0
        time.advance(301)
        await redis.delete(KEY)  # Redis's clock ends the cool-down too
        site.gate = asyncio.Event()
        if site_still_failing:
            site.error, site.failing = SourceServerError(SOURCE, "HTTP 503", 503), True
        calls = [asyncio.create_task(ask(r)) for _ in range(3) for r in fleet]
        for _ in range(50):  # let every request reach its verdict (real Redis round trips)
            await asyncio.sleep(0.01)
        before_outcome = site.received
        site.gate.set()
        site.gate = None
        await asyncio.gather(*calls)
        sent = site.received
        for _ in range(29):
            time.advance(10)
            for replica in fleet:
                await ask(replica)
        return before_outcome, site.received - sent
    finally:
        await redis.delete(KEY)
        await redis.aclose()


async def processes(cooldown_s: float = 3.0) -> None:
    """Two real replicas and a blocking vendor: queries that reach it, per phase."""
    import httpx

    from tests.fleet import processes as fleet
    from tests.fleet.test_two_replicas import fleet_env, params

    server = RedisServer()
    server.start()
    started: list[fleet.Process] = []
    try:
        vendor = fleet.start_vendor("12306", rate_limit_rate=1.0)
        started.append(vendor)
        env = fleet_env(
            server.url,
            {"rail12306": vendor},
            RAILTRIP_RAIL12306_BLOCK_COOLDOWN_S=str(cooldown_s),
            RAILTRIP_RAIL12306_RETRIES="0",
        )
        replicas = [fleet.start_railtrip(env) for _ in range(2)]
        started += replicas
        first, second = replicas
        async with httpx.AsyncClient(timeout=30) as client:
            await client.get(first.url + "/v1/tickets", params=params(0))  # blocked
            await client.get(second.url + "/v1/tickets", params=params(1))
            blocked = len(fleet.data_arrivals(vendor))
            await asyncio.sleep(cooldown_s + 0.5)  # the block's real cool-down
            asks = [
                client.get(r.url + "/v1/tickets", params=params(2 + i))
                for i, r in enumerate(replicas * 3)
            ]
            await asyncio.gather(*asks)
            after = len(fleet.data_arrivals(vendor)) - blocked
        print(
            f"queries reaching the vendor: both replicas' first queries {blocked};"
            f" six at once past the cool-down {after}"
        )
    finally:
        for proc in started:
            proc.stop()
        server.cleanup()


async def main() -> None:
    server = RedisServer()
    server.start()
    try:
        print(
            "replicas | reached the site before the probe's outcome | site failing: "
            "requests it got in the next 290 s"
        )
        for replicas in (2, 3):
            first, _ = await one_fleet(server.url, replicas, site_still_failing=False)
            _, later = await one_fleet(server.url, replicas, site_still_failing=True)
            print(f"{replicas} | {first} | {later}")
    finally:
        server.cleanup()


if __name__ == "__main__":
    import logging

    logging.disable(logging.WARNING)
    asyncio.run(processes() if "--processes" in sys.argv[1:] else main())
