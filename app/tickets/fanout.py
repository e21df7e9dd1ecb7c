"""Ask every enabled source at once and keep whatever answers by the deadline (`fan_out`),
or one source, the next only when it cannot answer in time (`in_turn`), or ask the sources
with a capability one after another until one answers (`first_answer`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence, Sized
from dataclasses import dataclass
from typing import TypeVar

from app.tickets.deadline import Deadline
from app.tickets.guard import SEARCH, GuardedSource
from app.tickets.model import SourceReport, SourceStatus
from sources.errors import NotFoundAtSource, SourceError
from sources.models import SeatStatus, TicketQuery, TrainOffer

T = TypeVar("T")


@dataclass(frozen=True)
class SourceAnswer:
    """One source's part of a fan-out: its offers, or why there are none."""

    report: SourceReport
    offers: tuple[TrainOffer, ...] = ()

    @property
    def ok(self) -> bool:
        return self.report.status == "ok"


async def fan_out(
    sources: Sequence[GuardedSource], query: TicketQuery, until: Deadline
) -> list[SourceAnswer]:
    """Query all sources concurrently; one failing or hanging source never loses the others.

    Each source has until `until` (the query's deadline less the answer's reserve), its time
    in the admission queue included: a source still running then is cancelled and reported
    as a timeout. Answers come back in source priority order.
    """
    return list(await asyncio.gather(*(_ask(source, query, until) for source in sources)))


HEDGE_SHARE = 0.5
"""Of the time a source had left when `in_turn` asked it, what it may spend before the next
source is asked beside it: a source that hangs leaves the next one half the deadline, not
nothing."""


async def in_turn(
    sources: Sequence[GuardedSource], query: TicketQuery, until: Deadline
) -> list[SourceAnswer]:
    """Ask the sources one at a time in priority order, until one answers in full: the next
    is asked once the one before it failed, answered a seat on sale without its fare, or
    spent `HEDGE_SHARE` of the time it had (then both run on). Every answer of the sources
    asked, in priority order; the sources never asked are not in it.

    For a query whose trains the caller already knows (a leg of the timetable's best
    journey, asked to confirm its seats and fares): one source that sells them answers it,
    and asking every source costs each of them a request for the same trains.
    """
    asked: list[asyncio.Task[SourceAnswer]] = []
    for source in sources:
        task = asyncio.create_task(_ask(source, query, until))
        asked.append(task)
        done, _ = await asyncio.wait({task}, timeout=until.left() * HEDGE_SHARE)
        if task in done and _in_full(task.result()):
            break
    return list(await asyncio.gather(*asked))


def _in_full(answer: SourceAnswer) -> bool:
    """An answer that needs no other source: ok, and every seat on sale priced."""
    return answer.ok and all(
        seat.price is not None
        for offer in answer.offers
        for seat in offer.seats
        if seat.status is SeatStatus.AVAILABLE
    )


async def _ask(source: GuardedSource, query: TicketQuery, until: Deadline) -> SourceAnswer:
    monotonic = until.monotonic
    started = monotonic()
    # Read when this source's turn starts, not when the fan-out was called: in a burst the
    # tasks start a loop iteration (or a busy process's many) later.
    left = until.left()

    def report(status: SourceStatus, error: str | None = None, offers: int = 0) -> SourceReport:
        return source_report(source.name, status, monotonic() - started, error, offers)

    try:
        async with asyncio.timeout(left):
            offers = await source.search(query, left_s=left)
    except TimeoutError:
        return SourceAnswer(report("timeout", f"no answer in the {left:.1f}s the deadline left"))
    except SourceError as exc:
        return SourceAnswer(report(report_status(exc.outcome), exc.message))
    kept = tuple(o for o in offers if query.admits(o))
    return SourceAnswer(report("ok", offers=len(kept)), kept)


async def first_answer(
    sources: Sequence[GuardedSource],
    ask: Callable[[GuardedSource], Awaitable[T]],
    deadline_s: float,
    monotonic: Callable[[], float] = time.monotonic,
    *,
    counted: Callable[[Sized], int] | None = None,
    capability: str = SEARCH,
) -> tuple[T | None, list[SourceReport]]:
    """`ask(source)` of each source in priority order, under its guard and the deadline,
    until one answers: that answer (None when all failed) and a report per source asked.

    `capability` names the breaker the calls count against (a failing transfer search never
    opens the one that guards left-ticket searches).

    `NotFoundAtSource` is an answer, not a failure: it is raised to the caller at once.
    `counted(answer)` (e.g. `len`), when given, is the report's `offers` figure.
    """
    reports: list[SourceReport] = []
    for source in sources:
        started = monotonic()

        def operation(source: GuardedSource = source) -> Awaitable[T]:
            return ask(source)

        try:
            async with asyncio.timeout(deadline_s):
                found = await source.call(operation, capability)
        except NotFoundAtSource:
            raise
        except (SourceError, TimeoutError) as exc:
            status = report_status(exc.outcome) if isinstance(exc, SourceError) else "timeout"
            reports.append(source_report(source.name, status, monotonic() - started, str(exc)))
            continue
        took = monotonic() - started
        offers = counted(found) if counted is not None and isinstance(found, Sized) else 0
        reports.append(source_report(source.name, "ok", took, None, offers))
        return found, reports
    return None, reports


def source_report(
    name: str, status: SourceStatus, took_s: float, error: str | None = None, offers: int = 0
) -> SourceReport:
    """How one source did: its status, latency, error and the offers it gave."""
    return SourceReport(
        name=name,
        status=status,
        freshness="realtime" if status == "ok" else "unavailable",
        latency_ms=round(took_s * 1000),
        error=error,
        offers=offers,
    )


_STATUS_OF_OUTCOME: dict[str, SourceStatus] = {
    "timeout": "timeout",
    "rate_limited": "rate_limited",
    "circuit_open": "circuit_open",
    "overloaded": "overloaded",
}


def report_status(outcome: str) -> SourceStatus:
    """The report status for a `SourceError.outcome` (everything else is an error)."""
    return _STATUS_OF_OUTCOME.get(outcome, "error")
