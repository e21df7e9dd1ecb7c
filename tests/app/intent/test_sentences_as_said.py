"""Single sentences as travellers say them (issue 22): the week said on a Sunday, parties
counted in groups, refusals and their reach, orders, and the words around a refund."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.dates import extract_dates
from app.intent.model import TravelIntent
from app.intent.offline import parse_offline
from sources.models import SeatClass
from sources.stations import StationDirectory, default_directory

D = dt.date
SUNDAY = D(2027, 1, 3)
THURSDAY = D(2026, 12, 10)


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return default_directory()


def parse(text: str, directory: StationDirectory, today: dt.date = THURSDAY) -> TravelIntent:
    return parse_offline(text, today, directory)


# -- the week said on a Sunday ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("这周五", D(2027, 1, 8)),
        ("本周三", D(2027, 1, 6)),
        ("这周一", D(2027, 1, 4)),
        ("这个周六", D(2027, 1, 9)),
        ("这周日", D(2027, 1, 3)),  # today itself: the Sunday the week ends on
        ("下周五", D(2027, 1, 8)),  # the same Friday, as travellers say it on a Sunday
    ],
)
def test_on_a_sunday_this_weeks_day_is_the_coming_one(text: str, day: dt.date) -> None:
    assert extract_dates(text, SUNDAY).start == day


@pytest.mark.parametrize(
    ("today", "text", "day"),
    [
        (D(2026, 12, 10), "这周二", D(2026, 12, 8)),  # a Thursday: Tuesday is past, said so
        (D(2026, 12, 12), "这周五", D(2026, 12, 11)),  # a Saturday: yesterday
        (D(2026, 12, 10), "这周六", D(2026, 12, 12)),
    ],
)
def test_on_other_days_this_weeks_day_stays_in_this_week(
    today: dt.date, text: str, day: dt.date
) -> None:
    assert extract_dates(text, today).start == day


def test_a_return_said_with_this_week_counts_from_the_outbound() -> None:
    facts = extract_dates("这周三去，这周五回", SUNDAY)
    assert (facts.start, facts.end) == (D(2027, 1, 6), D(2027, 1, 8))


# -- parties counted in groups ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        ("元旦从杭州去上海，两个老人两个大人加一个8岁的孩子", 5, [8]),
        ("明天从南京去合肥，三个老人一个大人", 4, []),
        ("后天从广州去深圳，两个大人和两个孩子，孩子一个5岁一个9岁", 4, [5, 9]),
        ("下周六带老人孩子从合肥去黄山", 3, [None]),
        ("我带两个老人明天从天津去北京", 3, []),
        ("明天我跟两个同事从福州去厦门", 3, []),
    ],
)
def test_a_party_counted_in_groups(
    text: str, passengers: int, children: list[int | None], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("儿子还差俩月满六岁，我们一家三口周一从长沙南去广州南", 5),
        ("女儿快6岁了，我和老婆带她明天从北京去天津", 5),
        ("孩子不到七岁，我带他明天从成都去重庆", 6),
        ("孩子刚满六岁，我带他明天从成都去重庆", 6),
        ("孩子14了，我和老公带他明天从北京去天津", 14),
        ("闺女今年九，我带她后天从杭州去宁波", 9),
    ],
)
def test_a_childs_age_as_parents_say_it(text: str, age: int, directory: StationDirectory) -> None:
    assert parse(text, directory).children == [age]


def test_tickets_counted_in_english_keep_their_class(directory: StationDirectory) -> None:
    intent = parse("I need 3 second class tickets from Hangzhou to Ningbo tomorrow", directory)
    assert (intent.passengers, intent.seat_class) == (3, SeatClass.SECOND)


# -- refusals and how far they reach ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("明天上海虹桥到北京南，无座的不要", [SeatClass.NO_SEAT]),
        ("周六西安到成都，商务座太贵了不要", [SeatClass.BUSINESS]),
        ("周四从武汉去长沙 别买无坐", [SeatClass.NO_SEAT]),
        ("后天杭州到南京，硬座的票不要", [SeatClass.HARD_SEAT]),
        ("明天北京到济南，不要无座和硬座", [SeatClass.HARD_SEAT, SeatClass.NO_SEAT]),
    ],
)
def test_refusals_in_their_everyday_forms(
    text: str, excluded: list[SeatClass], directory: StationDirectory
) -> None:
    assert parse(text, directory).exclude_seat_classes == excluded


@pytest.mark.parametrize(
    "text",
    [
        "我爸妈七十多了 哈尔滨到北京 别坐夜车 一等座 下周四",
        "下周四哈尔滨到北京，不要过夜，一等座",
        "明天北京到上海 不想太早 一等座",
    ],
)
def test_a_refusal_does_not_reach_a_wish_said_after_it(
    text: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert intent.exclude_seat_classes == []
    assert intent.seat_class == SeatClass.FIRST


def test_a_refusals_verb_asks_for_nothing(directory: StationDirectory) -> None:
    intent = parse("下周一从成都去重庆，别给我安排动车", directory)
    assert (intent.kind, intent.exclude_train_types) == ("query_tickets", ["D"])


# -- orders ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("明天南京南到北京南第一班车是几点", "earliest"),
        ("后天成都到重庆最后一班", "latest"),
        ("周五武汉到长沙最后一趟还有票吗", "latest"),
        ("明天深圳去广州头一班", "earliest"),
    ],
)
def test_first_and_last_train_words(text: str, order: str, directory: StationDirectory) -> None:
    assert parse(text, directory).order == order


# -- refunds, changes and the trip beside them -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "topic"),
    [("票能退吗", "refund"), ("帮我改个签，改到下午", "change"), ("买了的票可以退吗", "refund")],
)
def test_a_refund_or_change_alone_is_declined(
    text: str, topic: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.kind, intent.out_of_scope_topics) == ("out_of_scope", [topic])


def test_the_day_of_a_refunded_ticket_is_not_the_trips(directory: StationDirectory) -> None:
    intent = parse("我想退了今天的票，改买明天广州到深圳的", directory)
    assert intent.date_start == THURSDAY + dt.timedelta(days=1)


def test_a_ticket_asked_after_a_refund_is_kept(directory: StationDirectory) -> None:
    intent = parse("退票之后再帮我看看后天北京到济南的", directory)
    assert (intent.kind, intent.origin, intent.destination) == ("query_tickets", "北京", "济南")


# -- places named twice, passed through, numbers no train has ------------------------------


def test_a_place_named_again_without_a_cue_is_no_second_stop(
    directory: StationDirectory,
) -> None:
    intent = parse("周六去西安玩两天，郑州出发，顺便查下西安天气", directory)
    assert (intent.destination, intent.via, intent.days) == ("西安", [], 2)


def test_passing_through_is_no_night(directory: StationDirectory) -> None:
    intent = parse("后天从广州出发经长沙到武汉", directory)
    assert [(v.city, v.nights, v.through) for v in intent.via] == [("长沙", 0, True)]


def test_a_long_number_with_a_train_letter_is_named_invalid(directory: StationDirectory) -> None:
    intent = parse("后天G1234567次上海到南京", directory)
    assert (intent.invalid_train_numbers, intent.train_numbers) == (["G1234567"], [])
