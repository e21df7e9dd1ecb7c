"""The sandbox partner: an ASGI app serving `sources/PARTNER_API.md` over the timetable.

Its inventory is read `lag` behind the clock (one bucket by default), as an aggregator's copy
lags the railway. A class whose presale has not opened is left out of `fares`; fewer than
`LIMITED_BELOW` seats left is reported as `limited` without a count, as aggregators hide
volatile small counts.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import re
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sources.base import shanghai_now
from sources.models import TRAIN_TYPES, SeatClass
from sources.sandbox.faults import Fault, FaultConfig
from sources.sandbox.inventory import PARTNER_LAG, SaleState, SeatInventory, bucket_start
from sources.sandbox.inventory import ride_inventory as inventory_of
from sources.sandbox.serving import Clock, RequestCounter, Sleep, roll_fault
from sources.sandbox.timetable import Ride, Timetable
from sources.stations import StationDirectory

LIMITED_BELOW = 10
PARTNER_CLASS: dict[SeatClass, str] = {
    SeatClass.BUSINESS: "business",
    SeatClass.PREMIUM: "premium",
    SeatClass.FIRST: "first_class",
    SeatClass.SECOND: "second_class",
    SeatClass.PREMIUM_SLEEPER: "deluxe_soft_sleeper",
    SeatClass.SOFT_SLEEPER: "soft_sleeper",
    SeatClass.EMU_SLEEPER: "emu_sleeper",
    SeatClass.HARD_SLEEPER: "hard_sleeper",
    SeatClass.SOFT_SEAT: "soft_seat",
    SeatClass.HARD_SEAT: "hard_seat",
    SeatClass.NO_SEAT: "standing",
}
_TELECODE = re.compile(r"^[A-Z]{3}$")
_SERVER_ERRORS = ((500, "INTERNAL"), (502, "UPSTREAM"), (503, "UPSTREAM"))


def create_partner_app(
    *,
    faults: FaultConfig | None = None,
    clock: Clock = shanghai_now,
    sleep: Sleep = asyncio.sleep,
    directory: StationDirectory | None = None,
    timetable: Timetable | None = None,
    lag: dt.timedelta = PARTNER_LAG,
    api_key: str | None = None,
    retry_after_s: int = 1,
) -> Starlette:
    """Build the partner sandbox; `app.state.faults` holds its knobs and counters."""
    faults = faults or FaultConfig.from_env("partner")
    timetable = timetable or Timetable(directory)

    async def search(request: Request) -> Response:
        if api_key is not None and request.headers.get("X-Api-Key") != api_key:
            return _error(401, "UNAUTHORIZED", "missing or invalid X-Api-Key")
        fault = await roll_fault(faults, sleep)
        if fault is Fault.HANG:
            return _error(504, "UPSTREAM", "upstream timed out")
        if fault is Fault.ERROR:
            status, code = _SERVER_ERRORS[faults.variant(fault, len(_SERVER_ERRORS))]
            return _error(status, code, "vendor trouble, try again")
        if fault is Fault.RATE_LIMIT:
            return _error(
                429,
                "RATE_LIMITED",
                "too many requests",
                headers={"Retry-After": str(retry_after_s)},
            )
        try:
            origin, destination, date, types = _parse(request)
        except ValueError as exc:
            return _error(400, "BAD_REQUEST", str(exc))
        now = clock()
        seen_at = now - lag
        rides = [
            r
            for r in timetable.rides(origin, destination, date)
            if not types or r.train.kind in types
        ]
        body = {
            "request_id": hashlib.sha1(f"{faults.requests_total}".encode()).hexdigest()[:8],
            "as_of": bucket_start(seen_at).isoformat(),
            "trains": [_train(ride, inventory_of(ride, seen_at)) for ride in rides],
        }
        if fault is Fault.MALFORMED:
            return Response(_broken(body, faults.variant(fault, 3)), media_type="application/json")
        return JSONResponse(body)

    async def not_found(request: Request) -> Response:
        return _error(404, "NOT_FOUND", f"no route {request.url.path}")

    app = Starlette(
        routes=[Route("/v2/trains/search", search), Route("/{path:path}", not_found)],
        middleware=[Middleware(RequestCounter, faults=faults, sleep=sleep)],
    )
    app.state.faults = faults
    app.state.timetable = timetable
    return app


def fare(seat: SeatInventory) -> dict[str, Any] | None:
    """One `fares[]` entry, or None for a class whose presale has not opened."""
    if seat.state is SaleState.NOT_ON_SALE:
        return None
    if seat.state is SaleState.AVAILABLE and seat.remaining >= LIMITED_BELOW:
        inventory: dict[str, Any] = {"status": "available", "remaining": seat.remaining}
    elif seat.state is SaleState.AVAILABLE:
        inventory = {"status": "limited", "remaining": None}
    elif seat.state is SaleState.WAITLIST:
        inventory = {"status": "waitlist", "remaining": 0}
    else:
        inventory = {"status": "sold_out", "remaining": 0}
    return {
        "class": PARTNER_CLASS[seat.seat_class],
        "price": {"amount": f"{seat.price:.1f}", "currency": "CNY"},
        "inventory": inventory,
    }


def _train(ride: Ride, seats: tuple[SeatInventory, ...]) -> dict[str, Any]:
    return {
        "train_id": ride.train.train_no,
        "code": ride.train.code,
        "from": {"code": ride.board.station.telecode, "name": ride.board.station.name},
        "to": {"code": ride.alight.station.telecode, "name": ride.alight.station.name},
        "departure": ride.depart_at.isoformat(),
        "arrival": ride.arrive_at.isoformat(),
        "duration_minutes": ride.duration_min,
        "fares": [f for f in map(fare, seats) if f is not None],
    }


def _parse(request: Request) -> tuple[str, str, dt.date, frozenset[str]]:
    params = request.query_params
    for name in ("from", "to", "date"):
        if not params.get(name):
            raise ValueError(f"missing parameter: {name}")
    origin, destination = params["from"].upper(), params["to"].upper()
    for name, code in (("from", origin), ("to", destination)):
        if not _TELECODE.match(code):
            raise ValueError(f"{name} must be a three-letter telecode, got {params[name]!r}")
    try:
        date = dt.date.fromisoformat(params["date"])
    except ValueError:
        raise ValueError(f"date must be YYYY-MM-DD, got {params['date']!r}") from None
    types = frozenset(t.strip().upper() for t in params.get("types", "").split(",") if t.strip())
    unknown = sorted(types - set(TRAIN_TYPES))
    if unknown:
        raise ValueError(f"types: unknown train type(s) {', '.join(unknown)}")
    return origin, destination, date, types


def _error(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers
    )


def _broken(body: dict[str, Any], variant: int) -> bytes:
    """A 200 that does not follow the schema: cut off, fields missing, or the wrong shape."""
    text = json.dumps(body, ensure_ascii=False).encode()
    if variant == 0:
        return text[: max(10, len(text) // 2)]
    if variant == 1:
        trains = [{"code": t["code"]} for t in body["trains"]] or [{"code": "G1"}]
        return json.dumps({**body, "trains": trains}).encode()
    return json.dumps({**body, "trains": {"count": len(body["trains"])}}).encode()
