"""Redis coming back is noticed in the background: while down, a watcher probes once per
pause, so the recovery (and the session write-back it triggers) happens with no traveller's
call asking (it used to wait for the next call that used Redis)."""

from __future__ import annotations

import asyncio

from redis.exceptions import ConnectionError as RedisConnectionError

from app.observability.metrics import Metrics
from app.redis_health import RedisHealth


async def test_a_recovery_is_noticed_without_any_call_and_its_listeners_run() -> None:
    answers = [RedisConnectionError("down"), RedisConnectionError("down"), "PONG"]
    pings = 0
    pauses: list[float] = []

    async def ping() -> str:
        nonlocal pings
        pings += 1
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        await asyncio.sleep(0)

    recovered = asyncio.Event()

    async def on_back() -> None:
        recovered.set()

    health = RedisHealth(Metrics(), retry_pause_s=0.5, ping=ping, sleep=sleep)
    health.on_recovery(on_back)
    health.went_down(RedisConnectionError("stall"))
    assert health.state == "down"
    await asyncio.wait_for(recovered.wait(), timeout=5)  # nobody called usable()
    assert health.state == "ok"
    assert pings == 3 and pauses == [0.5, 0.5, 0.5]
    await asyncio.sleep(0)
    assert health._watcher is not None and health._watcher.done()  # it stops once back
    await health.aclose()


async def test_without_a_ping_nothing_is_watched() -> None:
    health = RedisHealth(Metrics(), retry_pause_s=0.5)
    health.went_down(RedisConnectionError("stall"))
    assert health._watcher is None
    await health.aclose()
