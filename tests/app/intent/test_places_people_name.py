"""Places as people name them (issue 22): old and literary names of cities, landmarks and
districts inside a city, famous schools, and scenic areas with no station of their own, each
read as the city or the stations travellers take to it."""

from __future__ import annotations

import csv
import datetime as dt
from importlib.resources import files

import pytest

from app.intent.offline import parse_offline
from app.intent.parser import IntentParser
from app.intent.places import (
    NON_STATION_PLACES,
    PLACE_NAMES,
    extract_route,
    school_names,
)
from app.observability.metrics import Metrics
from sources.stations import StationDirectory, default_directory

DAY = dt.date(2026, 12, 8)


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        # Old and literary names of cities.
        ("锦城飞渝州不如坐高铁，后天锦城到渝州", "成都", "重庆"),
        ("下礼拜从明州回会稽看外婆", "宁波", "绍兴"),
        ("想从豫章去庐陵，周五", "南昌", "吉安"),
        ("刺桐出发 到五羊城 后天", "泉州", "广州"),
        ("周日由晋阳往张垣", "太原", "张家口"),
        ("巴陵去雁城的车 下周二", "岳阳", "衡阳"),
        ("甘州到凉州有车吗 明天", "张掖", "武威"),
        ("从维扬回毗陵，大后天", "扬州", "常州"),
        # Former names of renamed cities.
        ("后天从万县去成都", "万州", "成都"),
        ("锦西到沈阳 明早", "葫芦岛", "沈阳"),
        ("淮阴出发去南京 周六", "淮安", "南京"),
        # Landmarks and districts inside a city: the city, never a station named alike.
        ("后天带爸妈从济南去天坛转转", "济南", "北京"),
        ("南京出发，周末逛王府井", "南京", "北京"),
        ("想从合肥去玄武湖边走走 周六", "合肥", "南京"),
        ("周六从上海去漓江坐竹筏", "上海", "桂林"),
        ("去瘦西湖吃早茶，杭州出发，后天", "杭州", "扬州"),
        ("从深圳去南京看紫金山，下周一", "深圳", "南京"),
        ("大后天苏州出发去镇江金山寺", "苏州", "镇江"),
        ("去海南三亚南山寺拜拜 从海口走", "海口", "三亚"),
        ("从郑州去开封清明上河园 后天", "郑州", "开封"),
        ("想去清明上河园 郑州出发", "郑州", "开封"),
        ("周末去白云山爬山 从长沙出发", "长沙", "广州"),
        ("我在张江上班，周五回合肥", "上海", "合肥"),
        ("从三里屯出发去天津 明天下午", "北京", "天津"),
        # A prefecture said for its seat: 呼伦贝尔 is 海拉尔, not the 扎兰屯 300 km off.
        ("下个月初哈尔滨坐卧铺去呼伦贝尔看雪", "哈尔滨", "海拉尔"),
        # Schools by their short names.
        ("复旦放寒假了 下周二回西安", "上海", "西安"),
        ("华科放假了，后天回长沙", "武汉", "长沙"),
        ("下周一从郑大去苏大参加比赛", "郑州", "苏州"),
        ("明天从重大回家，家在贵阳", "重庆", "贵阳"),
        ("后天从西安去孔子故里拜一拜", "西安", "曲阜"),
        ("济南出发去孔林看看 周六", "济南", "曲阜"),
    ],
)
def test_a_place_named_as_people_name_it_is_its_city(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    route = extract_route(text, official)
    assert (route.origin, route.destination) == (origin, destination)


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("下周三从北京去少林寺学功夫", "北京", "郑州"),
        ("大后天南宁出发，去友谊关看看", "南宁", "凭祥"),
        ("后天想去龙脊梯田拍照，从广州出发", "广州", "桂林"),
        ("周六从西安去天山天池", "西安", "乌鲁木齐"),
        ("后天从西宁去可可西里看藏羚羊", "西宁", "格尔木"),
        ("明天从成都去海螺沟泡温泉", "成都", "雅安"),
        ("从重庆出发去四姑娘山 后天", "重庆", "成都"),
        ("后天从太原去乔家大院", "太原", "祁县东"),
        ("周五从郑州去云台山", "郑州", "修武西"),
        ("从北京去悬空寺 后天", "北京", "大同"),
        ("后天长沙去武功山", "长沙", "萍乡"),
    ],
)
async def test_a_scenic_area_without_a_station_is_planned_at_the_one_people_take(
    official: StationDirectory, text: str, origin: str, destination: str
) -> None:
    parser = IntentParser(directory=official, metrics=Metrics(), llm=None)
    outcome = await parser.parse(text, DAY)
    assert (outcome.intent.origin, outcome.intent.destination) == (origin, destination)
    assert any(f"{outcome.intent.destination_text}没有火车站" in w for w in outcome.warnings)


