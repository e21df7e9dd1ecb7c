"""12306's public left-ticket query (`/otn/leftTicket/query*`) as a ticket source.

The wire format, as the 12306 web page reads it:

- `GET /otn/leftTicket/init` sets the session cookies a query needs; a query without them is
  answered like a blocked client (302 to an error page, or an HTML page).
- `GET /otn/leftTicket/query{X}?leftTicketDTO.train_date=…&leftTicketDTO.from_station=…&
  leftTicketDTO.to_station=…&purpose_codes=ADULT`; the suffix `{X}` changes over time and a
  stale one is answered `{"status": false, "c_url": "leftTicket/queryG"}`.
- Success: `{"status": true, "data": {"result": [row, …], "map": {telecode: name}}}` where each
  row is 57 `|`-separated fields (indices below).

`parse_left_tickets` is pure and tested on recorded payloads; `Rail12306Source.search` is the
thin IO around it. Decisions where the format leaves room:

- The ride departs on the QUERY date: field 13 is the date the train left its origin, which
  is the day before when boarding mid-route after midnight. Arrival is departure + duration
  (field 10), so overnight arrivals carry the next day's date.
- Seat cells: `有` available (count unknown), digits available with that count (`0` sold out),
  `无` sold out, `候补` waitlist, `''`/`--` class not offered (omitted). `*` (not on sale yet)
  maps to sold_out with an unknown count: the contract has no "not yet on sale" status, and
  sold_out is the one that never tempts a planner to promise a seat.
- Prices come from yp_info_new (field 39). 无座 costs what the cheapest seat costs on 12306
  (硬座, else 二等座), so when no 无座 chunk is present it borrows that price.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
from collections.abc import Mapping
from typing import Any, NoReturn

import httpx
import orjson
from pydantic import ValidationError

from sources.base import Clock, shanghai_now
from sources.errors import (
    SourceBlocked,
    SourceParseError,
    map_http_errors,
    raise_for_status,
)
from sources.models import (
    SHANGHAI,
    Seat,
    SeatClass,
    SeatStatus,
    Station,
    TicketQuery,
    TrainOffer,
)
from sources.stations import StationDirectory

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://kyfw.12306.cn"
INIT_PATH = "/otn/leftTicket/init"
QUERY_PATH = "/otn/leftTicket/"
FIRST_SUFFIX = "query"

USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
)

# Row field indices (0-based) of the fields railtrip reads.
TRAIN_NO, TRAIN_CODE, FROM_CODE, TO_CODE = 2, 3, 6, 7
DEPART, ARRIVE, DURATION, YP_INFO_NEW = 8, 9, 10, 39
MIN_FIELDS = YP_INFO_NEW + 1

# Seat-count cells in the order 12306 prints its columns.
SEAT_FIELDS: tuple[tuple[int, SeatClass], ...] = (
    (32, SeatClass.BUSINESS),
    (25, SeatClass.PREMIUM),
    (31, SeatClass.FIRST),
    (30, SeatClass.SECOND),
    (21, SeatClass.PREMIUM_SLEEPER),
    (23, SeatClass.SOFT_SLEEPER),
    (33, SeatClass.EMU_SLEEPER),
    (28, SeatClass.HARD_SLEEPER),
    (24, SeatClass.SOFT_SEAT),
    (29, SeatClass.HARD_SEAT),
    (26, SeatClass.NO_SEAT),
)

# yp_info_new seat-type code characters.
PRICE_CODES: dict[str, SeatClass] = {
    "9": SeatClass.BUSINESS,
    "P": SeatClass.PREMIUM,
    "M": SeatClass.FIRST,
    "O": SeatClass.SECOND,
    "6": SeatClass.PREMIUM_SLEEPER,
    "4": SeatClass.SOFT_SLEEPER,
    "F": SeatClass.EMU_SLEEPER,
    "3": SeatClass.HARD_SLEEPER,
    "2": SeatClass.SOFT_SEAT,
    "1": SeatClass.HARD_SEAT,
    "W": SeatClass.NO_SEAT,
}
# 12306 marks a 无座 chunk by a count of 3000 or more under the code of the seat it stands in.
NO_SEAT_COUNT_MARK = 3000
PRICE_CHUNK_WIDTHS = (10, 11)
NO_SEAT_PRICED_AS = (SeatClass.HARD_SEAT, SeatClass.SECOND)

C_URL = re.compile(r"^leftTicket/(query[A-Za-z]*)$")
CLOCK = re.compile(r"^(\d{2}):(\d{2})$")
DURATION_RE = re.compile(r"^(\d{1,3}):(\d{2})$")
NOT_RUNNING_DURATION = "99:59"


class BadRow(ValueError):
    """A result row we cannot read; the row is skipped."""


# -- pure parsing ---------------------------------------------------------------------------


def parse_left_tickets(
    payload: Mapping[str, Any],
    directory: StationDirectory,
    fetched_at: dt.datetime,
    source_name: str,
    train_date: dt.date,
) -> list[TrainOffer]:
    """Offers from a successful left-ticket body; `train_date` is the query's date."""
    data = payload.get("data")
    if not isinstance(data, Mapping):
        raise SourceParseError(source_name, "no data object in the body")
    rows = data.get("result")
    if not isinstance(rows, list):
        raise SourceParseError(source_name, "data.result is not a list")
    names = data.get("map")
    names = {str(k): str(v) for k, v in names.items()} if isinstance(names, Mapping) else {}
    offers: list[TrainOffer] = []
    bad: list[str] = []
    for row in rows:
        try:
            offer = parse_row(row, names, directory, train_date, fetched_at, source_name)
        except BadRow as exc:
            bad.append(str(exc))
            continue
        if offer is not None:
            offers.append(offer)
    if bad:
        log.warning("%s: skipped %d of %d rows (%s)", source_name, len(bad), len(rows), bad[0])
        if len(bad) == len(rows):
            raise SourceParseError(source_name, f"no readable row ({bad[0]})")
    return offers


