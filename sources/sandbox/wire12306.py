"""The 12306 left-ticket wire format, rendered from sandbox rides (pure: no IO, no clock).

A row is 58 `|`-joined fields as the live site sends them (see `sources.rail12306_rows`; rows in
tests/fixtures/rail12306/): 0 secretStr, 1 the button text (预订, or `12月06日12:45起售`
before the presale opens), 2 train_no, 3 code, 4/5 the train's origin/terminus, 6/7 this
row's own stations, 8/9/10 depart/arrive/duration, 11 canWebBuy, 13 the train's start date,
16/17 station numbers, 20–33 seat cells by class (never 候补: `无`, with the waitlist flags
37/38), 35 seat type codes, 39 yp_info_new (counts capped at 21; 无座 as a count of 3000+
under the code of the seat it stands in; a discounted class at its discounted price), 46
feature flags (`dw_flag`), 54 discounts (`seat_discount_info`), 55 sale_time.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from sources.fare_rules import TicketKind, fare
from sources.models import SeatClass
from sources.sandbox.inventory import PRESALE, SaleState, SeatInventory
from sources.sandbox.timetable import Ride, Train
from sources.stations import StationDirectory

ROW_FIELDS = 58
ERROR_PAGE = "/mormhweb/logFiles/error.html"
COOKIE_NAMES = ("JSESSIONID", "route", "BIGipServerotn")
PLENTY = 20  # 12306 prints "有" from this many seats up
COUNT_CAP = 21  # yp_info_new never reports more seats than this
NO_SEAT_MARK = 3000  # a yp_info_new count from here up is the 无座 price

SEAT_FIELD: dict[SeatClass, int] = {
    SeatClass.PREMIUM_FIRST: 20,
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
    SeatClass.PREMIUM_FIRST: "D",
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
    SaleState.WAITLIST: "无",  # waitlisting shows in fields 37/38, never in the cell
    SaleState.NOT_ON_SALE: "*",
    SaleState.CLOSED: "无",
}


def dw_flag(train: Train) -> str:
    """Field 46 as the live site prints it: 智能动车组 at 0 (`5`), 复兴号 at 1 (`1`), a quiet
    coach at 2 (`Q…`); the rest as real rows carry them."""
    features = train.features
    smart = "5" if "智能动车组" in features else "0"
    fuxing = "1" if "复兴号" in features else "0"
    quiet = "Q03" if "静音车厢" in features else "0"
    return f"{smart}#{fuxing}#{quiet}#0#z#0#z#z"


def discount_info(seats: Sequence[SeatInventory]) -> str:
    """Field 54 (`seat_discount_info`): seat code and the share of the full fare in percent
    (`90087` = 商务座 at 8.7折), for the classes sold at a discount."""
    return "".join(
        f"{SEAT_CODE[s.seat_class]}{round(s.discount * 100):04d}"
        for s in seats
        if s.discount is not None
    )


def seat_text(seat: SeatInventory) -> str:
    """The seat cell: "有", a count, "无" or "*"."""
    if seat.state is SaleState.AVAILABLE:
        return "有" if seat.remaining >= PLENTY else str(seat.remaining)
    return _SEAT_TEXT[seat.state]


def no_seat_stands_in(seats: Sequence[SeatInventory]) -> SeatClass:
    """The class whose code carries the 无座 price: 二等座 on EMUs, else 硬座."""
    classes = {s.seat_class for s in seats}
    return SeatClass.SECOND if SeatClass.SECOND in classes else SeatClass.HARD_SEAT


def yp_info_new(seats: Sequence[SeatInventory]) -> str:
    """10-character chunks: seat code, price in jiao (5 digits), seats left (4 digits)."""
    chunks = []
    for seat in seats:
        left = min(seat.remaining, COUNT_CAP) if seat.purchasable else 0
        code = SEAT_CODE[seat.seat_class]
        if seat.seat_class is SeatClass.NO_SEAT:
            code, left = SEAT_CODE[no_seat_stands_in(seats)], NO_SEAT_MARK + left
        chunks.append(f"{code}{round(seat.price * 10):05d}{left:04d}")
    return "".join(chunks)


def student_seats(ride: Ride, seats: Sequence[SeatInventory]) -> tuple[SeatInventory, ...]:
    """The seats as a student query (`purpose_codes=0X00`, `0X`) prices them: the railway's
    student fares (`sources.fare_rules`) where a class has one, the adult fare elsewhere."""
    hard_seat = next((s.price for s in seats if s.seat_class is SeatClass.HARD_SEAT), None)
    priced = []
    for seat in seats:
        student = fare(
            TicketKind.STUDENT,
            seat.seat_class,
            seat.price,
            train_type=ride.train.kind,
            hard_seat_fare=hard_seat,
        )
        priced.append(replace(seat, price=seat.price if student is None else student))
    return tuple(priced)


def sale_time(ride: Ride) -> str:
    """Field 55: when the ride went (or goes) on sale, `YYYYMMDDHHMM`."""
    return (ride.depart_at - PRESALE).strftime("%Y%m%d%H%M")


def button_text(ride: Ride, seats: Sequence[SeatInventory]) -> str:
    """Field 1: 预订, or the moment sale opens (`12月06日12:45起售`)."""
    if any(s.state is SaleState.NOT_ON_SALE for s in seats):
        opens = ride.depart_at - PRESALE
        return f"{opens.month:02d}月{opens.day:02d}日{opens:%H:%M}起售"
    return "预订"


def can_web_buy(seats: Sequence[SeatInventory]) -> str:
    if any(s.state in (SaleState.CLOSED, SaleState.NOT_ON_SALE) for s in seats):
        return "IS_TIME_NOT_BUY"
    return "Y" if any(s.purchasable for s in seats) else "N"


def row(ride: Ride, seats: Sequence[SeatInventory]) -> str:
    """One result row (58 fields) for `ride` with its current `seats`."""
    train = ride.train
    fields = [""] * ROW_FIELDS
    prices = yp_info_new(seats)
    codes = "".join(SEAT_CODE[s.seat_class] for s in seats if s.seat_class is not SeatClass.NO_SEAT)
    fields[0] = _secret(ride)
    fields[1] = button_text(ride, seats)
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
    fields[34] = "".join(f"{SEAT_CODE[s.seat_class]}0" for s in seats)
    fields[35] = codes
    fields[36] = "0"
    waitlist = any(s.state is SaleState.WAITLIST for s in seats)
    fields[37] = "1" if waitlist else "0"
    if waitlist:  # the sold-out classes that cannot be waitlisted
        fields[38] = "".join(
            SEAT_CODE[s.seat_class] for s in seats if s.state is SaleState.SOLD_OUT
        )
    fields[39] = prices
    fields[40] = "0"
    fields[45] = "1"
    fields[46] = dw_flag(train)
    fields[49] = "CHN,CHN"
    fields[52] = "N#N#"
    fields[54] = discount_info(seats)
    fields[55] = sale_time(ride)
    fields[56] = "Y"
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
    short = success_body([r.rsplit("|", 31)[0] for r in rows] or ["|预订|short"], station_names)
    whole = json.dumps(success_body(rows, station_names), ensure_ascii=False).encode()
    return [
        json.dumps(no_data).encode(),
        json.dumps(short, ensure_ascii=False).encode(),
        whole[: max(10, len(whole) // 2)],
    ]


# -- the other public endpoints ---------------------------------------------------------


def train_search_body(trains: Iterable[Train], date: dt.date) -> dict[str, Any]:
    """`search/v1/train/search`: every train whose code starts with the keyword."""
    return {
        "data": [
            {
                "date": date.strftime("%Y%m%d"),
                "from_station": t.origin.name,
                "station_train_code": t.code,
                "to_station": t.terminus.name,
                "total_num": str(len(t.stops)),
                "train_no": t.train_no,
            }
            for t in trains
        ],
        "status": True,
        "errorMsg": "",
    }


def stop_list_body(train: Train, from_code: str, to_code: str) -> dict[str, Any]:
    """`czxx/queryByTrainNo`: every stop; `isEnabled` marks the asked segment."""
    codes = [s.station.telecode for s in train.stops]
    first = codes.index(from_code) if from_code in codes else 0
    last = codes.index(to_code) if to_code in codes else len(codes) - 1
    rows = []
    for i, stop in enumerate(train.stops):
        origin, terminus = i == 0, i == len(train.stops) - 1
        dwell = int((stop.depart - stop.arrive).total_seconds()) // 60
        row = {
            "arrive_time": "----" if origin else f"{stop.arrive:%H:%M}",
            "station_name": stop.station.name,
            "start_time": f"{stop.arrive:%H:%M}" if terminus else f"{stop.depart:%H:%M}",
            "stopover_time": "----" if origin or terminus else f"{dwell}分钟",
            "station_no": f"{stop.number:02d}",
            "isEnabled": first <= i <= last,
        }
        if origin:
            row |= {
                "start_station_name": train.origin.name,
                "end_station_name": train.terminus.name,
                "station_train_code": train.code,
                "train_class_name": {"G": "高速", "D": "动车"}.get(train.kind, "快速"),
                "service_type": "2",
            }
        rows.append(row)
    return {
        "validateMessagesShowId": "_validatorMessage",
        "status": True,
        "httpstatus": 200,
        "data": {"data": rows},
        "messages": [],
    }


LC_INIT_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>中转换乘</title>
<script>var lc_search_url = '{path}';</script></head><body></body></html>"""


