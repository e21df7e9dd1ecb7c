"""What the ticket query service answers: offers plus where and when they came from."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from sources.models import Frozen, Station, TrainOffer

Freshness = Literal["realtime", "cached", "unavailable"]
SourceStatus = Literal["ok", "error", "timeout", "rate_limited", "circuit_open"]


class SourceReport(Frozen):
    """How one source fared for one query."""

    name: str
    status: SourceStatus
    freshness: Freshness
    latency_ms: int | None = None
    error: str | None = None
    offers: int = 0


class QueryEcho(Frozen):
    """The query as understood: resolved stations (city-wide, as 12306 queries are)."""

    origin: Station
    destination: Station
    date: dt.date
    train_types: tuple[str, ...] = ()


class TicketResult(Frozen):
    """One answer of the query service (`GET /v1/tickets` body)."""

    query: QueryEcho
    freshness: Freshness
    as_of: dt.datetime | None = None
    age_s: float | None = Field(default=None, ge=0)
    sources: tuple[SourceReport, ...] = ()
    offers: tuple[TrainOffer, ...] = ()
    warnings: tuple[str, ...] = ()
