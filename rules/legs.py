"""Which city-to-city queries a trip needs: its direct legs and the legs of a transfer."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence

from rules.model import LegKey, TripRequest
from sources.models import TrainOffer

MAJOR_HUBS: tuple[str, ...] = (
    "北京",
    "上海",
    "南京",
    "郑州",
    "武汉",
    "西安",
    "济南",
    "杭州",
    "长沙",
    "广州",
    "成都",
    "重庆",
    "兰州",
    "沈阳",
)
"""Cities worth trying as a transfer when no direct train fits (the big high-speed junctions)."""


def stay_nights(request: TripRequest) -> int | None:
    """Nights at the final destination, or None for a one-way trip (no datable return)."""
    if not request.return_trip:
        return None
    if request.return_date is not None:
        onward = request.depart_date + dt.timedelta(days=sum(s.nights for s in request.via))
        return (request.return_date - onward).days
    return request.nights


MAX_ARRIVAL_LAG = 2
"""Days after it leaves that a ride into a stay may arrive (乌鲁木齐→拉萨 takes two nights)."""


def stay_follow_legs(
    request: TripRequest, offers: Mapping[LegKey, Sequence[TrainOffer]]
) -> list[LegKey]:
    """The rides home a stay counted from arrival (`TripRequest.stay_from_arrival`) needs
    beyond `required_legs`: one day later for each day after the ride there leaves that an
    offer into the stay arrives (西宁 15:03 → 拉萨 next day 12:30: 住三晚 goes home a day
    later). `offers` are the legs fetched so far, hubs' included."""
    if not request.stay_from_arrival or stay_nights(request) is None:
        return []
    return _later_by_arrival(required_legs(request), offers)


def via_follow_legs(
    request: TripRequest, offers: Mapping[LegKey, Sequence[TrainOffer]]
) -> list[LegKey]:
    """The onward rides a night train into a stop on the way calls for: 路上在北京住一晚
    after 哈尔滨 21:33 → 北京 07:30 is the night after it arrives, so the ride on leaves a
    day later than the dated one (`rules.budget` pairs each ride in with the ride on its
    nights after). Only for the last stop of a one-way trip, whose ride on ends the trip:
    earlier stops would move every later leg too."""
    if not request.via or stay_nights(request) is not None:
        return []
    stop = request.via[-1]
    if not stop.said or stop.nights < 1:
        return []
    return _later_by_arrival(required_legs(request), offers)


def _later_by_arrival(
    keys: Sequence[LegKey], offers: Mapping[LegKey, Sequence[TrainOffer]]
) -> list[LegKey]:
    """The last leg of `keys` again one day later for each day after the leg before it is
    dated that an offer into its destination (hubs' included) arrives."""
    into, last = keys[-2], keys[-1]
    lags = {
        lag
        for key, found in offers.items()
        if key.destination == into.destination and key.date >= into.date
        for offer in found
        if 0 < (lag := (offer.arrive_at.date() - into.date).days) <= MAX_ARRIVAL_LAG
    }
    return [
        LegKey(last.origin, last.destination, last.date + dt.timedelta(days=lag))
        for lag in sorted(lags)
    ]


def required_legs(request: TripRequest) -> list[LegKey]:
    """The direct legs of the trip in order: outbound, via chain, then the return if dated."""
    cities = [request.origin, *(stop.city for stop in request.via), request.destination]
    nights_after = [stop.nights for stop in request.via]
    legs: list[LegKey] = []
    day = request.depart_date
    for index, (origin, destination) in enumerate(zip(cities, cities[1:], strict=False)):
        if index:
            day += dt.timedelta(days=nights_after[index - 1])
        legs.append(LegKey(origin, destination, day))
    nights = stay_nights(request)
    if nights is not None:
        legs.append(LegKey(request.destination, request.origin, day + dt.timedelta(days=nights)))
    return legs


def transfer_legs(leg: LegKey, hubs: Sequence[str]) -> list[LegKey]:
    """For each hub H other than the leg's ends: A→H and H→B on the leg's date (the next
    day's H→B is asked only after, where a first half arrives late: `overnight_follow_legs`).
    """
    keys: list[LegKey] = []
    seen: set[str] = set()
    for hub in hubs:
        if hub in (leg.origin, leg.destination) or hub in seen:
            continue
        seen.add(hub)
        keys.append(LegKey(leg.origin, hub, leg.date))
        keys.append(LegKey(hub, leg.destination, leg.date))
    return keys


TWO_CHANGE_DAYS = 5
"""A two-change route's later halves are asked on the day and the next four: long journeys
(漠河→丽江) run overnight more than once, and where no connection is regular a stop at a
hub may add a day (喀什→三亚 reaches 广州 on the third day and leaves it on the fourth)."""


def two_change_query_legs(
    leg: LegKey, pairs: Sequence[tuple[str, str]], days: int = TWO_CHANGE_DAYS
) -> list[LegKey]:
    """For each hub pair (H1, H2): A→H1 on the day, H1→H2 and H2→B on that day and the next
    `days - 1` (with `days=1` the later days follow the rides' arrivals: `chain_follow_legs`)."""
    keys: list[LegKey] = []
    for first, second in pairs:
        keys.append(LegKey(leg.origin, first, leg.date))
        for offset in range(days):
            day = leg.date + dt.timedelta(days=offset)
            keys.append(LegKey(first, second, day))
            keys.append(LegKey(second, leg.destination, day))
    return list(dict.fromkeys(keys))


def two_change_legs(
    leg: LegKey, book: Iterable[LegKey]
) -> list[tuple[str, str, tuple[tuple[dt.date, ...], tuple[dt.date, ...]]]]:
    """Hub pairs (H1, H2) the book holds all three halves of, with the middle and last days."""
    keys = set(book)
    days = [leg.date + dt.timedelta(days=offset) for offset in range(TWO_CHANGE_DAYS)]
    firsts = sorted(
        k.destination
        for k in keys
        if k.origin == leg.origin and k.date == leg.date and k.destination != leg.destination
    )
    found = []
    for first in firsts:
        seconds = sorted(
            {
                k.destination
                for k in keys
                if k.origin == first
                and k.date in days
                and k.destination not in (leg.origin, leg.destination)
            }
        )
        for second in seconds:
            middle = tuple(d for d in days if LegKey(first, second, d) in keys)
            last = tuple(d for d in days if LegKey(second, leg.destination, d) in keys)
            if middle and last:
                found.append((first, second, (middle, last)))
    return found
