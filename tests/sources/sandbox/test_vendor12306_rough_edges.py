"""The 12306 sandbox learns the live site's rough edges: servlet sessions that stay blocked,
pages that want a browser, a transfer search that drifts and answers "nothing found" as a
string, leg fares in yp_info, student fares, a stale path that bounces to the error page."""

from __future__ import annotations

import datetime as dt

import httpx

from sources.models import SeatClass
from sources.rail12306_rows import parse_prices
from sources.sandbox.wire12306 import ERROR_PAGE

from .conftest import TRIP, client_for, query_params

QUERY = "/otn/leftTicket/queryG"
LC_INIT = "/otn/lcQuery/init"


def lc_params(origin: str, destination: str, date: dt.date = TRIP, **extra: str) -> dict:
    return {
        "train_date": date.isoformat(),
        "from_station_telecode": origin,
        "to_station_telecode": destination,
        "middle_station": "",
        "result_index": "0",
        "can_query": "Y",
        "isShowWZ": "N",
        "purpose_codes": "00",
        "channel": "E",
    } | extra


# -- sessions ---------------------------------------------------------------------------------


async def test_an_init_handed_a_live_session_keeps_it_and_issues_none(app_12306):
    async with client_for(app_12306) as client:
        first = await client.get("/otn/leftTicket/init")
        again = await client.get("/otn/leftTicket/init")
    assert "JSESSIONID" in first.cookies
    assert "JSESSIONID" not in again.cookies, "a servlet keeps the session it is handed"


async def test_a_blocked_session_stays_blocked_until_a_cookieless_init(rail, faults_12306):
    faults_12306.update(rate_limit_rate=1)
    assert (await rail.get(QUERY, params=query_params("BJP", "SHH"))).status_code == 302
    faults_12306.update(rate_limit_rate=0)
    # Sending the blocked session back: the init keeps it, the query still bounces.
    reinit = await rail.get("/otn/leftTicket/init")
    assert "JSESSIONID" not in reinit.cookies
    bounced = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    assert bounced.status_code == 302 and bounced.headers["location"] == ERROR_PAGE
    # A cookieless init is a new session, which is served.
    rail.cookies.clear()
    assert "JSESSIONID" in (await rail.get("/otn/leftTicket/init")).cookies
    assert (await rail.get(QUERY, params=query_params("BJP", "SHH"))).json()["status"] is True


# -- pages ------------------------------------------------------------------------------------


async def test_a_page_asked_without_a_browser_user_agent_bounces(app_12306):
    transport = httpx.ASGITransport(app=app_12306)
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as bare:
        for page in ("/otn/leftTicket/init", LC_INIT):
            response = await bare.get(page)
            assert response.status_code == 302 and response.headers["location"] == ERROR_PAGE


async def test_the_page_error_knob_answers_page_loads_500(rail, faults_12306):
    faults_12306.update(page_error_rate=1)
    assert (await rail.get("/otn/leftTicket/init")).status_code == 500
    assert (await rail.get(LC_INIT)).status_code == 500
    assert (await rail.get(QUERY, params=query_params("BJP", "SHH"))).status_code == 200


async def test_the_stop_list_and_the_transfer_search_want_the_session(app_12306):
    async with client_for(app_12306) as client:
        stops = await client.get("/otn/czxx/queryByTrainNo", params={"depart_date": "2026-12-04"})
        search = await client.get("/lcquery/queryG", params=lc_params("NJH", "DIQ"))
    assert stops.status_code == search.status_code == 302


# -- the transfer search ------------------------------------------------------------------------


async def test_nothing_found_is_a_string_data_with_an_error_message(rail):
    body = (
        await rail.get("/lcquery/queryG", params=lc_params("BJP", "VNP"))
    ).json()  # one city: none
    assert body["data"] == "" and body["status"] is False and body["errorMsg"]


async def test_legs_carry_their_fares_in_yp_info_with_seat_discount_info(rail):
    body = (await rail.get("/lcquery/queryG", params=lc_params("NJH", "DIQ"))).json()
    legs = [leg for plan in body["data"]["middleList"] for leg in plan["fullList"]]
    assert legs and all("yp_info_new" not in leg for leg in legs)
    assert all(parse_prices(leg["yp_info"]) for leg in legs)
    assert all("seat_discount_info" in leg for leg in legs)


async def test_the_lc_path_moves_and_only_lcquery_init_tells_where(rail, app_12306, faults_12306):
    faults_12306.update(lc_path_moved_rate=1)
    answers = []
    for _ in range(4):  # each move is answered one of the live site's ways in turn
        moved = await rail.get(app_12306.state.lc_path, params=lc_params("NJH", "DIQ"))
        answers.append((moved.status_code, moved.headers.get("content-type", "")[:9]))
        page = (await rail.get(LC_INIT)).text
        assert f"lc_search_url = '{app_12306.state.lc_path}'" in page
        served = await rail.get(app_12306.state.lc_path, params=lc_params("NJH", "DIQ"))
        assert served.json()["data"]["middleList"], "the reader of lcQuery/init is served"
    assert [a[0] for a in answers] == [404, 302, 200, 200]
    assert answers[2][1] == "text/html" and answers[3][1] == "applicati"
    assert {app_12306.state.lc_path} <= {"/lcquery/queryG", "/lcquery/queryU"}


async def test_the_transfer_error_knob_answers_502(rail, faults_12306):
    faults_12306.update(transfer_error_rate=1)
    response = await rail.get("/lcquery/queryG", params=lc_params("NJH", "DIQ"))
    assert response.status_code == 502


# -- student fares ----------------------------------------------------------------------------


async def test_a_student_query_is_priced_at_student_fares(rail):
    async def prices(purpose: str) -> dict[str, dict[SeatClass, float]]:
        params = query_params("BJP", "SHH") | {"purpose_codes": purpose}
        rows = (await rail.get(QUERY, params=params)).json()["data"]["result"]
        return {r.split("|")[3]: parse_prices(r.split("|")[39]) for r in rows}

    adult, student = await prices("ADULT"), await prices("0X00")
    g = next(code for code in adult if code.startswith("G") and SeatClass.SECOND in adult[code])
    assert student[g][SeatClass.SECOND] < adult[g][SeatClass.SECOND]
    if SeatClass.BUSINESS in adult[g]:
        assert student[g][SeatClass.BUSINESS] == adult[g][SeatClass.BUSINESS], "no discount"


# -- a stale left-ticket path that bounces -----------------------------------------------------


async def test_the_bounce_knob_moves_the_path_and_bounces_the_stale_one(
    rail, app_12306, faults_12306
):
    faults_12306.update(path_bounce_rate=1)
    response = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    assert response.status_code == 302 and response.headers["location"] == ERROR_PAGE
    assert app_12306.state.query_suffix == "queryZ"
    again = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    assert again.headers["location"] == ERROR_PAGE, "the stale path keeps bouncing"
    page = (await rail.get("/otn/leftTicket/init")).text
    assert "leftTicket/queryZ" in page
    served = await rail.get("/otn/leftTicket/queryZ", params=query_params("BJP", "SHH"))
    assert served.json()["status"] is True
