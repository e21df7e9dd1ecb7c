"""Optional capabilities of a ticket source beyond `search`, and the data they return.

A source that can list a train's stops implements `StopListSource.stops`; one that can run
the railway's own transfer search implements `TransferSource.transfers`. Callers check with
`isinstance(adapter, StopListSource)` (the protocols are runtime-checkable), so a source
without the capability is simply not asked.
"""

from __future__ import annotations

import datetime as dt
from typing import Protocol, runtime_checkable

from pydantic import AwareDatetime, Field

from sources.models import Frozen, Station, TicketQuery, TrainOffer


class StopCall(Frozen):
    """One stop of a train: `arrive_at` is None at its origin, `depart_at` at its terminus."""

    number: int = Field(ge=1)
    name: str
    station: Station | None = None  # None when the station is not in the directory
    arrive_at: AwareDatetime | None = None
    depart_at: AwareDatetime | None = None
    stopover_min: int | None = Field(default=None, ge=0)


class StopList(Frozen):
    """A train's stops on one date, as a source reported them at `fetched_at`."""

    train_number: str
    train_no: str = ""
    date: dt.date  # the date the train leaves its origin
    stops: tuple[StopCall, ...]
    sources: tuple[str, ...] = ()
    fetched_at: AwareDatetime

    def between(self, origin: str | None, destination: str | None) -> tuple[StopCall, ...]:
        """The stops from the one named or coded `origin` to `destination` (both included)."""
        first, last = 0, len(self.stops) - 1
        if origin:
            first = self.index_of(origin)
        if destination:
            last = self.index_of(destination)
        return self.stops[first : last + 1]

    def index_of(self, place: str) -> int:
        """Position of a stop given by name, telecode or city; ValueError when not a stop."""
        for i, stop in enumerate(self.stops):
            if place in (stop.name, *_codes(stop)):
                return i
        raise ValueError(f"{place} is not a stop of {self.train_number}")


def _codes(stop: StopCall) -> tuple[str, ...]:
    return (stop.station.telecode, stop.station.city) if stop.station else ()


class TransferOffer(Frozen):
    """One plan of the railway's transfer search: two rides and the change between them."""

    first: TrainOffer
    second: TrainOffer
    middle_station: Station  # where the traveller alights from the first train
    same_station: bool  # the second train leaves from the same station
    wait_min: int = Field(ge=0)


@runtime_checkable
class StopListSource(Protocol):
    name: str

    async def stops(self, train_number: str, date: dt.date) -> StopList: ...


@runtime_checkable
class TransferSource(Protocol):
    name: str

    async def transfers(self, query: TicketQuery, pages: int = ...) -> list[TransferOffer]: ...
