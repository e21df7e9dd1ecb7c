"""The Juhe sandbox speaks API 817: keyed, errors as HTTP 200 with an error_code, lagging."""

from __future__ import annotations

import datetime as dt

from sources.juhe import parse_juhe_trains
from sources.sandbox.inventory import AGGREGATOR_LAG, ride_inventory
from sources.sandbox.vendor_juhe import seat_price

from .conftest import NOW, TRIP

PATH = "/fapigw/train/query"


def params(**extra: str) -> dict[str, str]:
    base = {
        "key": "k",
        "search_type": "1",
        "departure_station": "北京",
        "arrival_station": "上海",
        "date": TRIP.isoformat(),
        "enable_booking": "2",
    }
    return base | extra


async def test_a_query_by_station_names_answers_trains_with_telecodes_and_prices(juhe):
    body = (await juhe.get(PATH, params=params())).json()
    assert body["error_code"] == 0 and body["reason"] == "success"
    trains = body["result"]
    assert len(trains) >= 20
    for train in trains:
        assert train["departure_station_code"] in {"BJP", "VNP", "BXP", "VAP", "IFP"} | {
            t["departure_station_code"] for t in trains
        }
        assert all(
            p["num"] == "有" or p["num"] == "无" or p["num"].isdigit() for p in train["prices"]
        )
        assert all(p["price"] > 0 for p in train["prices"])


async def test_a_missing_key_is_error_10001(juhe):
    body = (await juhe.get(PATH, params=params(key=""))).json()
    assert body == {"error_code": 10001, "reason": "错误的请求KEY", "result": None}


async def test_an_unknown_station_is_an_api_error_naming_it(juhe):
    body = (await juhe.get(PATH, params=params(departure_station="火星"))).json()
    assert body["error_code"] != 0 and "火星" in body["reason"]


async def test_faults_come_as_juhe_sends_them(juhe, faults_juhe):
    faults_juhe.update(rate_limit_rate=1)
    assert (await juhe.get(PATH, params=params())).json()["error_code"] == 10012
    faults_juhe.update(rate_limit_rate=0, error_rate=1)
    assert (await juhe.get(PATH, params=params())).json()["error_code"] == 10014
    assert (await juhe.get(PATH, params=params())).status_code == 502


async def test_inventory_is_read_one_bucket_behind_the_railway(juhe, timetable):
    body = (await juhe.get(PATH, params=params())).json()
    ride = timetable.rides("BJP", "SHH", TRIP)[0]
    lagged = [p for p in map(seat_price, ride_inventory(ride, NOW, lag=AGGREGATOR_LAG)) if p]
    first = next(t for t in body["result"] if t["train_no"] == ride.train.code)
    assert first["prices"] == lagged


async def test_classes_not_yet_on_sale_are_left_out(juhe):
    last = (NOW + dt.timedelta(days=14)).date()  # trains leaving after 10:03 open later today
    body = (await juhe.get(PATH, params=params(date=last.isoformat()))).json()
    late = [t for t in body["result"] if t["departure_time"] > "10:30"]
    early = [t for t in body["result"] if t["departure_time"] < "09:30"]
    assert late and all(t["prices"] == [] and t["enable_booking"] == "N" for t in late)
    assert early and all(t["prices"] for t in early)


async def test_enable_booking_1_answers_bookable_trains_only_and_2_every_train(juhe):
    last = (NOW + dt.timedelta(days=14)).date()  # the later trains are not bookable yet
    every = (await juhe.get(PATH, params=params(date=last.isoformat()))).json()["result"]
    bookable = (
        await juhe.get(PATH, params=params(date=last.isoformat(), enable_booking="1"))
    ).json()["result"]
    assert {t["enable_booking"] for t in every} == {"Y", "N"}
    assert bookable and {t["enable_booking"] for t in bookable} == {"Y"}
    assert len(bookable) < len(every)


async def test_a_pair_without_trains_is_error_281701(juhe):
    body = (await juhe.get(PATH, params=params(arrival_station="北京"))).json()
    assert body["error_code"] == 281701 and body["result"] is None


async def test_the_odd_train_knob_puts_one_rough_edge_on_each_train(juhe, faults_juhe, timetable):
    faults_juhe.update(odd_train_rate=1)
    trains = (await juhe.get(PATH, params=params())).json()["result"]
    assert trains[0]["prices"][0]["price"] == "--"
    assert trains[1]["prices"][0]["price"] == ""
    assert isinstance(trains[2]["prices"][0]["price"], str)
    assert trains[3]["train_flags"] is None
    assert "departure_station_code" not in trains[4]
    assert "departure_time" not in trains[5]
    read = parse_juhe_trains(
        {"error_code": 0, "result": trains}, timetable.directory, NOW, "j", TRIP
    )
    skipped = len(trains) - len(read)
    assert skipped == len(trains[5::6]), "only the trains without times are lost"
