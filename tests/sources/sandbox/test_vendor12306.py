"""The 12306 sandbox speaks 12306's wire format, blocks like 12306 and injects each fault."""

from __future__ import annotations

import asyncio
import datetime as dt
import json

import pytest

from sources.models import SeatClass
from sources.sandbox import FaultConfig, create_12306_app
from sources.sandbox.fares import fare
from sources.sandbox.serving import HANG_S
from sources.sandbox.wire12306 import ERROR_PAGE, ROW_FIELDS, SEAT_CODE
from sources.stations import StationDirectory, curated_directory, parse_station_name_js

from .conftest import NOW, TRIP, client_for, query_params

QUERY = "/otn/leftTicket/queryG"
SEAT_VALUES = {"有", "无", "*", ""}  # never 候补: waitlisting is fields 37/38


def codes(city_name: str) -> set[str]:
    return {s.telecode for s in curated_directory().in_city(city_name)}


async def rows_for(rail, origin: str = "BJP", destination: str = "SHH", date=TRIP) -> list[list]:
    response = await rail.get(QUERY, params=query_params(origin, destination, date))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] is True and body["httpstatus"] == 200
    return [row.split("|") for row in body["data"]["result"]]


async def test_query_returns_rows_of_exactly_58_fields_with_the_rows_own_stations(rail):
    response = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    body = response.json()
    data = body["data"]
    assert response.headers["content-type"].startswith("application/json")
    assert data["flag"] == "1" and body["messages"] == ""
    rows = [row.split("|") for row in data["result"]]
    assert len(rows) >= 20
    for row in rows:
        assert len(row) == ROW_FIELDS
        assert row[1] == "预订"
        assert row[6] in codes("北京") and row[7] in codes("上海")
        assert row[6] in data["map"] and row[7] in data["map"]
        assert len(row[2]) == 12 and row[3] in row[2]
        assert row[13] == "20261204"
        on_sale = TRIP - dt.timedelta(days=14)  # sale_time: 14 days ahead, at departure time
        assert row[55] == f"{on_sale:%Y%m%d}{row[8].replace(':', '')}"
        assert row[57] == ""


async def test_city_query_returns_rows_from_several_stations(rail):
    rows = await rows_for(rail)
    assert len({row[6] for row in rows}) >= 2
    assert len({row[7] for row in rows}) >= 2
    assert any(row[4] != row[6] for row in await rows_for(rail, "NJH", "SHH"))


async def test_times_durations_and_station_numbers_are_consistent(rail):
    for row in await rows_for(rail):
        depart = dt.datetime.strptime(row[8], "%H:%M")
        hours, minutes = map(int, row[10].split(":"))
        arrive = depart + dt.timedelta(hours=hours, minutes=minutes)
        assert arrive.strftime("%H:%M") == row[9]
        assert int(row[16]) < int(row[17])


async def test_seat_cells_and_price_chunks_agree(rail):
    rows = await rows_for(rail)
    code_to_field = {"9": 32, "P": 25, "D": 20, "M": 31, "O": 30, "6": 21, "4": 23, "F": 33}
    code_to_field |= {"3": 28, "2": 24, "1": 29}
    for row in rows:
        chunks = [row[39][i : i + 10] for i in range(0, len(row[39]), 10)]
        assert chunks and all(len(c) == 10 for c in chunks)
        offered = set()
        for chunk in chunks:
            code, jiao, count = chunk[0], int(chunk[1:6]), int(chunk[6:])
            assert code in SEAT_CODE.values() and code != "W" and jiao > 0
            # 无座 is a count of 3000+ under the code of the seat it stands in
            field = 26 if count >= 3000 else code_to_field[code]
            count = count - 3000 if count >= 3000 else count
            assert count <= 21  # counts are capped as the live site caps them
            offered.add(field)
            cell = row[field]
            assert cell in SEAT_VALUES or cell.isdigit()
            if cell.isdigit():
                assert int(cell) == count
            if cell == "有":
                assert count >= 20
        for index in {*code_to_field.values(), 26} - offered:
            assert row[index] == ""


async def test_g_row_prices_in_jiao_match_the_timetable(rail, timetable):
    rows = await rows_for(rail, "VNP", "AOH")
    g = next(r for r in rows if r[3].startswith("G") and r[6] == "VNP" and r[7] == "AOH")
    second = next(c for c in (g[39][i : i + 10] for i in range(0, len(g[39]), 10)) if c[0] == "O")
    assert int(second[1:6]) == fare("emu350", SeatClass.SECOND, 1318) * 10


async def test_overnight_row_arrives_the_next_morning(rail):
    rows = await rows_for(rail)
    sleepers = [r for r in rows if r[3][0] in "ZTK" and r[8] >= "17:00"]
    assert sleepers
    for row in sleepers:
        assert row[9] < row[8]  # clock time wraps: the arrival is on the next day
        assert row[28] != "" and row[29] != ""  # 硬卧 and 硬座 offered


