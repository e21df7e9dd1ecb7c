"""Ask every enabled source at once; keep whatever answers by the deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.tickets.guard import GuardedSource
from app.tickets.model import SourceReport, SourceStatus
from sources.errors import SourceError
from sources.models import TicketQuery, TrainOffer


@dataclass(frozen=True)
class SourceAnswer:
    """One source's part of a fan-out: its offers, or why there are none."""

    report: SourceReport
    offers: tuple[TrainOffer, ...] = ()

    @property
    def ok(self) -> bool:
        return self.report.status == "ok"


async def fan_out(
    sources: Sequence[GuardedSource],
    query: TicketQuery,
    deadline_s: float,
    monotonic: Callable[[], float] = time.monotonic,
) -> list[SourceAnswer]:
    """Query all sources concurrently; one failing or hanging source never loses the others.

    Each source gets the whole deadline; a source still running at the deadline is cancelled
    and reported as a timeout. Answers come back in source priority order.
    """
    return list(
        await asyncio.gather(*(_ask(source, query, deadline_s, monotonic) for source in sources))
    )


async def _ask(
    source: GuardedSource, query: TicketQuery, deadline_s: float, monotonic: Callable[[], float]
) -> SourceAnswer:
    started = monotonic()

    def report(status: SourceStatus, error: str | None = None, offers: int = 0) -> SourceReport:
        return SourceReport(
            name=source.name,
            status=status,
            freshness="realtime" if status == "ok" else "unavailable",
            latency_ms=round((monotonic() - started) * 1000),
            error=error,
            offers=offers,
        )

    try:
        async with asyncio.timeout(deadline_s):
            offers = await source.search(query)
    except TimeoutError:
        return SourceAnswer(report("timeout", f"no answer within the {deadline_s:g}s deadline"))
    except SourceError as exc:
        return SourceAnswer(report(report_status(exc.outcome), exc.message))
    kept = tuple(o for o in offers if query.admits(o))
    return SourceAnswer(report("ok", offers=len(kept)), kept)


_STATUS_OF_OUTCOME: dict[str, SourceStatus] = {
    "timeout": "timeout",
    "rate_limited": "rate_limited",
    "circuit_open": "circuit_open",
    "overloaded": "overloaded",
}


def report_status(outcome: str) -> SourceStatus:
    """The report status for a `SourceError.outcome` (everything else is an error)."""
    return _STATUS_OF_OUTCOME.get(outcome, "error")
