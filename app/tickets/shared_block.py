"""A block shared by the fleet: one replica's block of a site stops every replica at once, and
one probe, from one replica, ends it.

One Redis key per source, `railtrip:block:v1:{source}`, holds the fleet's view of a block; its
value is the state and its TTL how long that state lasts:

```
(none) ── a replica is blocked ───────────────► blocked  (TTL: the block cool-down)
blocked ── the cool-down ends (key expires) ──► (none)
(none) ── a half-open replica claims it ──────► probe:<token>  (TTL: one attempt + margin)
probe ── the probe answered ──────────────────► clear  (TTL: the block cool-down)
probe ── the probe failed ────────────────────► blocked  (renewed for a whole cool-down)
probe ── the probe ended with no verdict ─────► (none)  (its caller left; another may probe)
any ── a replica is blocked ──────────────────► blocked
```

Before each attempt a replica reads the state in one script (`verdict`): a block it had not
seen trips its breaker for what is left, which also refuses its requests queued for that
source; while a probe is out every replica refuses. When a replica's breaker half-opens after
a block, the same script claims the probe for it when no one has (the key is gone), and
otherwise tells it to keep refusing, that the block was renewed, or that the fleet's probe
closed it (`clear`: it closes without probing). So after a cool-down exactly one request
reaches the site until its outcome is published. Without Redis, or while it is down, each
replica honours the blocks it met itself and sends its own probe.

Time is Redis's (the keys' TTLs), so replicas' clocks cannot skew a block.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from app.redis_health import RedisHealth, redis_errors

log = logging.getLogger("railtrip.sources")

BLOCK_KEY = "railtrip:block:v1:{source}"
BLOCKED, CLEAR, PROBE_PREFIX = "blocked", "clear", "probe:"
PROBE_MARGIN_S = 2.0
"""How long a claimed probe may outlast the source's timeout before another replica may take it
over (its holder died, or is stuck in front of the limiter)."""

# KEYS[1] the block; ARGV: 1 to claim the probe when no one holds the key, the claimer's token,
# the probe's lease in ms. Returns {state, ms left}. Any other value (an older replica's "1")
# reads as a block.
_VERDICT = """
local held = redis.call('GET', KEYS[1])
if held then
  if held == 'clear' then return {'clear', 0} end
  local left = redis.call('PTTL', KEYS[1])
  if string.sub(held, 1, 6) == 'probe:' then return {'probing', left} end
  return {'blocked', left}
end
if ARGV[1] == '1' then
  redis.call('SET', KEYS[1], 'probe:' .. ARGV[2], 'PX', ARGV[3])
  return {'probe', 0}
end
return {'none', 0}
"""
# KEYS[1] the block; ARGV: the prober's token, the value to leave ('' to delete), its TTL in ms.
# Only the replica whose probe is out concludes it: a block published since is never undone.
_CONCLUDE = """
if redis.call('GET', KEYS[1]) ~= 'probe:' .. ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1
"""

Verdict = Literal["none", "blocked", "probing", "clear", "probe", "unavailable"]


@dataclass(frozen=True)
class FleetView:
    """What the fleet says before an attempt: `blocked` for `left_s`, a probe `probing`
    elsewhere, `clear` (the fleet's probe answered), `probe` (this replica's to send), `none`,
    or `unavailable` (no Redis now: each replica on its own)."""

    verdict: Verdict
    left_s: float = 0.0


class SharedBlock:
    """Publishes and reads one source's block through Redis; never raises for Redis."""

    def __init__(
        self,
        redis: Any,
        source: str,
        health: RedisHealth | None = None,
        *,
        probe_lease_s: float = 5.0,
        clear_s: float = 300.0,
    ) -> None:
        self._redis = redis
        self._key = BLOCK_KEY.format(source=source)
        self._health = health
        self._token = secrets.token_hex(8)  # this replica's, for the probes it claims
        self._lease_ms = max(1, int(probe_lease_s * 1000))
        self._clear_ms = max(1, int(clear_s * 1000))
        self._verdict = redis.register_script(_VERDICT)
        self._conclude = redis.register_script(_CONCLUDE)

    async def publish(self, cooldown_s: float) -> None:
        """Tell the fleet: this site blocked us (or a probe failed), for `cooldown_s` from now."""
        if not self._usable():
            return
        try:
            await self._redis.set(self._key, BLOCKED, px=max(1, int(cooldown_s * 1000)))
        except redis_errors() as exc:
            self._down(exc)

    async def view(self, *, claim_probe: bool = False) -> FleetView:
        """The fleet's state of the block; with `claim_probe` (a breaker half-open after a
        block), the probe becomes this replica's when no one holds the key."""
        if not self._usable():
            return FleetView("unavailable")
        try:
            verdict, left_ms = await self._verdict(
                keys=[self._key], args=[int(claim_probe), self._token, self._lease_ms]
            )
        except redis_errors() as exc:
            self._down(exc)
            return FleetView("unavailable")
        state = verdict.decode() if isinstance(verdict, bytes) else str(verdict)
        left_s = max(0.0, int(left_ms) / 1000)
        if state in ("blocked", "probing") and left_s <= 0:
            return FleetView("none")  # a key without a TTL is no one's: never wait on it
        return FleetView(state, left_s)  # type: ignore[arg-type]

    async def probe_answered(self) -> None:
        """This replica's probe answered: the fleet's block is over (`clear`)."""
        await self._settle(CLEAR, self._clear_ms)

    async def probe_abandoned(self) -> None:
        """This replica's probe ended with no verdict (its caller left): another may probe."""
        await self._settle("", 0)

    async def _settle(self, value: str, ttl_ms: int) -> None:
        if not self._usable():
            return
        try:
            await self._conclude(keys=[self._key], args=[self._token, value, ttl_ms])
        except redis_errors() as exc:
            self._down(exc)

    def _usable(self) -> bool:
        return self._health is None or self._health.usable()

    def _down(self, exc: BaseException) -> None:
        if self._health is not None:
            self._health.went_down(exc)
