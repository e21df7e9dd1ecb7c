"""What both sandbox vendor apps share: counting, latency, the fault gate and the clock types."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from sources.sandbox.faults import Fault, FaultConfig

Clock = Callable[[], dt.datetime]
Sleep = Callable[[float], Awaitable[None]]

# A hung vendor "answers" after a day: far beyond any client timeout, and an injected sleep
# in tests sees this value instead of waiting.
HANG_S = 24 * 3600.0


class RequestCounter:
    """ASGI middleware: counts every HTTP request by path, then adds the configured latency."""

    def __init__(self, app: ASGIApp, faults: FaultConfig, sleep: Sleep) -> None:
        self.app = app
        self.faults = faults
        self.sleep = sleep

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.faults.record(scope["path"])
            if self.faults.latency_ms > 0:
                await self.sleep(self.faults.latency_s)
        await self.app(scope, receive, send)


async def roll_fault(faults: FaultConfig, sleep: Sleep) -> Fault:
    """Decide this data request's fault; a hang sleeps HANG_S before the caller answers 504."""
    fault = faults.decide()
    if fault is Fault.HANG:
        await sleep(HANG_S)
    return fault