def test_a_short_school_name_inside_a_longer_one_is_that_one() -> None:
    assert [(t, c) for t, _, c in school_names("东北大学放寒假了")] == [("东北大学", "沈阳")]
    assert [(t, c) for t, _, c in school_names("北大放寒假了")] == [("北大", "北京")]


def test_a_longer_landmark_wins_over_a_shorter_name_inside_it(official: StationDirectory) -> None:
    # 西湖 is 杭州's, 瘦西湖 扬州's; 南山 is 深圳's district, 南山寺 三亚's.
    assert extract_route("后天从南京去瘦西湖", official).destination == "扬州"
    assert extract_route("后天从广州去南山寺", official).destination == "三亚"


def _rows(name: str) -> list[dict[str, str]]:
    text = (files("app.intent") / "data" / name).read_text("utf-8")
    return list(csv.DictReader(text.splitlines()))


def test_every_name_means_a_place_of_the_directory_and_is_none_itself(
    official: StationDirectory,
) -> None:
    cities = official.cities()
    for row in _rows("place_names.csv"):
        assert official.by_name(row["means"]) is not None or row["means"] in cities, row
    for place, stations in NON_STATION_PLACES.items():
        assert all(official.by_name(s) is not None or s in cities for s in stations), place
        assert place not in PLACE_NAMES or place == "鼓浪屿", place


def test_a_scenic_place_is_planned_from_a_plain_sentence(official: StationDirectory) -> None:
    intent = parse_offline("12月12号从南宁去看德天瀑布", DAY, official)
    assert intent.destination_text == "德天瀑布"


# Landmarks that are also a station's name and still mean their city: the wall is reached from
# any of 北京's stations (a decision of the table, not an oversight).
_LANDMARK_STATIONS = {"长城", "八达岭"}


def test_a_landmark_row_never_hides_a_station_of_that_name(official: StationDirectory) -> None:
    # 石林 was a landmark of 昆明 while 石林 and 石林西 are stations: 昆明去石林当天来回 asked
    # where to go (origin and destination both 昆明). A name with its own station is that station.
    table = files("app.intent.data").joinpath("place_names.csv").read_text(encoding="utf-8")
    shadowing = [
        row["name"]
        for row in csv.DictReader(table.splitlines())
        if row["kind"] == "landmark"
        and row["name"] not in _LANDMARK_STATIONS
        and official.by_name(row["name"]) is not None
    ]
    assert shadowing == []


def test_a_stone_forest_day_trip_goes_to_its_station(official: StationDirectory) -> None:
    intent = parse_offline("周六从昆明去石林玩一天 当天回", DAY, official)
    assert (intent.origin, intent.destination) == ("昆明", "石林")


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("下周想带爸妈去看大熊猫，从西安走", ("西安", "成都")),
        ("下周从广州去北京动物园看大熊猫", ("广州", "北京")),
        ("下周从西安去雅安看大熊猫", ("西安", "雅安")),
    ],
)
def test_pandas_are_seen_in_chengdu_unless_another_place_is_named(
    official: StationDirectory, text: str, ends: tuple[str, str]
) -> None:
    intent = parse_offline(text, DAY, official)
    assert (intent.origin, intent.destination) == ends
    assert intent.via == []


def test_a_school_name_that_is_an_everyday_word_is_a_place_only_after_a_route_cue(
    official: StationDirectory,
) -> None:
    # 重大 is 重庆大学 after 去/从, and the word "major" anywhere else.
    route = extract_route("后天从北京去西安，家里出了重大的事", official)
    assert (route.origin, route.destination) == ("北京", "西安")
    assert school_names("家里出了重大的事 后天回西安") == []
    assert [(t, c) for t, _, c in school_names("周五去重大看看")] == [("重大", "重庆")]


