"""The 12306 left-ticket wire format, rendered from sandbox rides (pure: no IO, no clock).

A row is 57 `|`-joined fields; the indices follow 12306's front-end (see `rail12306`):
0 secretStr, 2 train_no, 3 code, 4/5 the train's origin/terminus, 6/7 this row's own stations,
8/9/10 depart/arrive/duration, 11 canWebBuy, 13 the train's start date, 16/17 station numbers,
21–33 seat counts by class, 35 seat type codes, 37 waitlist flag, 39 yp_info_new.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import quote

from sources.models import SeatClass
from sources.sandbox.inventory import SaleState, SeatInventory
from sources.sandbox.timetable import Ride
from sources.stations import StationDirectory

ROW_FIELDS = 57
ERROR_PAGE = "/mormhweb/logFiles/error.html"
COOKIE_NAMES = ("JSESSIONID", "route", "BIGipServerotn")
PLENTY = 20  # 12306 prints "有" from this many seats up

SEAT_FIELD: dict[SeatClass, int] = {
    SeatClass.PREMIUM_SLEEPER: 21,
    SeatClass.SOFT_SLEEPER: 23,
    SeatClass.SOFT_SEAT: 24,
    SeatClass.PREMIUM: 25,
    SeatClass.NO_SEAT: 26,
    SeatClass.HARD_SLEEPER: 28,
    SeatClass.HARD_SEAT: 29,
    SeatClass.SECOND: 30,
    SeatClass.FIRST: 31,
    SeatClass.BUSINESS: 32,
    SeatClass.EMU_SLEEPER: 33,
}
SEAT_CODE: dict[SeatClass, str] = {
    SeatClass.BUSINESS: "9",
    SeatClass.PREMIUM: "P",
    SeatClass.FIRST: "M",
    SeatClass.SECOND: "O",
    SeatClass.PREMIUM_SLEEPER: "6",
    SeatClass.SOFT_SLEEPER: "4",
    SeatClass.EMU_SLEEPER: "F",
    SeatClass.HARD_SLEEPER: "3",
    SeatClass.SOFT_SEAT: "2",
    SeatClass.HARD_SEAT: "1",
    SeatClass.NO_SEAT: "W",
}
_SEAT_TEXT = {
    SaleState.SOLD_OUT: "无",
    SaleState.WAITLIST: "候补",
    SaleState.NOT_ON_SALE: "*",
    SaleState.CLOSED: "无",
}


def seat_text(seat: SeatInventory) -> str:
    """The seat cell: "有", a count, "无", "候补" or "*"."""
    if seat.state is SaleState.AVAILABLE:
        return "有" if seat.remaining >= PLENTY else str(seat.remaining)
    return _SEAT_TEXT[seat.state]


def yp_info_new(seats: Iterable[SeatInventory]) -> str:
    """10-character chunks: seat code, price in jiao (5 digits), seats left (4 digits)."""
    return "".join(
        f"{SEAT_CODE[s.seat_class]}{round(s.price * 10):05d}{min(s.remaining, 9999):04d}"
        for s in seats
    )


def can_web_buy(seats: Sequence[SeatInventory]) -> str:
    if any(s.state in (SaleState.CLOSED, SaleState.NOT_ON_SALE) for s in seats):
        return "IS_TIME_NOT_BUY"
    return "Y" if any(s.purchasable for s in seats) else "N"


def row(ride: Ride, seats: Sequence[SeatInventory]) -> str:
    """One result row (57 fields) for `ride` with its current `seats`."""
    train = ride.train
    fields = [""] * ROW_FIELDS
    prices = yp_info_new(seats)
    codes = "".join(SEAT_CODE[s.seat_class] for s in seats if s.seat_class is not SeatClass.NO_SEAT)
    fields[0] = _secret(ride)
    fields[1] = "预订"
    fields[2] = train.train_no
    fields[3] = train.code
    fields[4] = train.origin.telecode
    fields[5] = train.terminus.telecode
    fields[6] = ride.board.station.telecode
    fields[7] = ride.alight.station.telecode
    fields[8] = ride.depart_at.strftime("%H:%M")
    fields[9] = ride.arrive_at.strftime("%H:%M")
    fields[10] = f"{ride.duration_min // 60:02d}:{ride.duration_min % 60:02d}"
    fields[11] = can_web_buy(seats)
    fields[12] = hashlib.sha1(prices.encode()).hexdigest()[:24].upper()
    fields[13] = train.start_date.strftime("%Y%m%d")
    fields[14] = "3"
    fields[15] = train.train_no[:2].upper()
    fields[16] = f"{ride.board.number:02d}"
    fields[17] = f"{ride.alight.number:02d}"
    fields[18] = "1"
    fields[19] = "0"
    for seat in seats:
        fields[SEAT_FIELD[seat.seat_class]] = seat_text(seat)
    fields[34] = "".join(f"{c}0" for c in codes)
    fields[35] = codes
    fields[36] = "0"
    fields[37] = "1" if any(s.state is SaleState.WAITLIST for s in seats) else "0"
    fields[39] = prices
    fields[40] = "0"
    fields[44] = "1"
    fields[46] = "#1#0#0#z#0#z#z"
    return "|".join(fields)


def success_body(rows: list[str], station_map: dict[str, str]) -> dict[str, Any]:
    """The JSON of a successful query (an empty result for an unknown telecode too)."""
    data: dict[str, Any] = {"result": rows, "flag": "1", "map": station_map}
    if rows:
        data |= {"level": "10", "sametlc": "N"}
    return {"httpstatus": 200, "data": data, "messages": "", "status": True}


def moved_body(suffix: str) -> dict[str, Any]:
    """The answer to an outdated query suffix: where the query moved to."""
    return {
        "status": False,
        "c_url": f"leftTicket/{suffix}",
        "c_name": "CLeftTicketUrl",
        "messages": [],
        "validateMessagesShowId": "_validatorMessage",
    }


def rejected_body(message: str) -> dict[str, Any]:
    """12306's answer to a query it cannot read (bad date, missing station)."""
    return {
        "httpstatus": 200,
        "data": None,
        "messages": [message],
        "status": False,
        "validateMessagesShowId": "_validatorMessage",
    }