def parse_row(
    row: object,
    names: Mapping[str, str],
    directory: StationDirectory,
    train_date: dt.date,
    fetched_at: dt.datetime,
    source_name: str,
) -> TrainOffer | None:
    """One `|`-separated result row as an offer; None for a train not running that day."""
    if not isinstance(row, str):
        raise BadRow(f"row is {type(row).__name__}, not a string")
    fields = row.split("|")
    if len(fields) < MIN_FIELDS:
        raise BadRow(f"row has {len(fields)} fields")
    if fields[DURATION] == NOT_RUNNING_DURATION:
        return None  # 停运: 12306 lists cancelled trains with 24:00/99:59 placeholders
    duration = _duration(fields[DURATION])
    depart_clock = _clock(fields[DEPART])
    arrive_clock = _clock(fields[ARRIVE])
    depart_at = dt.datetime.combine(train_date, depart_clock, tzinfo=SHANGHAI)
    arrive_at = depart_at + duration
    if arrive_at.time() != arrive_clock:
        raise BadRow(f"{fields[TRAIN_CODE]}: arrival {fields[ARRIVE]} disagrees with duration")
    prices = parse_prices(fields[YP_INFO_NEW])
    try:
        return TrainOffer(
            train_number=fields[TRAIN_CODE],
            train_no=fields[TRAIN_NO],
            origin_station=_station(fields[FROM_CODE], names, directory),
            destination_station=_station(fields[TO_CODE], names, directory),
            depart_at=depart_at,
            arrive_at=arrive_at,
            duration_min=int(duration.total_seconds()) // 60,
            seats=_seats(fields, prices),
            sources=(source_name,),
            fetched_at=fetched_at,
        )
    except ValidationError as exc:
        raise BadRow(f"{fields[TRAIN_CODE]}: {exc.errors()[0]['msg']}") from exc


def parse_seat_cell(value: str) -> tuple[SeatStatus, int | None] | None:
    """Status and count of one seat cell; None when the class is not offered."""
    cell = value.strip()
    if cell in ("", "--"):
        return None
    if cell == "有":
        return SeatStatus.AVAILABLE, None
    if cell == "无":
        return SeatStatus.SOLD_OUT, 0
    if cell == "候补":
        return SeatStatus.WAITLIST, None
    if cell == "*":
        return SeatStatus.SOLD_OUT, None
    if cell.isascii() and cell.isdigit():
        count = int(cell)
        return (SeatStatus.AVAILABLE, count) if count > 0 else (SeatStatus.SOLD_OUT, 0)
    return None  # unknown text: better to omit a class than to guess its status


