"""The sandbox 12306: an ASGI app speaking 12306's left-ticket wire format over the timetable.

Paths: `GET /otn/leftTicket/init` (HTML naming the current query path in `CLeftTicketUrl`,
sets the session cookies), `GET /otn/leftTicket/query*` (the current path answers; any other
gets a 302 to the current one, as the live site moves a stale path), `GET
/otn/resources/js/framework/station_name.js`, and the error page 12306 redirects blocked
clients to. A date outside the sale window is answered, as the live site does, with a 200
HTML page. Also the train search (`/search/v1/train/search`, on `search.12306.cn` live), the
stop list (`/otn/czxx/queryByTrainNo`) and the transfer search (`/otn/lcQuery/init` naming
`/lcquery/queryG`, paged by `result_index`, computed by `transfer_search`). Faults of the
left-ticket query (`decide()`) apply to it only (`path_moved` moves the current path and
answers the 302, `path_bounce` moves it and bounces the stale one to the error page); the
transfer search, the init pages and the stop list have their own knobs; latency and counting
apply to every request.

It behaves as the live site does where the public clients had to learn it:

- Sessions are servlet sessions: an init page that is handed a live `JSESSIONID` keeps it and
  issues none (so a client that sends the old one back never gets a new one), and a session
  blocked once (a `rate_limit` fault) stays blocked: every query presenting it bounces to the
  error page. Only a cookieless init starts a new session.
- Pages want a browser: an init page asked without a browser's User-Agent bounces to the error
  page (a public note on the site, find_string id 70155965850: "12306 对无 UA 请求会返回
  error.html"); the stop list and the transfer search want the session cookies, as queries do.
- The transfer search answers "nothing found" as a string `data`, carries leg fares in
  `yp_info` with `seat_discount_info`, and its path (queryG ↔ queryU) can move: the old one
  then answers 404, a 302, an HTML page or "url error" in turn, and `lcQuery/init` names the
  new one.
- `purpose_codes=0X00` (left tickets) and `0X` (transfers) are priced as student fares.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from sources.base import shanghai_now
from sources.models import SHANGHAI
from sources.sale_window import in_sale_window
from sources.sandbox import wire12306
from sources.sandbox.faults import Fault, FaultConfig
from sources.sandbox.inventory import SeatInventory, ride_inventory
from sources.sandbox.serving import Clock, RequestCounter, Sleep, roll_fault
from sources.sandbox.timetable import Ride, Timetable
from sources.sandbox.transfer_search import transfer_plans
from sources.stations import StationDirectory

INIT_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>中国铁路12306</title></head>
<body><div id="query_ticket">车票查询</div>
<script>var CLeftTicketUrl = 'leftTicket/{suffix}';</script></body></html>"""
BLOCKED_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>中国铁路12306</title></head>
<body><div class="err-tips">网络可能存在问题，请您重试一下！</div></body></html>"""
GATEWAY_PAGES = {
    404: "<html><head><title>404 Not Found</title></head><body>"
    "<center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>",
    500: "<html><head><title>500 Internal Server Error</title></head><body>"
    "<center><h1>500 Internal Server Error</h1></center><hr><center>nginx</center></body></html>",
    502: "<html><head><title>502 Bad Gateway</title></head><body>"
    "<center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>",
    504: "<html><head><title>504 Gateway Time-out</title></head><body>"
    "<center><h1>504 Gateway Time-out</h1></center><hr><center>nginx</center></body></html>",
}
OUT_OF_WINDOW_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>铁路客户服务中心</title></head>
<body><div class="err-tips">您选择的日期不在预售日期范围内</div></body></html>"""
JSON_TYPE = "application/json;charset=UTF-8"
# The suffixes the live path has drifted through; `path_moved` walks this ring.
SUFFIXES = ("queryG", "queryZ", "queryO", "queryU", "queryA", "query")
LC_PATHS = ("/lcquery/queryG", "/lcquery/queryU")  # the transfer search's 2025 drift
LC_PATH = LC_PATHS[0]
TRANSFER_PAGE = 10
STUDENT_PURPOSES = {"0X00", "0X"}
BROWSER_MARK = "Mozilla/"


