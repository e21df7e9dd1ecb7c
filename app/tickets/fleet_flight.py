"""Cross-replica single-flight: one replica fetches a query, the others read its answer from L2.

The first replica to miss takes a short lease (`SET NX PX`) on the query key, fetches, writes
L2, and only then drops the lease. While it fetches it renews the lease every third of its
TTL, so a live holder keeps it however long its fetch takes (the fetch is bounded by the
query deadline) and a dead one loses it within one TTL (`lease_s`).

Another replica that finds the lease taken waits for the holder's answer: it polls L2 (and
the lease) every `poll_s` and returns the answer as soon as it lands. It takes over only when
the lease is gone without an answer (the holder failed and dropped it, or died and the lease
expired), or when it has not been able to see the lease for a whole TTL (Redis unusable).
A poll that fails (a Redis hiccup) is not a reason to fetch: the holder may be writing its
answer at that moment. Every wait ends by the query's own deadline (`TicketService`).

The lease value is a random token: only its holder can renew or drop it (compare scripts).
While Redis is down (shared `RedisHealth`) a replica that has not seen a lease fetches for
itself. One timed-out command does not make it so: the health confirms a timeout with a probe
and the lease call is tried once more (`RedisHealth.attempt`; taking the lease is idempotent
per token, so a `SET` that landed but whose reply came late finds the lease its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.redis_health import RedisHealth, redis_errors

if TYPE_CHECKING:
    from app.redis_client import RedisClient  # redis-py only where Redis is configured

Sleep = Callable[[float], Awaitable[None]]

# Drop the lease only if it is still ours (it may have expired and been taken over).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# Take the lease if it is free, or find it already ours: a `SET NX` whose reply came late may
# have taken it, and its retry must not then wait on itself.
_TAKE = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# Extend the lease only if it is still ours.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
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
        self._take = client.register_script(_TAKE)
        self._release = client.register_script(_RELEASE)
        self._renew = client.register_script(_RENEW)

    @staticmethod
    def key(query_key: str) -> str:
        return f"railtrip:flight:v1:{query_key}"

    async def try_lease(self, query_key: str) -> Lease | None | bool:
        """A `Lease` if taken now; False if another replica holds it; None if Redis is out."""
        if not self._health.usable():
            return None
        lease = Lease(self.key(query_key), secrets.token_hex(8))
        args: list[str | int] = [lease.token, self._lease_ms]
        try:
            # A timeout is retried once if Redis answers the health's probe (one late reply,
            # not a Redis down: fetching alone would be a second fetch for the fleet).
            taken = await self._health.attempt(lambda: self._take(keys=[lease.key], args=args))
        except redis_errors():
            return None
        return lease if taken else False

    async def renew(self, lease: Lease) -> bool:
        """Extend the lease by a whole TTL; False if it is no longer ours (or Redis failed)."""
        if not self._health.usable():
            return False
        args: list[str | int] = [lease.token, self._lease_ms]
        try:
            renewed = await self._health.attempt(lambda: self._renew(keys=[lease.key], args=args))
        except redis_errors():
            return False
        return bool(renewed)

    async def release(self, lease: Lease) -> None:
        """Hand over at once: waiters polling the lease take it on their next poll."""
        if not self._health.usable():
            return  # the lease expires by itself
        with contextlib.suppress(*redis_errors()):
            await self._health.attempt(lambda: self._release(keys=[lease.key], args=[lease.token]))

    @contextlib.asynccontextmanager
    async def holding(self, lease: Lease) -> AsyncIterator[None]:
        """Keep `lease` alive while the block runs (renewed every third of its TTL), then
        drop it. The block writes L2 before it ends, so waiters find the answer first."""
        held = asyncio.Event()
        held.set()
        renewing = asyncio.create_task(self._keep(lease, held))
        try:
            yield
        finally:
            held.clear()  # the renewer stops at its next step even if the cancel is lost
            renewing.cancel()  # not awaited: it ends at its next step, never blocks this one
            await self.release(lease)

    async def _keep(self, lease: Lease, held: asyncio.Event) -> None:
        # Real time, not the injected sleep: the lease expires on Redis's clock.
        # Stopped by `held`, not by the cancel alone: a cancel that lands while a renewal
        # waits on its socket can come back out of redis-py as a timeout (a RedisError,
        # which `renew` takes for a Redis failure), and a renewer left running for ever
        # is a Redis call every third of a TTL leaked per lease (and an event loop that
        # never closes: a test run hung in teardown on one).
        while held.is_set():
            await asyncio.sleep(self.lease_s / 3)
            if held.is_set():
                await self.renew(lease)

    async def pause(self) -> None:
        await self._sleep(self.poll_s)

    def now(self) -> float:
        return self._monotonic()
