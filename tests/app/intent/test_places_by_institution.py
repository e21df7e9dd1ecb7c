"""Places named by the hospital or university a traveller goes to: the city it is in, where
the name says no city (华西医院 is 成都, 中山大学 广州, not the city 中山); a short name
several schools share (华师) or a hospital name several cities have (协和) is no place."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.offline import parse_offline
from sources.stations import StationDirectory, default_directory

DAY = dt.date(2026, 12, 9)


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("下周二陪我妈去湘雅看病，从株洲走", "长沙"),
        ("周四从宜宾去华西医院拿报告", "成都"),
        ("周日送闺女去中山大学，从韶关出发", "广州"),
        ("明天从宁波去浙江大学面试", "杭州"),
        ("后天从洛阳去西京医院复查", "西安"),
        ("下周一从保定去301医院", "北京"),
    ],
)
def test_a_hospital_or_university_is_the_city_it_is_in(
    official: StationDirectory, text: str, destination: str
) -> None:
    intent = parse_offline(text, DAY, official)
    assert intent.destination == destination
    assert intent.via == []


@pytest.mark.parametrize("text", ["明天从南昌去华师", "周五去协和医院复查"])
def test_a_name_several_places_share_names_no_city(official: StationDirectory, text: str) -> None:
    intent = parse_offline(text, DAY, official)
    assert intent.destination is None