def transfer_leg(ride: Ride, seats: Sequence[SeatInventory]) -> dict[str, Any]:
    """One `fullList` leg, its fields named as in queryLeftNewDTO."""
    fields = row(ride, seats).split("|")
    named = {
        "station_train_code": ride.train.code,
        "train_no": ride.train.train_no,
        "start_station_telecode": ride.train.origin.telecode,
        "end_station_telecode": ride.train.terminus.telecode,
        "from_station_telecode": ride.board.station.telecode,
        "from_station_name": ride.board.station.name,
        "to_station_telecode": ride.alight.station.telecode,
        "to_station_name": ride.alight.station.name,
        "start_time": fields[8],
        "arrive_time": fields[9],
        "lishi": fields[10],
        "start_train_date": fields[13],
        "from_station_no": fields[16],
        "to_station_no": fields[17],
        # Legs name their fares `yp_info` (the old queryLeftNewDTO name, same chunks as a
        # row's yp_info_new) with `seat_discount_info`, as Joooook/12306-mcp src/types.ts
        # (InterlineTicketData) reads them; they carry no yp_info_new.
        "yp_info": fields[39],
        "seat_discount_info": fields[54],
        "dw_flag": fields[46],
    }
    for name, index in LEG_CELLS.items():
        named[name] = fields[index] or "--"
    return named