async def test_mid_route_boarding_after_midnight_carries_the_trains_start_date(rail):
    rows = await rows_for(rail, "WHN", curated_directory().city_code("广州"))
    early = [r for r in rows if r[13] == "20261203"]
    assert early
    assert all(r[4] != r[6] for r in early)  # boarded mid-route, not at the origin
    assert any(r[8] < "06:00" for r in early)


async def test_seat_values_cover_sold_out_waitlist_and_counts_near_departure(
    faults_12306, sleep, timetable
):
    late = dt.datetime(2026, 12, 4, 5, 0, tzinfo=NOW.tzinfo)
    app = create_12306_app(
        faults=faults_12306, clock=lambda: late, sleep=sleep, timetable=timetable
    )
    cells: set[str] = set()
    flags: set[tuple[str, str]] = set()
    async with client_for(app) as rail:
        await rail.get("/otn/leftTicket/init")
        for destination in ("SHH", "NJH", "TJP", "JNK"):
            for row in await rows_for(rail, "BJP", destination):
                cells.update(row[21:34])
                flags.add((row[37], row[38]))
    assert {"有", "无", ""} <= cells and "候补" not in cells
    assert any(cell.isdigit() for cell in cells)
    assert any(flag == "1" for flag, _ in flags)  # some sold-out classes can be waitlisted
    assert any(flag == "1" and closed for flag, closed in flags)  # and some cannot


async def test_the_last_date_on_sale_shows_later_trains_as_not_yet_on_sale(rail):
    last = NOW.date() + dt.timedelta(days=14)  # NOW is 10:03: trains leaving later open later
    rows = await rows_for(rail, date=last)
    later = [r for r in rows if r[8] > "10:03"]
    assert later and all(r[11] == "IS_TIME_NOT_BUY" for r in later)
    assert all(r[1] == f"{last.month:02d}月{NOW.day:02d}日{r[8]}起售" for r in later)
    assert all(cell in ("*", "") for r in later for cell in r[20:34])


async def test_a_date_beyond_the_sale_window_is_an_html_page_as_on_the_live_site(rail):
    response = await rail.get(
        QUERY, params=query_params("BJP", "SHH", NOW.date() + dt.timedelta(days=15))
    )
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    assert "铁路客户服务中心" in response.text


async def test_unknown_telecode_is_an_empty_result_not_an_error(rail):
    response = await rail.get(QUERY, params=query_params("XXX", "SHH"))
    assert response.json() == {
        "httpstatus": 200,
        "data": {"result": [], "flag": "1", "map": {}},
        "messages": "",
        "status": True,
    }


async def test_unreadable_query_is_refused_in_12306s_way(rail):
    response = await rail.get(QUERY, params={"leftTicketDTO.train_date": "12/04"})
    assert response.status_code == 200
    assert response.json()["status"] is False


async def test_a_stale_path_is_redirected_to_the_current_one_with_the_same_query(rail, app_12306):
    params = query_params("BJP", "SHH")
    response = await rail.get("/otn/leftTicket/query", params=params)
    assert response.status_code == 302
    assert response.headers["location"].startswith("/otn/leftTicket/queryG?")
    assert "leftTicketDTO.from_station=BJP" in response.headers["location"]
    app_12306.state.query_suffix = "queryA"
    moved = await rail.get(QUERY, params=params)
    assert moved.headers["location"].startswith("/otn/leftTicket/queryA?")
    assert (await rail.get("/otn/leftTicket/queryA", params=params)).json()["status"]


async def test_init_page_names_the_current_query_path(rail, app_12306):
    app_12306.state.query_suffix = "queryZ"
    page = await rail.get("/otn/leftTicket/init", params={"linktypeid": "dc"})
    assert "var CLeftTicketUrl = 'leftTicket/queryZ';" in page.text


async def test_path_moved_fault_moves_the_path_once_and_the_follower_is_served(
    rail, app_12306, faults_12306
):
    faults_12306.update(path_moved_rate=1)
    params = query_params("BJP", "SHH")
    response = await rail.get(QUERY, params=params)
    assert response.status_code == 302
    assert response.headers["location"].startswith("/otn/leftTicket/queryZ?")
    assert app_12306.state.query_suffix == "queryZ"
    followed = await rail.get("/otn/leftTicket/queryZ", params=params)
    assert followed.json()["status"] is True
    assert faults_12306.faults_injected["path_moved"] == 2  # the second roll was waived


async def test_paths_that_are_not_queries_are_not_found(rail):
    assert (await rail.get("/otn/leftTicket/submitOrder")).status_code == 404


async def test_init_sets_the_session_cookies(app_12306):
    async with client_for(app_12306) as client:
        response = await client.get("/otn/leftTicket/init")
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    assert {"JSESSIONID", "route", "BIGipServerotn"} <= set(response.cookies)


async def test_query_without_cookies_is_redirected_to_the_error_page(app_12306):
    async with client_for(app_12306) as client:
        response = await client.get(QUERY, params=query_params("BJP", "SHH"))
        assert response.status_code == 302
        assert response.headers["location"] == ERROR_PAGE
        page = await client.get(ERROR_PAGE)
    assert page.status_code == 200 and "<html" in page.text


