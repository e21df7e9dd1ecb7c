"""12306's other public answers, decoded (pure: no IO): train search, stop list, transfers.

- Train search (`search.12306.cn/search/v1/train/search?keyword=G1&date=YYYYMMDD`):
  `{"status": true, "data": [{"station_train_code": "G1", "train_no": "24000000G10K",
  "from_station": "北京南", "to_station": "上海", "date": "20251220"}, …]}` (prefix matches).
- Stop list (`/otn/czxx/queryByTrainNo`): `data.data[]` of `{station_no, station_name,
  arrive_time, start_time, stopover_time}`; `----` marks no arrival (origin) or departure
  (terminus, which may also repeat its arrival time). Clock times only: a time earlier than
  the one before rolls to the next day. An empty `data.data` is 12306 saying "no such train
  that day" (Joooook/12306-mcp src/index.ts answers it 未查询到相关车次信息): not found.
- Transfer search (`/lcquery/queryG`, path named by `/otn/lcQuery/init` as `lc_search_url`):
  `data.middleList[]`, each a plan whose `fullList` holds its two legs (fields as in a
  left-ticket row, by name: `station_train_code`, `from_station_telecode`, `start_time`,
  `lishi`, `ze_num`, `qt_num` …; fares in `yp_info` with `seat_discount_info`, or
  `yp_info_new`), with `train_date`/`middle_date` the legs' boarding dates and
  `wait_time_minutes`; `data.result_index` and `data.can_query` page the results. A string
  `data` (often empty) with an `errorMsg` is an answer without plans
  (`sources.rail12306_transfers` tells a drifted path's "url error" from it).
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from sources.capabilities import StopCall, StopList, TransferOffer
from sources.errors import NotFoundAtSource, SourceParseError
from sources.models import SHANGHAI, FareKind, Seat, SeatClass, Station, TrainOffer
from sources.rail12306_rows import (
    NO_SEAT_PRICED_AS,
    parse_discounts,
    parse_prices,
    parse_seat_cell,
)
from sources.stations import StationDirectory

log = logging.getLogger(__name__)

CLOCK = re.compile(r"^(\d{2}):(\d{2})$")
NO_TIME = "----"
LC_SEARCH_URL = re.compile(r"""lc_search_url\s*=\s*['"]([^'"]+)['"]""")
LC_PATH = re.compile(r"^/lcquery/[A-Za-z]+$")  # only a transfer-search path is followed
# Seat cells of a transfer leg, by the names 12306 gives them.
LEG_SEAT_FIELDS: tuple[tuple[str, SeatClass], ...] = (
    ("swz_num", SeatClass.BUSINESS),
    ("tz_num", SeatClass.PREMIUM),
    ("gg_num", SeatClass.PREMIUM_FIRST),
    ("zy_num", SeatClass.FIRST),
    ("ze_num", SeatClass.SECOND),
    ("gr_num", SeatClass.PREMIUM_SLEEPER),
    ("rw_num", SeatClass.SOFT_SLEEPER),
    ("srrb_num", SeatClass.EMU_SLEEPER),
    ("yw_num", SeatClass.HARD_SLEEPER),
    ("rz_num", SeatClass.SOFT_SEAT),
    ("yz_num", SeatClass.HARD_SEAT),
    ("wz_num", SeatClass.NO_SEAT),
    ("qt_num", SeatClass.OTHER),
)


def parse_train_search(payload: object, train_number: str) -> Mapping[str, str] | None:
    """The search hit whose code is exactly `train_number` (G1, not G10), or None."""
    data = payload.get("data") if isinstance(payload, Mapping) else None
    if not isinstance(data, list):
        return None
    for hit in data:
        if isinstance(hit, Mapping) and hit.get("station_train_code") == train_number:
            return {str(k): str(v) for k, v in hit.items()}
    return None


def parse_stop_list(
    payload: object,
    directory: StationDirectory,
    *,
    train_number: str,
    train_no: str,
    date: dt.date,
    fetched_at: dt.datetime,
    source_name: str,
) -> StopList:
    """The stops of `train_number` leaving its origin on `date`."""
    data = payload.get("data") if isinstance(payload, Mapping) else None
    rows = data.get("data") if isinstance(data, Mapping) else None
    if not isinstance(rows, list):
        raise SourceParseError(source_name, "stop list without data.data")
    if not rows:
        raise NotFoundAtSource(source_name, f"no stops of {train_number} ({train_no}) on {date}")
    calls: list[StopCall] = []
    day = date
    last: dt.time | None = None
    try:
        for position, row in enumerate(rows, start=1):
            if not isinstance(row, Mapping):
                raise ValueError(f"stop {position} is not an object")
            name = str(row.get("station_name", "")).strip()
            times: list[dt.datetime | None] = []
            for key in ("arrive_time", "start_time"):
                clock = _clock(str(row.get(key, NO_TIME)))
                if clock is None:
                    times.append(None)
                    continue
                if last is not None and clock < last:
                    day += dt.timedelta(days=1)
                last = clock
                times.append(dt.datetime.combine(day, clock, tzinfo=SHANGHAI))
            arrive_at, depart_at = times
            if position == len(rows):
                depart_at = None  # 12306 repeats the arrival as the terminus's "departure"
            stopover = None
            if arrive_at is not None and depart_at is not None:
                stopover = int((depart_at - arrive_at).total_seconds()) // 60
            calls.append(
                StopCall(
                    number=int(str(row.get("station_no", position)) or position),
                    name=name,
                    station=directory.by_name(name),
                    arrive_at=arrive_at,
                    depart_at=depart_at,
                    stopover_min=stopover,
                )
            )
        return StopList(
            train_number=train_number,
            train_no=train_no,
            date=date,
            stops=tuple(calls),
            sources=(source_name,),
            fetched_at=fetched_at,
        )
    except (ValueError, ValidationError) as exc:
        raise SourceParseError(source_name, f"unreadable stop list: {exc}") from exc


def parse_lc_search_url(html: str) -> str | None:
    """The transfer-search path the lcQuery init page names (`/lcquery/queryG`); None when
    it names none, or something that is not a transfer-search path on this site."""
    match = LC_SEARCH_URL.search(html)
    return match[1] if match and LC_PATH.match(match[1]) else None


def transfer_refusal(payload: object) -> str | None:
    """The `errorMsg` of an answer whose `data` is a string (no plans), else None."""
    if isinstance(payload, Mapping) and isinstance(payload.get("data"), str):
        return str(payload.get("errorMsg") or "")
    return None


def parse_transfers(
    payload: object,
    directory: StationDirectory,
    fetched_at: dt.datetime,
    source_name: str,
    fare: FareKind = FareKind.ADULT,
) -> tuple[list[TransferOffer], int | None]:
    """The plans of one page and the `result_index` of the next page (None: no more).

    A string `data` is 12306's "nothing found": no plans, and no failure."""
    data = payload.get("data") if isinstance(payload, Mapping) else None
    if isinstance(data, str):
        return [], None
    if not isinstance(data, Mapping):
        raise SourceParseError(source_name, "transfer answer without data")
    plans = data.get("middleList")
    if not isinstance(plans, list):
        raise SourceParseError(source_name, "data.middleList is not a list")
    offers: list[TransferOffer] = []
    for plan in plans:
        try:
            offers.append(_transfer(plan, directory, fetched_at, source_name, fare))
        except (ValueError, KeyError, TypeError, ValidationError) as exc:
            log.warning("%s: skipped a transfer plan (%s)", source_name, exc)
    more = data.get("can_query") == "Y"
    index = data.get("result_index")
    next_index = int(str(index)) if more and str(index).isdigit() else None
    return offers, next_index