def parse_prices(text: str) -> dict[SeatClass, float]:
    """Yuan per seat class from yp_info_new; unreadable chunks just lose their price.

    A chunk is a seat code, the price in jiao as 5 digits, then a count (4 digits, 5 in the
    11-character variant); a count of 3000 or more marks the 无座 price.
    """
    prices: dict[SeatClass, float] = {}
    for chunk in _price_chunks(text.strip()):
        seat_class = PRICE_CODES[chunk[0]]
        if int(chunk[6:]) >= NO_SEAT_COUNT_MARK:
            seat_class = SeatClass.NO_SEAT
        prices.setdefault(seat_class, int(chunk[1:6]) / 10)
    return prices


def _price_chunks(text: str) -> list[str]:
    for width in PRICE_CHUNK_WIDTHS:
        if text and len(text) % width == 0:
            uniform = [text[i : i + width] for i in range(0, len(text), width)]
            if all(_is_price_chunk(chunk) for chunk in uniform):
                return uniform
    # Mixed widths or damage: walk the string keeping every chunk that reads cleanly and is
    # followed by the start of another. Once alignment is lost, digits cannot tell a seat code
    # from a price digit, so restart only at a letter code: better lose a price than invent one.
    chunks: list[str] = []
    i = 0
    while i < len(text):
        chunk = _chunk_at(text, i)
        if chunk:
            chunks.append(chunk)
            i += len(chunk)
            continue
        i += 1
        while i < len(text) and not (text[i].isalpha() and text[i] in PRICE_CODES):
            i += 1
    return chunks


def _chunk_at(text: str, i: int) -> str | None:
    for width in PRICE_CHUNK_WIDTHS:
        chunk, after = text[i : i + width], i + width
        ends = after == len(text) or (after < len(text) and text[after] in PRICE_CODES)
        if len(chunk) == width and _is_price_chunk(chunk) and ends:
            return chunk
    return None


def _is_price_chunk(chunk: str) -> bool:
    digits = chunk[1:]
    return chunk[:1] in PRICE_CODES and digits.isascii() and digits.isdigit()


def _seats(fields: list[str], prices: Mapping[SeatClass, float]) -> tuple[Seat, ...]:
    seats: list[Seat] = []
    for index, seat_class in SEAT_FIELDS:
        cell = parse_seat_cell(fields[index])
        if cell is None:
            continue
        status, count = cell
        price = prices.get(seat_class)
        if price is None and seat_class is SeatClass.NO_SEAT:
            price = next((prices[c] for c in NO_SEAT_PRICED_AS if c in prices), None)
        seats.append(Seat(seat_class=seat_class, status=status, available=count, price=price))
    return tuple(seats)


def _station(telecode: str, names: Mapping[str, str], directory: StationDirectory) -> Station:
    known = directory.get(telecode) if telecode else None
    if known is not None:
        return known
    name = names.get(telecode)
    if not name:
        raise BadRow(f"station {telecode!r} is neither in the directory nor in data.map")
    # Unknown to our directory but named by 12306: keep the ride, the city is a best guess.
    try:
        return Station(telecode=telecode, name=name, city=name)
    except ValidationError as exc:
        raise BadRow(f"bad telecode {telecode!r}") from exc


def _clock(text: str) -> dt.time:
    match = CLOCK.match(text)
    if match is None:
        raise BadRow(f"bad time {text!r}")
    try:
        return dt.time(int(match[1]), int(match[2]))
    except ValueError as exc:
        raise BadRow(f"bad time {text!r}") from exc


def _duration(text: str) -> dt.timedelta:
    match = DURATION_RE.match(text)
    if match is None or int(match[2]) >= 60:
        raise BadRow(f"bad duration {text!r}")
    return dt.timedelta(hours=int(match[1]), minutes=int(match[2]))


# -- IO -------------------------------------------------------------------------------------


