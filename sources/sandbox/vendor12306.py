"""The sandbox 12306: an ASGI app speaking 12306's left-ticket wire format over the timetable.

Paths: `GET /otn/leftTicket/init` (HTML naming the current query path in `CLeftTicketUrl`,
sets the session cookies), `GET /otn/leftTicket/query*` (the current path answers; any other
gets a 302 to the current one, as the live site moves a stale path), `GET
/otn/resources/js/framework/station_name.js`, and the error page 12306 redirects blocked
clients to. A date outside the sale window is answered, as the live site does, with a 200
HTML page. Also the train search (`/search/v1/train/search`, on `search.12306.cn` live), the
stop list (`/otn/czxx/queryByTrainNo`) and the transfer search (`/otn/lcQuery/init` naming
`/lcquery/queryG`, paged by `result_index`, computed by `transfer_search`). Faults apply to
left-ticket queries only (`path_moved` moves the current path and answers the 302); latency
and counting apply to every request.
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
from sources.sandbox.inventory import ride_inventory
from sources.sandbox.serving import Clock, RequestCounter, Sleep, roll_fault
from sources.sandbox.timetable import Timetable
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
LC_PATH = "/lcquery/queryG"
TRANSFER_PAGE = 10


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

    async def init(request: Request) -> Response:
        response = HTMLResponse(INIT_PAGE.format(suffix=request.app.state.query_suffix))
        token = hashlib.sha1(str(faults.requests_total).encode()).hexdigest().upper()
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
            return _moved(request)
        fault = await roll_fault(faults, sleep)
        if fault is Fault.PATH_MOVED and not state.just_moved:
            ring = SUFFIXES.index(state.query_suffix) if state.query_suffix in SUFFIXES else -1
            state.query_suffix = SUFFIXES[(ring + 1) % len(SUFFIXES)]
            state.just_moved = True  # a client that follows the move is not moved again at once
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
            # 12306 never says 429: it bounces to its error page or answers HTML.
            if faults.variant(fault, 2) == 0:
                return RedirectResponse(wire12306.ERROR_PAGE, status_code=302)
            return HTMLResponse(BLOCKED_PAGE)
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
        rows = [wire12306.row(ride, ride_inventory(ride, now)) for ride in rides]
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
        keyword = params.get("keyword", "").upper()
        trains = sorted(
            (t for t in timetable.trains(date) if keyword and t.code.startswith(keyword)),
            key=lambda t: (len(t.code), t.code),
        )
        return _json(wire12306.train_search_body(trains[:20], date))

    async def stop_list(request: Request) -> Response:
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
        return HTMLResponse(wire12306.LC_INIT_PAGE.format(path=LC_PATH))

    async def lc_query(request: Request) -> Response:
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
        now = clock()
        page = plans[index : index + TRANSFER_PAGE]
        more = index + TRANSFER_PAGE < len(plans)
        body = wire12306.transfer_body(
            [
                wire12306.transfer_plan(
                    p.first, p.second, (ride_inventory(p.first, now), ride_inventory(p.second, now))
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
            Route(LC_PATH, lc_query),
        ],
        middleware=[Middleware(RequestCounter, faults=faults, sleep=sleep)],
    )
    app.state.faults = faults
    app.state.timetable = timetable
    app.state.query_suffix = query_suffix
    app.state.require_cookies = require_cookies
    app.state.just_moved = False
    app.state.moves = 0
    return app


def _moved(request: Request) -> Response:
    """The live site's answer to a stale query path: 302 to the current one, same query."""
    current = request.app.state.query_suffix
    location = f"/otn/leftTicket/{current}"
    if request.url.query:
        location += f"?{request.url.query}"
    return RedirectResponse(location, status_code=302)


def _json(body: dict[str, Any]) -> Response:
    return Response(json.dumps(body, ensure_ascii=False), media_type=JSON_TYPE)
