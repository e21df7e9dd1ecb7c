"""12306's train search, stop list and transfer search: pure parsers and the adapter's IO."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from sources.capabilities import StopListSource, TransferSource
from sources.errors import NotFoundAtSource
from sources.models import SHANGHAI, SeatClass, SeatStatus, TicketQuery
from sources.rail12306 import Rail12306Source
from sources.rail12306_extras import (
    parse_lc_search_url,
    parse_stop_list,
    parse_train_search,
    parse_transfers,
)
from sources.stations import curated_directory

FIXTURES = Path(__file__).parent.parent / "fixtures" / "rail12306"
DIRECTORY = curated_directory()
FETCHED_AT = dt.datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)
BASE = "https://kyfw.12306.test"


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def stop_list(name: str, date: dt.date = dt.date(2025, 12, 20)):
    return parse_stop_list(
        load(name),
        DIRECTORY,
        train_number="G1",
        train_no="24000000G10K",
        date=date,
        fetched_at=FETCHED_AT,
        source_name="rail12306",
    )


def test_a_stop_list_has_times_dwell_and_the_stations_of_the_directory():
    stops = stop_list("stops_G1_2025-12-20.json").stops
    assert [s.name for s in stops] == ["北京南", "济南西", "南京南", "上海"]
    assert stops[0].arrive_at is None and stops[-1].depart_at is None
    assert stops[0].depart_at == dt.datetime(2025, 12, 20, 7, 0, tzinfo=SHANGHAI)
    assert stops[-1].arrive_at == dt.datetime(2025, 12, 20, 11, 29, tzinfo=SHANGHAI)
    assert [s.stopover_min for s in stops] == [None, 2, 2, None]
    assert stops[1].station is not None and stops[1].station.telecode == "JGK"


def test_an_overnight_stop_list_rolls_to_the_next_day():
    stops = stop_list("stops_overnight.json").stops
    assert stops[1].arrive_at == dt.datetime(2025, 12, 20, 23, 55, tzinfo=SHANGHAI)
    assert stops[1].depart_at == dt.datetime(2025, 12, 21, 0, 5, tzinfo=SHANGHAI)
    assert stops[1].stopover_min == 10
    assert stops[2].arrive_at == dt.datetime(2025, 12, 21, 9, 10, tzinfo=SHANGHAI)


def test_the_segment_between_two_stops_by_name_telecode_or_city():
    found = stop_list("stops_G1_2025-12-20.json")
    assert [s.name for s in found.between("济南西", "NKH")] == ["济南西", "南京南"]
    assert [s.name for s in found.between("南京", None)] == ["南京南", "上海"]
    with pytest.raises(ValueError, match="not a stop"):
        found.between("杭州", None)


def test_an_empty_stop_list_is_no_such_train_that_day_not_a_parse_error():
    with pytest.raises(NotFoundAtSource, match="G1"):
        parse_stop_list(
            load("stops_empty.json"),
            DIRECTORY,
            train_number="G1",
            train_no="x",
            date=dt.date(2025, 12, 20),
            fetched_at=FETCHED_AT,
            source_name="r",
        )


def test_the_train_search_takes_the_exact_code_not_a_prefix_match():
    body = {
        "status": True,
        "data": [
            {"station_train_code": "G10", "train_no": "24000000G100"},
            {"station_train_code": "G1", "train_no": "24000000G10K", "from_station": "北京南"},
        ],
    }
    hit = parse_train_search(body, "G1")
    assert hit is not None and hit["train_no"] == "24000000G10K"
    assert parse_train_search(body, "G2") is None
    assert parse_train_search({"status": False}, "G1") is None


def test_transfer_plans_are_two_rides_and_the_change_between_them():
    plans, next_index = parse_transfers(
        load("lcquery_BJP_KMM_2026-12-04.json"), DIRECTORY, FETCHED_AT, "rail12306"
    )
    assert next_index == 10  # can_query Y: the next page starts there
    assert len(plans) == 2
    plan = plans[0]
    assert (plan.first.train_number, plan.second.train_number) == ("G301", "G909")
    assert plan.middle_station.name == "长沙南" and plan.same_station
    assert plan.wait_min == 30
    assert plan.first.arrive_at + dt.timedelta(minutes=30) == plan.second.depart_at
    second_class = plan.first.seat(SeatClass.SECOND)
    assert second_class is not None and second_class.status is SeatStatus.AVAILABLE
    assert second_class.price == 732.0


def test_the_lcquery_init_page_names_the_search_path():
    assert parse_lc_search_url("<script>var lc_search_url = '/lcquery/queryG';</script>") == (
        "/lcquery/queryG"
    )
    assert parse_lc_search_url("<html></html>") is None
    # Only a transfer-search path of this site is ever followed.
    assert parse_lc_search_url("var lc_search_url = 'https://elsewhere.test/x';") is None


@pytest.fixture
async def client():
    async with httpx.AsyncClient() as shared:
        yield shared


def adapter(client: httpx.AsyncClient) -> Rail12306Source:
    return Rail12306Source("rail12306", client, BASE, DIRECTORY, clock=lambda: FETCHED_AT)


def test_the_12306_adapter_offers_both_capabilities(client):
    assert isinstance(adapter(client), StopListSource)
    assert isinstance(adapter(client), TransferSource)


INIT_PAGE = re.compile(rf"^{BASE}/otn/leftTicket/init$")


def mock_session(httpx_mock) -> None:
    httpx_mock.add_response(
        url=INIT_PAGE, text="<html></html>", headers=[("Set-Cookie", "JSESSIONID=S1; Path=/")]
    )


async def test_stops_searches_the_train_then_asks_for_its_stop_list(httpx_mock, client):
    httpx_mock.add_response(
        url=re.compile(rf"^{BASE}/search/v1/train/search\?keyword=G1&date=20251220$"),
        json={
            "status": True,
            "data": [
                {
                    "station_train_code": "G1",
                    "train_no": "24000000G10K",
                    "from_station": "北京南",
                    "to_station": "上海",
                }
            ],
        },
    )
    mock_session(httpx_mock)
    httpx_mock.add_response(
        url=re.compile(rf"^{BASE}/otn/czxx/queryByTrainNo\?"), json=load("stops_G1_2025-12-20.json")
    )
    found = await adapter(client).stops("G1", dt.date(2025, 12, 20))
    assert found.train_no == "24000000G10K" and len(found.stops) == 4
    sent = httpx_mock.get_requests()[2].url.params
    assert dict(sent) == {
        "train_no": "24000000G10K",
        "from_station_telecode": "VNP",
        "to_station_telecode": "SHH",
        "depart_date": "2025-12-20",
    }


async def test_an_unknown_train_is_not_found_at_the_source(httpx_mock, client):
    httpx_mock.add_response(
        url=re.compile(rf"^{BASE}/search/v1/train/search\?"), json={"status": True, "data": []}
    )
    with pytest.raises(NotFoundAtSource, match="G9999"):
        await adapter(client).stops("G9999", dt.date(2026, 12, 4))
    assert len(httpx_mock.get_requests()) == 1, "no session is set up for a train not found"


async def test_a_train_the_stop_list_knows_nothing_of_that_day_is_not_found(httpx_mock, client):
    httpx_mock.add_response(
        url=re.compile(rf"^{BASE}/search/v1/train/search\?"),
        json={"status": True, "data": [{"station_train_code": "G1", "train_no": "24000000G10K"}]},
    )
    mock_session(httpx_mock)
    httpx_mock.add_response(
        url=re.compile(rf"^{BASE}/otn/czxx/queryByTrainNo\?"), json=load("stops_empty.json")
    )
    with pytest.raises(NotFoundAtSource, match="no stops"):
        await adapter(client).stops("G1", dt.date(2026, 12, 4))


async def test_transfers_read_the_path_from_the_init_page_and_follow_the_pages(httpx_mock, client):
    mock_session(httpx_mock)
    httpx_mock.add_response(
        url=f"{BASE}/otn/lcQuery/init",
        text="<script>var lc_search_url = '/lcquery/queryZ';</script>",
    )
    page = load("lcquery_BJP_KMM_2026-12-04.json")
    last = {**page, "data": {**page["data"], "can_query": "N"}}
    search = re.compile(rf"^{BASE}/lcquery/queryZ\?")
    httpx_mock.add_response(url=search, json=page)
    httpx_mock.add_response(url=search, json=last)
    query = TicketQuery(origin="BJP", destination="KMM", date=dt.date(2026, 12, 4))
    plans = await adapter(client).transfers(query)
    assert len(plans) == 4
    indexes = [r.url.params.get("result_index") for r in httpx_mock.get_requests()[2:]]
    assert indexes == ["0", "10"]


async def test_transfers_read_only_the_pages_asked_for(httpx_mock, client):
    mock_session(httpx_mock)
    httpx_mock.add_response(
        url=f"{BASE}/otn/lcQuery/init",
        text="<script>var lc_search_url = '/lcquery/queryZ';</script>",
    )
    page = load("lcquery_BJP_KMM_2026-12-04.json")  # says can_query=Y: more pages exist
    httpx_mock.add_response(url=re.compile(rf"^{BASE}/lcquery/queryZ\?"), json=page)
    query = TicketQuery(origin="BJP", destination="KMM", date=dt.date(2026, 12, 4))
    plans = await adapter(client).transfers(query, pages=1)
    assert plans
    assert len(httpx_mock.get_requests()) == 3, "the session, the init page and one page only"
