"""A train taken after a flight lands: the airport (or the city it lands in) is where the
train leaves from, the day said of the flight is the day of the ride, and the hour it lands
and the way to the train (half an hour to the airport's station, an hour more to the city's)
are the earliest the train can leave. A flight taken after the train stays a ride told, not
asked for."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

MONDAY = dt.date(2026, 12, 7)


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "origin", "destination", "day", "after"),
    [
        (
            "后天晚上七点左右航班降落在广州白云，落地后坐高铁去珠海",
            "广州白云",
            "珠海",
            9,
            dt.time(20, 30),
        ),
        (
            "周四上午十点下飞机，然后从大兴机场坐火车去雄安",
            "大兴机场",
            "雄安",
            10,
            dt.time(10, 30),
        ),
        ("明天飞到长沙，下午两点能出来，想直接坐高铁去岳阳", "长沙", "岳阳", 8, dt.time(14)),
    ],
)
def test_the_train_after_a_landing_leaves_from_where_the_flight_lands(
    official: StationDirectory,
    text: str,
    origin: str,
    destination: str,
    day: int,
    after: dt.time,
) -> None:
    intent = parse_offline(text, MONDAY, official)
    assert (intent.origin, intent.destination) == (origin, destination)
    assert intent.via == []
    assert intent.date_start == dt.date(2026, 12, day)
    assert intent.depart_window is not None
    assert intent.depart_window.start == after
    assert not intent.missing


def test_a_flight_after_the_train_is_still_a_ride_told(official: StationDirectory) -> None:
    intent = parse_offline("周五从南宁坐动车去北海，到了再转飞机去海口", MONDAY, official)
    assert (intent.origin, intent.destination) == ("南宁", "北海")
