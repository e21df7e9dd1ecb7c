"""A per-source circuit breaker: closed → open after N consecutive failures (or at once, for a
block) → one half-open probe after a cool-down → closed on success, open again on failure.

A probe that ends with no verdict (its caller left, or the fleet told it to wait) stands down,
so the next attempt may probe: a breaker never stays half-open with no probe out."""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitBreaker:
    """Counts consecutive failed attempts; `allow()` says whether an attempt may go out."""

    def __init__(
        self,
        failure_threshold: int = 5,
        cooldown_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        on_change: Callable[[BreakerState], None] | None = None,
    ) -> None:
        self._threshold = failure_threshold
        self._cooldown = cooldown_s
        self._clock = clock
        self._on_change = on_change
        self._failures = 0
        self._opened_at = 0.0
        self._open_for = cooldown_s
        self._probe_out = False
        self._blocked = False  # opened by a site's block (`trip`), not by counted failures
        self._state = BreakerState.CLOSED
        self._generation = 0  # how many times it opened: an attempt carries the one it saw

    @property
    def state(self) -> BreakerState:
        if self._state is BreakerState.OPEN and self._clock() - self._opened_at >= self._open_for:
            return BreakerState.HALF_OPEN
        return self._state

    def allow(self) -> bool:
        """True when an attempt may reach the source (only one probe while half-open)."""
        state = self.state
        if state is BreakerState.CLOSED:
            return True
        if state is BreakerState.HALF_OPEN and not self._probe_out:
            self._probe_out = True
            self._set(BreakerState.HALF_OPEN)
            return True
        return False

    @property
    def probing(self) -> bool:
        """True while the half-open probe `allow()` let out has no verdict yet."""
        return self._probe_out

    @property
    def blocked(self) -> bool:
        """True while open (or half-open) because a site blocked us, not for counted failures."""
        return self._blocked and self._state is not BreakerState.CLOSED

    @property
    def generation(self) -> int:
        """Bumped each time the breaker opens: an attempt remembers the one it was let out
        in, so a late answer to a request sent before a block can be told apart."""
        return self._generation

    def record_success(self, generation: int | None = None) -> None:
        """A success closes the breaker, unless it answers an attempt let out before the
        breaker last opened (`generation`): a late success of a request sent before a block
        says nothing about the site now; only the half-open probe may close it."""
        if generation is not None and generation != self._generation:
            return
        self._failures = 0
        self._probe_out = False
        self._blocked = False
        self._set(BreakerState.CLOSED)

    def stand_down(self, generation: int) -> None:
        """The probe let out in `generation` ended with no verdict (its caller went away, or
        another replica probes for the fleet): the next attempt may probe instead."""
        if generation == self._generation:
            self._probe_out = False

    def record_failure(self, generation: int | None = None) -> None:
        """A failed attempt; one let out before the breaker last opened (`generation`) is
        ignored: it says nothing about the site now, and must not pass for the probe's."""
        if generation is not None and generation != self._generation:
            return
        self._failures += 1
        probing = self._probe_out
        self._probe_out = False
        if probing or self._failures >= self._threshold:
            self._blocked = False
            self._open(self._cooldown)

    def trip(self, cooldown_s: float) -> None:
        """Open at once for `cooldown_s` (a site that blocked us), whatever the count says."""
        self._failures = max(self._failures, self._threshold)
        self._probe_out = False
        self._blocked = True
        self._open(cooldown_s)

    def _open(self, cooldown_s: float) -> None:
        self._generation += 1
        self._opened_at = self._clock()
        self._open_for = cooldown_s
        self._set(BreakerState.OPEN)

    def _set(self, state: BreakerState) -> None:
        if state is not self._state:
            self._state = state
            if self._on_change:
                self._on_change(state)
