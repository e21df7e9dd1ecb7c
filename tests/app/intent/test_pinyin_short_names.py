"""Typed in pinyin: a station by its short name (dao hongqiao, qu fengtai), and an hour read
in the part of the day said before the pinyin route (xiawu … 两点以后: 14:00)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

WEDNESDAY = dt.date(2026, 12, 9)


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("houtian cong hongqiao dao hangzhoudong", "上海虹桥", "杭州东"),
        ("mingtian cong tianjin qu fengtai", "天津", "北京丰台"),
    ],
)
def test_a_station_spelt_by_its_short_name_is_that_station(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    intent = parse_offline(text, WEDNESDAY, official)
    assert (intent.origin, intent.destination) == (origin, destination)


def test_a_city_spelt_whole_keeps_its_own_name(official: StationDirectory) -> None:
    intent = parse_offline("mingtian cong nanjing qu shanghai", WEDNESDAY, official)
    assert (intent.origin, intent.destination) == ("南京", "上海")


def test_an_hour_after_a_pinyin_route_is_read_in_the_part_of_the_day_said(
    official: StationDirectory,
) -> None:
    intent = parse_offline(
        "mingtian wanshang cong wuxidong dao shanghaihongqiao，8点以后的", WEDNESDAY, official
    )
    assert intent.depart_window is not None
    assert intent.depart_window.start == dt.time(20, 0)