def _transfer(
    plan: Any,
    directory: StationDirectory,
    fetched_at: dt.datetime,
    source_name: str,
    fare: FareKind,
) -> TransferOffer:
    legs = plan["fullList"]
    if not isinstance(legs, Sequence) or len(legs) != 2:
        raise ValueError("a plan is not two legs")
    first_date = dt.date.fromisoformat(str(plan["train_date"]))
    second_date = dt.date.fromisoformat(str(plan.get("middle_date") or plan["train_date"]))
    first = _leg(legs[0], first_date, directory, fetched_at, source_name, fare)
    second = _leg(legs[1], second_date, directory, fetched_at, source_name, fare)
    wait = int((second.depart_at - first.arrive_at).total_seconds()) // 60
    if wait < 0:
        raise ValueError(f"{second.train_number} leaves before {first.train_number} arrives")
    return TransferOffer(
        first=first,
        second=second,
        middle_station=first.destination_station,
        same_station=first.destination_station.telecode == second.origin_station.telecode,
        wait_min=wait,
    )


def _leg(
    leg: Mapping[str, Any],
    date: dt.date,
    directory: StationDirectory,
    fetched_at: dt.datetime,
    source_name: str,
    fare: FareKind,
) -> TrainOffer:
    depart_clock = _clock(str(leg["start_time"]))
    hours, minutes = (int(part) for part in str(leg["lishi"]).split(":"))
    if depart_clock is None:
        raise ValueError(f"no departure time for {leg.get('station_train_code')}")
    depart_at = dt.datetime.combine(date, depart_clock, tzinfo=SHANGHAI)
    # Live legs name their fares yp_info (with seat_discount_info); some carry yp_info_new.
    prices = parse_prices(str(leg.get("yp_info_new") or leg.get("yp_info") or ""))
    discounts = parse_discounts(str(leg.get("seat_discount_info") or ""))
    seats = []
    for key, seat_class in LEG_SEAT_FIELDS:
        cell = parse_seat_cell(str(leg.get(key, "")))
        if cell is not None:
            status, count = cell
            price = prices.get(seat_class)
            if price is None and seat_class is SeatClass.NO_SEAT:
                price = next((prices[c] for c in NO_SEAT_PRICED_AS if c in prices), None)
            seats.append(
                Seat(
                    seat_class=seat_class,
                    status=status,
                    available=count,
                    price=price,
                    discount=discounts.get(seat_class),
                )
            )
    return TrainOffer(
        train_number=str(leg["station_train_code"]),
        train_no=str(leg.get("train_no", "")),
        origin_station=_station(leg, "from", directory),
        destination_station=_station(leg, "to", directory),
        depart_at=depart_at,
        arrive_at=depart_at + dt.timedelta(hours=hours, minutes=minutes),
        duration_min=hours * 60 + minutes,
        seats=tuple(seats),
        sources=(source_name,),
        fetched_at=fetched_at,
        fare=fare,
    )


def _station(leg: Mapping[str, Any], end: str, directory: StationDirectory) -> Station:
    code = str(leg[f"{end}_station_telecode"])
    known = directory.get(code)
    if known is not None:
        return known
    name = str(leg.get(f"{end}_station_name") or code)
    return Station(telecode=code, name=name, city=name)


def _clock(text: str) -> dt.time | None:
    match = CLOCK.match(text.strip())
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        return None
    return dt.time(int(match[1]), int(match[2]))
