"""Chat sessions: the conversation's `TravelIntent`, for 30 minutes, in Redis and in memory.

One Redis key per session (`railtrip:session:v1:{session_id}`), its TTL renewed on every turn;
every replica reads it. The record carries a **version** (the turn counter) beside the intent:
`{"v": 7, "intent": {...}}` (a bare intent, the older form, reads as version 0).

Sessions never roll back:
- **Redis is the authority when it is up.** A replica's in-process copy (a bounded TTL store,
  all there is on the embedded default) is only a cache: it is read when Redis cannot be.
- **Every write is a compare-and-set** (one Lua script): a turn is saved only over the version
  it was built on; a write-back after an outage only over an older version or none. A newer
  version is never overwritten: the turn that lost is reported as not saved.
- **A turn that could not be saved is told**: `save` returns False (kept in memory only, or a
  newer version won) and the caller tells the traveller. A session Redis lost (a restart) that
  this replica still holds is put back only where no other copy is, and the turn says it was
  restored from this replica's copy (`load_checked`: `RESTORED`), since another replica may
  have held a later turn. A turn read from this replica's copy because Redis cannot be read
  says so too (`COPY`): in a fleet without sticky sessions another replica may well have
  served the turns since, and a reply built on an older turn is never given without a word.
- **The write-back set is bounded** by the memory store: only sessions still held in memory
  are kept for write-back.

A session the traveller presents that no store has any more (Redis restarted, or it expired)
raises `SessionLost`: the caller tells the traveller instead of silently starting afresh.
A session is never a reason for a 5xx.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from cachetools import TTLCache
from pydantic import ValidationError

from app.intent.model import TravelIntent, end_said, with_end_said
from app.redis_health import RedisHealth, redis_errors

if TYPE_CHECKING:
    from app.redis_client import RedisClient  # redis-py only where Redis is configured

log = logging.getLogger("railtrip.sessions")

SESSION_KEY = "railtrip:session:v1:{session_id}"
# KEYS[1] the session; ARGV: the version this write is based on (-1: newer-wins write-back),
# the new version, the record, the TTL in ms. Returns the version Redis holds when it refused
# (a newer one, or a different history), else -2 (written). -1 stands for "no record".
_CAS = """
local current = redis.call('GET', KEYS[1])
local held = -1
if current then
  local ok, record = pcall(cjson.decode, current)
  if ok and type(record) == 'table' and record['v'] ~= nil then
    held = tonumber(record['v']) or 0
  else
    held = 0
  end
end
local base, new = tonumber(ARGV[1]), tonumber(ARGV[2])
if base >= 0 then
  if current and held ~= base then return held end
else
  if current and held >= new then return held end
