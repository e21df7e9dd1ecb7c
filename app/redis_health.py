"""One shared "is Redis answering?" state for every Redis user in a replica.

The cache tier, the fleet rate limiter, the fleet single-flight and the session store all ask
`usable()` before touching Redis and report each outcome (`went_down` / `came_back`). So one
stall found by any of them costs the others nothing: while down, Redis is skipped and probed
once per `retry_pause_s` in the background, and every user notices the recovery at once.
`/readyz` reads `state` (the last known one) and starts a probe, never waiting long for it.
With a `ping`, going down also starts a watcher that probes every `retry_pause_s` until Redis
answers, so a recovery is noticed (and the session write-back runs) even when no traveller's
call asks: before, it waited for the next call that used Redis.

A refused or reset connection marks Redis down at once. A timed-out command does not, when
there is a `ping`: it may be one late reply read by a CPU-starved process from a Redis that
is up (seen under load: a replica degraded and fetched for itself, a second upstream request
for a query the fleet shares). The timeout starts a confirming probe (the same `ping`,
bounded by the same client timeout) and Redis is marked down only if that fails too; a
stall is so noticed one timeout later. `attempt` runs a command that way and, when the
probe answers, tries the command once more (for idempotent commands: the cache tier and
the fleet flight), so a late reply costs its caller one retry, not a degradation.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from functools import cache
from typing import Any, Literal, TypeVar

from app.observability.metrics import Metrics

log = logging.getLogger("railtrip.redis")

RedisState = Literal["ok", "down", "disabled"]
T = TypeVar("T")


@cache
def redis_errors() -> tuple[type[BaseException], ...]:
    """What a Redis call raises when Redis (or the way to it) fails; never a bug of ours.

    A function, not a constant, so that a replica without Redis never imports redis-py
    (0.1–0.3 s, 8 MiB): an `except redis_errors()` clause is evaluated only when something
    was raised inside its `try`, and only code holding a Redis client reaches one.
    """
    from redis.exceptions import RedisError

    return (RedisError, OSError)


def is_timeout(exc: BaseException) -> bool:
    """A command that got no reply in time (Redis stalled, or this process read it late),
    as opposed to a connection refused or reset (Redis, or the way to it, is gone)."""
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return isinstance(exc, RedisTimeoutError | TimeoutError)


class RedisHealth:
    """Last known Redis state, shared by the replica's Redis users; probes paced while down."""

    def __init__(
        self,
        metrics: Metrics,
        *,
        retry_pause_s: float = 1.0,
        monotonic: Callable[[], float] = time.monotonic,
        ping: Callable[[], Awaitable[Any]] | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self._metrics = metrics
        self._ping_fn = ping
        self._retry_pause = retry_pause_s
        self._monotonic = monotonic
        self._down_since: float | None = None
        self._probe: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._sleep = sleep
        self._listeners: list[Callable[[], Coroutine[Any, Any, None]]] = []
        self._background: set[asyncio.Task[Any]] = set()
        metrics.track_redis()
        metrics.redis_up.set(1)

    @property
    def state(self) -> RedisState:
        return "down" if self._down_since is not None else "ok"

    def usable(self) -> bool:
        """May this call try Redis? While down: no (counted). Once per pause Redis is probed:
        in the background when a `ping` was given (no traveller's request pays for it),
        else by letting this one call through."""
        if self._down_since is None:
            return True
        if self._monotonic() - self._down_since >= self._retry_pause:
            self._down_since = self._monotonic()  # pause the next probe
            if self._ping_fn is None:
                return True
            self._start_probe(self._ping_fn)
        self._metrics.degradations.labels(kind="redis_down").inc()
        return False

    def went_down(self, exc: BaseException) -> None:
        """A Redis call failed. A timeout while Redis is up is confirmed by a probe first
        (when there is a `ping` and a running loop); anything else marks it down now."""
        if self._down_since is None and is_timeout(exc) and self._confirm(exc):
            return
        self._mark_down(exc)

    def _confirm(self, exc: BaseException) -> bool:
        """Start (or join) the probe that decides whether a timeout means Redis is down."""
        if self._ping_fn is None:
            return False
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        if self._probe is None or self._probe.done():
            log.info("redis command timed out; probing", extra={"error": repr(exc)})
        self._start_probe(self._ping_fn)
        return True

    async def attempt(self, command: Callable[[], Awaitable[T]]) -> T:
        """`command()` with its outcome reported. A timeout is confirmed by the probe and,
        if Redis answers it, the command is tried once more (so only for commands that may
        run twice). Raises the Redis error of a command that failed."""
        try:
            result = await command()
        except redis_errors() as exc:
            self.went_down(exc)
            if not await self._up_after_probe():
                raise
            try:
                result = await command()
            except redis_errors() as again:
                self.went_down(again)
                raise
        self.came_back()
        return result

    async def _up_after_probe(self) -> bool:
        """Whether Redis is up once the probe under way (if any) has answered."""
        probe = self._probe
        if self._down_since is not None or probe is None:
            return False
        await asyncio.wait({probe})  # not cancelled with the caller: shared by every caller
        return self._down_since is None

    def _mark_down(self, exc: BaseException) -> None:
        if self._down_since is None:
            log.warning("redis down; degrading", extra={"error": repr(exc)})
        self._down_since = self._monotonic()
        self._metrics.redis_up.set(0)
        self._metrics.degradations.labels(kind="redis_down").inc()
        self._watch()

    def _watch(self) -> None:
        if self._ping_fn is None or (self._watcher is not None and not self._watcher.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a synchronous caller): the next call probes instead
            return
        self._watcher = loop.create_task(self._watch_until_back(self._ping_fn))

    async def _watch_until_back(self, ping: Callable[[], Awaitable[Any]]) -> None:
        """Probe once per pause while down; ends when Redis answers (or at shutdown)."""
        while self._down_since is not None:
            await self._sleep(self._retry_pause)
            if self._down_since is None:
                return
            self._down_since = self._monotonic()  # a probe is under way: pace the others
            await self._start_probe(ping)

    def came_back(self) -> None:
        if self._down_since is None:
            return
        log.info("redis is back")
        self._down_since = None
        self._metrics.redis_up.set(1)
        for listener in self._listeners:
            task = asyncio.get_running_loop().create_task(listener())
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def on_recovery(self, listener: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run `listener()` in the background each time Redis comes back (e.g. write-back)."""
        self._listeners.append(listener)

    async def probe(self, ping: Callable[[], Awaitable[Any]], wait_s: float) -> RedisState:
        """Start a probe (one at a time) and wait for it at most `wait_s`; the state after."""
        probe = self._start_probe(ping)
        await asyncio.wait({probe}, timeout=wait_s)
        return self.state

    def _start_probe(self, ping: Callable[[], Awaitable[Any]]) -> asyncio.Task[None]:
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._ping(ping))
        return self._probe

    async def _ping(self, ping: Callable[[], Awaitable[Any]]) -> None:
        try:
            await ping()
        except redis_errors() as exc:
            self._mark_down(exc)  # a probe's timeout is the confirmation
        else:
            self.came_back()

    async def aclose(self) -> None:
        """Cancel a probe or write-back still running (app shutdown)."""
        tasks = [
            t
            for t in (self._probe, self._watcher, *self._background)
            if t is not None and not t.done()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
