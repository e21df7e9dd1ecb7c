"""The reply text of a plan says when a change is a night at the hub and on which day a long
ride arrives (the clock alone would read as the same day)."""

from __future__ import annotations

import datetime as dt

from app.agent.summary import plan_summary
from rules import TripRequest, plan
from sources.models import SeatClass
from tests.rules.factory import (
    BEIJING_WEST,
    DAY,
    NOW,
    XIAN_NORTH,
    book,
    night_at_nanjing,
    offer,
    seat,
)

NEXT_DAY = DAY + dt.timedelta(days=1)


def test_a_night_at_the_hub_is_said_before_the_next_days_train() -> None:
    request, entries = night_at_nanjing()
    best = plan(request, entries, now=NOW).best
    assert best is not None
    text = plan_summary(request, best, [])
    assert "G7 北京南 17:00→南京南 20:30" in text
    assert "在南京住一晚，次日换乘 G7001 南京南 08:00→上海虹桥 09:10" in text


def test_a_ride_of_two_nights_arrives_on_the_third_day() -> None:
    berths = (seat(SeatClass.HARD_SLEEPER, 400.0),)
    long_ride = offer("Z41", BEIJING_WEST, XIAN_NORTH, "10:00", "09:00", seats=berths)
    two_nights = long_ride.model_copy(
        update={"arrive_at": long_ride.arrive_at + dt.timedelta(days=1)}
    )
    request = TripRequest(origin="北京", destination="西安", depart_date=DAY, return_trip=False)
    best = plan(request, book(two_nights), now=NOW).best
    assert best is not None
    assert "Z41 北京西 10:00→西安北 第3日09:00" in plan_summary(request, best, [])


def test_the_header_names_the_station_the_traveller_named_not_its_official_city():
    from app.agent.summary import header

    day = dt.date(2026, 12, 3)
    to_yiwu = TripRequest(
        origin="杭州",
        destination="金华",
        destination_station="义乌",  # 金华's in the official list, a town of its own
        depart_date=day,
        return_trip=False,
    )
    assert header(to_yiwu) == "杭州→义乌 · 12月3日"
    city = to_yiwu.model_copy(update={"destination_station": None})
    assert header(city) == "杭州→金华 · 12月3日"