class Rail12306Source:
    """The 12306 left-ticket query at `base_url`, with its own session cookies.

    Instance state: the session cookies (kept here, not on the shared client, and sent as an
    explicit Cookie header so they win over anything in the client's jar) and the query
    suffix learnt from `c_url`. A block drops the cookies so the next call re-inits.
    """

    def __init__(
        self,
        name: str,
        client: httpx.AsyncClient,
        base_url: str,
        directory: StationDirectory,
        clock: Clock = shanghai_now,
    ) -> None:
        self.name = name
        self._client = client
        self._base_url = base_url.rstrip("/")
        self._directory = directory
        self._clock = clock
        self._cookies = httpx.Cookies()
        self._session_ready = False
        self._init_lock = asyncio.Lock()
        self.query_suffix = FIRST_SUFFIX  # learnt from c_url; public for readiness reports

    async def search(self, query: TicketQuery) -> list[TrainOffer]:
        """Query 12306 once (plus init and one c_url hop if needed) and parse the offers."""
        payload = await self._fetch(query)
        offers = parse_left_tickets(payload, self._directory, self._clock(), self.name, query.date)
        return [offer for offer in offers if query.admits(offer)]

    async def _fetch(self, query: TicketQuery) -> dict[str, Any]:
        await self._ensure_session()
        payload = await self._query(self.query_suffix, query)
        redirect = self._redirect_suffix(payload)
        if redirect is not None:
            self.query_suffix = redirect
            payload = await self._query(redirect, query)
            if self._redirect_suffix(payload) is not None:
                self._block(f"redirected again after following c_url to {redirect}")
        if payload.get("status") is False:
            self._block(f"status false: {payload.get('messages')!r}")
        if not isinstance(payload.get("data"), Mapping):
            self._block("JSON body without data")
        return payload

    async def _ensure_session(self) -> None:
        if self._session_ready:
            return
        # Concurrent first queries (a fan-out over several legs) share one init request.
        async with self._init_lock:
            if self._session_ready:
                return
            url = self._base_url + INIT_PATH
            headers = {"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml"}
            with map_http_errors(self.name):
                response = await self._client.get(url, headers=headers, follow_redirects=False)
            raise_for_status(self.name, response)
            cookies = httpx.Cookies()
            cookies.extract_cookies(response)
            self._cookies = cookies
            self._session_ready = True

    async def _query(self, suffix: str, query: TicketQuery) -> dict[str, Any]:
        url = self._base_url + QUERY_PATH + suffix
        # 12306 expects this parameter order.
        params: list[tuple[str, str | int | float | bool | None]] = [
            ("leftTicketDTO.train_date", query.date.isoformat()),
            ("leftTicketDTO.from_station", query.origin),
            ("leftTicketDTO.to_station", query.destination),
            ("purpose_codes", "ADULT"),
        ]
        headers = {
            "User-Agent": USER_AGENT,
            "Referer": self._base_url + INIT_PATH,
            "X-Requested-With": "XMLHttpRequest",
            "Accept": "application/json, text/javascript, */*; q=0.01",
        }
        cookie = self._cookie_header(url)
        if cookie:
            headers["Cookie"] = cookie
        with map_http_errors(self.name):
            response = await self._client.get(
                url, params=params, headers=headers, follow_redirects=False
            )
        try:
            raise_for_status(self.name, response)
        except SourceBlocked:
            self._reset_session()
            raise
        self._cookies.extract_cookies(response)
        try:
            body = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            self._block(f"not JSON ({response.headers.get('content-type', 'no content-type')})")
        if not isinstance(body, dict):
            self._block(f"JSON {type(body).__name__} instead of an object")
        return body

    def _redirect_suffix(self, payload: Mapping[str, Any]) -> str | None:
        c_url = payload.get("c_url")
        if payload.get("status") is not False or not c_url:
            return None
        match = C_URL.match(str(c_url))
        if match is None:
            raise SourceParseError(self.name, f"unexpected c_url {c_url!r}")
        return match[1]

    def _cookie_header(self, url: str) -> str | None:
        # Let the cookie jar apply its domain/path rules to a probe request.
        probe = httpx.Request("GET", url)
        self._cookies.set_cookie_header(probe)
        return probe.headers.get("Cookie")

    def _reset_session(self) -> None:
        self._cookies = httpx.Cookies()
        self._session_ready = False

    def _block(self, message: str) -> NoReturn:
        self._reset_session()
        raise SourceBlocked(self.name, message)
