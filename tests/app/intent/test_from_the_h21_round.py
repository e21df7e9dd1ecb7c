"""What the h21 round's travellers said and the parser had misread: an hour said with 往后,
an hour refused before it, a child's restless night, the station of the ride home said
later, ages listed before one 岁, grandchildren counted, interns at university, a sleeper
class found too dear in northern speech and a whole night in a hard seat refused in
Cantonese."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.models import SeatClass
from sources.stations import StationDirectory, default_directory

THURSDAY = dt.date(2026, 12, 10)


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return default_directory()


def span(window: object) -> str | None:
    return None if window is None else window.span()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "depart", "arrive"),
    [
        # 九点往后走的就中: after nine (not 八点 to 九点).
        (
            "这礼拜六从哈尔滨去沈阳，一早太早了起不来，九点往后走的就中，越便宜越好",
            "09:00-23:59",
            None,
        ),
        # Before seven refused, after seven wished: one window, from seven.
        ("明天西安去宝鸡，七点以前的我根本赶不上，七点往后最早的", "07:00-23:59", None),
        ("明天西安去宝鸡，八点前的赶不上", "08:00-23:59", None),
        ("明天西安去宝鸡，八点前要到", None, "00:00-08:00"),
        # A child restless at night is why the night train is refused, not the ride's hours.
        ("明天带两岁的儿子从广州去长沙，千万别坐夜车，孩子晚上闹，越早到越好", None, None),
        # The station the ride home ends at, said later: one ride in the evening, there by nine.
        ("下周日晚上从天津回北京，要9点前到北京南", "18:00-23:59", "00:00-21:00"),
    ],
)
def test_hours_as_said(
    directory: StationDirectory, text: str, depart: str | None, arrive: str | None
) -> None:
    intent = parse_offline(text, THURSDAY, directory)
    assert (span(intent.depart_window), span(intent.arrive_window)) == (depart, arrive)
    assert intent.return_trip is not True and intent.return_window is None


def test_the_station_of_the_ride_home_said_later_is_its_end(directory: StationDirectory) -> None:
    intent = parse_offline("下周日晚上从天津回北京，要9点前到北京南", THURSDAY, directory)
    assert (intent.origin, intent.destination) == ("天津", "北京南")


@pytest.mark.parametrize(
    ("text", "passengers", "children", "students"),
    [
        ("周六我一个人带三个娃（14、9、5岁）从哈尔滨回齐齐哈尔", 4, [14, 9, 5], 0),
        (
            "family of 4 - 2 adults + kids aged 8 and 12 - shanghai to huangshan saturday",
            4,
            [8, 12],
            0,
        ),
        ("后天我带两个外孙从苏州去南京", 3, [None, None], 0),
        (
            "这周六爷爷奶奶带俩孙子从杭州去乌镇玩，大孙子上三年级，小的幼儿园大班",
            4,
            [None, None],
            0,
        ),
        ("爷爷奶奶带孙子回老家，北京到石家庄", 3, [None], 0),
        ("我带两个实习生明天从上海去苏州出差，俩实习生还是在校大学生，给他们买学生票", 3, [], 2),
        ("我带两个实习生明天从上海去苏州出差", 3, [], 0),
    ],
)
def test_parties_as_said(
    directory: StationDirectory, text: str, passengers: int, children: list, students: int
) -> None:
    intent = parse_offline(text, THURSDAY, directory)
    assert (intent.passengers, intent.children, intent.students) == (passengers, children, students)


def test_a_class_too_dear_with_a_word_between_is_refused(directory: StationDirectory) -> None:
    intent = parse_offline("沈阳去北京 硬卧就行，软卧那玩意儿太贵了", THURSDAY, directory)
    assert intent.seat_class is SeatClass.HARD_SLEEPER
    assert intent.exclude_seat_classes == [SeatClass.SOFT_SLEEPER]
    assert intent.leisure is False  # 玩意儿 is no play


def test_a_whole_night_in_a_hard_seat_refused_in_cantonese(directory: StationDirectory) -> None:
    intent = parse_offline("北京去哈尔滨 要臥鋪，唔想坐成晚硬座", THURSDAY, directory)
    assert intent.seat_class is not SeatClass.HARD_SEAT
    assert SeatClass.HARD_SEAT in intent.exclude_seat_classes
    assert SeatClass.HARD_SLEEPER in intent.seat_classes


def test_a_night_somewhere_then_on_the_next_day_is_a_stop(directory: StationDirectory) -> None:
    intent = parse_offline(
        "18号从西安出发去成都，想在汉中住一晚逛逛，第二天再走", THURSDAY, directory
    )
    assert (intent.origin, intent.destination) == ("西安", "成都")
    assert [(stop.city, stop.nights) for stop in intent.via] == [("汉中", 1)]


def test_back_the_same_evening_in_english_is_the_ride_homes_hours(
    directory: StationDirectory,
) -> None:
    text = "Urumqi -> Turpan day trip on wednesday, back to urumqi same evening"
    intent = parse_offline(text, THURSDAY, directory)
    assert intent.date_start == intent.date_end == dt.date(2026, 12, 16)
    assert span(intent.return_window) == "18:00-23:59" and intent.depart_window is None
