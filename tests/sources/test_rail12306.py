"""The rail12306 adapter: parsing recorded 12306 payloads, and its IO on a mocked transport."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pytest_httpx import HTTPXMock

from sources.errors import (
    QueryRefused,
    SourceBlocked,
    SourceConnectionError,
    SourceMalformed,
    SourceParseError,
    SourceRateLimited,
    SourceRejected,
    SourceServerError,
    SourceTimeout,
    TransientSourceError,
)
from sources.models import SHANGHAI, SeatClass, SeatStatus, Station, TicketQuery, TrainOffer
from sources.rail12306 import (
    BadRow,
    Rail12306Source,
    parse_left_tickets,
    parse_prices,
    parse_row,
    parse_seat_cell,
)
from sources.stations import StationDirectory

FIXTURES = Path(__file__).parent.parent / "fixtures" / "rail12306"
BASE = "https://kyfw.12306.test"
INIT = re.compile(r"^https://kyfw\.12306\.test/otn/leftTicket/init$")
QUERY = re.compile(r"^https://kyfw\.12306\.test/otn/leftTicket/queryG\?")
STALE = re.compile(r"^https://kyfw\.12306\.test/otn/leftTicket/query\?")
QUERY_Z = re.compile(r"^https://kyfw\.12306\.test/otn/leftTicket/queryZ\?")
ANY_QUERY = re.compile(r"^https://kyfw\.12306\.test/otn/leftTicket/query[A-Za-z]*\?")
FETCHED_AT = dt.datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)
DATE = dt.date(2026, 12, 4)
SAME_DAY_QUERY = TicketQuery(origin="BJP", destination="SHH", date=DATE)
INIT_COOKIES = [("Set-Cookie", "JSESSIONID=S1; Path=/otn"), ("Set-Cookie", "route=r1; Path=/")]
REAL_DATE = dt.date(2025, 12, 20)
REAL_FETCHED_AT = dt.datetime(2025, 12, 19, 9, 0, tzinfo=SHANGHAI)

# A deliberately small directory: 上海南 (SNH) is missing, as a station might be in production.
DIRECTORY = StationDirectory(
    [
        Station(telecode="BJP", name="北京", city="北京"),
        Station(telecode="VNP", name="北京南", city="北京"),
        Station(telecode="BXP", name="北京西", city="北京"),
        Station(telecode="SHH", name="上海", city="上海"),
        Station(telecode="AOH", name="上海虹桥", city="上海"),
    ]
)


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def recorded_offers() -> dict[str, TrainOffer]:
    payload = load("beijing_shanghai_2026-12-04.json")
    offers = parse_left_tickets(payload, DIRECTORY, FETCHED_AT, "rail12306", DATE)
    return {offer.train_number: offer for offer in offers}


def seats_of(offer: TrainOffer) -> dict[SeatClass, tuple[SeatStatus, int | None, float | None]]:
    return {s.seat_class: (s.status, s.available, s.price) for s in offer.seats}


# -- parsing recorded payloads ----------------------------------------------------------------


def test_recorded_payload_yields_every_running_train_and_leaves_out_the_cancelled_one():
    assert sorted(recorded_offers()) == ["D5", "G101", "G7", "K1806", "T109", "Z281"]


def test_offer_carries_code_internal_number_stations_times_and_provenance():
    g101 = recorded_offers()["G101"]
    assert g101.train_no == "240000G1010A"
    assert (g101.origin_station.name, g101.destination_station.name) == ("北京南", "上海虹桥")
    assert g101.depart_at == dt.datetime(2026, 12, 4, 6, 36, tzinfo=SHANGHAI)
    assert g101.arrive_at == dt.datetime(2026, 12, 4, 12, 14, tzinfo=SHANGHAI)
    assert g101.duration_min == 5 * 60 + 38
    assert g101.sources == ("rail12306",)
    assert g101.fetched_at == FETCHED_AT
    assert g101.depart_at.utcoffset() == dt.timedelta(hours=8)


def test_rows_use_their_own_boarding_and_alighting_stations_not_the_trains_ends():
    offers = recorded_offers()
    k1806 = offers["K1806"]  # runs 哈尔滨 → 上海; this row is 北京 → 上海
    assert (k1806.origin_station.telecode, k1806.destination_station.telecode) == ("BJP", "SHH")
    z281 = offers["Z281"]  # a city query also returns rides from 北京西
    assert z281.origin_station.telecode == "BXP"
    origins = {o.origin_station.telecode for o in offers.values()}
    assert origins == {"VNP", "BJP", "BXP"}


def test_mid_route_boarding_after_midnight_departs_on_the_query_date_not_the_trains_start_date():
    # field 13 says 20261203: the train left 哈尔滨 the day before
    k1806 = recorded_offers()["K1806"]
    assert k1806.depart_at == dt.datetime(2026, 12, 4, 0, 46, tzinfo=SHANGHAI)
    assert k1806.arrive_at == dt.datetime(2026, 12, 4, 16, 30, tzinfo=SHANGHAI)
    assert k1806.duration_min == 15 * 60 + 44
    assert k1806.date == DATE


def test_overnight_train_arrives_the_next_day():
    t109 = recorded_offers()["T109"]
    assert t109.depart_at == dt.datetime(2026, 12, 4, 19, 33, tzinfo=SHANGHAI)
    assert t109.arrive_at == dt.datetime(2026, 12, 5, 10, 43, tzinfo=SHANGHAI)
    assert t109.duration_min == 15 * 60 + 10


def test_station_unknown_to_the_directory_is_built_from_the_payload_map():
    z281 = recorded_offers()["Z281"]
    assert z281.destination_station == Station(telecode="SNH", name="上海南", city="上海南")


def test_high_speed_seats_statuses_counts_and_prices():
    assert seats_of(recorded_offers()["G101"]) == {
        SeatClass.BUSINESS: (SeatStatus.AVAILABLE, 4, 1748.0),
        SeatClass.FIRST: (SeatStatus.AVAILABLE, None, 933.0),
        SeatClass.SECOND: (SeatStatus.AVAILABLE, None, 553.0),
    }


def test_sleeper_train_with_eleven_character_price_chunks():
    assert seats_of(recorded_offers()["T109"]) == {
        SeatClass.SOFT_SLEEPER: (SeatStatus.SOLD_OUT, 0, 476.0),
        SeatClass.HARD_SLEEPER: (SeatStatus.AVAILABLE, 5, 304.5),
        SeatClass.HARD_SEAT: (SeatStatus.AVAILABLE, None, 177.5),
        # no 无座 chunk: 无座 costs what 硬座 costs
        SeatClass.NO_SEAT: (SeatStatus.AVAILABLE, None, 177.5),
    }


def test_not_on_sale_waitlist_from_the_flags_zero_and_sold_out_cells():
    assert seats_of(recorded_offers()["K1806"]) == {
        SeatClass.SOFT_SLEEPER: (SeatStatus.NOT_ON_SALE, None, 453.0),  # "*"
        # "无", and field 37 is 1 with 3 (硬卧) not among field 38's codes: waitlist
        SeatClass.HARD_SLEEPER: (SeatStatus.WAITLIST, None, 293.0),
        SeatClass.HARD_SEAT: (SeatStatus.SOLD_OUT, 0, 164.5),  # "0", code 1 listed in 38
        SeatClass.NO_SEAT: (SeatStatus.SOLD_OUT, 0, 164.5),  # "无", code W listed in 38
    }


def test_no_seat_price_is_read_from_a_chunk_marked_by_a_count_of_3000_or_more():
    d5 = seats_of(recorded_offers()["D5"])
    assert d5[SeatClass.NO_SEAT] == (SeatStatus.WAITLIST, None, 309.0)
    assert d5[SeatClass.EMU_SLEEPER] == (SeatStatus.AVAILABLE, 3, 713.0)
    assert d5[SeatClass.SECOND] == (SeatStatus.AVAILABLE, None, 309.0)


def test_an_unreadable_price_chunk_loses_only_its_own_price():
    g7 = seats_of(recorded_offers()["G7"])
    assert g7[SeatClass.FIRST] == (SeatStatus.AVAILABLE, 12, None)
    assert g7[SeatClass.BUSINESS] == (SeatStatus.SOLD_OUT, 0, 1748.0)
    assert g7[SeatClass.SECOND] == (SeatStatus.SOLD_OUT, 0, 553.0)


def test_classes_a_train_does_not_offer_are_omitted():
    offers = recorded_offers()
    assert offers["G101"].seat(SeatClass.NO_SEAT) is None  # ""
    assert offers["G7"].seat(SeatClass.NO_SEAT) is None  # "--"
    assert offers["T109"].seat(SeatClass.PREMIUM_SLEEPER) is None  # "--"


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("有", (SeatStatus.AVAILABLE, None)),
        ("12", (SeatStatus.AVAILABLE, 12)),
        ("0", (SeatStatus.SOLD_OUT, 0)),
        ("无", (SeatStatus.SOLD_OUT, 0)),
        ("*", (SeatStatus.NOT_ON_SALE, None)),
        ("候补", None),  # real rows never print it
        ("", None),
        ("--", None),
        ("？", None),
    ],
)
def test_seat_cell_values(cell, expected):
    assert parse_seat_cell(cell) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("O055300021", {SeatClass.SECOND: 553.0}),
        ("O0553000021M0933000012", {SeatClass.SECOND: 553.0, SeatClass.FIRST: 933.0}),
        ("1017750000W01775000", {SeatClass.HARD_SEAT: 177.5}),  # a truncated chunk is lost
        ("1017750000O017753000", {SeatClass.HARD_SEAT: 177.5, SeatClass.NO_SEAT: 177.5}),
        # a damaged chunk is skipped and decoding resumes at the next letter code
        ("1017750000MX0933O055300021", {SeatClass.HARD_SEAT: 177.5, SeatClass.SECOND: 553.0}),
        # H and unknown codes (a new letter) are 其他, and keep their place: neighbours unharmed
        (
            "9233700001H012340000D147100004",
            {SeatClass.BUSINESS: 2337.0, SeatClass.OTHER: 123.4, SeatClass.PREMIUM_FIRST: 1471.0},
        ),
        ("Q012340005O066900021", {SeatClass.OTHER: 123.4, SeatClass.SECOND: 669.0}),
        # the full code table: 二等包座 S, 一等卧 I, 二等卧 J, 高级动卧 A
        (
            "S070000010I080000005J050000003A150000001",
            {
                SeatClass.SECOND: 700.0,
                SeatClass.SOFT_SLEEPER: 800.0,
                SeatClass.HARD_SLEEPER: 500.0,
                SeatClass.PREMIUM_SLEEPER: 1500.0,
            },
        ),
        ("", {}),
        ("garbage", {}),
    ],
)
def test_price_chunks_of_ten_and_eleven_characters(text, expected):
    assert parse_prices(text) == expected


@given(st.text(alphabet="0123456789OMPWDSHIJAF|x", max_size=60))
def test_price_parsing_never_crashes_on_odd_input(text):
    prices = parse_prices(text)
    assert all(price >= 0 for price in prices.values())


@given(st.lists(st.text(alphabet="0123456789:|有无GKVNPBJ", max_size=8), max_size=60))
def test_row_parsing_fails_only_by_skipping_the_row(fields):
    try:
        offer = parse_row("|".join(fields), {}, DIRECTORY, DATE, FETCHED_AT, "rail12306")
    except BadRow as exc:
        assert str(exc)
    else:
        assert offer is None or isinstance(offer, TrainOffer)


@pytest.mark.parametrize("row", [42, None, {"train": "G101"}])
def test_a_row_that_is_not_a_string_is_skipped(row):
    with pytest.raises(BadRow, match="not a string"):
        parse_row(row, {}, DIRECTORY, DATE, FETCHED_AT, "rail12306")


def test_empty_result_for_an_unknown_telecode_is_no_offers_not_an_error():
    assert parse_left_tickets(load("empty_result.json"), DIRECTORY, FETCHED_AT, "r", DATE) == []


def test_every_row_unreadable_is_a_parse_error():
    with pytest.raises(SourceParseError):
        parse_left_tickets(load("unreadable_rows.json"), DIRECTORY, FETCHED_AT, "r", DATE)


def test_unreadable_rows_are_skipped_when_others_read():
    payload = load("beijing_shanghai_2026-12-04.json")
    payload["data"]["result"] += load("unreadable_rows.json")["data"]["result"]
    offers = parse_left_tickets(payload, DIRECTORY, FETCHED_AT, "r", DATE)
    assert len(offers) == 6


def test_row_whose_arrival_disagrees_with_its_duration_is_skipped():
    payload = load("beijing_shanghai_2026-12-04.json")
    row = payload["data"]["result"][0].split("|")
    row[10] = "04:00"
    with pytest.raises(BadRow, match="disagrees"):
        parse_row("|".join(row), {}, DIRECTORY, DATE, FETCHED_AT, "r")


def test_row_with_a_station_named_nowhere_is_skipped():
    payload = load("beijing_shanghai_2026-12-04.json")
    row = payload["data"]["result"][0].split("|")
    row[7] = "QQQ"
    with pytest.raises(BadRow, match="QQQ"):
        parse_row("|".join(row), payload["data"]["map"], DIRECTORY, DATE, FETCHED_AT, "r")


# -- IO against a mocked transport ------------------------------------------------------------


@pytest.fixture
async def client():
    async with httpx.AsyncClient() as shared:
        yield shared


def source(client: httpx.AsyncClient, name: str = "rail12306") -> Rail12306Source:
    return Rail12306Source(name, client, BASE + "/", DIRECTORY, clock=lambda: FETCHED_AT)


def mock_init(httpx_mock: HTTPXMock, **kwargs: Any) -> None:
    httpx_mock.add_response(
        url=INIT, text=(FIXTURES / "init_page.html").read_text(), headers=INIT_COOKIES, **kwargs
    )


def mock_payload(httpx_mock: HTTPXMock, name: str, url: re.Pattern[str] = QUERY) -> None:
    httpx_mock.add_response(url=url, json=load(name))


async def test_search_inits_first_then_queries_with_the_session_cookies(httpx_mock, client):
    mock_init(httpx_mock)
    mock_payload(httpx_mock, "beijing_shanghai_2026-12-04.json")
    mock_payload(httpx_mock, "empty_result.json")
    adapter = source(client)
    offers = await adapter.search(SAME_DAY_QUERY)
    await adapter.search(SAME_DAY_QUERY)
    requests = httpx_mock.get_requests()
    assert [r.url.path for r in requests] == [
        "/otn/leftTicket/init",
        "/otn/leftTicket/queryG",
        "/otn/leftTicket/queryG",
    ]
    assert requests[1].headers["Cookie"] == requests[2].headers["Cookie"]
    assert set(requests[1].headers["Cookie"].split("; ")) == {"JSESSIONID=S1", "route=r1"}
    assert len(offers) == 6


async def test_concurrent_first_searches_share_one_init(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, json=load("empty_result.json"), is_reusable=True)
    adapter = source(client)
    await asyncio.gather(*(adapter.search(SAME_DAY_QUERY) for _ in range(3)))
    paths = [r.url.path for r in httpx_mock.get_requests()]
    assert paths.count("/otn/leftTicket/init") == 1
    assert paths.count("/otn/leftTicket/queryG") == 3


async def test_query_sends_browser_headers_and_parameters_in_12306_order(httpx_mock, client):
    mock_init(httpx_mock)
    mock_payload(httpx_mock, "empty_result.json")
    await source(client).search(SAME_DAY_QUERY)
    query = httpx_mock.get_requests()[1]
    assert query.url.query.decode() == (
        "leftTicketDTO.train_date=2026-12-04&leftTicketDTO.from_station=BJP"
        "&leftTicketDTO.to_station=SHH&purpose_codes=ADULT"
    )
    assert query.headers["X-Requested-With"] == "XMLHttpRequest"
    assert query.headers["Referer"] == BASE + "/otn/leftTicket/init"
    assert "application/json" in query.headers["Accept"]
    assert query.headers["User-Agent"].startswith("Mozilla/5.0 (Windows NT")


def mock_bare_init(httpx_mock: HTTPXMock) -> None:
    """An init page that names no query path: the adapter keeps the one it has."""
    httpx_mock.add_response(url=INIT, text="<html></html>", headers=INIT_COOKIES)


async def test_the_first_query_goes_to_queryG_and_the_init_page_can_name_another(
    httpx_mock, client
):
    httpx_mock.add_response(
        url=INIT, text="<script>var CLeftTicketUrl = 'leftTicket/queryZ';</script>"
    )
    mock_payload(httpx_mock, "empty_result.json", QUERY_Z)
    adapter = source(client)
    assert adapter.query_suffix == "queryG"
    assert await adapter.search(SAME_DAY_QUERY) == []
    assert adapter.query_suffix == "queryZ"


async def test_a_302_to_the_current_path_is_a_move_followed_once_and_remembered(httpx_mock, client):
    mock_bare_init(httpx_mock)
    httpx_mock.add_response(
        url=STALE,
        status_code=302,
        headers={"Location": "leftTicket/queryG?leftTicketDTO.train_date=2026-12-04"},
    )
    mock_payload(httpx_mock, "beijing_shanghai_2026-12-04.json")
    mock_payload(httpx_mock, "empty_result.json")
    adapter = source(client)
    adapter.query_suffix = "query"  # as the live site answers a client that still uses it
    assert len(await adapter.search(SAME_DAY_QUERY)) == 6
    assert adapter.query_suffix == "queryG"
    assert await adapter.search(SAME_DAY_QUERY) == []
    paths = [r.url.path for r in httpx_mock.get_requests()]
    assert paths == [
        "/otn/leftTicket/init",
        "/otn/leftTicket/query",
        "/otn/leftTicket/queryG",
        "/otn/leftTicket/queryG",
    ]


async def test_an_absolute_302_to_another_query_path_is_a_move_too(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(
        url=QUERY,
        status_code=302,
        headers={"Location": "https://kyfw.12306.test/otn/leftTicket/queryZ?x=1"},
    )
    mock_payload(httpx_mock, "empty_result.json", QUERY_Z)
    adapter = source(client)
    assert await adapter.search(SAME_DAY_QUERY) == []
    assert adapter.query_suffix == "queryZ"


async def test_the_older_c_url_answer_is_a_move_too(httpx_mock, client):
    mock_bare_init(httpx_mock)
    mock_payload(httpx_mock, "c_url_redirect.json", STALE)
    mock_payload(httpx_mock, "beijing_shanghai_2026-12-04.json")
    adapter = source(client)
    adapter.query_suffix = "query"
    assert len(await adapter.search(SAME_DAY_QUERY)) == 6
    assert adapter.query_suffix == "queryG"


async def test_a_second_move_in_a_row_is_a_block_not_a_loop(httpx_mock, client):
    mock_bare_init(httpx_mock)
    mock_payload(httpx_mock, "c_url_redirect.json", STALE)
    httpx_mock.add_response(url=QUERY, status_code=302, headers={"Location": "leftTicket/queryZ"})
    adapter = source(client)
    adapter.query_suffix = "query"
    with pytest.raises(SourceBlocked, match="again"):
        await adapter.search(SAME_DAY_QUERY)
    assert len(httpx_mock.get_requests()) == 3


async def test_c_url_outside_the_left_ticket_query_is_refused(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, json={"status": False, "c_url": "../../evil"})
    with pytest.raises(SourceParseError, match="c_url"):
        await source(client).search(SAME_DAY_QUERY)


@pytest.mark.parametrize(
    "location", ["/mormhweb/logFiles/error.html", "https://www.12306.cn/mormhweb/ntce/"]
)
async def test_a_302_to_an_error_or_notice_page_naming_the_same_path_again_is_a_block(
    httpx_mock, client, location
):
    mock_init(httpx_mock, is_reusable=True)
    httpx_mock.add_response(url=QUERY, status_code=302, headers={"Location": location})
    with pytest.raises(SourceBlocked, match="302"):
        await source(client).search(SAME_DAY_QUERY)
    # The init page is read again once (a stale path bounces there too); it still names
    # queryG, so it is a block, and the query is not sent again.
    assert [r.url.path for r in httpx_mock.get_requests()] == [
        "/otn/leftTicket/init",
        "/otn/leftTicket/queryG",
        "/otn/leftTicket/init",
    ]


async def test_a_stale_path_bouncing_to_the_error_page_is_followed_within_the_same_search(
    httpx_mock, client
):
    # pjialin/py12306#121: the "302 to error.html" was the path gone from queryX to queryZ.
    mock_init(httpx_mock)
    httpx_mock.add_response(
        url=QUERY, status_code=302, headers={"Location": "/mormhweb/logFiles/error.html"}
    )
    httpx_mock.add_response(
        url=INIT, text="<script>var CLeftTicketUrl = 'leftTicket/queryZ';</script>"
    )
    mock_payload(httpx_mock, "beijing_shanghai_2026-12-04.json", QUERY_Z)
    pacer = CountingPacer()
    adapter = Rail12306Source(
        "rail12306", client, BASE, DIRECTORY, clock=lambda: FETCHED_AT, pacer=pacer
    )
    assert len(await adapter.search(SAME_DAY_QUERY)) == 6
    assert adapter.query_suffix == "queryZ"
    requests = httpx_mock.get_requests()
    assert [r.url.path for r in requests] == [
        "/otn/leftTicket/init",
        "/otn/leftTicket/queryG",
        "/otn/leftTicket/init",
        "/otn/leftTicket/queryZ",
    ]
    assert requests[2].headers["Cookie"] == requests[1].headers["Cookie"], "the same session"
    assert pacer.extra == 3, "every request after the attempt's first waits for the limiter"


async def test_a_date_not_on_sale_is_refused_before_any_request(httpx_mock, client):
    adapter = source(client)  # its clock says 2026-12-01: the last date on sale is 12-15
    for day in (dt.date(2026, 12, 16), dt.date(2026, 11, 30)):
        with pytest.raises(QueryRefused, match="not on sale"):
            await adapter.search(TicketQuery(origin="BJP", destination="SHH", date=day))
    assert httpx_mock.get_requests() == []


async def test_the_session_is_refreshed_after_ten_minutes_through_the_pacer(httpx_mock, client):
    mock_init(httpx_mock)
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, json=load("empty_result.json"), is_reusable=True)
    now = [0.0]
    pacer = CountingPacer()
    adapter = Rail12306Source(
        "rail12306",
        client,
        BASE,
        DIRECTORY,
        clock=lambda: FETCHED_AT,
        monotonic=lambda: now[0],
        pacer=pacer,
    )
    await adapter.search(SAME_DAY_QUERY)  # init + query: the query is the extra request
    now[0] = 599.0
    await adapter.search(SAME_DAY_QUERY)  # same session: one request, the attempt's own
    now[0] = 600.0
    await adapter.search(SAME_DAY_QUERY)  # refreshed: init + query again
    paths = [r.url.path for r in httpx_mock.get_requests()]
    assert paths.count("/otn/leftTicket/init") == 2 and len(paths) == 5
    assert pacer.extra == 2 and adapter.sessions_started == 2


class CountingPacer:
    """A `RequestPacer` that counts the extra requests it admits."""

    def __init__(self) -> None:
        self.extra = 0

    @asynccontextmanager
    async def extra_request(self) -> AsyncIterator[None]:
        self.extra += 1
        yield


async def test_after_a_block_the_next_session_starts_without_any_cookie(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(
        url=QUERY, status_code=302, headers={"Location": "/mormhweb/logFiles/error.html"}
    )
    mock_bare_init(httpx_mock)  # the re-read: same path, so a block
    httpx_mock.add_response(
        url=INIT, text="<html></html>", headers=[("Set-Cookie", "JSESSIONID=S2; Path=/")]
    )
    mock_payload(httpx_mock, "empty_result.json")
    # The shared client's jar holds cookies of its own (it collects every Set-Cookie): none
    # of them may ever reach 12306 on this adapter's behalf.
    client.cookies.set("JSESSIONID", "FROM-THE-SHARED-JAR", domain="kyfw.12306.test")
    adapter = source(client)
    with pytest.raises(SourceBlocked, match="302"):
        await adapter.search(SAME_DAY_QUERY)
    assert await adapter.search(SAME_DAY_QUERY) == []
    requests = httpx_mock.get_requests()
    assert [r.url.path for r in requests] == [
        "/otn/leftTicket/init",
        "/otn/leftTicket/queryG",
        "/otn/leftTicket/init",
        "/otn/leftTicket/init",
        "/otn/leftTicket/queryG",
    ]
    assert "Cookie" not in requests[0].headers, "the first page load carries no cookie"
    assert set(requests[1].headers["Cookie"].split("; ")) == {"JSESSIONID=S1", "route=r1"}
    assert "Cookie" not in requests[3].headers, "the blocked session is shed, cookies and all"
    assert requests[4].headers["Cookie"] == "JSESSIONID=S2"


async def test_a_block_sheds_the_session_whatever_the_shared_jar_collected(httpx_mock):
    """Through a real client whose jar collected the init cookies: the re-init is cookieless."""
    mock_init(httpx_mock)
    httpx_mock.add_response(  # HTML from the query path: a block
        url=QUERY,
        text=(FIXTURES / "blocked_page.html").read_text(),
        headers={"Content-Type": "text/html;charset=utf-8"},
    )
    mock_init(httpx_mock)
    mock_payload(httpx_mock, "empty_result.json")
    async with httpx.AsyncClient() as shared:
        adapter = source(shared)
        with pytest.raises(SourceBlocked):
            await adapter.search(SAME_DAY_QUERY)
        assert shared.cookies.get("JSESSIONID") == "S1", "the shared jar did collect it"
        await adapter.search(SAME_DAY_QUERY)
    reinit = httpx_mock.get_requests()[2]
    assert reinit.url.path == "/otn/leftTicket/init"
    assert "Cookie" not in reinit.headers


async def test_html_instead_of_json_is_a_block(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(
        url=QUERY,
        text=(FIXTURES / "blocked_page.html").read_text(),
        headers={"Content-Type": "text/html;charset=utf-8"},
    )
    with pytest.raises(SourceBlocked, match="not JSON"):
        await source(client).search(SAME_DAY_QUERY)


async def test_json_without_data_is_a_broken_answer_not_a_block_and_keeps_the_session(
    httpx_mock, client
):
    mock_init(httpx_mock)
    mock_payload(httpx_mock, "no_data.json")
    mock_payload(httpx_mock, "empty_result.json")
    adapter = source(client)
    with pytest.raises(SourceMalformed, match="without data") as raised:
        await adapter.search(SAME_DAY_QUERY)
    assert not isinstance(raised.value, SourceBlocked)
    await adapter.search(SAME_DAY_QUERY)
    assert [r.url.path for r in httpx_mock.get_requests()].count("/otn/leftTicket/init") == 1


@pytest.mark.parametrize(
    "body",
    [b'{"data": {"result": ["a|b', b"[1, 2]", b"", b'{"httpstatus": 200, "data": '],
    ids=["cut-off", "a-list", "empty", "cut-before-data"],
)
async def test_a_broken_json_body_is_malformed_and_transient_never_a_block(
    httpx_mock, client, body
):
    mock_init(httpx_mock)
    httpx_mock.add_response(
        url=QUERY, content=body, headers={"Content-Type": "application/json;charset=UTF-8"}
    )
    with pytest.raises(SourceMalformed) as raised:
        await source(client).search(SAME_DAY_QUERY)
    assert isinstance(raised.value, TransientSourceError)
    assert not isinstance(raised.value, SourceBlocked)


async def test_html_without_a_content_type_is_still_a_block(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(
        url=QUERY, content="\n  <!DOCTYPE html><html>网络可能存在问题</html>".encode()
    )
    with pytest.raises(SourceBlocked, match="not JSON"):
        await source(client).search(SAME_DAY_QUERY)


async def test_status_false_without_c_url_is_a_block(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, json={"status": False, "messages": ["系统忙，请稍后重试"]})
    with pytest.raises(SourceBlocked, match="系统忙"):
        await source(client).search(SAME_DAY_QUERY)


async def test_server_error_is_classified_with_its_status(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, status_code=502, text="<html>Bad Gateway</html>")
    with pytest.raises(SourceServerError) as info:
        await source(client).search(SAME_DAY_QUERY)
    assert info.value.status_code == 502


async def test_http_429_is_rate_limited_with_retry_after(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, status_code=429, headers={"Retry-After": "7"})
    with pytest.raises(SourceRateLimited) as info:
        await source(client).search(SAME_DAY_QUERY)
    assert info.value.retry_after == 7.0


async def test_timeout_is_a_source_timeout(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_exception(httpx.ReadTimeout("slow"), url=QUERY)
    with pytest.raises(SourceTimeout):
        await source(client).search(SAME_DAY_QUERY)


async def test_lost_connection_during_init_is_a_connection_error(httpx_mock, client):
    httpx_mock.add_exception(httpx.ConnectError("refused"), url=INIT)
    with pytest.raises(SourceConnectionError):
        await source(client).search(SAME_DAY_QUERY)


async def test_init_answered_with_a_redirect_is_a_block(httpx_mock, client):
    httpx_mock.add_response(url=INIT, status_code=302, headers={"Location": "/error.html"})
    with pytest.raises(SourceBlocked):
        await source(client).search(SAME_DAY_QUERY)


async def test_other_client_errors_are_rejections(httpx_mock, client):
    mock_init(httpx_mock)
    httpx_mock.add_response(url=QUERY, status_code=403)
    with pytest.raises(SourceRejected):
        await source(client).search(SAME_DAY_QUERY)


async def test_train_type_filter_keeps_only_the_asked_types(httpx_mock, client):
    mock_init(httpx_mock)
    mock_payload(httpx_mock, "beijing_shanghai_2026-12-04.json")
    query = TicketQuery(origin="BJP", destination="SHH", date=DATE, train_types={"G", "D"})
    offers = await source(client).search(query)
    assert sorted(o.train_number for o in offers) == ["D5", "G101", "G7"]


async def test_two_adapters_on_one_shared_client_keep_their_own_sessions(httpx_mock, client):
    httpx_mock.add_response(url=INIT, headers=[("Set-Cookie", "JSESSIONID=A; Path=/")])
    httpx_mock.add_response(url=INIT, headers=[("Set-Cookie", "JSESSIONID=B; Path=/")])
    httpx_mock.add_response(url=ANY_QUERY, json=load("empty_result.json"), is_reusable=True)
    first, second = source(client, "a"), source(client, "b")
    await first.search(SAME_DAY_QUERY)
    await second.search(SAME_DAY_QUERY)
    await first.search(SAME_DAY_QUERY)
    cookies = [r.headers.get("Cookie") for r in httpx_mock.get_requests(url=ANY_QUERY)]
    assert cookies == ["JSESSIONID=A", "JSESSIONID=B", "JSESSIONID=A"]


# -- against a plain HTTP server speaking the real format --------------------------------------


class Fake12306Handler(BaseHTTPRequestHandler):
    """Serves init (with cookies), a stale-suffix c_url answer, and the recorded payload."""

    seen: list[tuple[str, str | None]]

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        cookie = self.headers.get("Cookie")
        self.seen.append((self.path, cookie))
        if url.path == "/otn/leftTicket/init":
            self._answer(200, (FIXTURES / "init_page.html").read_bytes(), "text/html", cookies=True)
        elif not cookie or "JSESSIONID=LIVE" not in cookie:
            self.send_response(302)
            self.send_header("Location", "/mormhweb/logFiles/error.html")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif url.path == "/otn/leftTicket/queryG":
            params = parse_qs(url.query)
            assert params["leftTicketDTO.train_date"] == ["2026-12-04"]
            body = (FIXTURES / "beijing_shanghai_2026-12-04.json").read_bytes()
            self._answer(200, body, "application/json;charset=UTF-8")
        else:
            self._answer(200, (FIXTURES / "c_url_redirect.json").read_bytes(), "application/json")

    def _answer(self, status: int, body: bytes, content_type: str, cookies: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if cookies:
            self.send_header("Set-Cookie", "JSESSIONID=LIVE; Path=/otn")
            self.send_header("Set-Cookie", "BIGipServerotn=1234.5678.0000; Path=/")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass


@pytest.fixture
def fake_12306():
    seen: list[tuple[str, str | None]] = []
    handler = type("Handler", (Fake12306Handler,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


async def test_adapter_against_a_plain_http_server_returns_correct_offers(fake_12306):
    base_url, seen = fake_12306
    async with httpx.AsyncClient(trust_env=False) as real_client:
        adapter = Rail12306Source("rail12306", real_client, base_url, DIRECTORY, lambda: FETCHED_AT)
        offers = {o.train_number: o for o in await adapter.search(SAME_DAY_QUERY)}
        again = await adapter.search(SAME_DAY_QUERY)

    assert [path.split("?")[0] for path, _ in seen] == [
        "/otn/leftTicket/init",
        "/otn/leftTicket/queryG",
        "/otn/leftTicket/queryG",
    ]
    assert all("JSESSIONID=LIVE" in (cookie or "") for _, cookie in seen[1:])
    assert len(again) == len(offers) == 6

    g101 = offers["G101"]
    assert (g101.train_number, g101.train_no) == ("G101", "240000G1010A")
    assert (g101.origin_station.telecode, g101.destination_station.telecode) == ("VNP", "AOH")
    assert (g101.depart_at, g101.arrive_at, g101.duration_min) == (
        dt.datetime(2026, 12, 4, 6, 36, tzinfo=SHANGHAI),
        dt.datetime(2026, 12, 4, 12, 14, tzinfo=SHANGHAI),
        338,
    )
    assert seats_of(g101) == {
        SeatClass.BUSINESS: (SeatStatus.AVAILABLE, 4, 1748.0),
        SeatClass.FIRST: (SeatStatus.AVAILABLE, None, 933.0),
        SeatClass.SECOND: (SeatStatus.AVAILABLE, None, 553.0),
    }

    k1806 = offers["K1806"]
    assert (k1806.origin_station.telecode, k1806.destination_station.telecode) == ("BJP", "SHH")
    assert (k1806.depart_at, k1806.arrive_at, k1806.duration_min) == (
        dt.datetime(2026, 12, 4, 0, 46, tzinfo=SHANGHAI),
        dt.datetime(2026, 12, 4, 16, 30, tzinfo=SHANGHAI),
        944,
    )
    assert seats_of(k1806) == {
        SeatClass.SOFT_SLEEPER: (SeatStatus.NOT_ON_SALE, None, 453.0),
        SeatClass.HARD_SLEEPER: (SeatStatus.WAITLIST, None, 293.0),
        SeatClass.HARD_SEAT: (SeatStatus.SOLD_OUT, 0, 164.5),
        SeatClass.NO_SEAT: (SeatStatus.SOLD_OUT, 0, 164.5),
    }

    t109 = offers["T109"]
    assert (t109.origin_station.name, t109.destination_station.name) == ("北京", "上海")
    assert (t109.depart_at, t109.arrive_at, t109.duration_min) == (
        dt.datetime(2026, 12, 4, 19, 33, tzinfo=SHANGHAI),
        dt.datetime(2026, 12, 5, 10, 43, tzinfo=SHANGHAI),
        910,
    )
    assert seats_of(t109) == {
        SeatClass.SOFT_SLEEPER: (SeatStatus.SOLD_OUT, 0, 476.0),
        SeatClass.HARD_SLEEPER: (SeatStatus.AVAILABLE, 5, 304.5),
        SeatClass.HARD_SEAT: (SeatStatus.AVAILABLE, None, 177.5),
        SeatClass.NO_SEAT: (SeatStatus.AVAILABLE, None, 177.5),
    }

    z281 = offers["Z281"]
    assert (z281.origin_station.name, z281.destination_station.name) == ("北京西", "上海南")
    assert z281.arrive_at == dt.datetime(2026, 12, 5, 8, 40, tzinfo=SHANGHAI)
    assert seats_of(z281)[SeatClass.SOFT_SLEEPER] == (SeatStatus.AVAILABLE, 2, 492.0)
    assert seats_of(offers["D5"])[SeatClass.EMU_SLEEPER] == (SeatStatus.AVAILABLE, 3, 713.0)
