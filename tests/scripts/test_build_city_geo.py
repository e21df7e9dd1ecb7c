"""The generated table of where each city is, for telling romanised namesakes apart."""

from __future__ import annotations

import csv
import json

import pytest

from app.intent.places import city_km, namesake_near
from scripts.build_city_geo import DEFAULT_SHARED, OUTPUT, positions, render
from sources.stations import OFFICIAL_CSV

GEO = {"苏州": [120.61, 31.33], "宿州东": [117.05, 33.62], "上海虹桥": [121.32, 31.2]}
ROWS = [
    {"name": "苏州", "city": "苏州"},
    {"name": "宿州", "city": "宿州"},  # no coordinates: its other station places it
    {"name": "宿州东", "city": "宿州"},
    {"name": "上海", "city": "上海"},
    {"name": "上海虹桥", "city": "上海"},
    {"name": "林芝", "city": "林芝"},  # no station with coordinates: left out
]


def test_a_city_is_where_its_namesake_station_is_else_its_first_placed_station():
    assert render(positions(ROWS, GEO)).splitlines() == [
        "city,lon,lat",
        "上海,121.32,31.20",
        "宿州,117.05,33.62",
        "苏州,120.61,31.33",
    ]


def test_the_namesake_next_to_the_other_end_is_chosen_only_when_the_rest_are_far():
    km = city_km("上海", "苏州")
    assert km is not None and 70 < km < 100
    assert namesake_near(["苏州", "宿州"], "上海") == "苏州"
    assert namesake_near(["台州", "泰州"], "上海") is None  # 290 km and 170 km: both a ride
    assert namesake_near(["苏州", "宿州"], "北京") is None
    assert namesake_near(["苏州", "宿州"], None) is None
    assert namesake_near(["苏州", "无此城"], "上海") is None  # unplaced: nothing decided


@pytest.mark.skipif(
    not (DEFAULT_SHARED / "timetable" / "station-geo.json").exists(),
    reason="the reference coordinates live beside the checkout, not in it",
)
def test_the_shipped_table_is_what_the_generator_makes_from_the_reference_data():
    geo = json.loads((DEFAULT_SHARED / "timetable" / "station-geo.json").read_text("utf-8"))
    rows = list(csv.DictReader(OFFICIAL_CSV.read_text("utf-8").splitlines()))
    assert OUTPUT.read_text("utf-8") == render(positions(rows, geo))
