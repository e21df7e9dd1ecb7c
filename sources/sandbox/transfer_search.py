"""The sandbox's answer to 12306's transfer search: two rides joined at a middle station.

Written only against the `Timetable` interface (`calling_at`, `rides`, `directory`), so any
network behind it (the generated corridors, or a real timetable) plugs in. Pure: no clock.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sources.sandbox.timetable import Ride, Timetable

MIN_CHANGE_SAME_STATION = dt.timedelta(minutes=15)
MIN_CHANGE_ACROSS_CITY = dt.timedelta(minutes=60)
MAX_WAIT = dt.timedelta(hours=6)
MAX_PLANS = 40


@dataclass(frozen=True)
class TransferPlan:
    first: Ride
    second: Ride

    @property
    def wait(self) -> dt.timedelta:
        return self.second.depart_at - self.first.arrive_at

    @property
    def same_station(self) -> bool:
        return self.first.alight.station.telecode == self.second.board.station.telecode


def transfer_plans(
    timetable: Timetable, from_code: str, to_code: str, date: dt.date, limit: int = MAX_PLANS
) -> list[TransferPlan]:
    """Plans leaving `from_code`'s city on `date` for `to_code`'s city with one change,
    earliest arrival first; a city with a direct train still gets its transfer plans."""
    directory = timetable.directory
    origin, destination = directory.get(from_code), directory.get(to_code)
    if origin is None or destination is None or origin.city == destination.city:
        return []
    ends = {origin.city, destination.city}
    firsts: dict[str, list[Ride]] = {}
    for start in (date - dt.timedelta(days=1), date):
        for train in timetable.calling_at(origin.city, start):
            for i, board in enumerate(train.stops):
                if board.station.city != origin.city or board.depart.date() != date:
                    continue
                # A train renumbered en route (G6330/G6331) is sold under the number it
                # carries where it is boarded, as the left-ticket query names it.
                boarded = train
                if train.run.code_at(i) != train.code:
                    boarded = timetable.train(train.run.code_at(i), start) or train
                for alight in boarded.stops[i + 1 :]:
                    if alight.station.city not in ends:
                        ride = Ride(train=boarded, board=boarded.stop(i), alight=alight)
                        firsts.setdefault(alight.station.city, []).append(ride)
    plans: list[TransferPlan] = []
    for city, rides in firsts.items():
        in_city = directory.in_city(city)
        if not in_city:
            continue  # a city the directory does not list (a timetable built on another one)
        middle = in_city[0].telecode
        onward: list[Ride] = []
        for day in sorted({r.arrive_at.date() for r in rides}):
            onward += timetable.rides(middle, to_code, day)
        for first in rides:
            best = _best_second(first, onward)
            if best is not None:
                plans.append(TransferPlan(first, best))
    plans.sort(key=lambda p: (p.second.arrive_at, p.first.depart_at, p.first.train.code))
    return plans[:limit]


def _best_second(first: Ride, onward: list[Ride]) -> Ride | None:
    catchable = [
        r
        for r in onward
        if r.train.code != first.train.code
        and _min_change(first, r) <= r.depart_at - first.arrive_at <= MAX_WAIT
    ]
    return min(catchable, key=lambda r: r.arrive_at, default=None)


def _min_change(first: Ride, second: Ride) -> dt.timedelta:
    same = first.alight.station.telecode == second.board.station.telecode
    return MIN_CHANGE_SAME_STATION if same else MIN_CHANGE_ACROSS_CITY
