"""Fetch every leg a plan needs from the query service, concurrently; one failure loses one leg."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Iterable
from typing import Protocol

from app.errors import Overloaded
from app.tickets.model import QueryEcho, SourceReport, TicketResult
from rules import LegKey
from sources.models import Station, TicketQuery
from sources.stations import StationDirectory

log = logging.getLogger("railtrip.agent")


class TicketSearch(Protocol):
    """The part of `TicketService` the agent uses (a fake in unit tests)."""

    async def search(
        self,
        query: TicketQuery,
        origin: Station,
        destination: Station,
        *,
        refresh: bool = False,
        allow_stale: bool = True,
    ) -> TicketResult: ...


def _city_station(directory: StationDirectory, city: str) -> Station:
    code = directory.city_code(city)
    station = directory.get(code)
    assert station is not None
    return station


def _failed(key: LegKey, origin: Station, destination: Station, exc: BaseException) -> TicketResult:
    """A leg whose query raised: no offers, unavailable, and the reason as a warning."""
    return TicketResult(
        query=QueryEcho(origin=origin, destination=destination, date=key.date),
        freshness="unavailable",
        sources=(
            SourceReport(
                name="query-service",
                status="error",
                freshness="unavailable",
                error=type(exc).__name__,
            ),
        ),
        warnings=(f"{key.origin}→{key.destination} {key.date}: 查询失败",),
    )


def _refused(key: LegKey, origin: Station, destination: Station, exc: Overloaded) -> TicketResult:
    """A leg our own queue refused: no offers, and the reason is ours, not the sources'."""
    return TicketResult(
        query=QueryEcho(origin=origin, destination=destination, date=key.date),
        freshness="unavailable",
        sources=(
            SourceReport(
                name="query-service", status="overloaded", freshness="unavailable", error=exc.code
            ),
        ),
        warnings=(exc.message,),
    )


async def fetch_legs(
    tickets: TicketSearch,
    directory: StationDirectory,
    keys: Iterable[LegKey],
    refused: list[Overloaded] | None = None,
) -> dict[LegKey, TicketResult]:
    """Results for every key (queried city-wide, every train type; the engine filters).

    A leg refused by admission control is kept as `overloaded` and its refusal appended to
    `refused`, so the caller can refuse the whole plan when that leg was needed.
    """
    wanted = list(dict.fromkeys(keys))

    async def one(key: LegKey) -> TicketResult:
        origin = _city_station(directory, key.origin)
        destination = _city_station(directory, key.destination)
        query = TicketQuery(origin=origin.telecode, destination=destination.telecode, date=key.date)
        try:
            return await tickets.search(query, origin, destination)
        except Overloaded as exc:
            if refused is not None:
                refused.append(exc)
            return _refused(key, origin, destination, exc)
        except Exception as exc:  # one broken leg must not sink the others
            log.warning(
                "leg query failed",
                extra={
                    "leg": f"{key.origin}-{key.destination}",
                    "date": str(key.date),
                    "error": repr(exc),
                },
            )
            return _failed(key, origin, destination, exc)

    results = await asyncio.gather(*(one(key) for key in wanted))
    return dict(zip(wanted, results, strict=True))


def merge_sources(results: Iterable[TicketResult]) -> list[SourceReport]:
    """One report per source over many queries: its worst status and freshness."""
    order = {"realtime": 0, "cached": 1, "unavailable": 2}
    merged: dict[str, SourceReport] = {}
    for result in results:
        for report in result.sources:
            seen = merged.get(report.name)
            if seen is None:
                merged[report.name] = report
                continue
            status = seen.status if seen.status != "ok" else report.status
            freshness = max(seen.freshness, report.freshness, key=order.__getitem__)
            latency = max(
                (v for v in (seen.latency_ms, report.latency_ms) if v is not None), default=None
            )
            merged[report.name] = seen.model_copy(
                update={
                    "status": status,
                    "freshness": freshness,
                    "latency_ms": latency,
                    "error": seen.error or report.error,
                    "offers": seen.offers + report.offers,
                }
            )
    return list(merged.values())


def today_start(day: dt.date) -> dt.datetime:
    """Midnight of `day` in Asia/Shanghai."""
    from sources.models import SHANGHAI

    return dt.datetime.combine(day, dt.time(0, 0), tzinfo=SHANGHAI)
