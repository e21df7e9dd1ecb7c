"""A query's deadline: one budget from the moment the query arrives.

Everything a cold query does before its answer spends the same budget: the L2 look-up, the
wait for another replica's lease, the source's admission queue, the fan-out, the L2 write
and the stale look-up when the sources fail. Each step asks the deadline how much is left
instead of starting a fresh clock of its own (counted from the fan-out, an answer could
come as late as everything before it took).

The sources are cut `answer_reserve_s` before the end: assembling the answer (merging,
storing, narrowing, handing it back through the flight) takes CPU, which a busy process
gives late, and an answer the sources gave in time must not be handed back after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

ANSWER_RESERVE_S = 0.2
"""The end of a query deadline kept for assembling the answer (at most a tenth of it).

The bench's burst (bench/overload.py, a loaded 2-core box) measured up to 48 ms from the
fan-out's end to the answer in its caller's hands and event-loop lags up to 0.17 s; 0.2 s
covers both. It costs one admitted query per source at 5/s (README "Performance")."""


def answer_reserve_s(deadline_s: float) -> float:
    """What of a `deadline_s` query deadline is kept for assembling the answer."""
    return min(ANSWER_RESERVE_S, deadline_s / 10)


def sources_share_s(deadline_s: float) -> float:
    """What of a `deadline_s` query deadline the sources have, admission queue included."""
    return deadline_s - answer_reserve_s(deadline_s)


@dataclass(frozen=True, slots=True)
class Deadline:
    """A point on a monotonic clock by which something must be done."""

    end: float
    monotonic: Callable[[], float]

    @classmethod
    def after(cls, seconds: float, monotonic: Callable[[], float]) -> Deadline:
        """The deadline `seconds` from now on `monotonic`."""
        return cls(monotonic() + seconds, monotonic)

    def left(self) -> float:
        """Seconds left before the end (0 once it has passed)."""
        return max(0.0, self.end - self.monotonic())

    def earlier(self, seconds: float) -> Deadline:
        """The same clock, ending `seconds` sooner."""
        return Deadline(self.end - seconds, self.monotonic)
