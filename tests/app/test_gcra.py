"""The GCRA script against the suite's real Redis: reserve hands out slots, check refuses.

Redis's own clock moves during a test, so slot figures are asserted with intervals far larger
than any scheduling delay (0.01 requests/s = one slot per 100 s) and never by waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from app.gcra import Decision, Gcra, gcra_key

SLOW = 0.01  # one slot per 100 s: real elapsed time during a test is noise next to it
INTERVAL_S = 100.0
SLACK_S = 30.0


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    redis = aioredis.Redis.from_url(redis_url)
    yield redis
    await redis.aclose()


async def test_key_is_hash_tagged_so_one_script_touches_one_slot(client: aioredis.Redis) -> None:
    assert gcra_key("rail12306") == "{rl:rail12306}"
    await Gcra(client).reserve("rail12306", SLOW, 1)
    assert await client.exists("{rl:rail12306}") == 1


async def test_reserve_hands_each_caller_the_next_slot(client: aioredis.Redis) -> None:
    gcra = Gcra(client)
    waits = [await gcra.reserve("src", SLOW, 2) for _ in range(5)]
    # Two burst slots are free now; then one slot every 100 s.
    assert waits[:2] == [0.0, 0.0]
    for k, wait in enumerate(waits[2:], start=1):
        assert abs(wait - k * INTERVAL_S) < SLACK_S, waits


async def test_concurrent_reservations_never_share_a_slot(client: aioredis.Redis) -> None:
    gcra = Gcra(client)
    waits = sorted(await asyncio.gather(*(gcra.reserve("src", SLOW, 1) for _ in range(40))))
    assert waits[0] == 0.0
    gaps = [later - earlier for earlier, later in zip(waits, waits[1:], strict=False)]
    assert all(abs(gap - INTERVAL_S) < SLACK_S for gap in gaps), gaps


async def test_check_admits_the_burst_then_refuses_with_a_retry_time(
    client: aioredis.Redis,
) -> None:
    gcra = Gcra(client)
    decisions = await asyncio.gather(*(gcra.check("client:a", SLOW, 5) for _ in range(12)))
    allowed = [d for d in decisions if d.allowed]
    refused = [d for d in decisions if not d.allowed]
    assert len(allowed) == 5 and len(refused) == 7
    assert sorted(d.remaining for d in allowed) == [0, 1, 2, 3, 4]
    assert all(d.retry_after_s == 0.0 for d in allowed)
    assert all(INTERVAL_S - SLACK_S < d.retry_after_s <= INTERVAL_S for d in refused)
    assert all(d.remaining == 0 for d in refused)


async def test_a_refused_check_takes_nothing(client: aioredis.Redis) -> None:
    gcra = Gcra(client)
    assert (await gcra.check("client:b", SLOW, 1)).allowed
    before = await client.get(gcra_key("client:b"))
    second = await gcra.check("client:b", SLOW, 1)
    assert second.allowed is False
    assert await client.get(gcra_key("client:b")) == before


async def test_take_takes_what_is_free_up_to_the_want_then_refuses_and_shares_the_budget(
    client: aioredis.Redis,
) -> None:
    gcra = Gcra(client)
    assert await gcra.take("client:t", SLOW, 10, 4) == (4, Decision(True, 0.0, 6))
    assert await gcra.take("client:t", SLOW, 10, 8) == (6, Decision(True, 0.0, 0))
    taken, refused = await gcra.take("client:t", SLOW, 10, 3)
    assert taken == 0 and not refused.allowed
    assert INTERVAL_S - SLACK_S < refused.retry_after_s <= INTERVAL_S
    assert not (await gcra.check("client:t", SLOW, 10)).allowed  # one budget with check


async def test_check_and_reserve_share_one_budget(client: aioredis.Redis) -> None:
    gcra = Gcra(client)
    assert await gcra.reserve("shared", SLOW, 1) == 0.0
    decision = await gcra.check("shared", SLOW, 1)
    assert decision.allowed is False and decision.retry_after_s > INTERVAL_S - SLACK_S


async def test_an_idle_limit_is_full_again(client: aioredis.Redis) -> None:
    gcra = Gcra(client)
    for _ in range(3):
        await gcra.check("client:c", SLOW, 3)
    assert not (await gcra.check("client:c", SLOW, 3)).allowed
    # Stand in for 10 idle minutes: put the stored arrival time in Redis's past.
    seconds, micros = await client.time()
    await client.set(gcra_key("client:c"), str(seconds * 1_000_000 + micros - 600_000_000))
    assert await gcra.check("client:c", SLOW, 3) == Decision(True, 0.0, 2)


async def test_keys_expire_once_the_limit_is_idle(client: aioredis.Redis) -> None:
    gcra = Gcra(client)
    await gcra.reserve("ttl", SLOW, 1)
    await gcra.reserve("ttl", SLOW, 1)
    ttl_ms = await client.pttl(gcra_key("ttl"))
    assert 2 * INTERVAL_S * 1000 - SLACK_S * 1000 < ttl_ms <= 2 * INTERVAL_S * 1000


async def test_limits_are_independent_per_name(client: aioredis.Redis) -> None:
    gcra = Gcra(client)
    assert (await gcra.check("one", SLOW, 1)).allowed
    assert (await gcra.check("two", SLOW, 1)).allowed


@pytest.mark.parametrize(("rate", "burst"), [(0, 1), (-1.0, 1), (1.0, 0)])
async def test_nonsense_limits_are_refused_before_redis(
    client: aioredis.Redis, rate: float, burst: int
) -> None:
    with pytest.raises(ValueError):
        await Gcra(client).check("bad", rate, burst)
