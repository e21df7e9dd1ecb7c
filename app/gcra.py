"""A fleet-wide GCRA (generic cell rate algorithm) in one Lua script on Redis's own clock.

Every replica asks the same Redis, and the script reads `TIME` there, so replicas' clocks cannot
skew the budget. One key per limit, hash-tagged `{rl:<name>}`, so each call touches one Cluster
slot. The key stores the theoretical arrival time (TAT, integer microseconds of Redis time) and
expires when the limit is idle again.

Two modes over the same state:

* `reserve(name, rate, burst) -> wait_s`: always takes the next slot and says how long the caller
  must wait before using it (0.0 when a burst slot is free). For callers that queue (the
  per-source upstream limiter).
* `check(name, rate, burst) -> Decision(allowed, retry_after_s, remaining)`: takes a slot only
  if one is free now; otherwise refuses and says when one will be. For callers that refuse
  (per-client quotas).
* `take(name, rate, burst, want) -> (taken, Decision)`: as `check`, but takes up to `want`
  slots at once (as many as are free now); for callers that spend them over the next moments
  without asking again (per-client quotas of a busy client, app/access/grants.py).

`rate` is requests per second, `burst` how many may go at once from idle (>= 1). Redis errors
propagate (redis.exceptions.RedisError); the caller decides how to degrade.
"""

from __future__ import annotations

from typing import Any, NamedTuple

KEY_PREFIX = "rl:"

# KEYS[1] = {rl:<name>}; ARGV = interval_us, burst, mode ("reserve" | "check" | "take"),
# want (take only). Returns {allowed (0/1; take: slots taken), wait_or_retry_us, remaining}.
_SCRIPT = """
if redis.replicate_commands then redis.replicate_commands() end
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local mode = ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local horizon = burst * interval
local taken = 1
if mode == 'take' then
  local free = math.floor((horizon - (tat - now)) / interval)
  taken = math.max(1, math.min(tonumber(ARGV[4]), free))
end
local new_tat = tat + taken * interval
local wait = new_tat - now - horizon
if wait < 0 then wait = 0 end
if mode ~= 'reserve' and wait > 0 then
  return {0, wait, 0}
end
local ttl_ms = math.ceil((new_tat - now) / 1000)
if ttl_ms < 1 then ttl_ms = 1 end
redis.call('SET', KEYS[1], string.format('%.0f', new_tat), 'PX', ttl_ms)
local remaining = math.floor((horizon - (new_tat - now)) / interval)
if remaining < 0 then remaining = 0 end
return {taken, wait, remaining}
"""


class Decision(NamedTuple):
    """Outcome of `check`: unpacks as `(allowed, retry_after_s, remaining)`."""

    allowed: bool
    retry_after_s: float
    remaining: int


def gcra_key(name: str) -> str:
    """The Redis key for limit `name`: hash-tagged so the whole key maps to one Cluster slot."""
    return "{" + KEY_PREFIX + name + "}"


class Gcra:
    """GCRA limits on one Redis (or RedisCluster) client; the script is loaded on first use."""

    def __init__(self, redis: Any) -> None:
        self._script = redis.register_script(_SCRIPT)

    async def reserve(self, name: str, rate: float, burst: int = 1) -> float:
        """Take the next slot of limit `name`; seconds the caller must wait before using it."""
        _, wait_us, _ = await self._run(name, rate, burst, "reserve")
        return wait_us / 1_000_000

    async def check(self, name: str, rate: float, burst: int = 1) -> Decision:
        """Take a slot only if one is free now; else refuse with the seconds until one is."""
        allowed, wait_us, remaining = await self._run(name, rate, burst, "check")
        return Decision(bool(allowed), wait_us / 1_000_000, int(remaining))

    async def take(self, name: str, rate: float, burst: int, want: int) -> tuple[int, Decision]:
        """Take up to `want` slots of limit `name` that are free now: how many were taken (0:
        refused, with the seconds until one is) and the slots left after them."""
        taken, wait_us, remaining = await self._run(name, rate, burst, "take", max(1, want))
        return taken, Decision(taken > 0, wait_us / 1_000_000, remaining)

    async def _run(
        self, name: str, rate: float, burst: int, mode: str, want: int = 1
    ) -> tuple[int, int, int]:
        if not rate > 0:
            raise ValueError(f"rate must be > 0 requests/s, got {rate!r}")
        if burst < 1:
            raise ValueError(f"burst must be >= 1, got {burst!r}")
        interval_us = max(1, round(1_000_000 / rate))
        allowed, wait_us, remaining = await self._script(
            keys=[gcra_key(name)], args=[interval_us, int(burst), mode, int(want)]
        )
        return int(allowed), int(wait_us), int(remaining)
