"""Stays per city and the Chinese day-by-day timeline of an itinerary."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from rules import texts
from rules.config import MAX_CONNECTION
from rules.model import DayPlan, Leg, Stay, Transfer
from sources.models import SHANGHAI

QUICK_STOP = 60
"""Minutes in a city below which no free time is announced (a same-day pass-through)."""


def transfers_of(legs: Sequence[Leg]) -> list[Transfer]:
    """The changes of train inside each segment, in order."""
    found = []
    for before, after in zip(legs, legs[1:], strict=False):
        if before.segment != after.segment:
            continue
        found.append(
            Transfer(
                station=before.destination_station,
                to_station=after.origin_station,
                minutes=int((after.depart_at - before.arrive_at).total_seconds() // 60),
                same_station=before.destination_station.telecode == after.origin_station.telecode,
            )
        )
    return found


def hub_stop(before: Leg, after: Leg, max_connection: int = MAX_CONNECTION) -> bool:
    """True when the change from `before` to `after` is a stop at the hub city, longer than
    any regular connection (`HUB_STOP_MAX_WAIT`): time in the city, so a stay."""
    wait = after.depart_at - before.arrive_at
    return before.segment == after.segment and wait > dt.timedelta(minutes=max_connection)


def hub_night(before: Leg, after: Leg, max_connection: int = MAX_CONNECTION) -> bool:
    """True when a stop at the hub (`hub_stop`) spans a night: the next train leaves on a
    later day, so the traveller sleeps in the city (a hotel night)."""
    later_day = (
        after.depart_at.astimezone(SHANGHAI).date() > before.arrive_at.astimezone(SHANGHAI).date()
    )
    return later_day and hub_stop(before, after, max_connection)


def stays_of(
    legs: Sequence[Leg], returns_home: bool, max_connection: int = MAX_CONNECTION
) -> list[Stay]:
    """Each city between two segments (arrive → leave), each stop at a hub, and the final
    city on a one-way trip."""
    stays = []
    for before, after in zip(legs, legs[1:], strict=False):
        if before.segment != after.segment or hub_stop(before, after, max_connection):
            stays.append(
                Stay(
                    city=before.destination_station.city,
                    arrive_at=before.arrive_at,
                    leave_at=after.depart_at,
                )
            )
    if legs and not returns_home:
        stays.append(Stay(city=legs[-1].destination_station.city, arrive_at=legs[-1].arrive_at))
    return stays


def sleeper_nights(legs: Sequence[Leg]) -> int:
    """Nights spent in a berth: each replaces a hotel night."""
    return sum(
        1
        for leg in legs
        if leg.seat_class.is_sleeper and leg.arrive_at.date() > leg.depart_at.date()
    )


def hotel_nights(stays: Sequence[Stay]) -> int:
    """Nights in a hotel: those between arriving in and leaving a city."""
    return sum(
        (stay.leave_at.date() - stay.arrive_at.date()).days
        for stay in stays
        if stay.leave_at is not None
    )


def _free_time(arrive: dt.datetime, city: str) -> str:
    if arrive.hour < 11:
        template = texts.DAY_FREE_FROM_MORNING
    elif arrive.hour < 17:
        template = texts.DAY_FREE_FROM_AFTERNOON
    elif arrive.hour < 21:
        template = texts.DAY_FREE_EVENING
    else:
        template = texts.DAY_REST
    return template.format(city=city)


def build_days(
    legs: Sequence[Leg],
    stays: Sequence[Stay],
    return_segment: int | None,
    max_connection: int = MAX_CONNECTION,
) -> tuple[DayPlan, ...]:
    """Day by day, in Chinese: travel, arrival and free time, whole free days, departure."""
    if not legs:
        return ()
    entries: list[tuple[dt.datetime, int, str]] = []

    def put(moment: dt.datetime, text: str) -> None:
        entries.append((moment, len(entries), text))

    def day_start(day: dt.date) -> dt.datetime:
        return dt.datetime.combine(day, dt.time(0), SHANGHAI)

    for index, leg in enumerate(legs):
        fields = {
            "depart": texts.clock(leg.depart_at),
            "arrive": texts.clock(leg.arrive_at),
            "origin": leg.origin_station.name,
            "destination": leg.destination_station.name,
            "train": leg.train_number,
            "home": legs[-1].destination_station.city,
        }
        starts_return = leg.segment == return_segment and (
            index == 0 or legs[index - 1].segment != leg.segment
        )
        if leg.arrive_at.date() == leg.depart_at.date():
            template = texts.DAY_RETURN if starts_return else texts.DAY_DEPART_ARRIVE
            put(leg.depart_at, template.format(**fields))
        else:
            sleeper = leg.seat_class.is_sleeper
            template = texts.DAY_DEPART_SLEEPER if sleeper else texts.DAY_DEPART_NIGHT
            put(leg.depart_at, template.format(**fields))
            put(leg.arrive_at, texts.DAY_ARRIVE.format(**fields))
    for before, after in zip(legs, legs[1:], strict=False):
        if before.segment != after.segment:
            continue
        same = before.destination_station.telecode == after.origin_station.telecode
        template = texts.DAY_TRANSFER_SAME if same else texts.DAY_TRANSFER_CROSS
        if hub_night(before, after, max_connection):
            template = texts.DAY_TRANSFER_NIGHT
        minutes = int((after.depart_at - before.arrive_at).total_seconds() // 60)
        text = template.format(
            station=before.destination_station.name,
            to_station=after.origin_station.name,
            minutes=minutes,
            city=before.destination_station.city,
            depart=texts.clock(after.depart_at),
            train=after.train_number,
        )
        # A second after the arrival so the change sorts between arriving and leaving.
        put(before.arrive_at + dt.timedelta(seconds=1), text)
    for stay in stays:
        _stay_entries(stay, put, day_start)
    last = max(
        [legs[-1].arrive_at.date()] + [s.leave_at.date() for s in stays if s.leave_at is not None]
    )
    entries.sort()
    days = []
    day = legs[0].depart_at.date()
    while day <= last:
        items = tuple(text for moment, _, text in entries if moment.date() == day)
        days.append(DayPlan(date=day, items=items))
        day += dt.timedelta(days=1)
    return tuple(days)


def _stay_entries(
    stay: Stay,
    put: Callable[[dt.datetime, str], None],
    day_start: Callable[[dt.date], dt.datetime],
) -> None:
    arrive, leave, city = stay.arrive_at, stay.leave_at, stay.city
    if leave is None or leave - arrive >= dt.timedelta(minutes=QUICK_STOP):
        put(arrive + dt.timedelta(seconds=2), _free_time(arrive, city))
    if leave is None:
        return
    day = arrive.date() + dt.timedelta(days=1)
    while day < leave.date():
        put(day_start(day), texts.DAY_FULL.format(city=city))
        day += dt.timedelta(days=1)
    if leave.date() > arrive.date():
        if leave.hour >= 17:
            put(day_start(leave.date()), texts.DAY_BEFORE_EVENING_LEAVE.format(city=city))
        elif leave.hour >= 12:
            put(day_start(leave.date()), texts.DAY_BEFORE_NOON_LEAVE.format(city=city))
