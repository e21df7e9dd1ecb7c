"""Hours a traveller's work sets: a meeting said by the part of the day begins in office
hours (上午开会: there by nine), a meeting before a later ride is where the ride starts (no
deadline), a day spent in meetings is no window, and a night shift ends in the morning."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

WEDNESDAY = dt.date(2026, 12, 9)


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


def span(window: object) -> str | None:
    return None if window is None else window.span()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "arrive"),
    [
        ("后天上午在济南有个会，从青岛过去", "00:00-09:00"),
        ("周五下午要在无锡见客户，苏州出发", "00:00-14:00"),
    ],
)
def test_a_meeting_said_by_its_part_of_the_day_begins_in_office_hours(
    official: StationDirectory, text: str, arrive: str
) -> None:
    assert span(parse_offline(text, WEDNESDAY, official).arrive_window) == arrive


def test_a_meeting_before_a_later_ride_is_where_the_ride_starts(
    official: StationDirectory,
) -> None:
    intent = parse_offline("周四上午开会，下午从天津回北京", WEDNESDAY, official)
    assert (intent.origin, intent.destination) == ("天津", "北京")
    assert span(intent.depart_window) == "12:00-18:00"
    assert intent.arrive_window is None


def test_a_day_of_meetings_is_no_window(official: StationDirectory) -> None:
    intent = parse_offline("周四晚上到厦门，周五白天开会，周五晚上回福州", WEDNESDAY, official)
    assert intent.depart_window is None
    assert span(intent.return_window) == "18:00-23:59"


@pytest.mark.parametrize(
    ("text", "leave"),
    [
        ("周六早上七点半下夜班，下了班从昆山回南通", "07:30-23:59"),
        ("后天下了夜班从佛山去广州，八点下班", "08:30-23:59"),  # half an hour to the train
    ],
)
def test_a_night_shift_ends_in_the_morning(
    official: StationDirectory, text: str, leave: str
) -> None:
    assert span(parse_offline(text, WEDNESDAY, official).depart_window) == leave


def test_a_day_shift_still_ends_in_the_evening(official: StationDirectory) -> None:
    intent = parse_offline("周六六点下班，下了班从昆山回南通", WEDNESDAY, official)
    assert span(intent.depart_window) == "18:30-23:59"  # half an hour to reach the train


@pytest.mark.parametrize(
    ("text", "round_trip"),
    [
        ("部门十个人下周四从广州去佛山 来回", True),
        ("买两张来回的，周六南京到镇江", True),
        ("来回都坐高铁，周五上海去南京", True),
        ("周六从南京去镇江，来回要两个小时吗", None),
    ],
)
def test_laihui_is_a_trip_there_and_back(
    official: StationDirectory, text: str, round_trip: bool | None
) -> None:
    assert parse_offline(text, WEDNESDAY, official).return_trip is round_trip


def test_a_morning_slept_through_is_no_window_and_no_ride_home(official: StationDirectory) -> None:
    text = "周五早上七点下夜班 回家睡到中午 下午从长沙去株洲 晚上八点前到就行"
    intent = parse_offline(text, WEDNESDAY, official)
    assert span(intent.arrive_window) == "00:00-20:00"
    assert intent.return_trip is None and intent.date_end is None


def test_a_type_refused_before_a_pause_leaves_the_one_wished_after_it(
    official: StationDirectory,
) -> None:
    intent = parse_offline("明天从沈阳去大连 动车太贵了俺不坐 整个绿皮车就中", WEDNESDAY, official)
    assert intent.exclude_train_types == ["D"]
    assert set(intent.train_types) == {"Z", "T", "K"}


def test_an_early_start_spared_is_not_before_eight(official: StationDirectory) -> None:
    intent = parse_offline("给我妈买张周六南京去扬州的票，别让她赶早", WEDNESDAY, official)
    assert span(intent.depart_window) == "08:00-23:59"


@pytest.mark.parametrize(
    "text", ["周五从苏州去杭州，回来那天是周日", "周五从苏州去杭州，返程定在周日"]
)
def test_the_day_home_said_as_such_is_the_return(official: StationDirectory, text: str) -> None:
    intent = parse_offline(text, WEDNESDAY, official)
    assert (intent.date_start, intent.date_end) == (dt.date(2026, 12, 11), dt.date(2026, 12, 13))


@pytest.mark.parametrize(
    ("text", "leave"),
    [
        ("周五北京南到天津，两点左右走的就行", "13:00-15:00"),
        ("周五北京南到天津，凌晨两点左右走", "01:00-03:00"),
    ],
)
def test_an_hour_around_one_to_five_with_no_part_said_is_the_afternoons(
    official: StationDirectory, text: str, leave: str
) -> None:
    assert span(parse_offline(text, WEDNESDAY, official).depart_window) == leave


@pytest.mark.parametrize(
    ("text", "arrive"),
    [
        # A meeting by its name (评审会, 董事会) is an appointment as 开会 is.
        ("23号下午一点在贵阳开评审会 从昆明当天过去 别太早 八点以后的车", "00:00-13:00"),
        ("23号下午两点的董事会在上海，杭州过去", "00:00-14:00"),
        # A train that may be late is no meeting.
        ("23号三点的火车会晚点吗，杭州到上海", None),
    ],
)
def test_a_meeting_by_its_name_is_an_appointment(
    official: StationDirectory, text: str, arrive: str | None
) -> None:
    today = dt.date(2026, 12, 20)
    assert span(parse_offline(text, today, official).arrive_window) == arrive


def test_the_night_train_said_after_the_meeting_day_leaves_the_day_before(
    official: StationDirectory,
) -> None:
    # 周三下了班…坐软卧过去: the ride's words a dozen characters after its day.
    text = "周四上午十点在北京开会，想周三下了班从上海坐软卧过去，睡一觉到正好"
    intent = parse_offline(text, dt.date(2026, 12, 13), official)
    assert intent.date_start == dt.date(2026, 12, 16)
    assert span(intent.arrive_window) == "00:00-10:00"


def test_a_span_with_the_rides_verb_after_a_meeting_is_the_rides(
    official: StationDirectory,
) -> None:
    text = "后天我要从重庆到成都开会，早上八点到九点之间走的车有没得嘛"
    intent = parse_offline(text, dt.date(2026, 12, 7), official)
    assert span(intent.depart_window) == "08:00-09:00" and intent.arrive_window is None
    # The meeting's own span said after it stays the meeting's: there by its start.
    later = parse_offline("后天去合肥开会，下午三点到五点", dt.date(2026, 12, 7), official)
    assert span(later.arrive_window) == "00:00-15:00"
