"""What the ticket query service answers: offers plus where and when they came from."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, PrivateAttr

from sources.models import Freshness, Frozen, Station, TrainOffer

SourceStatus = Literal["ok", "error", "timeout", "rate_limited", "circuit_open", "overloaded"]


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
    # The offers already serialised (a cache entry's, shared by every hit on it). Dropped by
    # `with_offers`, so a filtered copy can never splice the unfiltered bytes.
    _offers_json: bytes | None = PrivateAttr(default=None)

    def with_offers(self, offers: tuple[TrainOffer, ...]) -> TicketResult:
        """A copy with other offers (e.g. filtered to one station)."""
        copy = self.model_copy(update={"offers": offers})
        copy._offers_json = None
        return copy

    def to_json(self) -> bytes:
        """The response body; on a cache hit the offers' bytes are reused, not re-encoded."""
        if self._offers_json is None:
            return self.model_dump_json().encode()
        head = self.model_dump_json(exclude={"offers"}).encode()
        return head[:-1] + b',"offers":' + self._offers_json + b"}"
