"""Admission control: a bounded queue in front of each source.

A source drains at most `rate_per_s` requests a second, `concurrency` at a time; a request
that joins a longer queue than the source can drain within the query deadline would only
wait and then be reported as the source timing out. So each source admits `concurrency +
queue_limit` requests at once (by default what its rate drains while a full attempt still
fits in the query deadline) and refuses the next one at once with `SourceOverloaded`, which
never reaches the source, never counts against its breaker, and is never reported as the
source's failure.

A refused request waits for nothing: no timer, no lock, just a counter.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from sources.errors import SourceError


class SourceOverloaded(SourceError):
    """Refused before reaching the source: its queue in this service is full."""

    outcome = "overloaded"

    def __init__(self, source: str, retry_after_s: float) -> None:
        super().__init__(source, "queue full in this service; the source was not asked")
        self.retry_after_s = retry_after_s


def default_queue_limit(rate_per_s: float, deadline_s: float, timeout_s: float) -> int:
    """How many waiting requests the source's rate drains while a whole attempt still fits
    in the query deadline (the last one admitted starts by deadline - timeout)."""
    return max(0, math.floor(rate_per_s * max(0.0, deadline_s - timeout_s)))


class SourceAdmission:
    """Counts requests inside (running or waiting) one source's guard; refuses beyond bound."""

    def __init__(self, source: str, concurrency: int, queue_limit: int, rate_per_s: float) -> None:
        self.source = source
        self.concurrency = concurrency
        self.capacity = concurrency + queue_limit
        self._rate = rate_per_s
        self.inside = 0

    @contextmanager
    def enter(self) -> Iterator[None]:
        """Hold a place for one request, or raise `SourceOverloaded` at once."""
        if self.inside >= self.capacity:
            raise SourceOverloaded(self.source, self.retry_after_s())
        self.inside += 1
        try:
            yield
        finally:
            self.inside -= 1

    def retry_after_s(self) -> float:
        """When a place is likely free: the queue ahead of a newcomer at the source's rate."""
        waiting = max(0, self.inside - self.concurrency) + 1
        return max(1.0, math.ceil(waiting / self._rate))
