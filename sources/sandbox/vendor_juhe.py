"""The sandbox Juhe: an ASGI app serving 聚合数据's train query (API 817) over the timetable.

`GET /fapigw/train/query?key=…&departure_station=北京&arrival_station=上海&date=…` answers
`{"error_code": 0, "reason": "success", "result": [...]}`; errors come, as Juhe sends them,
as HTTP 200 with an `error_code` (10001 bad key, 10012 quota spent, 10014 internal error).
Its inventory is read `lag` behind the clock, as an aggregator's copy lags the railway; a
class whose presale has not opened is left out, and many seats print as 有.

As the live API behaves (see `sources.juhe`): `enable_booking=1` answers bookable trains only
(a sold-out day then looks like no trains), anything else every train; a pair or date without
trains is error 281701; the `odd_train_rate` knob makes an answer's trains come off the
format, one rough edge each (a price of "--", "" or "627.50", `train_flags` null, a station
code missing, a train without its times).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sources.base import shanghai_now
from sources.juhe import QUERY_PATH
from sources.sandbox.faults import Fault, FaultConfig
from sources.sandbox.inventory import AGGREGATOR_LAG, SaleState, SeatInventory
from sources.sandbox.inventory import ride_inventory as inventory_of
from sources.sandbox.serving import Clock, RequestCounter, Sleep, roll_fault
from sources.sandbox.timetable import Ride, Timetable
from sources.stations import StationDirectory, UnknownStationError

PLENTY = 20
# The codes this sandbox answers with. 10001/10012/10014 are Juhe's platform codes; 217701
# stands for the API's own "bad parameter" answers, whose real numbers are not published.
BAD_KEY = (10001, "错误的请求KEY")
QUOTA_SPENT = (10012, "请求超过次数限制")
INTERNAL = (10014, "系统内部异常")
BAD_PARAMETER = 217701
NO_TRAINS = (281701, "查询不到车次信息")  # the code the issue names; its reason text is ours
BOOKABLE_ONLY = "1"


def create_juhe_app(
    *,
    faults: FaultConfig | None = None,
    clock: Clock = shanghai_now,
    sleep: Sleep = asyncio.sleep,
    directory: StationDirectory | None = None,
    timetable: Timetable | None = None,
    lag: dt.timedelta = AGGREGATOR_LAG,
    api_key: str | None = None,
) -> Starlette:
    """Build the Juhe sandbox; `app.state.faults` holds its knobs and counters.

    `api_key` None accepts any non-empty key (the embedded default); set, only that key.
    """
    faults = faults or FaultConfig("juhe")
    timetable = timetable or Timetable(directory)

    async def query(request: Request) -> Response:
        params = request.query_params
        key = params.get("key", "")
        if not key or (api_key is not None and key != api_key):
            return _error(*BAD_KEY)
        fault = await roll_fault(faults, sleep)
        if fault is Fault.HANG:
            return Response("upstream timed out", status_code=504)
        if fault is Fault.ERROR:
            if faults.variant(fault, 2) == 0:
                return _error(*INTERNAL)
            return Response("<html><body>502 Bad Gateway</body></html>", status_code=502)
        if fault is Fault.RATE_LIMIT:
            return _error(*QUOTA_SPENT)
        try:
            origin, destination, date = _parse(params, timetable.directory)
        except ValueError as exc:
            return _error(BAD_PARAMETER, str(exc))
        seen_at = clock() - lag
        rides = timetable.rides(origin, destination, date)
        trains = [_train(ride, inventory_of(ride, seen_at)) for ride in rides]
        if params.get("enable_booking") == BOOKABLE_ONLY:
            trains = [t for t in trains if t["enable_booking"] == "Y"]
        if not trains:
            return _error(*NO_TRAINS)
        if faults.roll("odd_train_rate"):
            trains = odd_trains(trains)
        body = {"error_code": 0, "reason": "success", "result": trains}
        if fault is Fault.MALFORMED:
            return Response(_broken(body, faults.variant(fault, 3)), media_type="application/json")
        return JSONResponse(body)

    app = Starlette(
        routes=[Route(QUERY_PATH, query)],
        middleware=[Middleware(RequestCounter, faults=faults, sleep=sleep)],
    )
    app.state.faults = faults
    app.state.timetable = timetable
    return app


def seat_price(seat: SeatInventory) -> dict[str, Any] | None:
    """One `prices[]` entry, or None for a class whose presale has not opened."""
    if seat.state is SaleState.NOT_ON_SALE:
        return None
    if seat.state is SaleState.AVAILABLE:
        num = "有" if seat.remaining >= PLENTY else str(seat.remaining)
    else:
        num = "无"
    return {"seat_name": seat.seat_class.label, "price": seat.price, "num": num}


def _train(ride: Ride, seats: tuple[SeatInventory, ...]) -> dict[str, Any]:
    minutes = ride.duration_min
    return {
        "train_no": ride.train.code,
        "departure_station": ride.board.station.name,
        "arrival_station": ride.alight.station.name,
        "departure_station_code": ride.board.station.telecode,
        "arrival_station_code": ride.alight.station.telecode,
        "departure_time": ride.depart_at.strftime("%H:%M"),
        "arrival_time": ride.arrive_at.strftime("%H:%M"),
        "duration": f"{minutes // 60:02d}:{minutes % 60:02d}",
        "enable_booking": "Y" if any(s.purchasable for s in seats) else "N",
        "prices": [p for p in map(seat_price, seats) if p is not None],
        "train_flags": list(ride.train.features),
    }


def odd_trains(trains: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same trains, one rough edge each in turn: the first five as the public clients met
    them (kept, partly), the sixth without its times (skipped by a careful reader)."""
    odd = [dict(t) for t in trains]
    for i, train in enumerate(odd):
        kind = i % 6
        prices = [dict(p) for p in train["prices"]]
        if kind == 0 and prices:
            prices[0]["price"] = "--"
        elif kind == 1 and prices:
            prices[0]["price"] = ""
        elif kind == 2 and prices:
            prices[0]["price"] = f"{float(prices[0]['price']):.2f}"  # "627.50"
        elif kind == 3:
            train["train_flags"] = None
        elif kind == 4:
            del train["departure_station_code"]
        elif kind == 5:
            del train["departure_time"], train["arrival_time"]
        train["prices"] = prices
    return odd


def _parse(params: Any, directory: StationDirectory) -> tuple[str, str, dt.date]:
    codes = []
    for name in ("departure_station", "arrival_station"):
        text = params.get(name, "")
        if not text:
            raise ValueError(f"{name}不能为空")
        try:
            codes.append(directory.resolve(text).telecode)
        except UnknownStationError:
            raise ValueError(f"{name}：未知车站 {text}") from None
    try:
        date = dt.date.fromisoformat(params.get("date", ""))
    except ValueError:
        raise ValueError("date格式错误，应为YYYY-MM-DD") from None
    return codes[0], codes[1], date


def _error(code: int, reason: str) -> JSONResponse:
    return JSONResponse({"error_code": code, "reason": reason, "result": None})


def _broken(body: dict[str, Any], variant: int) -> bytes:
    """A 200 that does not follow the schema: cut off, fields missing, or the wrong shape."""
    text = json.dumps(body, ensure_ascii=False).encode()
    if variant == 0:
        return text[: max(10, len(text) // 2)]
    if variant == 1:
        trains = [{"train_no": t["train_no"]} for t in body["result"]] or [{"train_no": "G1"}]
        return json.dumps({**body, "result": trains}, ensure_ascii=False).encode()
    return json.dumps({**body, "result": {"count": len(body["result"])}}).encode()
