"""A block shared by the fleet: one replica's block of a site stops every replica at once.

When a site blocks a replica (`SourceBlocked`), the guard trips its own breaker for the block
cool-down and publishes the block here: one Redis key per source,
`railtrip:block:v1:{source}`, expiring with the cool-down. Before each attempt every replica
reads the key's remaining time (one PTTL); a block it had not seen trips its breaker for what
is left, which also refuses its requests queued for that source. When the key expires each
replica's breaker half-opens and lets out one probe; only that probe may close it (a late
success of a request sent before the block never does: app/tickets/breaker.py). Without Redis,
or while it is down, each replica honours the blocks it met itself.
"""

from __future__ import annotations

import logging
from typing import Any

from app.redis_health import RedisHealth, redis_errors

log = logging.getLogger("railtrip.sources")

BLOCK_KEY = "railtrip:block:v1:{source}"


class SharedBlock:
    """Publishes and reads one source's block through Redis; never raises for Redis."""

    def __init__(self, redis: Any, source: str, health: RedisHealth | None = None) -> None:
        self._redis = redis
        self._key = BLOCK_KEY.format(source=source)
        self._health = health

    async def publish(self, cooldown_s: float) -> None:
        """Tell the fleet: this site blocked us, for `cooldown_s` from now."""
        if not self._usable():
            return
        try:
            await self._redis.set(self._key, "1", px=max(1, int(cooldown_s * 1000)))
        except redis_errors() as exc:
            self._down(exc)

    async def remaining_s(self) -> float:
        """Seconds left of a block some replica published (0: none)."""
        if not self._usable():
            return 0.0
        try:
            left_ms = await self._redis.pttl(self._key)
        except redis_errors() as exc:
            self._down(exc)
            return 0.0
        return max(0.0, int(left_ms) / 1000) if left_ms and int(left_ms) > 0 else 0.0

    def _usable(self) -> bool:
        return self._health is None or self._health.usable()

    def _down(self, exc: BaseException) -> None:
        if self._health is not None:
            self._health.went_down(exc)
