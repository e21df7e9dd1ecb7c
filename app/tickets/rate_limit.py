"""One source's request rate: fleet-wide through Redis, local smoothing in front.

With Redis: each request first passes the process's own limiter (smoothing, at the full
rate), then reserves the next fleet-wide slot in one atomic GCRA script (`app/gcra.py`) on
Redis's clock and sleeps until it. So N replicas together send at most the configured rate.
Without Redis, or while it is down: the local limiter alone, at rate ÷ expected replicas
(`RAILTRIP_EXPECTED_REPLICAS`), so a fleet that lost its shared budget still stays within it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from aiolimiter import AsyncLimiter

from app.gcra import Gcra
from app.redis_health import RedisHealth, redis_errors

Sleep = Callable[[float], Awaitable[None]]


def _one_at_a_time(rate_per_s: float) -> AsyncLimiter:
    # One token per 1/rate seconds: AsyncLimiter(rate, 1) would admit a burst of `rate`.
    return AsyncLimiter(1, 1.0 / rate_per_s)


class SourceRateLimit:
    """`await acquire()` before each request to one source."""

    def __init__(
        self,
        source: str,
        rate_per_s: float,
        *,
        gcra: Gcra | None = None,
        health: RedisHealth | None = None,
        expected_replicas: int = 1,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.source = source
        self.rate_per_s = rate_per_s
        self._gcra = gcra
        self._health = health
        self._sleep = sleep
        self.fallback_rate_per_s = rate_per_s / max(1, expected_replicas)
        self._smoothing = _one_at_a_time(rate_per_s)
        self._fallback = _one_at_a_time(self.fallback_rate_per_s)

    @property
    def fleet_wide(self) -> bool:
        """True when the next request would be counted in the fleet's shared budget."""
        return self._gcra is not None and (self._health is None or self._health.state == "ok")

    async def acquire(self) -> None:
        """Wait for this source's next slot (fleet-wide when Redis answers)."""
        if self._gcra is None or (self._health is not None and not self._health.usable()):
            await self._fallback.acquire()
            return
        await self._smoothing.acquire()
        try:
            wait_s = await self._gcra.reserve(f"source:{self.source}", self.rate_per_s, 1)
        except redis_errors() as exc:
            if self._health is not None:
                self._health.went_down(exc)
            await self._fallback.acquire()
            return
        if self._health is not None:
            self._health.came_back()
        if wait_s > 0:
            await self._sleep(wait_s)
