"""The generated list of stations inside a city proper though not named after the city."""

from __future__ import annotations

import csv
import json

import pytest

from rules.config import CITY_PROPER_EXTRA
from scripts.build_city_proper import (
    DEFAULT_SHARED,
    OUTPUT,
    great_circle_km,
    inside,
    render,
)
from sources.stations import OFFICIAL_CSV

# Coordinates as TrainVis has them (longitude, latitude).
GEO = {
    "武汉": [114.42, 30.61],
    "武昌": [114.32, 30.53],  # 13 km
    "汉口": [114.26, 30.62],  # 16 km
    "金华": [119.64, 29.10],
    "义乌": [120.04, 29.39],  # 49 km
    "金华南": [119.70, 29.05],
}
ROWS = [
    {"name": name, "city": city}
    for name, city in (
        ("武汉", "武汉"),
        ("武昌", "武汉"),
        ("汉口", "武汉"),
        ("汉阳", "武汉"),  # no coordinates: left out
        ("金华", "金华"),
        ("金华南", "金华"),  # named after its city: needs no entry
        ("义乌", "金华"),
        ("吉首", "湘西"),  # no station named 湘西 to measure from
    )
]


def test_stations_within_the_radius_of_the_city_station_not_named_after_it():
    assert 12 < great_circle_km(GEO["武汉"], GEO["武昌"]) < 14
    assert [name for name, _, _ in inside(ROWS, GEO)] == ["武昌", "汉口"]
    assert render(inside(ROWS, GEO)).splitlines() == [
        "name,city,km",
        "武昌,武汉,13.1",
        "汉口,武汉,15.4",
    ]


@pytest.mark.skipif(
    not (DEFAULT_SHARED / "timetable" / "station-geo.json").exists(),
    reason="the reference coordinates live beside the checkout, not in it",
)
def test_the_shipped_list_is_what_the_generator_makes_from_the_reference_data():
    geo = json.loads((DEFAULT_SHARED / "timetable" / "station-geo.json").read_text("utf-8"))
    rows = list(csv.DictReader(OFFICIAL_CSV.read_text("utf-8").splitlines()))
    assert OUTPUT.read_text("utf-8") == render(inside(rows, geo))
    assert {"武昌", "汉口", "福田", "沙坪坝"} <= CITY_PROPER_EXTRA
    assert not {"义乌", "柳园", "敦煌", "青铜峡", "昆山南"} & CITY_PROPER_EXTRA
