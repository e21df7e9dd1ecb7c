"""Place typos by sound and shape (issue 22 item 1): pypinyin readings folded by the sounds
travellers confuse, a homophone of a major city first, rapidfuzz for the nearest reading."""

from __future__ import annotations

import pytest

from sources.stations import default_directory
from sources.stations.matching import fuzzy_sound, readings


def test_readings_try_every_reading_of_a_character() -> None:
    assert "chongqin" in readings("重亲") and "zhongqin" in readings("重亲")
    assert readings("北京") == ["beijing"]
    assert readings("G1") == []  # not all Chinese: no reading


def test_confusable_sounds_fold_together() -> None:
    assert fuzzy_sound("chongqing") == fuzzy_sound("chongqin")
    assert fuzzy_sound("shenzhen") == fuzzy_sound("shenzheng")
    assert fuzzy_sound("wuhan") != fuzzy_sound("wuxi")


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("无憾", "武汉"),  # a homophone sharing no character: difflib never found it
        ("郑洲", "郑州"),
        ("重亲", "重庆"),
        ("深证", "深圳"),
        ("西按", "西安"),
        ("哈尔宾", "哈尔滨"),
        ("乌鲁木其", "乌鲁木齐"),
    ],
)
def test_a_homophone_of_a_city_is_the_first_suggestion(typed: str, meant: str) -> None:
    directory = default_directory()
    assert directory.suggest(typed, limit=3)[0] == meant
    assert directory.sound_alike(typed)[0] == meant


def test_only_a_homophone_keeping_a_character_is_taken_without_asking() -> None:
    directory = default_directory()
    assert directory.heard_as("郑洲") == "郑州"
    assert directory.heard_as("无憾") is None  # asked: 您是指武汉吗？
    # Where a route names a place (从无憾), a major city's homophone is taken and said back;
    # a lesser city's is still asked (吴希: 无锡).
    assert directory.heard_as("无憾", routed=True) == "武汉"
    assert directory.heard_as("吴希", routed=True) is None
    assert directory.heard_as("武汉") is None  # a known name is no typo
    # 去南站: a south station, not 南昌 by its sound, even where a route names it.
    assert directory.heard_as("南站", routed=True) is None
    for word in ("明天", "出发", "上午", "学生", "周六", "老家"):
        assert directory.heard_as(word) is None, word


def test_shape_suggestions_still_work_for_a_wrong_character() -> None:
    directory = default_directory()
    assert directory.suggest("北惊", limit=1) == ["北京"]
    assert directory.suggest("shanghia", limit=1) == ["上海"]


def test_a_town_named_without_its_stations_direction() -> None:
    directory = default_directory()
    assert directory.resolve("大冶").name == "大冶北"  # its only station
    assert [s.name for s in directory.directed("河口")] == ["河口南", "河口北"]
    assert set(directory.suggest("河口", limit=2)) == {"河口北", "河口南"}
    assert directory.directed("北京") == []  # a name of its own


def test_a_town_and_its_old_town_station_are_one_place() -> None:
    # 平遥古城 (the EMU line's station) and 平遥 (the conventional line's): one town, both
    # stations, whichever name is said, so a slow train to the town is never "relaxed" away.
    directory = default_directory()
    for said in ("平遥", "平遥古城"):
        place = directory.resolve(said)
        assert place.name == "平遥"
        assert {s.name for s in place.stations} == {"平遥", "平遥古城"}
    assert [s.name for s in directory.resolve("凤凰古城").stations] == ["凤凰古城"]  # no 凤凰


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("晨阳", "沈阳"),  # chenyang: one letter off shenyang, 阳 kept
        ("太圆", "太原"),
        ("济男", "济南"),
    ],
)
def test_a_capital_one_sound_off_comes_before_a_small_homophone(typed: str, meant: str) -> None:
    directory = default_directory()
    assert directory.capital_one_sound_off(typed) == meant
    assert directory.suggest(typed, limit=3)[0] == meant
    # Where a route names it (从晨阳, 去济男), it is taken and said back.
    assert directory.heard_as(typed, routed=True) == meant


def test_no_capital_is_heard_in_an_everyday_word_or_a_known_name() -> None:
    directory = default_directory()
    assert directory.capital_one_sound_off("上班") is None
    assert directory.capital_one_sound_off("南京") is None
    assert directory.capital_one_sound_off("汉阳") is None
    # Another rhyme is another word, asked about: 北就 (jiu) is no 北京 (jing).
    assert directory.capital_one_sound_off("北就") is None


def test_the_second_place_of_a_named_route_is_taken_by_its_exact_sound() -> None:
    directory = default_directory()
    # After 成都到, 一彬 can only be a place: 宜宾, the one city read yibin, though no
    # character is kept; 大里 keeps one of 大理's, a station's two characters.
    assert directory.heard_as("一彬", paired=True) == "宜宾"
    assert directory.heard_as("一彬", routed=True) is None
    assert directory.heard_as("五隆", paired=True) == "武隆"
    # Only the usual readings, read exactly: 义诊 yizhen is no 仪征 yizheng.
    assert directory.heard_as("义诊", paired=True) is None
    assert directory.heard_as("宜宾", paired=True) is None  # a known name is no typo
