"""A traveller correcting themself inside one sentence ("X，不对，Y"): Y replaces X of the
same kind (a day, a count of people, an hour, a place); the rest of the sentence stands."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.corrections import self_corrected
from app.intent.offline import parse_offline
from sources.stations import StationDirectory, curated_directory

TODAY = dt.date(2026, 12, 9)  # a Wednesday


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return curated_directory()


def test_the_day_said_after_the_marker_is_the_day(directory: StationDirectory) -> None:
    intent = parse_offline("下周三，啊不，下周四晚上从南京去合肥", TODAY, directory)
    assert intent.date_start == dt.date(2026, 12, 17)
    assert (intent.origin, intent.destination) == ("南京", "合肥")
    assert intent.depart_window is not None and intent.depart_window.label == "晚上"


def test_the_count_said_after_the_marker_is_the_party(directory: StationDirectory) -> None:
    intent = parse_offline("后天咱们三个，噢不，两个人从长沙去武汉", TODAY, directory)
    assert intent.passengers == 2
    assert intent.date_start == dt.date(2026, 12, 11)
    assert (intent.origin, intent.destination) == ("长沙", "武汉")


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("周五从杭州，不对，从宁波去上海", "宁波", "上海"),
        ("周五从济南去天津，不是，北京", "济南", "北京"),
    ],
)
def test_the_place_said_after_the_marker_is_the_place(
    directory: StationDirectory, text: str, origin: str, destination: str
) -> None:
    intent = parse_offline(text, TODAY, directory)
    assert (intent.origin, intent.destination) == (origin, destination)
    assert intent.date_start == dt.date(2026, 12, 11)


def test_a_marker_not_set_apart_or_opening_the_turn_is_left_alone() -> None:
    assert self_corrected("是周六不是周五，从上海去杭州") == "是周六不是周五，从上海去杭州"
    assert self_corrected("不对，是去蒙自") == "不对，是去蒙自"
    assert self_corrected("明天上午8点，不对，9点以后出发") == "明天上午9点以后出发"
