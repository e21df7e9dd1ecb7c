"""Words around a place that belong to a phrase, not to the route: 回 ending a day said
(周日回 A到B), a place said alone after 回来 (home), a stop said again with its stay
(中间在B住一晚), and a place already been to (去过X)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.model import ViaStop
from app.intent.offline import parse_offline
from app.intent.places import extract_route, heard_places
from sources.stations import StationDirectory, default_directory

TODAY = dt.date(2026, 12, 7)  # a Monday


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("三个人 下周六去 周一回 南京到杭州", "南京", "杭州"),
        ("周五走周日回，成都到重庆", "成都", "重庆"),
    ],
)
def test_a_return_said_with_its_day_leaves_the_pair_after_it_the_route(
    official, text, origin, destination
) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination, intent.via) == (origin, destination, [])
    assert intent.return_trip


@pytest.mark.parametrize(
    ("text", "home", "destination"),
    [("12号去成都 15号回来 西安", "西安", "成都"), ("下周五去青岛 周日回来，济南", "济南", "青岛")],
)
def test_a_place_said_alone_after_coming_back_is_home(official, text, home, destination) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination, intent.via) == (home, destination, [])
    assert intent.return_trip


@pytest.mark.parametrize(
    ("text", "via", "destination"),
    [
        ("北京到济南 再到青岛 周六出发 中间在济南住两晚", ViaStop(city="济南", nights=2), "青岛"),
        ("南宁到桂林再到柳州 下周一走 在桂林待两天", ViaStop(city="桂林", nights=2), "柳州"),
    ],
)
def test_a_stop_said_again_with_its_stay_is_that_stops_stay(
    official, text, via, destination
) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.via, intent.destination) == ([via], destination)
    assert intent.nights is None


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("之前去过西安，这次想去洛阳 从郑州 周六", "洛阳"),
        ("上次去的厦门，今年想去泉州，从福州出发", "泉州"),
        ("成都我去过了，想从重庆去贵阳", "贵阳"),
        ("去年去了桂林 这次从广州去北海", "北海"),
    ],
)
def test_a_place_already_been_to_is_no_stop(official, text, destination) -> None:
    route = extract_route(text, official)
    assert (route.destination, route.via) == (destination, [])


def test_a_place_never_been_to_or_gone_to_first_is_still_a_stop(official) -> None:
    assert extract_route("没去过丽江 想从昆明去丽江", official).destination == "丽江"
    route = extract_route("明天去了北京再去天津 从石家庄", official)
    assert [v.city for v in route.via] == ["北京"] and route.destination == "天津"


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("下周三陪我爸从嘉兴去上海华山医院复查", "嘉兴", "上海"),
        ("周五从扬州去南京鼓楼医院，再去南京中山路", "扬州", "南京"),
        ("后天从昆山去上海瑞金医院", "昆山", "上海"),
    ],
)
def test_a_place_named_in_a_landmark_after_its_city_is_no_stop(
    official, text, origin, destination
) -> None:
    # 华山医院, 瑞金医院 in 上海: the landmark's name is no trip to 华山 or 瑞金.
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination, intent.via) == (origin, destination, [])


@pytest.mark.parametrize(
    ("text", "origin", "place"),
    [
        # Back home at the end, from a place without a station: the home is the origin, the
        # place the destination, never home again.
        ("下周日从杭州出发去西塘玩一天，傍晚再回杭州", "杭州", "西塘"),
        ("周六去周庄逛逛，晚上回苏州", "苏州", "周庄"),
    ],
)
def test_home_again_after_a_place_without_a_station_is_a_round_trip(
    text: str, origin: str, place: str, official: StationDirectory
) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination, intent.destination_text) == (origin, None, place)
    assert intent.return_trip is True


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("下周三从北京南或北京西去石家庄", "北京", "石家庄"),
        ("周五合肥出发，到南京南或者南京站都行", "合肥", "南京"),
    ],
)
def test_two_stations_of_a_city_said_as_either_are_the_city(
    official, text, origin, destination
) -> None:
    # 到杭州东或者杭州南: either will do, no stop at the first on the way to the second.
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination, intent.via) == (origin, destination, [])


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("厦门 下周三去 福州出发", "福州", "厦门"),
        ("桂林 这周五去，南宁出发", "南宁", "桂林"),
    ],
)
def test_a_place_set_off_from_after_a_paused_go_is_the_origin(
    official, text, origin, destination
) -> None:
    # "X 周六去 Y出发": the 去 ends "go to X on Saturday"; Y is where the trip starts.
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination) == (origin, destination)


def test_a_place_typed_in_pinyin_before_a_paused_go_is_the_destination(official) -> None:
    intent = parse_offline("guilin 周五去 nanning出发", TODAY, official)
    assert (intent.origin, intent.destination) == ("南宁", "桂林")


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("三亚太热了，改去厦门 周五从上海走", "上海", "厦门"),
        ("黄山人太多 干脆改去杭州 周六南京出发", "南京", "杭州"),
    ],
)
def test_a_place_given_up_with_its_reason_is_no_end_of_the_trip(
    official, text, origin, destination
) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination) == (origin, destination)


@pytest.mark.parametrize(
    ("text", "destination", "typed"),
    [
        ("周日从成都去鄂眉山看日出", "峨眉山", "鄂眉山"),
        ("明天从成都去眉山", "眉山", None),  # 去 before it is a cue, no character of a name
    ],
)
def test_a_name_inside_a_longer_one_typed_by_sound_is_the_longer_one(
    official, text, destination, typed
) -> None:
    # 眉山 inside 鄂眉山: the traveller means 峨眉山, said back as heard by sound.
    intent = parse_offline(text, TODAY, official)
    assert intent.destination == destination
    heard = [t for _, _, t, name in heard_places(text, official) if name == destination]
    assert heard == ([typed] if typed else [])


@pytest.mark.parametrize("text", ["周四下午先过去住两晚", "那就前一天到住一宿，第二天办事"])
def test_a_stay_said_after_the_going_is_no_place(official: StationDirectory, text: str) -> None:
    intent = parse_offline(text, TODAY, official)
    assert intent.destination_text is None
