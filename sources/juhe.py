"""聚合数据 (Juhe)'s train query, API 817, as a ticket source.

    GET {base}/fapigw/train/query?key=…&search_type=1&departure_station=北京&arrival_station=上海
        &date=YYYY-MM-DD&enable_booking=2
    → {"error_code": 0, "reason": "success", "result": [{"train_no": "G25", …}]}

`train_no` there is the train number (G25), not 12306's internal id; stations come with their
telecodes, so an offer merges with 12306's for the same ride (number, date and telecodes).
Juhe answers errors with HTTP 200 and `error_code != 0`; `error_for` maps its codes onto the
source error tree (a refused key is permanent, a spent quota or rate is refused like a block
and never retried at once, maintenance is transient). `parse_juhe_trains` is pure;
`JuheSource.search` is the thin IO around it.

What its public clients show of the live answers, and how they are survived:

- `enable_booking=1` returns bookable trains only, `2` every train (a public Juhe client's
  docstring, find_string id 52012008828: "1-仅返回可预定的班次，2-所有"; a public 817
  adapter, find_string id 70939022110, asks `2`): asked with 2, so a sold-out day is sold-out
  trains, not "no trains"; a train not bookable keeps `can_web_buy` false.
- One train off the format never loses the answer: a `price` of `"--"` or `""` is an unknown
  fare, a string price (`"627.50"`) is read as a number (both adapters above read prices
  through `Decimal(str(value))` and take `--`/`""` as unknown), `train_flags: null` is no
  flags, a station code missing is looked up by the station's name (else the train is
  skipped); a train that still cannot be read is skipped.
- Fares are adult fares only (the 817 adapter above refuses anything but one standard
  adult): a student query is answered with offers labelled `fare: adult`.
- `281701`, "no trains for that pair or date", is an empty successful answer. No public
  capture of it was found: the code is the one the issue names, and unsure.
- Quota codes (10011 per-IP limit, 10012 quota spent, 10013 test-key quota; the platform
  list in 847164886/bian-web-api JuheConstantsCode.java) are never retried at once.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from typing import Any

import httpx
import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sources.base import Clock, shanghai_now
from sources.errors import (
    QueryRefused,
    SourceError,
    SourceParseError,
    SourceQuotaExceeded,
    SourceRejected,
    SourceServerError,
    map_http_errors,
    raise_for_status,
)
from sources.models import (
    SEAT_BY_LABEL,
    SHANGHAI,
    FareKind,
    Seat,
    SeatClass,
    SeatStatus,
    Station,
    TicketQuery,
    TrainOffer,
)
from sources.sale_window import in_sale_window
from sources.stations import StationDirectory

log = logging.getLogger(__name__)

QUERY_PATH = "/fapigw/train/query"

# Seat names Juhe prints beyond the contract's labels (SEAT_LABELS): the same classes 12306
# files them under.
SEAT_ALIASES: dict[str, SeatClass] = {
    "二等包座": SeatClass.SECOND,
    "一等卧": SeatClass.SOFT_SLEEPER,
    "二等卧": SeatClass.HARD_SLEEPER,
    "高级动卧": SeatClass.PREMIUM_SLEEPER,
    "站票": SeatClass.NO_SEAT,
}

# Juhe's platform-wide error codes (every keyed API shares them). Codes not listed are the
# API's own (a bad station, no such route): the request itself is wrong, so not retried.
REJECTED_CODES = frozenset(
    {10001, 10002, 10003, 10004, 10005, 10007, 10008, 10009, 10021}
)  # bad / unauthorised / expired / banned key, unknown source, banned IP, API retired
RATE_LIMITED_CODES = frozenset({10011, 10012, 10013})  # per-IP limit, quota, test-key quota
TRANSIENT_CODES = frozenset({10014, 10020})  # internal error, API under maintenance
NO_TRAINS = 281701  # no trains for that pair or date: an empty answer, not an error
ALL_TRAINS = "2"  # enable_booking: every train, bookable or not (1: bookable only)
UNKNOWN_PRICES = frozenset({"", "--", "-", "—", "*"})

CLOCK = re.compile(r"^(\d{2}):(\d{2})$")


class Wire(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class WirePrice(Wire):
    seat_name: str
    price: float | None = Field(default=None, ge=0)
    num: str | int | None = None

    @field_validator("price", mode="before")
    @classmethod
    def _readable_price(cls, value: object) -> float | None:
        """`627`, `627.5` or `"627.50"` is a fare; `"--"`, `""` or anything else unknown."""
        if value is None or isinstance(value, bool):
            return None
        if isinstance(value, int | float):
            number = float(value)
        elif isinstance(value, str) and value.strip() not in UNKNOWN_PRICES:
            try:
                number = float(value.strip())
            except ValueError:
                return None
        else:
            return None
        return number if number >= 0 and number == number else None  # not NaN, not negative


class WireTrain(Wire):
    train_no: str
    departure_station: str
    arrival_station: str
    departure_station_code: str | None = None
    arrival_station_code: str | None = None
    departure_time: str
    arrival_time: str
    duration: str
    enable_booking: str | None = None
    prices: list[WirePrice] = Field(default_factory=list)
    train_flags: list[str] = Field(default_factory=list)

    @field_validator("prices", "train_flags", mode="before")
    @classmethod
    def _null_is_none(cls, value: object) -> object:
        return [] if value is None else value

    @field_validator("prices", mode="before")
    @classmethod
    def _readable_prices(cls, value: object) -> object:
        """An entry that is not a seat price (no seat name) is dropped, not the train."""
        if not isinstance(value, list):
            return value
        return [p for p in value if isinstance(p, dict) and isinstance(p.get("seat_name"), str)]


class WireAnswer(Wire):
    error_code: int
    reason: str = ""
    result: list[Any] | None = None  # trains are read one by one: one bad train is skipped


def error_for(source: str, code: int, reason: str) -> SourceError:
    """The source error for a Juhe `error_code` other than 0."""
    message = f"juhe error {code}: {reason or 'no reason given'}"
    if code in RATE_LIMITED_CODES:
        return SourceQuotaExceeded(source, message)
    if code in TRANSIENT_CODES:
        return SourceServerError(source, message, 503)
    return SourceRejected(source, message, 400)


def parse_juhe_trains(
    payload: object,
    directory: StationDirectory,
    fetched_at: dt.datetime,
    source_name: str,
    date: dt.date,
) -> list[TrainOffer]:
    """Offers from one answer; an `error_code` becomes its source error, a body off the
    schema a `SourceParseError`. A train that cannot be read is skipped, not fatal."""
    try:
        answer = WireAnswer.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        raise SourceParseError(source_name, f"off schema at {where}: {first['msg']}") from exc
    if answer.error_code == NO_TRAINS:
        return []
    if answer.error_code != 0:
        raise error_for(source_name, answer.error_code, answer.reason)
    offers: list[TrainOffer] = []
    skipped: list[str] = []
    for raw in answer.result or []:
        try:
            train = WireTrain.model_validate(raw)
            offers.append(_offer(train, directory, fetched_at, source_name, date))
        except ValidationError as exc:
            first = exc.errors()[0]
            skipped.append(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}")
        except ValueError as exc:
            skipped.append(f"{train.train_no}: {exc}")
    if skipped:
        log.warning(
            "%s: skipped %d of %d trains (%s)",
            source_name,
            len(skipped),
            len(answer.result or []),
            skipped[0],
        )
    if answer.result and not offers:
        raise SourceParseError(source_name, f"no readable train in the result ({skipped[0]})")
    return offers


def parse_seat(price: WirePrice) -> Seat | None:
    """One `prices[]` entry as a seat; None for a class or count we cannot read."""
    seat_class = SEAT_BY_LABEL.get(price.seat_name) or SEAT_ALIASES.get(price.seat_name)
    if seat_class is None:
        return None
    num = str(price.num if price.num is not None else "").strip()
    if num == "有":
        status, available = SeatStatus.AVAILABLE, None
    elif num in ("无", "0"):
        status, available = SeatStatus.SOLD_OUT, 0
    elif num == "候补":
        status, available = SeatStatus.WAITLIST, None
    elif num == "*":
        status, available = SeatStatus.NOT_ON_SALE, None
    elif num.isascii() and num.isdigit():
        status, available = SeatStatus.AVAILABLE, int(num)
    else:
        return None
    return Seat(seat_class=seat_class, status=status, available=available, price=price.price)


def _offer(
    train: WireTrain,
    directory: StationDirectory,
    fetched_at: dt.datetime,
    source_name: str,
    date: dt.date,
) -> TrainOffer:
    depart_at = dt.datetime.combine(date, _clock(train.departure_time), tzinfo=SHANGHAI)
    hours, minutes = _clock_parts(train.duration, hours_max=99)
    arrive_at = depart_at + dt.timedelta(hours=hours, minutes=minutes)
    if arrive_at.time() != _clock(train.arrival_time):
        raise ValueError(f"arrival {train.arrival_time} disagrees with duration {train.duration}")
    seats: dict[SeatClass, Seat] = {}
    for price in train.prices:
        seat = parse_seat(price)
        if seat is not None:
            seats.setdefault(seat.seat_class, seat)  # 二等座 before 二等包座: the first wins
    try:
        return TrainOffer(
            train_number=train.train_no.upper(),
            origin_station=_station(
                train.departure_station_code, train.departure_station, directory
            ),
            destination_station=_station(
                train.arrival_station_code, train.arrival_station, directory
            ),
            fare=FareKind.ADULT,  # Juhe prices adults only, whatever the query asked
            depart_at=depart_at,
            arrive_at=arrive_at,
            duration_min=hours * 60 + minutes,
            seats=tuple(sorted(seats.values(), key=lambda s: list(SeatClass).index(s.seat_class))),
            sources=(source_name,),
            fetched_at=fetched_at,
            can_web_buy={"Y": True, "N": False}.get(train.enable_booking or ""),
            features=tuple(train.train_flags),
        )
    except ValidationError as exc:
        raise ValueError(str(exc.errors()[0]["msg"])) from exc


def _station(code: str | None, name: str, directory: StationDirectory) -> Station:
    telecode = (code or "").strip().upper()
    known = directory.get(telecode) if telecode else directory.by_name(name)
    if known is not None:
        return known
    if not telecode:
        raise ValueError(f"no station code for {name!r}, and the directory has no such name")
    # Unknown to our directory: keep the ride with Juhe's name; the city is a best guess.
    try:
        return Station(telecode=telecode, name=name, city=name)
    except ValidationError as exc:
        raise ValueError(f"bad station code {code!r}") from exc


def _clock(text: str) -> dt.time:
    hours, minutes = _clock_parts(text, hours_max=23)
    return dt.time(hours, minutes)


def _clock_parts(text: str, *, hours_max: int) -> tuple[int, int]:
    match = CLOCK.match(text.strip())
    if match is None or int(match[1]) > hours_max or int(match[2]) >= 60:
        raise ValueError(f"bad time {text!r}")
    return int(match[1]), int(match[2])


class JuheSource:
    """Juhe's train query at `base_url`, with the account's key."""

    def __init__(
        self,
        name: str,
        client: httpx.AsyncClient,
        base_url: str,
        directory: StationDirectory,
        api_key: str,
        clock: Clock = shanghai_now,
    ) -> None:
        self.name = name
        self._client = client
        self._base_url = base_url.rstrip("/")
        self._directory = directory
        self._api_key = api_key
        self._clock = clock

    async def search(self, query: TicketQuery) -> list[TrainOffer]:
        """One query, parsed and filtered by the query's train types."""
        if not in_sale_window(query.date, self._clock().date()):
            raise QueryRefused(self.name, f"{query.date} is not on sale")
        params = {
            "key": self._api_key,
            "search_type": "1",
            "departure_station": self._name_of(query.origin),
            "arrival_station": self._name_of(query.destination),
            "date": query.date.isoformat(),
            "enable_booking": ALL_TRAINS,
        }
        with map_http_errors(self.name):
            response = await self._client.get(
                self._base_url + QUERY_PATH, params=params, headers={"Accept": "application/json"}
            )
        raise_for_status(self.name, response)
        try:
            payload: Any = orjson.loads(response.content)
        except orjson.JSONDecodeError as exc:
            raise SourceParseError(self.name, "200 body is not JSON") from exc
        offers = parse_juhe_trains(payload, self._directory, self._clock(), self.name, query.date)
        return [offer for offer in offers if query.admits(offer)]

    def _name_of(self, telecode: str) -> str:
        station = self._directory.get(telecode)
        return station.name if station is not None else telecode
