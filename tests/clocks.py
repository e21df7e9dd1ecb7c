"""Injectable time for tests: a wall clock and a monotonic clock that only move when told."""

from __future__ import annotations

import datetime as dt

from sources.models import SHANGHAI


class FakeTime:
    """`now()` (aware, Asia/Shanghai) and `monotonic()` advance together via `advance()`."""

    def __init__(self, start: dt.datetime | None = None) -> None:
        self._start = start or dt.datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI)
        self._elapsed = 0.0
        self.sleeps: list[float] = []

    def now(self) -> dt.datetime:
        return self._start + dt.timedelta(seconds=self._elapsed)

    def monotonic(self) -> float:
        return 1000.0 + self._elapsed

    def advance(self, seconds: float) -> None:
        self._elapsed += seconds

    async def sleep(self, seconds: float) -> None:
        """Record the wait and move time forward instead of waiting."""
        self.sleeps.append(seconds)
        self.advance(seconds)
