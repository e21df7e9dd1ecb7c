"""Per-client quotas shared by every replica through Redis, with a per-process fallback.

    request rate     GCRA `client:<id>` (rate, burst), a busy     → 429 + Retry-After
                     client's cells taken a few at a time
    refresh=true     GCRA `refresh:<id>` (per minute, burst 3)   → 429 + Retry-After
    LLM per day      INCR railtrip:quota:llm:v1:<day>:<id>,       → offline parser
                     expiring at the next Asia/Shanghai midnight
    failed auth      GCRA `authfail:<address>` (burst 10, one per  → 429 + Retry-After, and
                     5 s), per client address, always on            no key checked meanwhile

A client is an API key's name when one was presented, else the client address. When Redis is
not configured or does not answer, the same limits apply per process (a replica then grants
up to N times the fleet budget; the change is logged once per outage, not per request).
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.access.grants import GrantedCells
from app.gcra import Decision, Gcra
from app.observability.metrics import Metrics
from app.redis_health import redis_errors
from sources.base import Clock, shanghai_now
from sources.models import SHANGHAI

log = logging.getLogger("railtrip.access")

LLM_DAY_KEY = "railtrip:quota:llm:v1:{day}:{client}"
REFRESH_BURST = 3
"""`refresh=true` requests a client may send at once before its per-minute rate applies."""
_LOCAL_MAX_KEYS = 100_000
AUTH_FAILURE_BURST = 10
AUTH_FAILURE_RATE = 0.2
"""Wrong keys an address may present at once, then one per 5 s: guessing is throttled."""


@dataclass(frozen=True)
class QuotaLimits:
    """The per-client limits; a rate of 0 (or a daily budget of 0) means no limit."""

    rate_per_s: float = 0.0
    burst: int = 20
    refresh_per_min: float = 0.0
    llm_per_day: int = 0


class LocalGcra:
    """The GCRA of `app.gcra`, in this process's memory on an injectable monotonic clock."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._tat: dict[str, float] = {}

    def check(self, name: str, rate: float, burst: int) -> Decision:
        """Take a slot of `name` if one is free now, else say when one will be."""
        now = self._monotonic()
        interval = 1.0 / rate
        horizon = burst * interval
        tat = max(self._tat.get(name, now), now)
        new_tat = tat + interval
        wait = new_tat - now - horizon
        if wait > 0:
            return Decision(False, wait, 0)
        if len(self._tat) >= _LOCAL_MAX_KEYS:
            self._tat = {k: v for k, v in self._tat.items() if v > now}
        self._tat[name] = new_tat
        return Decision(True, 0.0, max(0, math.floor((horizon - (new_tat - now)) / interval)))


def next_midnight(now: dt.datetime) -> dt.datetime:
    """The next midnight in Asia/Shanghai after `now` (when a daily counter expires)."""
    day = now.astimezone(SHANGHAI).date() + dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(0, 0), tzinfo=SHANGHAI)


def _seconds_until(when: dt.datetime, now: dt.datetime) -> int:
    return max(1, math.ceil((when - now).total_seconds()))


class ClientQuotas:
    """Checks one client's limits; never raises for a Redis failure."""

    def __init__(
        self,
        redis: Any,
        limits: QuotaLimits,
        metrics: Metrics,
        *,
        clock: Clock = shanghai_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits
        self._redis = redis
        self._gcra = Gcra(redis) if redis is not None else None
        # A busy client's request rate is taken from Redis in grants (app/access/grants.py).
        self._grants = GrantedCells(self._gcra, monotonic) if self._gcra is not None else None
        self._local = LocalGcra(monotonic)
        self._monotonic = monotonic
        self._auth_blocked: dict[str, float] = {}
        self._local_days: dict[tuple[dt.date, str], int] = {}
        self._metrics = metrics
        self._clock = clock
        self._redis_down = False

    async def request(self, client: str) -> Decision | None:
        """This request against the client's rate; None when no rate is configured."""
        if not self.limits.rate_per_s:
            return None
        name = f"client:{client}"
        return await self._check(name, self.limits.rate_per_s, self.limits.burst, self._grants)

    async def refresh(self, client: str) -> Decision | None:
        """A `refresh=true` against the client's refresh budget; None when unlimited."""
        if not self.limits.refresh_per_min:
            return None
        rate = self.limits.refresh_per_min / 60.0
        return await self._check(f"refresh:{client}", rate, REFRESH_BURST)

    def auth_throttled(self, address: str) -> float:
        """Seconds this address must still wait after too many wrong keys (0: it may try).
        Checked before any key is verified, so a throttled address learns nothing."""
        until = self._auth_blocked.get(address, 0.0)
        left = until - self._monotonic()
        if left <= 0 and until:
            del self._auth_blocked[address]
        return max(0.0, left)

    async def auth_failed(self, address: str) -> Decision:
        """Count one wrong key from `address` (fleet-wide through Redis); not allowed once its
        failure budget is spent, and the address is then throttled here for the wait."""
        decision = await self._check(f"authfail:{address}", AUTH_FAILURE_RATE, AUTH_FAILURE_BURST)
        if not decision.allowed:
            if len(self._auth_blocked) >= _LOCAL_MAX_KEYS:
                now = self._monotonic()
                self._auth_blocked = {a: t for a, t in self._auth_blocked.items() if t > now}
            self._auth_blocked[address] = self._monotonic() + decision.retry_after_s
        return decision

    async def take_llm(self, client: str) -> bool:
        """Count one LLM-backed parse today; False once the client's daily budget is spent."""
        budget = self.limits.llm_per_day
        if not budget:
            return True
        now = self._clock()
        day = now.astimezone(SHANGHAI).date()
        if self._redis is not None:
            key = LLM_DAY_KEY.format(day=day.strftime("%Y%m%d"), client=client)
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    pipe.incr(key)
                    # Relative to the service's clock, so the counter dies at its midnight.
                    pipe.expire(key, _seconds_until(next_midnight(now), now))
                    used, _ = await pipe.execute()
            except redis_errors() as exc:
                self._fell_back(exc)
            else:
                self._recovered()
                return int(used) <= budget
        if len(self._local_days) >= _LOCAL_MAX_KEYS or any(d != day for d, _ in self._local_days):
            self._local_days = {k: v for k, v in self._local_days.items() if k[0] == day}
        used = self._local_days.get((day, client), 0) + 1
        self._local_days[(day, client)] = used
        return used <= budget

    async def _check(
        self, name: str, rate: float, burst: int, shared: Gcra | GrantedCells | None = None
    ) -> Decision:
        """The fleet-wide check (`shared`, else the GCRA script), this replica's own while
        Redis cannot answer."""
        store = shared if shared is not None else self._gcra
        if store is not None:
            try:
                decision = await store.check(name, rate, burst)
            except redis_errors() as exc:
                self._fell_back(exc)
            else:
                self._recovered()
                return decision
        return self._local.check(name, rate, burst)

    def _fell_back(self, exc: BaseException) -> None:
        self._metrics.degradations.labels(kind="quota_local").inc()
        if not self._redis_down:
            self._redis_down = True
            log.warning(
                "quota store unreachable; per-process quotas apply",
                extra={"error": type(exc).__name__},
            )

    def _recovered(self) -> None:
        if self._redis_down:
            self._redis_down = False
            log.info("quota store reachable again; fleet-wide quotas apply")