def create_12306_app(
    *,
    faults: FaultConfig | None = None,
    clock: Clock = shanghai_now,
    sleep: Sleep = asyncio.sleep,
    directory: StationDirectory | None = None,
    timetable: Timetable | None = None,
    require_cookies: bool = True,
    query_suffix: str = "queryG",
) -> Starlette:
    """Build the 12306 sandbox; `app.state` holds `faults`, `query_suffix`, `require_cookies`."""
    faults = faults or FaultConfig("12306")
    timetable = timetable or Timetable(directory)

    def page_refused(request: Request) -> Response | None:
        """A page load without a browser's User-Agent bounces; a page fault answers 500."""
        if BROWSER_MARK not in request.headers.get("user-agent", ""):
            return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
        if faults.roll("page_error_rate"):
            return HTMLResponse(GATEWAY_PAGES[500], status_code=500)
        return None

    def session_refused(request: Request) -> Response | None:
        """A request without the session's cookies, or on a blocked session, bounces."""
        state = request.app.state
        if state.require_cookies and not any(
            request.cookies.get(name) for name in wire12306.COOKIE_NAMES
        ):
            return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
        if request.cookies.get("JSESSIONID") in state.blocked_sessions:
            return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
        return None

    async def init(request: Request) -> Response:
        refused = page_refused(request)
        if refused is not None:
            return refused
        state = request.app.state
        response = HTMLResponse(INIT_PAGE.format(suffix=state.query_suffix))
        # A servlet keeps the session it is handed (blocked or not) and issues none; only a
        # request without a live session id gets a new one.
        if request.cookies.get("JSESSIONID") in state.sessions:
            return response
        token = hashlib.sha1(str(faults.requests_total).encode()).hexdigest().upper()
        state.sessions.add(token[:32])
        for name, value in zip(
            wire12306.COOKIE_NAMES,
            (token[:32], f"sandbox{token[:8].lower()}", "1490616586.64545.0000"),
            strict=True,
        ):
            response.set_cookie(name, value, path="/")
        return response

    async def query(request: Request) -> Response:
        state = request.app.state
        if not request.path_params["suffix"].startswith("query"):
            return HTMLResponse(GATEWAY_PAGES[404], status_code=404)
        if state.require_cookies and not all(
            request.cookies.get(name) for name in wire12306.COOKIE_NAMES
        ):
            return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
        if request.path_params["suffix"] != state.query_suffix:
            if state.bounce_stale == request.path_params["suffix"]:
                return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
            return _moved(request)
        fault = await roll_fault(faults, sleep)
        if fault in (Fault.PATH_MOVED, Fault.PATH_BOUNCE) and not state.just_moved:
            stale = state.query_suffix
            ring = SUFFIXES.index(stale) if stale in SUFFIXES else -1
            state.query_suffix = SUFFIXES[(ring + 1) % len(SUFFIXES)]
            state.just_moved = True  # a client that follows the move is not moved again at once
            if fault is Fault.PATH_BOUNCE:
                # The stale path bounces to the error page: only the init page tells the way.
                state.bounce_stale = stale
                return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
            state.bounce_stale = None
            state.moves += 1
            if state.moves % 2 == 0:  # every other move: the older answer the site may still give
                return _json(wire12306.moved_body(state.query_suffix))
            return _moved(request)
        state.just_moved = False
        if fault is Fault.HANG:
            return HTMLResponse(GATEWAY_PAGES[504], status_code=504)
        if fault is Fault.ERROR:
            code = (500, 502)[faults.variant(fault, 2)]
            return HTMLResponse(GATEWAY_PAGES[code], status_code=code)
        if fault is Fault.RATE_LIMIT:
            # 12306 never says 429: it bounces to its error page or answers HTML, and the
            # session it blocked stays blocked.
            blocked = request.cookies.get("JSESSIONID")
            if blocked:
                state.blocked_sessions.add(blocked)
            if faults.variant(fault, 2) == 0:
                return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
            return HTMLResponse(BLOCKED_PAGE)
        if request.cookies.get("JSESSIONID") in state.blocked_sessions:
            return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
        params = request.query_params
        try:
            date = dt.date.fromisoformat(params["leftTicketDTO.train_date"])
            origin = params["leftTicketDTO.from_station"]
            destination = params["leftTicketDTO.to_station"]
        except (KeyError, ValueError):
            return _json(wire12306.rejected_body("查询参数有误，请重新输入！"))
        now = clock()
        if not in_sale_window(date, now.astimezone(SHANGHAI).date()):
            return HTMLResponse(OUT_OF_WINDOW_PAGE)
        rides = timetable.rides(origin, destination, date)
        student = params.get("purpose_codes") in STUDENT_PURPOSES
        rows = [wire12306.row(ride, _seats(ride, now, student)) for ride in rides]
        names = wire12306.station_map(rides)
        if fault is Fault.MALFORMED:
            bodies = wire12306.broken_bodies(rows, names)
            return Response(bodies[faults.variant(fault, len(bodies))], media_type=JSON_TYPE)
        return _json(wire12306.success_body(rows, names))

    async def station_names(request: Request) -> Response:
        return Response(
            wire12306.station_name_js(timetable.directory),
            media_type="application/javascript;charset=UTF-8",
        )

    async def error_page(request: Request) -> Response:
        return HTMLResponse(BLOCKED_PAGE)

    async def train_search(request: Request) -> Response:
        params = request.query_params
        try:
            date = dt.datetime.strptime(params.get("date", ""), "%Y%m%d").date()
        except ValueError:
            return _json({"data": [], "status": False, "errorMsg": "日期格式错误"})
        keyword = params.get("keyword", "")
        trains = sorted(
            timetable.numbered(keyword, date) if keyword else [],
            key=lambda t: (len(t.code), t.code),
        )
        return _json(wire12306.train_search_body(trains[:20], date))

    async def stop_list(request: Request) -> Response:
        refused = session_refused(request)
        if refused is not None:
            return refused
        params = request.query_params
        try:
            date = dt.date.fromisoformat(params.get("depart_date", ""))
        except ValueError:
            return _json(wire12306.rejected_body("出发日期有误"))
        train = timetable.train(params.get("train_no", ""), date)
        if train is None:
            return _json({"status": True, "httpstatus": 200, "data": {"data": []}})
        return _json(
            wire12306.stop_list_body(
                train,
                params.get("from_station_telecode", ""),
                params.get("to_station_telecode", ""),
            )
        )

    async def lc_init(request: Request) -> Response:
        refused = page_refused(request)
        if refused is not None:
            return refused
        return HTMLResponse(wire12306.LC_INIT_PAGE.format(path=request.app.state.lc_path))

    async def lc_query(request: Request) -> Response:
        state = request.app.state
        refused = session_refused(request)
        if refused is not None:
            return refused
        if request.url.path != state.lc_path:
            return _lc_drifted(request)
        if not state.lc_just_moved and faults.roll("lc_path_moved_rate"):
            state.lc_path = next(p for p in LC_PATHS if p != state.lc_path)
            state.lc_just_moved = True  # the client that reads lcQuery/init again is served
            return _lc_drifted(request)
        state.lc_just_moved = False
        if faults.roll("transfer_error_rate"):
            return HTMLResponse(GATEWAY_PAGES[502], status_code=502)
        params = request.query_params
        try:
            date = dt.date.fromisoformat(params["train_date"])
            index = int(params.get("result_index", "0"))
        except (KeyError, ValueError):
            return _json({"data": None, "status": False, "errorMsg": "查询参数有误"})
        plans = transfer_plans(
            timetable,
            params.get("from_station_telecode", ""),
            params.get("to_station_telecode", ""),
            date,
        )
        page = plans[index : index + TRANSFER_PAGE]
        if not page:
            return _json(wire12306.transfer_nothing_body())
        now = clock()
        student = params.get("purpose_codes") in STUDENT_PURPOSES
        more = index + TRANSFER_PAGE < len(plans)
        body = wire12306.transfer_body(
            [
                wire12306.transfer_plan(
                    p.first,
                    p.second,
                    (_seats(p.first, now, student), _seats(p.second, now, student)),
                )
                for p in page
            ],
            index + TRANSFER_PAGE if more else None,
        )
        return _json(body)

    app = Starlette(
        routes=[
            Route("/otn/leftTicket/init", init),
            Route("/otn/leftTicket/{suffix:str}", query),
            Route("/otn/resources/js/framework/station_name.js", station_names),
            Route(wire12306.ERROR_PAGE, error_page),
            Route("/search/v1/train/search", train_search),
            Route("/otn/czxx/queryByTrainNo", stop_list),
            Route("/otn/lcQuery/init", lc_init),
            Route("/lcquery/{suffix:str}", lc_query),
        ],
        middleware=[Middleware(RequestCounter, faults=faults, sleep=sleep)],
    )
    app.state.faults = faults
    app.state.timetable = timetable
    app.state.query_suffix = query_suffix
    app.state.require_cookies = require_cookies
    app.state.just_moved = False
    app.state.moves = 0
    app.state.bounce_stale = None  # a stale query path that bounces to the error page
    app.state.sessions = set()  # live JSESSIONIDs
    app.state.blocked_sessions = set()
    app.state.lc_path = LC_PATH
    app.state.lc_just_moved = False
    app.state.lc_drifts = 0
    return app


def _seats(ride: Ride, now: dt.datetime, student: bool) -> tuple[SeatInventory, ...]:
    seats = ride_inventory(ride, now)
    return wire12306.student_seats(ride, seats) if student else seats


def _lc_drifted(request: Request) -> Response:
    """A moved transfer-search path, in each of the ways the live site answers one, in turn."""
    state = request.app.state
    state.lc_drifts += 1
    answers: tuple[Response, ...] = (
        HTMLResponse(GATEWAY_PAGES[404], status_code=404),
        RedirectResponse("/otn/view/index.html", status_code=302),
        HTMLResponse(BLOCKED_PAGE),
        _json(wire12306.transfer_url_error_body()),
    )
    return answers[(state.lc_drifts - 1) % len(answers)]


def _moved(request: Request) -> Response:
    """The live site's answer to a stale query path: 302 to the current one, same query."""
    current = request.app.state.query_suffix
    location = f"/otn/leftTicket/{current}"
    if request.url.query:
        location += f"?{request.url.query}"
    return RedirectResponse(location, status_code=302)


def _json(body: dict[str, Any]) -> Response:
    return Response(json.dumps(body, ensure_ascii=False), media_type=JSON_TYPE)
