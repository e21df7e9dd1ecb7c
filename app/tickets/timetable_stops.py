"""Interim stop lists for the `train_stops` tool, read from the sandbox timetable.

Issue 12 adds the source-backed `StopListService` (`state.stop_lists`, 12306's 经停站 through
the guarded adapters) and `GET /v1/trains/{n}/stops`. Until it lands, this answers the same
call with the same field names (`stops(train_number, date)` → `freshness`, `as_of`, `stops`
with `name`, `station`, `arrive_at`, `depart_at`) from the deterministic timetable the sandbox
vendors serve, and `unavailable` when no sandbox source is enabled. On merge, delete this module
and keep issue 12's service; the tool reads only those fields.
"""

from __future__ import annotations

import datetime as dt

from app.errors import NotFound
from app.tickets.model import Freshness
from sources.base import Clock, shanghai_now
from sources.models import Frozen, Station
from sources.sandbox import Timetable


class TimetableStop(Frozen):
    """One stop: `arrive_at` is None at the train's origin, `depart_at` at its terminus."""

    number: int
    name: str
    station: Station | None = None
    arrive_at: dt.datetime | None = None
    depart_at: dt.datetime | None = None


class TimetableStopList(Frozen):
    train_number: str
    date: dt.date
    freshness: Freshness
    as_of: dt.datetime | None = None
    age_s: float | None = None
    stops: tuple[TimetableStop, ...] = ()
    warnings: tuple[str, ...] = ()


class TimetableStopLists:
    """`stops(train, date)` from the sandbox timetable, or `unavailable` without one."""

    def __init__(self, timetable: Timetable | None, clock: Clock = shanghai_now) -> None:
        self._timetable = timetable
        self._clock = clock

    async def stops(self, train_number: str, date: dt.date) -> TimetableStopList:
        """The stops of `train_number` leaving its origin on `date`; NotFound if it does not run."""
        if self._timetable is None:
            return TimetableStopList(train_number=train_number, date=date, freshness="unavailable")
        train = next((t for t in self._timetable.trains(date) if t.code == train_number), None)
        if train is None:
            raise NotFound(f"{date} 没有 {train_number} 次列车。", train_number=train_number)
        last = len(train.stops) - 1
        return TimetableStopList(
            train_number=train_number,
            date=date,
            freshness="realtime",
            as_of=self._clock(),
            age_s=0.0,
            stops=tuple(
                TimetableStop(
                    number=stop.number,
                    name=stop.station.name,
                    station=stop.station,
                    arrive_at=None if i == 0 else stop.arrive,
                    depart_at=None if i == last else stop.depart,
                )
                for i, stop in enumerate(train.stops)
            ),
        )
