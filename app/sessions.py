"""Chat sessions: the conversation's `TravelIntent`, for 30 minutes, in Redis and in memory.

One Redis key per session (`railtrip:session:v1:{session_id}`, JSON of the intent), its TTL
renewed on every turn; every replica reads it. Each replica also keeps the sessions it served
in a bounded in-process TTL store, which is all there is on the embedded default (no Redis),
so chat remembers turns there too. While Redis is down (the shared `RedisHealth`), a turn is
read from and written to memory; changes made meanwhile are written back when Redis returns.

A session the traveller presents that no store has any more (Redis restarted, or it expired)
raises `SessionLost`: the caller tells the traveller instead of silently starting afresh.
A session is never a reason for a 5xx.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable

from cachetools import TTLCache
from pydantic import ValidationError

from app.intent.model import TravelIntent
from app.redis_client import RedisClient
from app.redis_health import REDIS_ERRORS, RedisHealth

log = logging.getLogger("railtrip.sessions")

SESSION_KEY = "railtrip:session:v1:{session_id}"
SESSION_ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
_SESSION_ID = re.compile(SESSION_ID_PATTERN)


class SessionUnavailable(Exception):
    """This turn cannot know the session: Redis is down and this replica never saw it."""


class SessionLost(Exception):
    """The presented session is in no store any more (Redis restarted, or it expired)."""


def valid_session_id(session_id: str) -> bool:
    """True for ids of 8-64 letters, digits, `_` or `-`."""
    return bool(_SESSION_ID.match(session_id))


class SessionStore:
    """Reads and writes a conversation's intent: Redis when it answers, memory always."""

    def __init__(
        self,
        redis: RedisClient | None,
        ttl_s: float,
        *,
        health: RedisHealth | None = None,
        max_local: int = 10_000,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._redis = redis
        self._health = health
        self._ttl_ms = max(1, int(ttl_s * 1000))
        self._local: TTLCache[str, TravelIntent] = TTLCache(max_local, ttl_s, timer=monotonic)
        self._dirty: set[str] = set()  # changed while Redis was down, not yet written back
        if health is not None:
            health.on_recovery(self.write_back)

    @property
    def enabled(self) -> bool:
        """Sessions are kept (always: in memory at least)."""
        return True

    @property
    def pending_write_back(self) -> int:
        """Sessions changed while Redis was down and not yet written back."""
        return len(self._dirty)

    async def load(self, session_id: str) -> TravelIntent | None:
        """The intent so far; raises `SessionLost` / `SessionUnavailable` as documented."""
        local = self._local.get(session_id)
        if self._redis is None:
            if local is None:
                raise SessionLost(session_id)
            return local
        if session_id in self._dirty or not self._usable():
            if local is None:
                raise SessionUnavailable("redis down and session not held here")
            return local
        try:
            raw = await self._redis.get(SESSION_KEY.format(session_id=session_id))
        except REDIS_ERRORS as exc:
            self._down(exc)
            if local is None:
                raise SessionUnavailable(repr(exc)) from exc
            return local
        self._up()
        if raw is None:
            if local is not None:
                # Redis lost it (restart) but this replica still holds it: put it back.
                await self.save(session_id, local)
                return local
            raise SessionLost(session_id)
        try:
            intent = TravelIntent.model_validate_json(raw)
        except ValidationError:
            # A record from an incompatible version: start the conversation afresh.
            log.warning("unreadable session record dropped", extra={"session": session_id[:8]})
            return None
        self._local[session_id] = intent
        return intent

    async def save(self, session_id: str, intent: TravelIntent) -> bool:
        """Store the intent after this turn, renewing its TTL; False if kept in memory only."""
        self._local[session_id] = intent
        if self._redis is None:
            return True
        if not self._usable() or not await self._write(session_id, intent):
            self._dirty.add(session_id)
            return False
        # Others changed during an outage are written back by the recovery listener, in the
        # background, not on this turn.
        self._dirty.discard(session_id)
        return True

    async def write_back(self) -> None:
        """Write the sessions changed while Redis was down (those still alive in memory)."""
        written = 0
        for session_id in list(self._dirty):
            intent = self._local.get(session_id)
            if intent is not None:
                if not await self._write(session_id, intent):
                    return  # down again: the rest waits for the next recovery
                written += 1
            self._dirty.discard(session_id)
        if written:
            log.info("sessions written back after a redis outage", extra={"count": written})

    async def _write(self, session_id: str, intent: TravelIntent) -> bool:
        assert self._redis is not None
        try:
            await self._redis.set(
                SESSION_KEY.format(session_id=session_id),
                intent.model_dump_json(),
                px=self._ttl_ms,
            )
        except REDIS_ERRORS as exc:
            self._down(exc)
            return False
        self._up()
        return True

    def _usable(self) -> bool:
        return self._health is None or self._health.usable()

    def _down(self, exc: BaseException) -> None:
        if self._health is not None:
            self._health.went_down(exc)

    def _up(self) -> None:
        if self._health is not None:
            self._health.came_back()