async def test_cookie_check_can_be_switched_off(faults_12306, clock, sleep, timetable):
    app = create_12306_app(
        faults=faults_12306, clock=clock, sleep=sleep, timetable=timetable, require_cookies=False
    )
    async with client_for(app) as client:
        response = await client.get(QUERY, params=query_params("BJP", "SHH"))
    assert response.json()["data"]["result"]


async def test_station_name_js_is_served_and_parses_back_to_the_directory(rail):
    response = await rail.get("/otn/resources/js/framework/station_name.js")
    assert response.status_code == 200
    assert response.text.startswith("var station_names ='@")
    stations = parse_station_name_js(response.text)
    directory = curated_directory()
    assert len(stations) == len(directory)
    parsed = StationDirectory.from_station_name_js(response.text)
    for station in directory:
        assert parsed.get(station.telecode) == station


async def test_error_fault_answers_500_then_502_with_gateway_html(rail, faults_12306):
    faults_12306.update(error_rate=1)
    first = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    second = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    assert [first.status_code, second.status_code] == [500, 502]
    assert "<html>" in first.text and "nginx" in second.text


async def test_rate_limit_fault_blocks_like_12306_redirect_then_html(rail, faults_12306):
    faults_12306.update(rate_limit_rate=1)
    first = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    second = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    assert first.status_code == 302 and first.headers["location"] == ERROR_PAGE
    assert second.status_code == 200 and "text/html" in second.headers["content-type"]
    with pytest.raises(json.JSONDecodeError):
        json.loads(second.text)


async def test_malformed_fault_answers_200_with_bodies_that_break_the_format(rail, faults_12306):
    faults_12306.update(malformed_rate=1)
    bodies = [(await rail.get(QUERY, params=query_params("BJP", "SHH"))).text for _ in range(3)]
    no_data = json.loads(bodies[0])
    assert no_data["status"] is True and "data" not in no_data
    short_rows = json.loads(bodies[1])["data"]["result"]
    assert short_rows and all(len(r.split("|")) < ROW_FIELDS for r in short_rows)
    with pytest.raises(json.JSONDecodeError):
        json.loads(bodies[2])


async def test_hang_fault_waits_a_day_on_the_injected_sleep(rail, faults_12306, sleep):
    faults_12306.update(hang_rate=1)
    response = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    assert sleep.calls == [HANG_S]
    assert response.status_code == 504


async def test_hang_fault_never_answers_until_cancelled(timetable, clock):
    never = asyncio.Event()

    async def wait_forever(seconds: float) -> None:
        await never.wait()

    faults = FaultConfig("12306", hang_rate=1)
    app = create_12306_app(
        faults=faults, clock=clock, sleep=wait_forever, timetable=timetable, require_cookies=False
    )
    async with client_for(app) as client:
        request = asyncio.create_task(client.get(QUERY, params=query_params("BJP", "SHH")))
        for _ in range(20):
            await asyncio.sleep(0)
        assert not request.done()
        request.cancel()
        with pytest.raises(asyncio.CancelledError):
            await request
    assert faults.requests_total == 1


async def test_latency_knob_awaits_the_injected_sleep_on_every_request(rail, faults_12306, sleep):
    faults_12306.update(latency_ms=250)
    response = await rail.get(QUERY, params=query_params("BJP", "SHH"))
    assert response.status_code == 200
    assert sleep.calls == [0.25]


async def test_request_counter_counts_every_request_by_path(rail, faults_12306):
    faults_12306.update(error_rate=1)
    await rail.get(QUERY, params=query_params("BJP", "SHH"))
    await rail.get("/otn/leftTicket/queryZ", params=query_params("BJP", "SHH"))
    await rail.get("/no/such/path")
    counters = faults_12306.counters()
    assert counters["requests_total"] == 4  # init, two queries and a 404
    assert counters["requests_by_path"] == {
        "/otn/leftTicket/init": 1,
        QUERY: 1,
        "/otn/leftTicket/queryZ": 1,
        "/no/such/path": 1,
    }
    assert counters["faults_injected"] == {"error": 1}


async def test_app_state_exposes_the_fault_config(app_12306, faults_12306):
    assert app_12306.state.faults is faults_12306


async def test_a_vendor_given_no_faults_has_none_whatever_the_environment(monkeypatch, timetable):
    # The knobs are its caller's to read: the app's settings, the standalone program's flags
    # and environment (test_main.py); a vendor reads no environment of its own.
    monkeypatch.setenv("RAILTRIP_SANDBOX_12306_ERROR_RATE", "0.25")
    app = create_12306_app(timetable=timetable)
    assert set(app.state.faults.knobs().values()) == {0.0}


async def test_path_moved_alternates_the_302_and_the_older_c_url_answer(
    rail, app_12306, faults_12306
):
    faults_12306.update(path_moved_rate=1)
    params = query_params("BJP", "SHH")
    assert (await rail.get(QUERY, params=params)).status_code == 302  # to queryZ
    assert (await rail.get("/otn/leftTicket/queryZ", params=params)).json()["status"] is True
    moved = (await rail.get("/otn/leftTicket/queryZ", params=params)).json()
    assert moved["status"] is False and moved["c_url"] == "leftTicket/queryO"
