"""Admission control: a bounded queue in front of each source, sized from the latency the
source shows and the time the request has left.

A source drains at most `rate` requests a second, `concurrency` at a time. A request that
joins the queue behind `n` others starts about `n / drain` seconds later and is answered one
latency after that; if that is past the time its query has left for the sources it would
only wait and then be cut by the deadline. So each source admits a request only behind as
many others as it can answer within that time,

    bound = ceil(drain x (left - latency) - 1),  drain = min(rate, concurrency / latency)

(Little's law over the time left: the queue the drain empties while the last one admitted
still has a whole latency left, and one slot to spare), and refuses it at once otherwise
with `SourceOverloaded`, which never reaches the source, never counts against its breaker,
and is never reported as the source's failure.

`left` is what the query deadline leaves the sources when the request reaches the guard
(app/tickets/deadline.py): the whole sources' share for a query that came straight here,
less for one that waited for another replica's lease or a slow L2 look-up first. Sized from
the whole deadline, a query with 3 s left was admitted behind 19 others and cut before its
answer came, its request spent on nothing.

The latency is a moving estimate of what the source shows now (`LatencyEstimate`: a high
percentile of its last answers), not the attempt timeout: sized from the timeout, a burst
against a source answering in 0.8 s with a 3 s timeout and a 5 s deadline was cut at 15
where 21 fit (it is now cut at 19: the answer's reserve keeps the last 0.2 s). Until the
source has answered once, the bound stays the one sized from the timeout (`concurrency +
rate x (left - timeout)`, the previous default: a cold start is throttled no harder than
before). A source slower than the whole deadline still takes one request at a time, so the
estimate can learn that it got faster; otherwise a request with less time left than an
answer takes is refused. A configured `queue_limit` fixes the bound instead (`concurrency +
queue_limit`), whatever the time left.

A refused request waits for nothing: no timer, no lock, just a counter.

The bound is a forecast made when the request arrives, from answers the source gave before
it; under a burst the source (and this process) can answer slower than that, and a request
admitted then reaches its turn with less time left than an answer takes. It is checked again
at that turn, just before it would be sent (`too_late`, with the estimate as it is by then):
a request that cannot be answered in time is not sent but refused with `SourceOverloaded`
too, late but before the deadline, and the source is not asked for an answer nobody would
get. (bench/overload.py on a loaded box: requests sent at 3.99 s and 4.62 s of a 5 s
deadline to a source answering in 1.7-1.9 s by then, each cut at the deadline.)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from sources.errors import SourceError


class SourceOverloaded(SourceError):
    """Refused before reaching the source: its queue in this service is full."""

    outcome = "overloaded"

    def __init__(self, source: str, retry_after_s: float) -> None:
        super().__init__(source, "queue full in this service; the source was not asked")
        self.retry_after_s = retry_after_s


class LatencyEstimate:
    """How long one source takes to answer an attempt, now: the 80th percentile (nearest
    rank) of its last `window` answered attempts, a timeout counting as the timeout.

    A window's high percentile rather than a smoothed mean: one slow attempt (12306's first,
    which opens a session too) must not hold the bound down for dozens of answers after it,
    while a source that really slowed down moves it within a few answers. Before any answer
    it is the timeout (the worst case); it never exceeds it (no attempt takes longer)."""

    QUANTILE = 0.8

    def __init__(self, timeout_s: float, window: int = 16) -> None:
        self.timeout_s = timeout_s
        self._recent: deque[float] = deque(maxlen=window)

    def observe(self, seconds: float) -> None:
        """One attempt's duration (an answer, or a timeout at the timeout)."""
        self._recent.append(min(max(0.0, seconds), self.timeout_s))

    @property
    def known(self) -> bool:
        """True once the source has answered (or timed out) at least once."""
        return bool(self._recent)

    @property
    def seconds(self) -> float:
        if not self._recent:
            return self.timeout_s
        ordered = sorted(self._recent)
        return ordered[math.ceil(self.QUANTILE * len(ordered)) - 1]


