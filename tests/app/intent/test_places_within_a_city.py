"""A city said, then a place inside it: one of its stations or towns typed by its sound
(上海红桥), or a town named with its prefecture (孝感汉川) — the town or station is the end of
the trip, and the prefecture no stop of it."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

DAY = dt.date(2026, 12, 8)


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("明天从北京去上海红桥", "上海虹桥"),  # hongqiao, 桥 kept
        ("周六从长沙回湘潭相乡", "湘乡"),  # xiangxiang, a town filed under 湘潭
        ("明天南京去苏州园取", "苏州园区"),
    ],
)
def test_a_station_of_the_city_typed_by_its_sound_is_that_station(
    official: StationDirectory, text: str, destination: str
) -> None:
    intent = parse_offline(text, DAY, official)
    assert intent.destination == destination
    assert intent.via == []


@pytest.mark.parametrize(
    "text", ["下周从上海去杭州西湖玩", "明天从北京去上海玩两天", "后天从广州去深圳福田"]
)
def test_a_word_that_sounds_like_no_station_of_the_city_leaves_the_city(
    official: StationDirectory, text: str
) -> None:
    intent = parse_offline(text, DAY, official)
    assert intent.destination in {"杭州", "上海", "深圳"}


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("周五从武汉回孝感汉川", "武汉", "汉川"),
        ("周日从苏州昆山去上海", "昆山", "上海"),
        ("去桂林阳朔玩三天，明天从南宁走", "南宁", "阳朔"),
    ],
)
def test_a_town_said_after_its_prefecture_is_the_town_and_no_stop(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    intent = parse_offline(text, DAY, official)
    assert (intent.origin, intent.destination) == (origin, destination)
    assert intent.via == []


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("周六从广州回湖南，老家是衡阳祁东的，坐到衡阳东就行", "衡阳东"),
        ("我老家在湛江吴川，下周从深圳坐到湛江西，剩下的我自己坐车", "湛江西"),
    ],
)
def test_home_told_is_no_stop_when_the_ride_is_said_to_end_elsewhere(
    official: StationDirectory, text: str, destination: str
) -> None:
    intent = parse_offline(text, DAY, official)
    assert intent.destination == destination
    assert intent.via == []


def test_home_alone_is_where_the_ride_goes(official: StationDirectory) -> None:
    intent = parse_offline("周五从长沙回老家邵阳", DAY, official)
    assert intent.destination == "邵阳"


@pytest.mark.parametrize(
    ("text", "stop", "nights"),
    [
        ("周一从南京去扬州 周四去镇江 周五回南京", "扬州", 3),
        ("下周二从杭州出发先去绍兴，周三再去宁波，周五回杭州", "绍兴", 1),
    ],
)
def test_a_stop_stays_until_the_day_said_for_the_next_ride(
    official: StationDirectory, text: str, stop: str, nights: int
) -> None:
    intent = parse_offline(text, DAY, official)
    assert [(v.city, v.nights) for v in intent.via] == [(stop, nights)]


@pytest.mark.parametrize(
    ("text", "origin"),
    [("在昆山打工 下周五回安徽阜阳", "昆山"), ("女儿在厦门读书，周六回泉州", "厦门")],
)
def test_where_one_works_or_studies_is_where_the_ride_starts(
    official: StationDirectory, text: str, origin: str
) -> None:
    intent = parse_offline(text, DAY, official)
    assert intent.origin == origin
    assert intent.via == []


def test_the_days_listed_after_a_week_are_the_days_accepted(official: StationDirectory) -> None:
    intent = parse_offline("下周从北京去太原，周二周三周四哪天走都行，挑便宜的", DAY, official)
    assert (intent.date_start, intent.flexible_until) == (
        dt.date(2026, 12, 15),
        dt.date(2026, 12, 17),
    )
    assert intent.days is None