end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return -2
"""
WRITTEN = -2
SESSION_ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
_SESSION_ID = re.compile(SESSION_ID_PATTERN)


class SessionRead(StrEnum):
    """Where a turn's session was read from, and so what the traveller must be told."""

    AUTHORITY = "authority"  # Redis (or, with no Redis configured, the only store): nothing
    RESTORED = "restored"  # Redis had lost it, or held an older turn: put back from this copy
    COPY = "copy"  # Redis could not be read: this replica's copy, perhaps older than another's


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
        self._max_local = max_local
        # session → (version, intent): the last version this replica read or wrote.
        self._local: TTLCache[str, tuple[int, TravelIntent]] = TTLCache(
            max_local, ttl_s, timer=monotonic
        )
        self._dirty: set[str] = set()  # changed while Redis was down, not yet written back
        self._cas: Any = redis.register_script(_CAS) if redis is not None else None
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

    def version(self, session_id: str) -> int | None:
        """The version of the session this replica last read or wrote (None: not held)."""
        held = self._local.get(session_id)
        return held[0] if held is not None else None

    async def load(self, session_id: str) -> TravelIntent | None:
        """The intent so far; raises `SessionLost` / `SessionUnavailable` as documented."""
        intent, _ = await self.load_checked(session_id)
        return intent

    async def load_checked(self, session_id: str) -> tuple[TravelIntent | None, SessionRead]:
        """`load`, and where the intent came from: Redis, or this replica's copy (restored
        because Redis had lost the record, or read because Redis cannot be): both are said."""
        held = self._local.get(session_id)
        if self._redis is None:
            if held is None:
                raise SessionLost(session_id)
            return held[1], SessionRead.AUTHORITY
        if not self._usable():
            if held is None:
                raise SessionUnavailable("redis down and session not held here")
            return held[1], SessionRead.COPY
        try:
            raw = await self._redis.get(SESSION_KEY.format(session_id=session_id))
        except redis_errors() as exc:
            self._down(exc)
            if held is None:
                raise SessionUnavailable(repr(exc)) from exc
            return held[1], SessionRead.COPY
        self._up()
        if raw is None:
            if held is None:
                raise SessionLost(session_id)
            # Redis lost it (a restart) but this replica holds a copy: put it back only where
            # no other copy is (never over another replica's, which may be newer).
            return await self._put_back(
                session_id, held, "session restored from this replica's copy"
            )
        decoded = decode_record(raw)
        if decoded is None:
            # A record from an incompatible version: start the conversation afresh.
            log.warning("unreadable session record dropped", extra={"session": session_id[:8]})
            return None, SessionRead.AUTHORITY
        if held is not None and held[0] > decoded[0]:
            # Redis went back in time (it lost the record and an older copy was put back), or
            # this replica's turns during an outage are not written back yet: the later turn
            # wins, written back over the older version only.
            return await self._put_back(session_id, held, "session newer here than in redis")
        # Redis's version is the newest there is: a turn this replica kept for write-back is
        # older (another replica's turns won) and is never written over it.
        self._dirty.discard(session_id)
        self._local[session_id] = decoded
        return decoded[1], SessionRead.AUTHORITY

    async def _put_back(
        self, session_id: str, held: tuple[int, TravelIntent], why: str
    ) -> tuple[TravelIntent | None, SessionRead]:
        result = await self._write(session_id, held[0], held[1], base=-1)
        if result == WRITTEN:
            log.warning(why, extra={"session": session_id[:8]})
            self._dirty.discard(session_id)
            return held[1], SessionRead.RESTORED
        if result is None:  # Redis failed on the write: this copy is all there is now
            return held[1], SessionRead.COPY
        return await self.load_checked(session_id)  # another replica put a newer one back

    async def save(self, session_id: str, intent: TravelIntent) -> bool:
        """Store the intent after this turn as the next version, over the version the turn
        was built on, renewing its TTL. False when the turn is not in Redis: kept in memory
        only (Redis down), or refused because another replica saved a newer version."""
        held = self._local.get(session_id)
        base = held[0] if held is not None else 0
        if self._redis is None:
            self._local[session_id] = (base + 1, intent)
            return True
        if not self._usable():
            self._keep_for_write_back(session_id, base + 1, intent)
            return False
        result = await self._write(session_id, base + 1, intent, base=base if held else -1)
        if result is None:  # Redis failed on this write
            self._keep_for_write_back(session_id, base + 1, intent)
            return False
        if result != WRITTEN:
            # A newer version (another replica's turn) is in Redis: never overwrite it. The
            # memory copy is dropped so the next turn reads the newer one.
            log.warning(
                "session turn not saved: a newer version exists",
                extra={"session": session_id[:8], "held": result, "based_on": base},
            )
            self._local.pop(session_id, None)
            self._dirty.discard(session_id)
            return False
        self._local[session_id] = (base + 1, intent)
        # Others changed during an outage are written back by the recovery listener, in the
        # background, not on this turn.
        self._dirty.discard(session_id)
        return True

    async def write_back(self) -> None:
        """Write the sessions changed while Redis was down (those still alive in memory),
        each only over an older version or none."""
        written = refused = 0
        for session_id in list(self._dirty):
            held = self._local.get(session_id)
            if held is not None:
                result = await self._write(session_id, held[0], held[1], base=-1)
                if result is None:
                    return  # down again: the rest waits for the next recovery
                if result == WRITTEN:
                    written += 1
                else:
                    refused += 1
                    self._local.pop(session_id, None)  # a newer version exists: read that
            self._dirty.discard(session_id)
        if written or refused:
            log.info(
                "sessions written back after a redis outage",
                extra={"count": written, "newer_elsewhere": refused},
            )

    def _keep_for_write_back(self, session_id: str, version: int, intent: TravelIntent) -> None:
        self._local[session_id] = (version, intent)
        if len(self._dirty) >= self._max_local:
            # Bounded by the memory store: a session it no longer holds cannot be written back.
            self._dirty = {sid for sid in self._dirty if sid in self._local}
        self._dirty.add(session_id)

    async def _write(
        self, session_id: str, version: int, intent: TravelIntent, *, base: int
    ) -> int | None:
        """The compare-and-set: WRITTEN, the version that refused it, or None (Redis failed)."""
        assert self._redis is not None
        record = encode_record(version, intent)
        try:
            result = await self._cas(
                keys=[SESSION_KEY.format(session_id=session_id)],
                args=[base, version, record, self._ttl_ms],
            )
        except redis_errors() as exc:
            self._down(exc)
            return None
        self._up()
        return int(result)

    def _usable(self) -> bool:
        return self._health is None or self._health.usable()

    def _down(self, exc: BaseException) -> None:
        if self._health is not None:
            self._health.went_down(exc)

    def _up(self) -> None:
        if self._health is not None:
            self._health.came_back()


def encode_record(version: int, intent: TravelIntent) -> str:
    """The Redis record of one version of a session (a day home said, `end_said`, beside the
    intent: it is no field of the schema)."""
    said = ',"end_said":true' if end_said(intent) else ""
    return f'{{"v":{version},"intent":{intent.model_dump_json()}{said}}}'


def decode_record(raw: bytes | str) -> tuple[int, TravelIntent] | None:
    """(version, intent) of a record; a bare intent (the older form) is version 0; None when
    unreadable."""
    try:
        data = json.loads(raw)
        if isinstance(data, dict) and "v" in data and "intent" in data:
            intent = TravelIntent.model_validate(data["intent"])
            return int(data["v"]), with_end_said(intent, data.get("end_said") is True)
        return 0, TravelIntent.model_validate(data)
    except (ValueError, TypeError, ValidationError):
        return None
