"""Clocks and sleep, injected everywhere time is read, so tests never wait for real."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sources.base import Clock, shanghai_now
from sources.models import SHANGHAI


@dataclass(frozen=True)
class Runtime:
    """Clocks and sleep, injectable so tests never wait for real."""

    clock: Clock = shanghai_now
    monotonic: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] | None = None

    def today(self) -> dt.date:
        """Today in Asia/Shanghai by this runtime's clock."""
        return self.clock().astimezone(SHANGHAI).date()
