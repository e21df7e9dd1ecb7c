"""Words typed as travellers type them: time words in pinyin a syllable at a time, a refusal
said for the whole party, a weekday of a week counted ahead."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import normalise_text, parse_offline
from sources.models import SeatClass
from sources.stations import StationDirectory, curated_directory

TODAY = dt.date(2026, 12, 9)  # a Wednesday


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return curated_directory()


@pytest.mark.parametrize(
    ("text", "day", "window"),
    [
        ("xia zhou er cong hangzhou qu nanjing, zao shang chu fa", dt.date(2026, 12, 15), "早上"),
        ("zhe zhou liu cong jinan qu qingdao", dt.date(2026, 12, 12), None),
        ("xingqiwu cong jinan qu qingdao wan shang", dt.date(2026, 12, 11), "晚上"),
        ("hou tian cong chengdu qu chongqing", dt.date(2026, 12, 11), None),
    ],
)
def test_pinyin_time_words_typed_a_syllable_at_a_time_are_read(
    text: str, day: dt.date, window: str | None, directory: StationDirectory
) -> None:
    intent = parse_offline(text, TODAY, directory)
    assert intent.origin is not None and intent.destination is not None
    assert intent.date_start == day
    assert (intent.depart_window.label if intent.depart_window else None) == window


@pytest.mark.parametrize(
    "text",
    [
        "明天西安回洛阳，别给我们买无座",
        "明天西安回洛阳，不要给我们买无座",
        "明天西安回洛阳，别给爸妈买无座",
    ],
)
def test_a_refusal_said_for_the_party_is_a_refusal(text: str, directory: StationDirectory) -> None:
    intent = parse_offline(text, TODAY, directory)
    assert intent.exclude_seat_classes == [SeatClass.NO_SEAT] and intent.seat_class is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("两周后的周一从南昌去贵阳", dt.date(2026, 12, 21)),
        ("一个星期后的礼拜六从南昌去贵阳", dt.date(2026, 12, 19)),
        ("两周后从南昌去贵阳", dt.date(2026, 12, 23)),
    ],
)
def test_a_weekday_of_a_week_counted_ahead_is_that_weeks(
    text: str, day: dt.date, directory: StationDirectory
) -> None:
    assert parse_offline(text, TODAY, directory).date_start == day


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("wanshang cong suzhou qu hangzhou", TODAY),
        ("下午从无锡去常州", TODAY),
        ("凌晨从无锡去常州", None),  # the night to come as often: asked
        ("从无锡去常州 晚上回来", None),  # a part of the day of the ride back only
        ("下午去常州", None),  # no whole trip
    ],
)
def test_a_part_of_the_day_to_leave_with_no_day_is_today(
    text: str, day: dt.date | None, directory: StationDirectory
) -> None:
    assert parse_offline(text, TODAY, directory).date_start == day


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("fancheng xingqiliu xiawu", "返程星期六下午"),
        ("hui cheng zhou ri zao shang", "回程周日早上"),
        ("go to beijing on friday", "go to beijing on 周五"),  # English, no pinyin: its day read
        ("houtian", "houtian"),  # one word alone may be a name's syllables
        ("4ge ren", "4个人"),  # a count alone, said back to a plan
        ("wan dian de", "晚点的"),
        ("zuizao nage", "zuizao nage"),  # words not all known: left as typed
        # A turn's own words (改成, 也订, 6点以后, 2人), read as one clause.
        ("gaicheng xingqisan ba", "改成星期三吧"),
        ("fancheng ye ding yixia, xingqiwu xiawu 3dian yihou", "返程也订一下, 星期五下午3点以后"),
        ("3ren", "3人"),
    ],
)
def test_a_turn_typed_in_pinyin_alone_has_its_time_words_read(text: str, read: str) -> None:
    assert normalise_text(text) == read


def test_wishes_and_the_party_typed_in_pinyin_alone_change_the_trip_in_a_chat(chat) -> None:
    intent = chat("mingtian cong guangzhou dao xiamen", "pianyi dian", "2ge ren").intent
    assert (intent.origin, intent.destination) == ("广州", "厦门")
    assert intent.order == "cheapest" and intent.passengers == 2


def test_the_train_kind_seat_and_order_typed_in_pinyin_are_read(
    directory: StationDirectory,
) -> None:
    intent = parse_offline(
        "houtian cong jinan qu qingdao, dongche, erdengzuo, zui wan de na ban", TODAY, directory
    )
    assert (intent.origin, intent.destination) == ("济南", "青岛")
    assert intent.train_types == ["D"] and intent.order == "latest"
    assert intent.seat_class is SeatClass.SECOND or SeatClass.SECOND in intent.seat_classes


def test_a_return_typed_in_pinyin_in_a_chat_adds_the_ride_home(chat) -> None:
    # conftest's today is a Monday (2026-11-30): 下周五 is 12-11, its Sunday 12-13
    intent = chat("下周五从广州去厦门", "fan cheng zhou ri xia wu").intent
    assert intent.date_start == dt.date(2026, 12, 11)
    assert intent.date_end == dt.date(2026, 12, 13)
    assert intent.return_window is not None and intent.return_window.label == "下午"


@pytest.mark.parametrize(
    ("text", "types"),
    [("明天南京到上海 坐搞铁", ["G"]), ("明天南京到上海 要动彻", ["D"])],
)
def test_a_train_word_typed_by_its_sound_is_the_word(directory, text, types) -> None:
    assert parse_offline(text, TODAY, directory).train_types == types


@pytest.mark.parametrize("text", ["明天南京到上海 高兴", "明天南京到上海 打车去车站"])
def test_words_near_a_train_words_sound_stay_words(text) -> None:
    assert normalise_text(text) == text
