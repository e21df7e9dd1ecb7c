"""Where the traveller will be (在X开完会, 我在X) and the place gone back to (回Y): a one-way
ride home from X, not a round trip from Y; home said again after a trip out stays home."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

TODAY = dt.date(2026, 12, 8)  # a Tuesday


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "origin", "destination", "day"),
    [
        ("后天在上海办完事回杭州", "上海", "杭州", dt.date(2026, 12, 10)),
        ("周四在郑州出差结束就回西安，最早的车", "郑州", "西安", dt.date(2026, 12, 10)),
        ("后天我在杭州开会，开完回上海", "杭州", "上海", dt.date(2026, 12, 10)),
        ("下周一人在武汉，办完事回长沙", "武汉", "长沙", dt.date(2026, 12, 14)),
        # the place one is at said with 这边/这儿
        ("苏州这边厂里放假了，下周一回阜阳", "苏州", "阜阳", dt.date(2026, 12, 14)),
        ("广州这儿的活干完了 后天回湛江", "广州", "湛江", dt.date(2026, 12, 10)),
    ],
)
def test_going_home_from_where_one_is_is_one_ride(official, text, origin, destination, day):
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination, intent.date_start) == (origin, destination, day)
    assert not intent.return_trip and intent.date_end is None


def test_the_hour_of_going_home_is_the_rides_own(official) -> None:
    intent = parse_offline("周五在南京出差结束，晚上回合肥", TODAY, official)
    assert (intent.origin, intent.destination) == ("南京", "合肥")
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(18)
    assert intent.return_window is None and not intent.return_trip


@pytest.mark.parametrize(
    "text", ["我在北京，周五去上海，周日回北京", "周五在北京开会，然后去上海，周日回北京"]
)
def test_home_said_before_a_trip_out_and_back_is_the_origin(official, text) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination) == ("北京", "上海")
    assert intent.return_trip and intent.via == []


def test_a_business_trip_out_still_comes_back_the_same_day(official) -> None:
    intent = parse_offline("明天去天津开完会回北京", TODAY, official)
    assert (intent.origin, intent.destination) == ("北京", "天津")
    assert intent.return_trip and intent.date_end == dt.date(2026, 12, 9)


def test_a_stay_at_home_first_is_a_stop_of_its_own(official) -> None:
    # 先在广州玩一天: the day at the origin is a stay there, not home said in passing.
    intent = parse_offline(
        "周六从广州出发，先在广州玩一天，周日再去佛山", dt.date(2026, 12, 9), official
    )
    assert [(v.city, v.nights) for v in intent.via] == [("广州", 1)]
    assert intent.destination == "佛山"


@pytest.mark.parametrize(
    "text",
    [
        "周三去合肥开会，住一晚，周四下班后从合肥回南京",
        "周三到合肥培训，周四晚上再从合肥回南京",
    ],
)
def test_the_ride_home_from_the_place_gone_to_makes_home_the_origin(
    official: StationDirectory, text: str
) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination) == ("南京", "合肥")
    assert intent.return_trip is True and intent.via == []
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 9), dt.date(2026, 12, 10))
    assert intent.return_window is not None and intent.depart_window is None


def test_the_one_day_said_with_going_home_from_a_place_is_the_ride_out(
    official: StationDirectory,
) -> None:
    intent = parse_offline("元旦回老家，31号从苏州回阜阳", TODAY, official)
    assert (intent.origin, intent.destination) == ("苏州", "阜阳")
    assert intent.date_start == dt.date(2026, 12, 31) and intent.return_trip is not True
