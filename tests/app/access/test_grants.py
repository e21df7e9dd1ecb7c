"""A busy client's fleet-wide rate from grants of cells (app/access/grants.py) on the suite's
real Redis: one script per request at a human pace, a few per second for a busy client, and
never more allowed across replicas than the fleet's budget.

Redis's own clock barely moves in a test next to one cell per 100 s; the replicas' hold
times run on a fake monotonic clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from app.access.grants import GRANT_SHARE, HOLD_S, GrantedCells
from app.gcra import Decision, Gcra
from tests.clocks import FakeTime

SLOW = 0.01  # one cell per 100 s: nothing refills during a test


class CountedGcra(Gcra):
    """The real script, counting how often a replica ran it."""

    def __init__(self, redis: aioredis.Redis) -> None:
        super().__init__(redis)
        self.scripts = 0

    async def take(self, name: str, rate: float, burst: int, want: int) -> tuple[int, Decision]:
        self.scripts += 1
        return await super().take(name, rate, burst, want)


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    redis = aioredis.Redis.from_url(redis_url)
    yield redis
    await redis.aclose()


async def test_a_client_at_a_human_pace_asks_the_fleet_for_every_request(client) -> None:
    time = FakeTime()
    gcra = CountedGcra(client)
    cells = GrantedCells(gcra, time.monotonic)
    decisions = []
    for _ in range(5):
        decisions.append(await cells.check("client:human", SLOW, 20))
        time.advance(0.5)  # two requests a second: longer apart than a grant is held
    assert gcra.scripts == 5
    assert [d.remaining for d in decisions] == [19, 18, 17, 16, 15]  # one cell each, exact


async def test_a_busy_client_asks_redis_a_few_times_and_two_replicas_never_pass_the_budget(
    client,
) -> None:
    time = FakeTime()
    burst = 400
    replicas = [CountedGcra(client), CountedGcra(client)]
    cells = [GrantedCells(gcra, time.monotonic) for gcra in replicas]
    allowed = 0
    for n in range(1000):  # 1,000 requests a second, alternating between the replicas
        allowed += (await cells[n % 2].check("client:busy", SLOW, burst)).allowed
        time.advance(0.001)
    assert allowed <= burst  # cells are charged to the fleet when taken: never more
    # Unspent cells are dropped at the end of their hold: at most one grant per replica.
    assert allowed >= burst - 2 * burst // GRANT_SHARE
    scripts = sum(gcra.scripts for gcra in replicas)
    assert scripts < 1000 / 5, scripts  # not one per request


async def test_cells_not_spent_within_the_hold_are_not_spent_later(client) -> None:
    time = FakeTime()
    gcra = CountedGcra(client)
    cells = GrantedCells(gcra, time.monotonic)
    for _ in range(30):  # busy: grants grow
        await cells.check("client:pause", SLOW, 100)
        time.advance(0.001)
    before = gcra.scripts
    time.advance(HOLD_S)  # a pause: what is held now is dropped
    decision = await cells.check("client:pause", SLOW, 100)
    assert gcra.scripts == before + 1 and decision.allowed


async def test_a_client_past_its_quota_is_refused_here_until_its_retry_after(client) -> None:
    time = FakeTime()
    gcra = CountedGcra(client)
    cells = GrantedCells(gcra, time.monotonic)
    assert (await cells.check("client:over", SLOW, 1)).allowed
    time.advance(1.0)
    refused = await cells.check("client:over", SLOW, 1)
    assert not refused.allowed and refused.retry_after_s > 50
    scripts = gcra.scripts
    for _ in range(20):  # hammering: each refused at once, the wait counting down
        time.advance(1.0)
        again = await cells.check("client:over", SLOW, 1)
        assert not again.allowed and again.retry_after_s < refused.retry_after_s
    assert gcra.scripts == scripts


async def test_concurrent_requests_of_a_busy_client_share_one_grant(client) -> None:
    time = FakeTime()
    gcra = CountedGcra(client)
    cells = GrantedCells(gcra, time.monotonic)
    for _ in range(250):  # a quarter of a second at 1,000 a second: grants are sized
        await cells.check("client:many", SLOW, 1000)
        time.advance(0.001)
    time.advance(HOLD_S)  # what it held is dropped; the last window's pace remains
    before = gcra.scripts
    decisions = await asyncio.gather(*(cells.check("client:many", SLOW, 1000) for _ in range(50)))
    assert all(d.allowed for d in decisions)
    assert gcra.scripts == before + 1  # one grant, the 49 others waited for it