@pytest.mark.parametrize(
    ("text", "nights"),
    [
        ("周五从北京去天津，顺路在廊坊停一下办点事，当天到天津就行", 0),
        ("周六杭州去上海，在嘉兴下车逛两个小时再走", 0),
        # A night said right after the pause is a night.
        ("周五从北京去天津，在廊坊停一下住一晚", 1),
    ],
)
def test_a_stop_of_some_hours_on_the_way_is_no_night(
    official: StationDirectory, text: str, nights: int
) -> None:
    intent = parse_offline(text, dt.date(2026, 12, 9), official)
    (stop,) = intent.via
    assert stop.planned_nights == nights


def test_the_ride_home_after_a_meeting_at_an_hour_is_that_days_evening(
    official: StationDirectory,
) -> None:
    intent = parse_offline(
        "后天从上海去杭州开会，开完会下午5点以后回上海，来回都要一等座",
        dt.date(2026, 12, 9),
        official,
    )
    assert intent.date_end == intent.date_start == dt.date(2026, 12, 11)
    assert intent.return_window is not None and intent.return_window.span() == "17:00-23:59"
    assert intent.depart_window is None


def test_a_prefectures_seat_on_the_way_to_its_town_is_a_stop(official: StationDirectory) -> None:
    text = "下周六从广州去阳朔，路上先在桂林住一晚"
    intent = parse_offline(text, dt.date(2026, 12, 10), official)
    assert (intent.origin, intent.destination) == ("广州", "阳朔")
    assert [(stop.city, stop.nights) for stop in intent.via] == [("桂林", 1)]
    assert intent.nights is None and intent.date_end is None


def test_the_trains_end_said_before_the_road_rest_of_the_way(official: StationDirectory) -> None:
    text = "我在义乌，下周三回贵州毕节，到贵阳就行剩下的坐大巴"
    intent = parse_offline(text, dt.date(2026, 12, 8), official)
    assert (intent.origin, intent.destination, intent.via) == ("义乌", "贵阳", [])


@pytest.mark.parametrize(
    ("text", "today", "expected"),
    [
        # The meeting is where the ride starts: the ride said is the way back, one way.
        (
            "帮我们经理订后天南宁东到北海的 开完会赶回去 下午3点以后出发 二等座靠窗",
            dt.date(2026, 12, 12),
            {"origin": "南宁东", "destination": "北海", "return_trip": False},
        ),
        # 回杭州厂里上班: back to work, a place gone to; home (老家) is where one starts.
        (
            "老家达州渠县的，下周一要回杭州厂里上班，高铁太贵不坐，要卧铺能躺着",
            dt.date(2026, 12, 12),
            {"origin": "渠县", "destination": "杭州"},
        ),
        # 深圳龙华 is a district of 深圳 (龙华 is also a station in 衡水).
        (
            "我在深圳龙华上班，明天中午下了班回于都老家，要坐高铁动车",
            dt.date(2026, 12, 12),
            {"origin": "深圳", "destination": "于都", "via": []},
        ),
        # The day work stops is why; the day said after it is the ride's.
        (
            "广州这边厂子这周五就放了，周六想回河南周口老家，啥车都行最便宜的就中",
            dt.date(2026, 12, 9),
            {"date_start": dt.date(2026, 12, 12)},
        ),
    ],
)
def test_places_and_days_said_around_work(
    official: StationDirectory, text: str, today: dt.date, expected: dict[str, object]
) -> None:
    intent = parse_offline(text, today, official)
    assert {key: getattr(intent, key) for key in expected} == expected


def test_the_night_green_train_refused_in_the_north_east(official: StationDirectory) -> None:
    text = "明儿个上午俺得从齐齐哈尔上哈尔滨办点事儿，整动车高铁就行，越早越好哈，别整那半夜的绿皮"
    intent = parse_offline(text, dt.date(2026, 12, 12), official)
    assert set(intent.exclude_train_types) == {"K", "T", "Z"}
    assert not set(intent.train_types) & {"K", "T", "Z"}
