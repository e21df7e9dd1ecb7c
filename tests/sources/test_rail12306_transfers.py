"""12306's transfer search as the live site answers it: "nothing found" as a string `data`,
fares in `yp_info`, a path that drifts, a busy site (recorded shapes in tests/fixtures)."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from sources.errors import SourceBlocked, SourceRejected, SourceServerError
from sources.models import SHANGHAI, FareKind, SeatClass, TicketQuery
from sources.rail12306 import Rail12306Source
from sources.rail12306_extras import parse_transfers, transfer_refusal
from sources.stations import curated_directory

FIXTURES = Path(__file__).parent.parent / "fixtures" / "rail12306"
DIRECTORY = curated_directory()
FETCHED_AT = dt.datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)
BASE = "https://kyfw.12306.test"
INIT = re.compile(rf"^{BASE}/otn/leftTicket/init$")
LC_INIT = f"{BASE}/otn/lcQuery/init"
QUERY_G = re.compile(rf"^{BASE}/lcquery/queryG\?")
QUERY_U = re.compile(rf"^{BASE}/lcquery/queryU\?")
LEFT_TICKETS = re.compile(rf"^{BASE}/otn/leftTicket/queryG\?")
TRIP = TicketQuery(origin="BJP", destination="KMM", date=dt.date(2026, 12, 4))


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def lc_page(path: str) -> str:
    return f"<script type='text/javascript'> var lc_search_url = '{path}';</script>"


@pytest.fixture
async def client():
    async with httpx.AsyncClient() as shared:
        yield shared


def adapter(client: httpx.AsyncClient) -> Rail12306Source:
    return Rail12306Source("rail12306", client, BASE, DIRECTORY, clock=lambda: FETCHED_AT)


def mock_session(httpx_mock: Any) -> None:
    httpx_mock.add_response(
        url=INIT, text="<html></html>", headers=[("Set-Cookie", "route=r1; Path=/")]
    )


# -- item 2: legs priced from yp_info ----------------------------------------------------------


def test_legs_are_priced_from_yp_info_with_their_discounts():
    plans, _ = parse_transfers(
        load("lcquery_yp_info_BJP_KMM_2026-12-04.json"), DIRECTORY, FETCHED_AT, "rail12306"
    )
    assert len(plans) == 2
    first, second = plans[0].first, plans[0].second
    assert {s.seat_class: s.price for s in first.seats} == {
        SeatClass.BUSINESS: 2305.5,
        SeatClass.FIRST: 1171.0,
        SeatClass.SECOND: 732.0,
        SeatClass.NO_SEAT: 732.0,
    }
    second_class = first.seat(SeatClass.SECOND)
    assert second_class is not None and second_class.discount == 0.95
    assert all(s.price is not None for p in plans for leg in (p.first, p.second) for s in leg.seats)
    assert second.seat(SeatClass.SECOND) is not None
    assert {first.fare, second.fare} == {FareKind.ADULT}


def test_a_leg_with_yp_info_new_still_reads_it():
    plans, _ = parse_transfers(
        load("lcquery_BJP_KMM_2026-12-04.json"), DIRECTORY, FETCHED_AT, "rail12306"
    )
    assert all(s.price is not None for p in plans for s in p.first.seats)


# -- item 1: "nothing found" ------------------------------------------------------------------


def test_a_string_data_is_an_answer_with_no_plans():
    payload = load("lcquery_nothing_found.json")
    assert parse_transfers(payload, DIRECTORY, FETCHED_AT, "rail12306") == ([], None)
    assert transfer_refusal(payload) == "很抱歉，没有查到符合条件的中转方案"
    assert transfer_refusal(load("lcquery_yp_info_BJP_KMM_2026-12-04.json")) is None


async def test_nothing_found_is_zero_plans_and_the_session_lives_on(httpx_mock, client):
    mock_session(httpx_mock)
    httpx_mock.add_response(url=LC_INIT, text=lc_page("/lcquery/queryG"))
    httpx_mock.add_response(url=QUERY_G, json=load("lcquery_nothing_found.json"))
    httpx_mock.add_response(url=LEFT_TICKETS, json=load("empty_result.json"))
    rail = adapter(client)
    assert await rail.transfers(TRIP, pages=3) == []
    assert len(httpx_mock.get_requests(url=QUERY_G)) == 1, "no next page after nothing"
    assert await rail.search(TRIP) == []  # the same session, straight to the query
    assert [r.url.path for r in httpx_mock.get_requests()][-1] == "/otn/leftTicket/queryG"
    assert rail.sessions_started == 1


# -- item 3: the path drifts --------------------------------------------------------------------


def drifted(httpx_mock: Any, how: str) -> None:
    """The remembered queryG answering as a moved path does, in each shape the site uses."""
    if how == "404":
        httpx_mock.add_response(url=QUERY_G, status_code=404, text="<html>404</html>")
    elif how == "redirect":
        httpx_mock.add_response(
            url=QUERY_G, status_code=302, headers={"Location": "/otn/view/index.html"}
        )
    elif how == "html":
        httpx_mock.add_response(
            url=QUERY_G,
            text=(FIXTURES / "blocked_page.html").read_text(),
            headers={"Content-Type": "text/html"},
        )
    else:
        httpx_mock.add_response(url=QUERY_G, json=load("lcquery_url_error.json"))


@pytest.mark.parametrize("how", ["404", "redirect", "html", "url_error"])
async def test_a_drifted_path_is_read_again_from_lcquery_init_and_remembered(
    httpx_mock, client, how
):
    mock_session(httpx_mock)
    httpx_mock.add_response(url=LC_INIT, text=lc_page("/lcquery/queryG"))
    httpx_mock.add_response(url=QUERY_G, json=load("lcquery_yp_info_BJP_KMM_2026-12-04.json"))
    drifted(httpx_mock, how)
    httpx_mock.add_response(url=LC_INIT, text=lc_page("/lcquery/queryU"))
    httpx_mock.add_response(
        url=QUERY_U, json=load("lcquery_yp_info_BJP_KMM_2026-12-04.json"), is_reusable=True
    )
    rail = adapter(client)
    assert len(await rail.transfers(TRIP, pages=1)) == 2
    assert rail.lc_path == "/lcquery/queryG"
    assert len(await rail.transfers(TRIP, pages=1)) == 2, "the moved path found and followed"
    assert rail.lc_path == "/lcquery/queryU"
    assert len(await rail.transfers(TRIP, pages=1)) == 2
    paths = [r.url.path for r in httpx_mock.get_requests()]
    assert paths == [
        "/otn/leftTicket/init",
        "/otn/lcQuery/init",
        "/lcquery/queryG",
        "/lcquery/queryG",
        "/otn/lcQuery/init",
        "/lcquery/queryU",
        "/lcquery/queryU",
    ], "read once, retried once, remembered: no init page on the third search"
    lc_init = httpx_mock.get_requests(url=LC_INIT)[-1]
    assert lc_init.headers["Accept"].startswith("text/html"), "loaded as a page"
    assert httpx_mock.get_requests(url=QUERY_U)[0].headers["Referer"] == LC_INIT


@pytest.mark.parametrize(
    ("how", "error"),
    [
        ("404", SourceRejected),
        ("url_error", SourceRejected),
        ("redirect", SourceBlocked),
        ("html", SourceBlocked),
    ],
)
async def test_a_drift_the_init_page_does_not_explain_fails_as_the_site_answered(
    httpx_mock, client, how, error
):
    mock_session(httpx_mock)
    httpx_mock.add_response(url=LC_INIT, text=lc_page("/lcquery/queryG"), is_reusable=True)
    httpx_mock.add_response(url=QUERY_G, json=load("lcquery_nothing_found.json"))
    drifted(httpx_mock, how)
    rail = adapter(client)
    assert await rail.transfers(TRIP, pages=1) == []
    with pytest.raises(error):
        await rail.transfers(TRIP, pages=1)
    assert len(httpx_mock.get_requests(url=QUERY_G)) == 2, "the same path is not asked again"
    assert rail.session.stale is (error is SourceBlocked), "only a block sheds the session"


async def test_lcquery_init_is_read_again_at_most_once_per_search(httpx_mock, client):
    mock_session(httpx_mock)
    httpx_mock.add_response(url=LC_INIT, text=lc_page("/lcquery/queryG"))
    drifted(httpx_mock, "404")  # the path just learnt fails at once
    httpx_mock.add_response(url=LC_INIT, text=lc_page("/lcquery/queryU"))
    httpx_mock.add_response(url=QUERY_U, status_code=404)
    with pytest.raises(SourceRejected, match="404"):
        await adapter(client).transfers(TRIP, pages=1)
    assert len(httpx_mock.get_requests(url=LC_INIT)) == 2
    assert len(httpx_mock.get_requests(url=QUERY_U)) == 1, "retried once, then failed"


async def test_a_busy_transfer_search_is_a_transient_failure(httpx_mock, client):
    mock_session(httpx_mock)
    httpx_mock.add_response(url=LC_INIT, text=lc_page("/lcquery/queryG"))
    httpx_mock.add_response(url=QUERY_G, json=load("lcquery_busy.json"))
    with pytest.raises(SourceServerError, match="系统忙"):
        await adapter(client).transfers(TRIP, pages=1)


async def test_a_redirected_lcquery_init_keeps_the_default_path(httpx_mock, client):
    # A public 2026-09 note on the site (find_string id 69863842454): lcQuery/init may
    # redirect to the personal centre.
    mock_session(httpx_mock)
    httpx_mock.add_response(
        url=LC_INIT, status_code=302, headers={"Location": "/otn/view/index.html"}
    )
    httpx_mock.add_response(url=QUERY_G, json=load("lcquery_yp_info_BJP_KMM_2026-12-04.json"))
    assert len(await adapter(client).transfers(TRIP, pages=1)) == 2


# -- item 4: a session before the first request; item 7: student fares --------------------------


async def test_the_transfer_search_sets_up_a_session_first_and_sends_its_cookies(
    httpx_mock, client
):
    mock_session(httpx_mock)
    httpx_mock.add_response(url=LC_INIT, text=lc_page("/lcquery/queryG"))
    httpx_mock.add_response(url=QUERY_G, json=load("lcquery_yp_info_BJP_KMM_2026-12-04.json"))
    student = TRIP.model_copy(update={"fare": FareKind.STUDENT})
    plans = await adapter(client).transfers(student, pages=1)
    init, lc_init, search = httpx_mock.get_requests()
    assert init.url.path == "/otn/leftTicket/init"
    assert lc_init.headers["Cookie"] == search.headers["Cookie"] == "route=r1"
    assert search.url.params["purpose_codes"] == "0X"
    assert {leg.fare for p in plans for leg in (p.first, p.second)} == {FareKind.STUDENT}