def answerable(rate_per_s: float, concurrency: int, window_s: float, latency_s: float) -> int:
    """How many requests one source can have inside (running or waiting) and still answer the
    last of them within `window_s`, one slot of the drain to spare; 0 when none fits.

    The one spare slot is for a burst that makes the source (and this process) a little
    slower than the answers the estimate saw before it: a bound cut exactly at the deadline
    lost the last few admitted to it."""
    drain = min(rate_per_s, concurrency / max(latency_s, 1e-3))
    return max(0, math.ceil(drain * (window_s - latency_s) - 1 - 1e-9))


def adaptive_capacity(
    rate_per_s: float, concurrency: int, deadline_s: float, latency_s: float
) -> int:
    """The bound for a request with the whole `deadline_s`: `answerable`, at least 1 (a
    source slower than the deadline gets one request at a time, to show it got faster)."""
    return max(1, answerable(rate_per_s, concurrency, deadline_s, latency_s))


def timeout_sized_capacity(
    rate_per_s: float, concurrency: int, deadline_s: float, timeout_s: float
) -> int:
    """The bound before a source has answered once: what its rate drains while a whole
    attempt (the timeout) still fits in the time left, beside `concurrency` running."""
    return concurrency + max(0, math.floor(rate_per_s * max(0.0, deadline_s - timeout_s)))


class SourceAdmission:
    """Counts requests inside (running or waiting) one source's guard; refuses beyond the
    bound, which follows the source's latency and the request's time left unless a
    `queue_limit` fixes it."""

    def __init__(
        self,
        source: str,
        concurrency: int,
        rate_per_s: float,
        *,
        latency: LatencyEstimate,
        deadline_s: float,
        queue_limit: int | None = None,
    ) -> None:
        self.source = source
        self.concurrency = concurrency
        self.rate_per_s = rate_per_s  # this process's share of the source's rate
        self.latency = latency
        self.deadline_s = deadline_s  # what a query deadline leaves the sources, whole
        self.queue_limit = queue_limit
        self.inside = 0

    @property
    def capacity(self) -> int:
        """The bound now for a request with the whole deadline (the exported limit)."""
        return self.bound()

    def bound(self, left_s: float | None = None) -> int:
        """How many may be inside when a request with `left_s` for the sources arrives (the
        whole deadline when None): fixed when configured, else from the latency."""
        if self.queue_limit is not None:
            return self.concurrency + self.queue_limit
        window = self.deadline_s if left_s is None else min(left_s, self.deadline_s)
        if not self.latency.known:
            return timeout_sized_capacity(
                self.rate_per_s, self.concurrency, window, self.latency.timeout_s
            )
        latency = self.latency.seconds
        whole = answerable(self.rate_per_s, self.concurrency, self.deadline_s, latency)
        if whole == 0 or left_s is None:
            # Nothing fits even in the whole deadline: one at a time, so the estimate can
            # learn that the source got faster.
            return max(1, whole)
        # Time spent before the guard (a lease wait, a slow L2): only what fits in the rest.
        return answerable(self.rate_per_s, self.concurrency, window, latency)

    def too_late(self, left_s: float) -> bool:
        """True when a request admitted earlier has, at its turn (its slot and the rate's
        turn taken, about to be sent), less time left than an answer takes now: it is not
        sent. Only for the latency-sized bound, once the source has answered."""
        return self.queue_limit is None and self.latency.known and left_s < self.latency.seconds

    @property
    def drain_per_s(self) -> float:
        """Requests a second the queue empties at: the rate, or fewer when `concurrency`
        attempts at once cannot keep up with it at the source's latency."""
        return min(self.rate_per_s, self.concurrency / max(self.latency.seconds, 1e-3))

    @contextmanager
    def enter(self, left_s: float | None = None) -> Iterator[None]:
        """Hold a place for one request with `left_s` for the sources (None: the whole
        deadline), or raise `SourceOverloaded` at once."""
        if self.inside >= self.bound(left_s):
            raise SourceOverloaded(self.source, self.retry_after_s())
        self.inside += 1
        try:
            yield
        finally:
            self.inside -= 1

    def retry_after_s(self) -> float:
        """When a place is likely free: the queue ahead of a newcomer at the drain rate."""
        waiting = max(0, self.inside - self.concurrency) + 1
        return max(1.0, math.ceil(waiting / self.drain_per_s))
