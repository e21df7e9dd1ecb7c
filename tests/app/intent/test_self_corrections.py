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
        # Where one is, put right (在, 住): the origin.
        ("我在洛阳，不对，郑州，周五去天津", "郑州", "天津"),
        ("我住在洛阳，啊不，郑州，周五去天津", "郑州", "天津"),
        # …and in English, the places in pinyin.
        ("I'm in Luoyang, no wait, Zhengzhou, going to Tianjin on Friday", "郑州", "天津"),
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


@pytest.mark.parametrize(
    ("text", "corrected"),
    [
        ("周二从宁波去杭州开会，哦不对是周三，下午到", "周三从宁波去杭州开会，下午到"),
        ("明天从天津去北京，不对不对，是后天", "后天从天津去北京"),
        ("下周一去南京，说错了是下周二早上", "下周二去南京，早上"),
        ("周四从合肥去武汉，应该是周五，晚上走", "周五从合肥去武汉，晚上走"),
        ("咱们三个人从西安去成都，啊不对是两个人", "咱们两个人从西安去成都"),
    ],
)
def test_a_correction_replaces_the_one_value_of_its_kind_said_earlier(
    text: str, corrected: str
) -> None:
    assert self_corrected(text) == corrected


def test_a_correction_without_negation_needs_the_value_said_alone() -> None:
    # 周四出发，应该是周五到: the day of arrival, not a day taken back
    assert self_corrected("周四出发去广州，应该是周五到") == "周四出发去广州，应该是周五到"


def test_a_day_corrected_is_never_read_as_a_place() -> None:
    assert self_corrected("周一去周三回，不对是周二") == "周一去周三回，不对是周二"


def test_the_corrected_day_is_the_trip_day(directory: StationDirectory) -> None:
    intent = parse_offline("周四从无锡去南京拜访客户，哦不对是周五，中午前到", TODAY, directory)
    assert intent.date_start == dt.date(2026, 12, 11)
    assert (intent.origin, intent.destination) == ("无锡", "南京")


def test_a_value_denied_then_the_one_meant_is_the_one_meant(directory: StationDirectory) -> None:
    """不是X，是Y: the denial comes first, so Y is meant, in a turn of its own or after X."""
    assert self_corrected("不是明天，是下周二") == "下周二"
    assert self_corrected("不是三个人而是两个人") == "两个人"
    assert self_corrected("明天去杭州，不是明天是后天") == "后天去杭州"
    assert self_corrected("不是明天是两个人") == "不是明天是两个人"  # two kinds: no correction
    intent = parse_offline("不是周四，应该是周五从南京去合肥", TODAY, directory)
    assert intent.date_start == dt.date(2026, 12, 11)


@pytest.mark.parametrize(
    ("text", "corrected"),
    [
        # the value changed may be the one its reason is about, said in a clause of its own
        ("周三从苏州去上海，周三要加班，改成周四吧", "周四从苏州去上海"),
        ("明天那天走不开，换到后天吧", "后天那天走不开"),
        ("四个人去厦门，改为三个人", "三个人去厦门"),
        ("后天早上7点走，改到9点", "后天早上9点走"),
    ],
)
def test_a_value_changed_to_another_of_its_kind_is_the_one_meant(text: str, corrected: str) -> None:
    assert self_corrected(text) == corrected


def test_a_change_with_nothing_of_its_kind_before_it_is_left_to_the_chat() -> None:
    assert self_corrected("改成周六") == "改成周六"
    assert self_corrected("周五去南京，改成三个人") == "周五去南京，改成三个人"


def test_the_changed_day_is_the_trip_day(directory: StationDirectory) -> None:
    intent = parse_offline(
        "下周一去青岛，哦不对下周一要值班，改下周三吧，济南出发", TODAY, directory
    )
    assert intent.date_start == dt.date(2026, 12, 16)
    assert (intent.origin, intent.destination) == ("济南", "青岛")


def test_a_denial_with_an_admitted_slip_between_is_still_a_correction() -> None:
    assert self_corrected("不是后天，我记错了，是大后天") == "大后天"
    assert self_corrected("周五去无锡，不是周五，搞错了，是周六") == "周六去无锡"


@pytest.mark.parametrize(
    ("text", "corrected"),
    [
        # the marker opening the change goes with it: the rest of the trip is not a place
        ("周五从杭州回合肥，啊不对，周五还得值班，换到周六吧，晚上走", "周六从杭州回合肥，晚上走"),
        ("明天去西安，哦不对，明天有事，改成后天，坐动车", "后天去西安，坐动车"),
    ],
)
def test_a_marker_before_a_change_goes_with_the_change(text: str, corrected: str) -> None:
    assert self_corrected(text) == corrected


def test_tickets_counted_are_corrected_as_people(directory: StationDirectory) -> None:
    assert self_corrected("买四张后天的票，哦不对是五张，从郑州去西安") == (
        "买五张后天的票，从郑州去西安"
    )
    intent = parse_offline("订两张周五杭州到上海的票，啊不对是三张，要下午的车", TODAY, directory)
    assert (intent.origin, intent.destination) == ("杭州", "上海")
    assert intent.passengers == 3
    assert intent.date_start == dt.date(2026, 12, 11)


@pytest.mark.parametrize(
    ("text", "corrected"),
    [
        ("周日想从杭州去黄山…算了黄山太冷了，还是去厦门吧", "周日想从杭州去厦门吧"),
        ("明天从上海去苏州，算了人太多，那就去无锡", "明天从上海去无锡"),
        ("去不了就算了，还是去北京", "去不了就算了，还是去北京"),
    ],
)
def test_a_place_given_up_gives_way_to_the_one_gone_to_instead(text: str, corrected: str) -> None:
    assert self_corrected(text) == corrected