def station_map(rides: Iterable[Ride]) -> dict[str, str]:
    """Telecode → name of every boarding and alighting station in the rows."""
    names: dict[str, str] = {}
    for ride in rides:
        for stop in (ride.board, ride.alight):
            names[stop.station.telecode] = stop.station.name
    return names


def station_name_js(directory: StationDirectory) -> str:
    """`station_name.js` as 12306 serves it, generated from the directory."""
    city_codes = {city: f"{i:04d}" for i, city in enumerate(directory.cities(), start=1)}
    records = [
        f"@{s.initials or s.telecode.lower()}|{s.name}|{s.telecode}|{s.pinyin}|{s.initials}"
        f"|{order}|{city_codes[s.city]}|{s.city}|||"
        for order, s in enumerate(directory)
    ]
    return f"var station_names ='{''.join(records)}';"


def _secret(ride: Ride) -> str:
    raw = (
        f"{ride.train.train_no}#{ride.train.start_date:%Y%m%d}#{ride.board.station.telecode}"
        f"#{ride.alight.station.telecode}#{ride.depart_at:%Y-%m-%dT%H:%M}"
    )
    return quote(base64.b64encode(raw.encode()).decode())


def broken_bodies(rows: list[str], station_names: dict[str, str]) -> list[bytes]:
    """Three malformed 200 bodies a real gateway has produced: no data, short rows, cut off."""
    no_data = {"httpstatus": 200, "messages": "", "status": True}
    short = success_body([r.rsplit("|", 30)[0] for r in rows] or ["|预订|short"], station_names)
    whole = json.dumps(success_body(rows, station_names), ensure_ascii=False).encode()
    return [
        json.dumps(no_data).encode(),
        json.dumps(short, ensure_ascii=False).encode(),
        whole[: max(10, len(whole) // 2)],
    ]