LEG_CELLS = {
    "swz_num": 32,
    "tz_num": 25,
    "gg_num": 20,
    "zy_num": 31,
    "ze_num": 30,
    "gr_num": 21,
    "rw_num": 23,
    "srrb_num": 33,
    "yw_num": 28,
    "rz_num": 24,
    "yz_num": 29,
    "wz_num": 26,
}


def transfer_plan(
    first: Ride, second: Ride, seats: tuple[Sequence[SeatInventory], Sequence[SeatInventory]]
) -> dict[str, Any]:
    """One `middleList` entry: the two legs and the change between them."""
    wait = int((second.depart_at - first.arrive_at).total_seconds()) // 60
    total = int((second.arrive_at - first.depart_at).total_seconds()) // 60
    same = first.alight.station.telecode == second.board.station.telecode
    return {
        "train_date": first.depart_at.date().isoformat(),
        "middle_date": second.depart_at.date().isoformat(),
        "arrive_date": second.arrive_at.date().isoformat(),
        "start_time": f"{first.depart_at:%H:%M}",
        "arrive_time": f"{second.arrive_at:%H:%M}",
        "from_station_code": first.board.station.telecode,
        "from_station_name": first.board.station.name,
        "middle_station_code": first.alight.station.telecode,
        "middle_station_name": first.alight.station.name,
        "end_station_code": second.alight.station.telecode,
        "end_station_name": second.alight.station.name,
        "first_train_no": first.train.train_no,
        "second_train_no": second.train.train_no,
        "same_station": "0" if same else "1",
        "same_train": "N",
        "train_count": 2,
        "wait_time": f"{wait // 60}小时{wait % 60}分" if wait >= 60 else f"{wait}分钟",
        "wait_time_minutes": wait,
        "all_lishi": f"{total // 60}小时{total % 60}分",
        "all_lishi_minutes": total,
        "fullList": [transfer_leg(first, seats[0]), transfer_leg(second, seats[1])],
    }


NOTHING_FOUND = "很抱歉，没有查到符合条件的中转方案"


def transfer_nothing_body(message: str = NOTHING_FOUND) -> dict[str, Any]:
    """lcquery's "nothing found": `data` a string with an `errorMsg`, `status` false (the shape
    Joooook/12306-mcp src/index.ts reads; the message text is the sandbox's own)."""
    return {"data": "", "errorMsg": message, "status": False}


def transfer_url_error_body() -> dict[str, Any]:
    """What a wrong lcquery path answers (a public 2026-09 note on the site)."""
    return {"status": True, "data": "", "errorMsg": "url error"}


def transfer_body(plans: list[dict[str, Any]], next_index: int | None) -> dict[str, Any]:
    """A page of `lcquery/queryG`; `can_query` Y and `result_index` when more follow."""
    return {
        "data": {
            "middleList": plans,
            "can_query": "Y" if next_index is not None else "N",
            "result_index": next_index if next_index is not None else len(plans),
        },
        "status": True,
        "errorMsg": "",
    }
