"""Chat sessions: the conversation's `TravelIntent`, kept in Redis for 30 minutes.

One key per session (`railtrip:session:v1:{session_id}`, JSON of the intent), its TTL renewed
on every turn. Without Redis (not configured, or down) the store raises `SessionUnavailable`
and the caller answers the turn on its own; a session is never a reason for a 5xx.
"""

from __future__ import annotations

import logging
import re
import uuid

from pydantic import ValidationError
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.intent.model import TravelIntent

log = logging.getLogger("railtrip.sessions")

SESSION_KEY = "railtrip:session:v1:{session_id}"
SESSION_ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
_SESSION_ID = re.compile(SESSION_ID_PATTERN)


class SessionUnavailable(Exception):
    """No session store can be used for this turn (Redis not configured or not answering)."""


def new_session_id() -> str:
    """A fresh server-generated session id (uuid4, hex)."""
    return uuid.uuid4().hex


def valid_session_id(session_id: str) -> bool:
    """True for ids of 8-64 letters, digits, `_` or `-`."""
    return bool(_SESSION_ID.match(session_id))


class SessionStore:
    """Reads and writes a conversation's intent; every Redis failure is `SessionUnavailable`."""

    def __init__(self, redis: Redis | None, ttl_s: float) -> None:
        self._redis = redis
        self._ttl_ms = max(1, int(ttl_s * 1000))

    @property
    def enabled(self) -> bool:
        return self._redis is not None

    async def load(self, session_id: str) -> TravelIntent | None:
        """The intent so far, or None for a new (or expired) session."""
        redis = self._require()
        try:
            raw = await redis.get(SESSION_KEY.format(session_id=session_id))
        except (RedisError, OSError) as exc:
            raise SessionUnavailable(repr(exc)) from exc
        if raw is None:
            return None
        try:
            return TravelIntent.model_validate_json(raw)
        except ValidationError:
            # A record from an incompatible version: start the conversation afresh.
            log.warning("unreadable session record dropped", extra={"session": session_id[:8]})
            return None

    async def save(self, session_id: str, intent: TravelIntent) -> None:
        """Store the intent after this turn, renewing the 30-minute TTL."""
        redis = self._require()
        try:
            await redis.set(
                SESSION_KEY.format(session_id=session_id),
                intent.model_dump_json(),
                px=self._ttl_ms,
            )
        except (RedisError, OSError) as exc:
            raise SessionUnavailable(repr(exc)) from exc

    def _require(self) -> Redis:
        if self._redis is None:
            raise SessionUnavailable("redis not configured")
        return self._redis
