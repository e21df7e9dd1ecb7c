"""The juhe adapter: recorded API 817 payloads, its error codes, its IO, its merge with 12306."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.tickets.merge import merge_offers
from sources.errors import (
    QueryRefused,
    SourceBlocked,
    SourceParseError,
    SourceQuotaExceeded,
    SourceRejected,
    SourceServerError,
    TransientSourceError,
)
from sources.juhe import JuheSource, parse_juhe_trains
from sources.models import SHANGHAI, FareKind, SeatClass, SeatStatus, TicketQuery
from sources.rail12306 import parse_left_tickets
from sources.stations import curated_directory

FIXTURES = Path(__file__).parent.parent / "fixtures"
DATE = dt.date(2026, 12, 4)
FETCHED_AT = dt.datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)
DIRECTORY = curated_directory()
QUERY_URL = re.compile(r"^https://apis\.juhe\.test/fapigw/train/query\?")


def load(name: str) -> Any:
    return json.loads((FIXTURES / "juhe" / name).read_text(encoding="utf-8"))


def parsed(name: str = "beijing_suzhou_2026-12-04.json") -> dict[str, Any]:
    offers = parse_juhe_trains(load(name), DIRECTORY, FETCHED_AT, "juhe", DATE)
    return {o.train_number: o for o in offers}


def test_a_result_becomes_offers_with_stations_times_seats_and_flags():
    g25 = parsed()["G25"]
    assert (g25.origin_station.name, g25.destination_station.name) == ("北京南", "苏州北")
    assert g25.depart_at == dt.datetime(2026, 12, 4, 18, 4, tzinfo=SHANGHAI)
    assert g25.arrive_at == dt.datetime(2026, 12, 4, 22, 32, tzinfo=SHANGHAI)
    assert (g25.duration_min, g25.can_web_buy, g25.features) == (268, True, ("复兴号",))
    assert [(s.seat_class, s.status, s.available, s.price) for s in g25.seats] == [
        (SeatClass.BUSINESS, SeatStatus.AVAILABLE, 3, 2011.0),
        (SeatClass.FIRST, SeatStatus.AVAILABLE, None, 1004.0),
        (SeatClass.SECOND, SeatStatus.AVAILABLE, 1, 627.0),
        (SeatClass.NO_SEAT, SeatStatus.SOLD_OUT, 0, 627.0),
    ]


def test_overnight_trains_arrive_the_next_day_and_unknown_seat_names_are_skipped():
    d5 = parsed()["D5"]
    assert d5.arrive_at == dt.datetime(2026, 12, 5, 6, 29, tzinfo=SHANGHAI)
    assert {s.seat_class: s.status for s in d5.seats} == {
        SeatClass.EMU_SLEEPER: SeatStatus.AVAILABLE,
        SeatClass.HARD_SLEEPER: SeatStatus.SOLD_OUT,  # 二等卧 files under 硬卧; 豪华包厢 is unknown
    }


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("error_10012.json", SourceQuotaExceeded),
        ("error_10001.json", SourceRejected),
        ("error_10020.json", SourceServerError),
    ],
)
def test_error_codes_map_onto_the_source_error_tree(name, error):
    with pytest.raises(error, match=str(load(name)["error_code"])):
        parse_juhe_trains(load(name), DIRECTORY, FETCHED_AT, "juhe", DATE)


@pytest.mark.parametrize(
    "payload",
    [{"reason": "no code"}, {"error_code": 0, "result": {"count": 2}}, [1, 2]],
)
def test_a_body_off_the_schema_is_a_parse_error(payload):
    # (a result that is not a list, or no error_code at all: not one train can be read)
    with pytest.raises(SourceParseError):
        parse_juhe_trains(payload, DIRECTORY, FETCHED_AT, "juhe", DATE)


def test_an_api_specific_code_is_a_rejection_naming_the_reason():
    body = {"error_code": 217701, "reason": "出发站不能为空", "result": None}
    with pytest.raises(SourceRejected, match="出发站不能为空"):
        parse_juhe_trains(body, DIRECTORY, FETCHED_AT, "juhe", DATE)


def test_offers_merge_with_12306s_for_the_same_ride_by_number_date_and_telecodes():
    rail = parse_left_tickets(
        json.loads((FIXTURES / "rail12306" / "beijing_shanghai_2026-12-04.json").read_text()),
        DIRECTORY,
        FETCHED_AT,
        "rail12306",
        DATE,
    )
    g101_rail = next(o for o in rail if o.train_number == "G101")
    juhe_g101 = {
        "error_code": 0,
        "reason": "success",
        "result": [
            {
                "train_no": "G101",
                "departure_station": "北京南",
                "arrival_station": "上海虹桥",
                "departure_station_code": "VNP",
                "arrival_station_code": "AOH",
                "departure_time": "06:36",
                "arrival_time": "12:14",
                "duration": "05:38",
                "enable_booking": "Y",
                "prices": [{"seat_name": "二等座", "price": 553, "num": "有"}],
                "train_flags": ["复兴号"],
            }
        ],
    }
    later = FETCHED_AT + dt.timedelta(seconds=5)
    juhe = parse_juhe_trains(juhe_g101, DIRECTORY, later, "juhe", DATE)
    merged = merge_offers([[g101_rail], juhe])
    assert len(merged) == 1
    ride = merged[0]
    assert ride.sources == ("rail12306", "juhe")
    assert ride.train_no == "240000G1010A"  # only 12306 knows its internal id
    assert {s.seat_class for s in ride.seats} == {s.seat_class for s in g101_rail.seats}


@pytest.fixture
async def client():
    async with httpx.AsyncClient() as shared:
        yield shared


def adapter(client: httpx.AsyncClient) -> JuheSource:
    return JuheSource(
        "juhe", client, "https://apis.juhe.test/", DIRECTORY, "k3y", clock=lambda: FETCHED_AT
    )


async def test_search_sends_the_key_station_names_and_date(httpx_mock, client):
    httpx_mock.add_response(url=QUERY_URL, json=load("beijing_suzhou_2026-12-04.json"))
    query = TicketQuery(origin="BJP", destination="SZH", date=DATE, train_types={"G"})
    offers = await adapter(client).search(query)
    assert [o.train_number for o in offers] == ["G25"]  # the type filter applies
    sent = httpx_mock.get_requests()[0].url.params
    assert dict(sent) == {
        "key": "k3y",
        "search_type": "1",
        "departure_station": "北京",
        "arrival_station": "苏州",
        "date": "2026-12-04",
        "enable_booking": "2",  # every train: 1 would hide sold-out and unbookable ones
    }


@pytest.mark.parametrize("code", [10011, 10012, 10013])
async def test_a_spent_quota_answered_with_http_200_is_never_retried_at_once(
    httpx_mock, client, code
):
    body = {**load("error_10012.json"), "error_code": code}
    httpx_mock.add_response(url=QUERY_URL, json=body)
    with pytest.raises(SourceQuotaExceeded) as info:
        await adapter(client).search(TicketQuery(origin="BJP", destination="SZH", date=DATE))
    assert isinstance(info.value, SourceBlocked), "backed off like a block"
    assert not isinstance(info.value, TransientSourceError), "so the guard never retries it"


def test_no_trains_for_the_pair_or_date_is_an_empty_answer_not_an_error():
    assert parse_juhe_trains(load("error_281701.json"), DIRECTORY, FETCHED_AT, "juhe", DATE) == []


def test_one_off_format_train_never_loses_the_answer():
    trains = parsed("off_format_trains_2026-12-04.json")
    assert sorted(trains) == ["G13", "G25", "G7"], "only the train without times is skipped"
    g25 = trains["G25"]
    assert {s.seat_class: s.price for s in g25.seats} == {
        SeatClass.BUSINESS: None,  # "--"
        SeatClass.FIRST: None,  # ""
        SeatClass.SECOND: 627.5,  # "627.50"
    }
    assert g25.features == ()  # train_flags null
    assert trains["G7"].origin_station.telecode == "VNP", "found by its station name"


def test_a_sold_out_train_that_cannot_be_booked_is_kept_as_such():
    g13 = parsed("off_format_trains_2026-12-04.json")["G13"]
    assert g13.can_web_buy is False
    assert {s.status for s in g13.seats} == {SeatStatus.SOLD_OUT}


@pytest.mark.parametrize("price", [-5, "abc", True, [627]])
def test_an_unreadable_price_is_unknown_not_a_lost_train(price):
    body = load("off_format_trains_2026-12-04.json")
    body["result"][0]["prices"] = [{"seat_name": "二等座", "price": price, "num": "有"}]
    g25 = parsed_body(body)["G25"]
    assert g25.seat(SeatClass.SECOND) is not None and g25.seat(SeatClass.SECOND).price is None


def test_a_station_named_nowhere_without_a_code_skips_only_its_train():
    body = load("off_format_trains_2026-12-04.json")
    body["result"][1]["departure_station"] = "无名站"
    assert "G7" not in parsed_body(body) and "G25" in parsed_body(body)


def parsed_body(body: dict[str, Any]) -> dict[str, Any]:
    return {o.train_number: o for o in parse_juhe_trains(body, DIRECTORY, FETCHED_AT, "j", DATE)}


async def test_a_student_query_is_answered_with_adult_fares_and_says_so(httpx_mock, client):
    httpx_mock.add_response(url=QUERY_URL, json=load("beijing_suzhou_2026-12-04.json"))
    query = TicketQuery(origin="BJP", destination="SZH", date=DATE, fare=FareKind.STUDENT)
    offers = await adapter(client).search(query)
    assert offers and {o.fare for o in offers} == {FareKind.ADULT}


async def test_a_date_not_on_sale_is_refused_before_any_request(httpx_mock, client):
    with pytest.raises(QueryRefused):
        await adapter(client).search(
            TicketQuery(origin="BJP", destination="SZH", date=dt.date(2026, 12, 16))
        )
    assert httpx_mock.get_requests() == []


def test_the_merged_ride_keeps_12306s_discounts_flags_and_juhes_newer_counts():
    body = json.loads((FIXTURES / "rail12306" / "real_rows_2025-12-20.json").read_text())
    day = dt.date(2025, 12, 20)
    fetched = dt.datetime(2025, 12, 19, 9, 0, tzinfo=SHANGHAI)
    rail = parse_left_tickets(body, DIRECTORY, fetched, "rail12306", day)
    g105 = next(o for o in rail if o.train_number == "G105")
    juhe_answer = {
        "error_code": 0,
        "result": [
            {
                "train_no": "G105",
                "departure_station": "北京南",
                "arrival_station": "上海虹桥",
                "departure_station_code": "VNP",
                "arrival_station_code": "AOH",
                "departure_time": "07:17",
                "arrival_time": "13:03",
                "duration": "05:46",
                "enable_booking": "Y",
                "prices": [{"seat_name": "商务座", "price": None, "num": "2"}],
                "train_flags": ["静音车厢"],
            }
        ],
    }
    later = fetched + dt.timedelta(minutes=1)
    juhe = parse_juhe_trains(juhe_answer, DIRECTORY, later, "juhe", day)
    (ride,) = merge_offers([[g105], juhe])
    business = ride.seat(SeatClass.BUSINESS)
    assert business is not None
    assert (business.available, business.price, business.discount) == (2, 1998.0, 0.87)
    assert ride.features == ("复兴号", "静音车厢")
    assert ride.train_no == "240000G1050R" and ride.can_web_buy is True
