"""The 12306 adapter's session: page loads that look like page loads, its own cookies, a
session set up before every capability, student fares asked for, 其他 seats kept."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from sources.errors import PageUnavailable, SourceServerError, TransientSourceError
from sources.models import SHANGHAI, FareKind, SeatClass, SeatStatus, Station, TicketQuery
from sources.rail12306 import Rail12306Source, parse_left_tickets
from sources.stations import StationDirectory

FIXTURES = Path(__file__).parent.parent / "fixtures" / "rail12306"
BASE = "https://kyfw.12306.test"
INIT = re.compile(r"^https://kyfw\.12306\.test/otn/leftTicket/init$")
QUERY = re.compile(r"^https://kyfw\.12306\.test/otn/leftTicket/queryG\?")
STOPS = re.compile(r"^https://kyfw\.12306\.test/otn/czxx/queryByTrainNo\?")
TRAIN_SEARCH = re.compile(r"^https://kyfw\.12306\.test/search/v1/train/search\?")
FETCHED_AT = dt.datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)
DATE = dt.date(2026, 12, 4)
INIT_COOKIES = [("Set-Cookie", "JSESSIONID=S1; Path=/otn"), ("Set-Cookie", "route=r1; Path=/")]
DIRECTORY = StationDirectory(
    [
        Station(telecode="BJP", name="北京", city="北京"),
        Station(telecode="VNP", name="北京南", city="北京"),
        Station(telecode="BXP", name="北京西", city="北京"),
        Station(telecode="SHH", name="上海", city="上海"),
        Station(telecode="AOH", name="上海虹桥", city="上海"),
        Station(telecode="JGK", name="济南西", city="济南"),
        Station(telecode="NKH", name="南京南", city="南京"),
    ]
)


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.fixture
async def client():
    async with httpx.AsyncClient() as shared:
        yield shared


def source(client: httpx.AsyncClient) -> Rail12306Source:
    return Rail12306Source("rail12306", client, BASE, DIRECTORY, clock=lambda: FETCHED_AT)


def mock_init(httpx_mock: Any, **kwargs: Any) -> None:
    httpx_mock.add_response(
        url=INIT, text=(FIXTURES / "init_page.html").read_text(), headers=INIT_COOKIES, **kwargs
    )


# -- page loads (item 4) -----------------------------------------------------------------------


async def test_the_init_page_is_loaded_with_a_browsers_page_headers(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, json=load("empty_result.json"))
    await source(client).search(TicketQuery(origin="BJP", destination="SHH", date=DATE))
    page, query = httpx_mock.get_requests()
    assert page.headers["Accept"].startswith("text/html,application/xhtml+xml")
    assert page.headers["Accept-Language"] == "zh-CN,zh;q=0.9"
    assert page.headers["User-Agent"].startswith("Mozilla/5.0 (Windows NT")
    assert "X-Requested-With" not in page.headers, "a page load, not the page's script"
    assert query.headers["X-Requested-With"] == "XMLHttpRequest"
    assert query.headers["Accept-Language"] == "zh-CN,zh;q=0.9"
    assert "python-httpx" not in query.headers["User-Agent"]


@pytest.mark.parametrize("status", [500, 502])
async def test_an_init_page_answering_5xx_is_not_retried_at_once(httpx_mock, client, status):
    httpx_mock.add_response(url=INIT, status_code=status, text="<html>500</html>")
    with pytest.raises(PageUnavailable, match=str(status)) as info:
        await source(client).search(TicketQuery(origin="BJP", destination="SHH", date=DATE))
    assert not isinstance(info.value, TransientSourceError), "the guard must not retry it"
    assert len(httpx_mock.get_requests()) == 1


async def test_a_query_answering_5xx_stays_a_transient_server_error(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, status_code=502)
    with pytest.raises(SourceServerError):
        await source(client).search(TicketQuery(origin="BJP", destination="SHH", date=DATE))


# -- stop lists set up the session first (item 4) ---------------------------------------------


async def test_a_stop_list_sets_up_the_session_before_asking_queryByTrainNo(httpx_mock, client):
    httpx_mock.add_response(
        url=TRAIN_SEARCH,
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
    mock_init(httpx_mock)
    httpx_mock.add_response(url=STOPS, json=load("stops_G1_2025-12-20.json"))
    found = await source(client).stops("G1", dt.date(2025, 12, 20))
    assert len(found.stops) == 4
    search, init, stops = httpx_mock.get_requests()
    assert init.url.path == "/otn/leftTicket/init"
    assert init.headers["Accept"].startswith("text/html")
    assert stops.headers["Cookie"].split("; ") == ["JSESSIONID=S1", "route=r1"]
    assert stops.headers["Referer"] == BASE + "/otn/leftTicket/init"
    assert stops.headers["X-Requested-With"] == "XMLHttpRequest"


# -- student fares (item 7, the adapter's part) --------------------------------------------------


async def test_a_student_query_asks_purpose_codes_0X00_and_labels_its_fares(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, json=load("beijing_shanghai_2026-12-04.json"))
    query = TicketQuery(origin="BJP", destination="SHH", date=DATE, fare=FareKind.STUDENT)
    offers = await source(client).search(query)
    sent = httpx_mock.get_requests()[1]
    assert sent.url.params["purpose_codes"] == "0X00"
    assert offers and {o.fare for o in offers} == {FareKind.STUDENT}


def test_a_student_query_has_a_cache_key_of_its_own_and_adults_keep_theirs():
    adult = TicketQuery(origin="BJP", destination="SHH", date=DATE)
    student = adult.model_copy(update={"fare": FareKind.STUDENT})
    assert adult.key == "BJP:SHH:2026-12-04:*"
    assert student.key == "BJP:SHH:2026-12-04:*:student"


# -- 其他 seats (item 8) ---------------------------------------------------------------------


def test_a_qita_cell_and_its_H_price_are_a_seat_class_of_their_own():
    """A verbatim real row (real_rows_2025-12-20.json, G1) with field 22 (qt_num) given a
    count and an `H` chunk added to yp_info_new, as 12306 prints 其他 seats."""
    payload = load("real_rows_2025-12-20.json")
    fields = payload["data"]["result"][0].split("|")
    fields[22] = "5"
    fields[39] += "H012340005"
    payload["data"]["result"] = ["|".join(fields)]
    offers = parse_left_tickets(payload, DIRECTORY, FETCHED_AT, "rail12306", dt.date(2025, 12, 20))
    other = offers[0].seat(SeatClass.OTHER)
    assert other is not None
    assert (other.status, other.available, other.price) == (SeatStatus.AVAILABLE, 5, 123.4)
    assert offers[0].seat(SeatClass.SECOND) is not None, "its neighbours are unharmed"
    assert SeatClass.OTHER.label == "其他"
