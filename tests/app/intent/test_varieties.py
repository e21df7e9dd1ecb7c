"""Traditional characters and written Cantonese, read as the simplified Mandarin the parser
knows: the words first, then whole requests through the offline parser."""

from __future__ import annotations

import datetime as dt

import opencc
import pytest

from app.intent.offline import parse_offline
from app.intent.varieties import FRAGILE_NAMES, as_mandarin, simplified
from sources.models import SeatClass
from sources.stations import StationDirectory, curated_directory, default_directory

TODAY = dt.date(2026, 12, 8)  # a Tuesday


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return curated_directory()


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("下週三從臺北來的朋友", "下周三从台北来的朋友"),
        ("禮拜日搭動車", "礼拜日坐动车"),
        ("硬臥下鋪兩張", "硬卧下铺两张"),
    ],
)
def test_traditional_characters_are_read_as_simplified(typed: str, read: str) -> None:
    assert as_mandarin(typed) == read


@pytest.mark.parametrize(
    "text",
    ["从乾县去西安", "乾安到长春的车", "于是周五去", "下周去看乾陵", "著名景点一日游"],
)
def test_a_simplified_sentence_is_left_as_it_is(text: str) -> None:
    assert simplified(text) == text


def test_a_station_name_survives_a_traditional_sentence() -> None:
    assert simplified("從乾縣去西安，禮拜六") == "从乾县去西安，礼拜六"


def test_every_station_name_the_converter_would_spoil_is_protected() -> None:
    directory = default_directory()
    convert = opencc.OpenCC("t2s").convert
    spoilt = {n for n in {*directory.names(), *directory.cities()} if convert(n) != n}
    assert spoilt == set(FRAGILE_NAMES)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("仲有冇下铺", "还有没有下铺"),
        ("冇位就算", "没有位就算"),
        ("唔要夜车", "不要夜车"),
        ("唔好超过三百蚊", "不要超过三百元"),
        ("我哋两个", "我们两个"),
        ("喺杭州东上车", "在杭州东上车"),
        ("边班车快啲", "哪班车快点"),
        ("朝早出发，下昼到", "早上出发，下午到"),
        ("返屋企", "回家"),
        ("听日", "明天"),
        ("后日夜晚", "后天晚上"),
        ("仲有个孙仔一齐去", "还有个孙子一起去"),
        ("带埋个细路", "带埋个小孩"),
        ("广州而家冻唔冻", "广州现在冷不冷"),
    ],
)
def test_cantonese_words_are_read_as_mandarin(typed: str, read: str) -> None:
    assert as_mandarin(typed) == read


@pytest.mark.parametrize("text", ["唔，那就周五吧", "往返票", "搭配一下", "边上那个站", "蚊子多"])
def test_mandarin_that_looks_cantonese_is_left_alone(text: str) -> None:
    assert as_mandarin(text) == text


def test_a_request_in_traditional_characters_is_the_same_trip(directory: StationDirectory) -> None:
    said = parse_offline("下禮拜四從廣州南搭高鐵去廈門北，兩個大人，唔要一等座", TODAY, directory)
    plain = parse_offline("下礼拜四从广州南坐高铁去厦门北，两个大人，不要一等座", TODAY, directory)
    assert said == plain
    assert (said.origin, said.destination, said.date_start) == (
        "广州南",
        "厦门北",
        dt.date(2026, 12, 17),
    )
    assert said.passengers == 2


def test_a_cantonese_request_keeps_its_day_party_and_seat(directory: StationDirectory) -> None:
    intent = parse_offline("听日朝早我哋三个喺深圳北去潮汕，仲有冇二等座", TODAY, directory)
    assert intent.date_start == dt.date(2026, 12, 9)
    assert (intent.origin, intent.destination) == ("深圳北", "潮汕")
    assert intent.passengers == 3
    assert intent.seat_class == SeatClass.SECOND


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("from West Kowloon to 深圳北", "从香港西九龙 to 深圳北"),
        ("back to hk on Sunday", "周日回香港"),
        ("Sun back to SH", "周日 回SH"),
        ("Macau 去珠海", "澳门 去珠海"),
        ("TMR 上午", "明天 上午"),
    ],
)
def test_places_and_days_in_english_shorthand_are_read(typed: str, read: str) -> None:
    assert as_mandarin(typed) == read


@pytest.mark.parametrize("text", ["hkust 的同学", "THK 车次", "tmrx"])
def test_english_shorthand_inside_a_longer_word_is_left_alone(text: str) -> None:
    assert as_mandarin(text) == text


def test_a_request_from_west_kowloon_in_english_boards_there(directory: StationDirectory) -> None:
    intent = parse_offline("tmr from West Kowloon to 广州南, 两个人", TODAY, directory)
    assert (intent.origin, intent.destination) == ("香港西九龙", "广州南")
    assert intent.date_start == dt.date(2026, 12, 9)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("3 adults and two kids", "3个大人 and 2个小孩"),
        ("4 ppl", "4个人"),
        ("before 9am", "上午9点前"),
        ("after 1:30pm", "下午1点30分以后"),
        ("arrive by 7pm", "晚上7点前到"),
        ("one-way, window seat", "单程, 靠窗"),
        ("next tuesday", "下周二"),
        ("back on Sunday night", "周日 晚上回来"),
        ("and back the next day", "第二天回来"),
    ],
)
def test_the_english_phrases_of_a_request_are_read_as_chinese(typed: str, read: str) -> None:
    assert as_mandarin(typed) == read


@pytest.mark.parametrize(
    ("text", "check"),
    [
        ("from Nanjing to Suzhou next Monday, 2 adults 1 kid, after 3pm", "party_and_hour"),
        ("Wuhan to Changsha on Friday, return on Sunday evening, no overnight", "return"),
    ],
)
def test_a_request_in_english_keeps_its_party_hours_and_return(
    directory: StationDirectory, text: str, check: str
) -> None:
    intent = parse_offline(text, TODAY, directory)
    if check == "party_and_hour":
        assert (intent.origin, intent.destination) == ("南京", "苏州")
        assert intent.date_start == dt.date(2026, 12, 14)
        assert intent.passengers == 3 and len(intent.children) == 1
        assert intent.depart_window is not None and intent.depart_window.start == dt.time(15)
    else:
        assert (intent.date_start, intent.date_end) == (
            dt.date(2026, 12, 11),
            dt.date(2026, 12, 13),
        )
        assert intent.return_window is not None and intent.return_window.start == dt.time(18)
        assert intent.no_overnight is True


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("I go 无锡 from 南京", "I 去无锡 从南京"),
        ("heading to 苏州 after lunch", "去苏州 午饭后"),
        ("no night train, daytime please", "不要过夜的车, 白天 please"),
    ],
)
def test_english_route_words_and_times_around_chinese_places_are_read(
    typed: str, read: str
) -> None:
    assert as_mandarin(typed) == read


def test_a_count_typed_in_pinyin_beside_chinese_is_the_party(directory: StationDirectory) -> None:
    assert parse_offline("后天 广州南到长沙南 3ren 二等座", TODAY, directory).passengers == 3


def test_a_sentence_all_in_pinyin_keeps_its_count_for_the_pinyin_reading() -> None:
    assert as_mandarin("cd dao cq 2ge ren") == "cd dao cq 2ge ren"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("sorry not Friday, Saturday", "sorry 不是周五，是周六"),
        ("not next Mon but next Tue", "不是下周一，是下周二"),
        ("come back same day", "当天回来"),
    ],
)
def test_an_english_correction_and_a_same_day_return_are_read(typed: str, read: str) -> None:
    assert as_mandarin(typed) == read
