"""An asyncio event loop on virtual time: timers fire in order, but idle waits cost nothing.

For in-process scenarios whose outcome depends on deadlines, timeouts and backoff (the app
driven through httpx's ASGI transport, sandbox vendors mounted in-process): on real time a
loaded machine stretches every step and moves work past a deadline, so what the test sees
depends on the machine. Here `loop.time()` is virtual: when the loop has nothing ready to
run it jumps to the next timer instead of sleeping, and otherwise each iteration costs a
fixed microsecond. CPU time spent running callbacks costs no virtual time, so the same
scenario yields the same timings on an idle laptop and on a CI box running nine suites.

Real I/O still works (the selector is polled without blocking when a timer is due, and
blocks for real only when nothing at all is scheduled), so a thread handing a result back
through `call_soon_threadsafe` wakes the loop as usual.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


# Each loop iteration that finds no I/O moves time by at least this much. Without it a timer
# computed a rounding error short of its target (aiolimiter's leaky bucket does this) would be
# re-armed for "now" forever, since virtual time would never pass on its own.
QUANTUM_S = 1e-6


class _VirtualSelector(selectors.DefaultSelector):
    """Polls without blocking; reports the wait it was asked for so the loop can skip it."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None:  # nothing scheduled: only real I/O (a thread) can wake us
            return super().select(None)
        events = super().select(0)
        if not events:
            self._loop.advance(max(timeout, QUANTUM_S))
        return events


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """`time()` is virtual; it advances to the next timer whenever the loop would wait."""

    def __init__(self) -> None:
        self._virtual_now = 0.0
        super().__init__(_VirtualSelector(self))

    def time(self) -> float:
        return self._virtual_now

    def advance(self, seconds: float) -> None:
        self._virtual_now += seconds


def run_on_virtual_time(scenario: Coroutine[Any, Any, T]) -> T:
    """Run `scenario` to completion on a fresh virtual-time loop, then close it."""
    loop = VirtualTimeLoop()
    try:
        return loop.run_until_complete(scenario)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
