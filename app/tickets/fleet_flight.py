"""Cross-replica single-flight: one replica fetches a query, the others read its answer from L2.

The first replica to miss takes a short lease (`SET NX PX`) on the query key, fetches and
writes L2, then drops the lease. Another replica that finds the lease taken polls L2 (and the
lease) every `poll_s`: it returns the holder's answer as soon as it lands, and takes over as
soon as the lease is gone without an answer (the holder failed and dropped it, or died and
the lease expired). So a dead holder delays the others by at most the lease TTL, and a
waiter never waits longer than `lease_s` in total before fetching itself.

The lease value is a random token: only its holder can drop it (compare-and-delete script).
While Redis is down (shared `RedisHealth`) every replica fetches for itself.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.redis_client import RedisClient
from app.redis_health import REDIS_ERRORS, RedisHealth

Sleep = Callable[[float], Awaitable[None]]

# Drop the lease only if it is still ours (it may have expired and been taken over).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Lease:
    """Held by this replica: fetch, write L2, then `release`."""

    key: str
    token: str


class FleetFlight:
    """Leases on query keys in Redis, shared by every replica."""

    def __init__(
        self,
        client: RedisClient,
        health: RedisHealth,
        *,
        lease_s: float,
        poll_s: float,
        sleep: Sleep = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._health = health
        self._lease_ms = max(1, round(lease_s * 1000))
        self.lease_s = lease_s
        self.poll_s = poll_s
        self._sleep = sleep
        self._monotonic = monotonic
        self._release = client.register_script(_RELEASE)

    @staticmethod
    def key(query_key: str) -> str:
        return f"railtrip:flight:v1:{query_key}"

    async def try_lease(self, query_key: str) -> Lease | None | bool:
        """A `Lease` if taken now; False if another replica holds it; None if Redis is out."""
        if not self._health.usable():
            return None
        lease = Lease(self.key(query_key), secrets.token_hex(8))
        try:
            taken = await self._client.set(lease.key, lease.token, nx=True, px=self._lease_ms)
        except REDIS_ERRORS as exc:
            self._health.went_down(exc)
            return None
        self._health.came_back()
        return lease if taken else False

    async def release(self, lease: Lease) -> None:
        """Hand over at once: waiters polling the lease take it on their next poll."""
        if not self._health.usable():
            return  # the lease expires by itself
        try:
            await self._release(keys=[lease.key], args=[lease.token])
        except REDIS_ERRORS as exc:
            self._health.went_down(exc)
        else:
            self._health.came_back()

    def deadline(self) -> float:
        """When a waiter that starts now gives up waiting and fetches itself."""
        return self._monotonic() + self.lease_s

    def expired(self, deadline: float) -> bool:
        return self._monotonic() >= deadline

    async def pause(self) -> None:
        await self._sleep(self.poll_s)
