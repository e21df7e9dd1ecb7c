"""What the ticket query service answers: offers plus where and when they came from."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, PrivateAttr, field_validator

from app.observability.redaction import redact
from sources.models import FareKind, Freshness, Frozen, Station, TicketQuery, TrainOffer
from sources.stations import Place, StationDirectory

SourceStatus = Literal["ok", "error", "timeout", "rate_limited", "circuit_open", "overloaded"]


class SourceReport(Frozen):
    """How one source fared for one query."""

    name: str
    status: SourceStatus
    freshness: Freshness
    latency_ms: int | None = None
    error: str | None = None
    offers: int = 0

    @field_validator("error")
    @classmethod
    def _masked(cls, value: str | None) -> str | None:
        # Every source's error text reaches clients through here: no key in it.
        return redact(value) if value else value


class QueryEcho(Frozen):
    """The query as understood: resolved stations (city-wide, as 12306 queries are)."""

    origin: Station
    destination: Station
    date: dt.date
    train_types: tuple[str, ...] = ()
    fare: FareKind = FareKind.ADULT  # whose fares were asked for (each offer says its own)


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


@dataclass(frozen=True, slots=True)
class ResolvedQuery:
    """A ticket query as resolved from what the caller named, carried whole from the face to
    the query service and back: the city-wide `query` the sources answer (as 12306 answers a
    pair of telecodes), and the places asked for (a city, a town, or one station), which say
    the stations echoed and the offers kept (北京南 keeps only rides at 北京南)."""

    query: TicketQuery
    origin: Place
    destination: Place

    @classmethod
    def between_cities(
        cls, directory: StationDirectory, origin: str, destination: str, date: dt.date
    ) -> ResolvedQuery:
        """City to city (the agent's legs): every station of both cities, every train type."""
        start, end = directory.city(origin), directory.city(destination)
        query = TicketQuery(origin=start.telecode, destination=end.telecode, date=date)
        return cls(query, start, end)

    @property
    def origin_station(self) -> Station:
        """The station echoed for the origin: the one queried with, else the place's first."""
        return _echo_station(self.origin)

    @property
    def destination_station(self) -> Station:
        return _echo_station(self.destination)

    def keep(self, offers: tuple[TrainOffer, ...]) -> tuple[TrainOffer, ...] | None:
        """The offers at the asked stations, or None when both ends are whole cities (all)."""
        if self.origin.is_city and self.destination.is_city:
            return None
        wanted_from = {s.telecode for s in self.origin.stations}
        wanted_to = {s.telecode for s in self.destination.stations}
        return tuple(
            offer
            for offer in offers
            if offer.origin_station.telecode in wanted_from
            and offer.destination_station.telecode in wanted_to
        )


def _echo_station(place: Place) -> Station:
    return next((s for s in place.stations if s.telecode == place.telecode), place.stations[0])
