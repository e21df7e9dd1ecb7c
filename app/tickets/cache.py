"""The two ticket-result cache tiers and the longer-lived stale copy.

L1 is an in-process `TTLCache` used as a plain dict (its `@cached` decorator does not work on
coroutines). L2 is Redis with a versioned serialisation. Both keep a stale copy for
`stale_ttl_s`, served only when every source fails. A Redis failure never escapes this
module: the shared `RedisHealth` marks Redis down, counts the degradation and lets one call
probe again after a pause, so the tier reconnects by itself when Redis returns. A read or
write that timed out while Redis answers the health's probe is tried once more
(`RedisHealth.attempt`): one late reply is not a miss that sends the query upstream alone.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import time
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from cachetools import TTLCache
from pydantic import TypeAdapter, ValidationError

from app.observability.metrics import Metrics
from app.redis_health import RedisHealth, RedisState, redis_errors
from app.tickets.model import SourceReport
from sources.models import Frozen, TrainOffer

if TYPE_CHECKING:
    from app.redis_client import RedisClient  # redis-py only where Redis is configured

CACHE_FORMAT: Literal[1] = 1
_OFFERS: TypeAdapter[tuple[TrainOffer, ...]] = TypeAdapter(tuple[TrainOffer, ...])


class CacheEntry(Frozen):
    """What is cached for one query: the merged offers and how each source fared."""

    v: Literal[1] = CACHE_FORMAT
    as_of: dt.datetime
    sources: tuple[SourceReport, ...]
    offers: tuple[TrainOffer, ...]

    def to_bytes(self) -> bytes:
        return self.model_dump_json().encode()

    @cached_property
    def sources_as_cached(self) -> tuple[SourceReport, ...]:
        """The source reports as a cache hit presents them (ok ones re-tagged `cached`)."""
        return tuple(
            r.model_copy(update={"freshness": "cached"}) if r.status == "ok" else r
            for r in self.sources
        )

    @cached_property
    def offers_json(self) -> bytes:
        """The offers as JSON, encoded once per entry and reused by every hit."""
        return _OFFERS.dump_json(self.offers)

    @cached_property
    def bodies(self) -> dict[object, Any]:
        """Answer bodies made from this entry (app/tickets/hits.py), by whoever asked for them:
        they go when the entry goes."""
        return {}

    @classmethod
    def from_bytes(cls, raw: bytes) -> CacheEntry | None:
        """The entry, or None for a payload of another format version or a corrupt one."""
        try:
            return cls.model_validate_json(raw)
        except ValidationError:
            return None


class MemoryTier:
    """L1: bounded, per process; plus a bounded stale copy that outlives it."""

    def __init__(
        self,
        ttl_s: float,
        stale_ttl_s: float,
        max_entries: int,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self._fresh: TTLCache[str, CacheEntry] = TTLCache(max_entries, ttl_s, timer=timer)
        self._stale: TTLCache[str, CacheEntry] = TTLCache(max_entries, stale_ttl_s, timer=timer)

    def get(self, key: str) -> CacheEntry | None:
        return self._fresh.get(key)

    def get_stale(self, key: str) -> CacheEntry | None:
        return self._stale.get(key)

    def put(self, key: str, entry: CacheEntry) -> None:
        self._fresh[key] = entry
        self._stale[key] = entry

    def __len__(self) -> int:
        return len(self._fresh)


class RedisTier:
    """L2: shared between processes, 5 minutes; stale copies under their own keys.

    Its Redis state is the replica's shared `RedisHealth`: a stall found here pauses the
    limiter, the fleet flight and the sessions too, and the other way round.
    """

    def __init__(
        self,
        client: RedisClient,
        metrics: Metrics,
        ttl_s: float,
        stale_ttl_s: float,
        retry_pause_s: float = 1.0,
        monotonic: Callable[[], float] = time.monotonic,
        *,
        health: RedisHealth | None = None,
    ) -> None:
        self._client = client
        self._ttl = max(1, round(ttl_s))
        self._stale_ttl = max(1, round(stale_ttl_s))
        self.health = health or RedisHealth(
            metrics, retry_pause_s=retry_pause_s, monotonic=monotonic
        )

    @property
    def client(self) -> RedisClient:
        return self._client

    @property
    def state(self) -> RedisState:
        return self.health.state

    @staticmethod
    def key(query_key: str) -> str:
        return f"railtrip:tickets:v{CACHE_FORMAT}:{query_key}"

    @staticmethod
    def stale_key(query_key: str) -> str:
        return f"railtrip:stale:v{CACHE_FORMAT}:{query_key}"

    async def get(self, query_key: str) -> CacheEntry | None:
        return await self._read(self.key(query_key))

    async def get_stale(self, query_key: str) -> CacheEntry | None:
        return await self._read(self.stale_key(query_key))

    async def put(self, query_key: str, entry: CacheEntry, *, force: bool = False) -> None:
        """Write both keys; skipped while Redis is marked down, unless `force` (one try)."""
        if not force and not self.health.usable():
            return
        raw = entry.to_bytes()

        async def write() -> None:
            # Not a transaction: on Cluster the two keys live in different slots.
            async with self._client.pipeline(transaction=False) as pipe:
                pipe.set(self.key(query_key), raw, ex=self._ttl)
                pipe.set(self.stale_key(query_key), raw, ex=self._stale_ttl)
                await pipe.execute()

        with contextlib.suppress(*redis_errors()):
            await self.health.attempt(write)  # a late reply: written again (idempotent)

    async def ping(self) -> RedisState:
        """Probe Redis now, updating the shared state (a probe waits at most the timeout)."""
        try:
            await self._client.ping()
        except redis_errors() as exc:
            self.health.went_down(exc)
        else:
            self.health.came_back()
        return self.state

    async def _read(self, key: str) -> CacheEntry | None:
        if not self.health.usable():
            return None
        try:
            raw = await self.health.attempt(lambda: self._client.get(key))
        except redis_errors():
            return None
        if raw is None:
            return None
        return CacheEntry.from_bytes(raw if isinstance(raw, bytes) else raw.encode())
