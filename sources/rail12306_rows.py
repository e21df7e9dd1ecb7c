"""12306 left-ticket result rows, decoded as the 12306 web page reads them (pure: no IO).

A row is 58 `|`-separated fields (the last one empty); the indices railtrip reads are below
(real rows: tests/fixtures/rail12306/real_rows_2025-12-20.json). Decisions where the format
leaves room:

- The ride departs on the QUERY date: field 13 is the date the train left its origin, which
  is the day before when boarding mid-route after midnight. Arrival is departure + duration
  (field 10), so overnight arrivals carry the next day's date.
- Seat cells: `有` available (count unknown), digits available with that count (`0` sold
  out), `无` sold out, `''`/`--` class not offered (omitted), `*` not yet on sale. Real rows
  never print 候补: a sold-out class can be waitlisted when field 37 is `1` and none of its
  seat codes is listed in field 38.
- A row not yet on sale (a `*` cell, or a button reading `12月06日12:45起售`) carries its
  sale time (field 55) as `on_sale_at`.
- Prices come from `yp_info_new` (field 39), decoded by position: a 1-character seat code,
  the price in jiao (5 digits), a count (4 digits; 5 in the 11-character variant). A count of
  3000 or more marks the 无座 price, filed under the code of the seat it stands in. `H` and
  a code we do not know are 其他 (`other`, as 12306's page and Joooook/12306-mcp's
  extractPrices file them): kept, and never shifting the chunks around them. 无座 without its
  own chunk costs what the cheapest seat costs on 12306 (硬座, else 二等座).
- 其他 seats (field 22, qt_num) are a class of their own (`other`), never dropped.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from sources.errors import SourceParseError
from sources.models import SHANGHAI, FareKind, Seat, SeatClass, SeatStatus, Station, TrainOffer
from sources.stations import StationDirectory

log = logging.getLogger(__name__)

ROW_FIELDS = 58
# Row field indices (0-based) of the fields railtrip reads.
BUTTON, TRAIN_NO, TRAIN_CODE, FROM_CODE, TO_CODE = 1, 2, 3, 6, 7
DEPART, ARRIVE, DURATION, CAN_WEB_BUY = 8, 9, 10, 11
WAITLIST_FLAG, NO_WAITLIST_CODES, YP_INFO_NEW = 37, 38, 39
FEATURE_FLAGS, DISCOUNTS, SALE_TIME = 46, 54, 55
MIN_FIELDS = YP_INFO_NEW + 1

# Seat-count cells in the order 12306 prints its columns.
SEAT_FIELDS: tuple[tuple[int, SeatClass], ...] = (
    (32, SeatClass.BUSINESS),  # 商务座 (swz_num)
    (25, SeatClass.PREMIUM),  # 特等座 (tz_num)
    (20, SeatClass.PREMIUM_FIRST),  # 优选一等座 (gg_num)
    (31, SeatClass.FIRST),  # 一等座 (zy_num)
    (30, SeatClass.SECOND),  # 二等座 / 二等包座 (ze_num)
    (21, SeatClass.PREMIUM_SLEEPER),  # 高级软卧 / 高级动卧 (gr_num)
    (23, SeatClass.SOFT_SLEEPER),  # 软卧 / 一等卧 (rw_num)
    (33, SeatClass.EMU_SLEEPER),  # 动卧 (srrb_num)
    (28, SeatClass.HARD_SLEEPER),  # 硬卧 / 二等卧 (yw_num)
    (24, SeatClass.SOFT_SEAT),  # 软座 (rz_num)
    (29, SeatClass.HARD_SEAT),  # 硬座 (yz_num)
    (26, SeatClass.NO_SEAT),  # 无座 (wz_num)
    (22, SeatClass.OTHER),  # 其他 (qt_num)
)

# yp_info_new / seat_types / discount seat codes: the full table 12306's page knows.
PRICE_CODES: dict[str, SeatClass] = {
    "9": SeatClass.BUSINESS,
    "P": SeatClass.PREMIUM,
    "M": SeatClass.FIRST,
    "D": SeatClass.PREMIUM_FIRST,
    "O": SeatClass.SECOND,
    "S": SeatClass.SECOND,  # 二等包座
    "6": SeatClass.PREMIUM_SLEEPER,
    "A": SeatClass.PREMIUM_SLEEPER,  # 高级动卧
    "4": SeatClass.SOFT_SLEEPER,
    "I": SeatClass.SOFT_SLEEPER,  # 一等卧
    "F": SeatClass.EMU_SLEEPER,
    "3": SeatClass.HARD_SLEEPER,
    "J": SeatClass.HARD_SLEEPER,  # 二等卧
    "2": SeatClass.SOFT_SEAT,
    "1": SeatClass.HARD_SEAT,
    "W": SeatClass.NO_SEAT,
    "H": SeatClass.OTHER,  # 其他
}
NO_SEAT_COUNT_MARK = 3000
PRICE_CHUNK_WIDTHS = (10, 11)
NO_SEAT_PRICED_AS = (SeatClass.HARD_SEAT, SeatClass.SECOND)
NOT_RUNNING_DURATION = "99:59"
ON_SALE_LATER = "起售"
# Field 46 (dw_flag), `#`-separated, as the 12306 page reads it.
FEATURE_CHECKS: tuple[tuple[int, str, str], ...] = (
    # (position, how the value must look, feature): "=" exact, "^" prefix, "!" anything but
    (0, "=5", "智能动车组"),
    (1, "=1", "复兴号"),
    (2, "^Q", "静音车厢"),
    (2, "^R", "温馨动卧"),
    (5, "=D", "动感号"),
    (6, "!z", "支持选铺"),
    (7, "!z", "老年优惠"),
)

CLOCK = re.compile(r"^(\d{2}):(\d{2})$")
DURATION_RE = re.compile(r"^(\d{1,3}):(\d{2})$")
DISCOUNT_CHUNK = re.compile(r"(.)(\d{4})")


class BadRow(ValueError):
    """A result row we cannot read; the row is skipped."""


@dataclass(frozen=True)
class PriceChunk:
    """One decoded yp_info_new chunk; `seat_class` is None for a code we do not know (其他)."""

    code: str
    seat_class: SeatClass | None
    price: float
    count: int

    @property
    def is_no_seat(self) -> bool:
        return self.count >= NO_SEAT_COUNT_MARK or self.seat_class is SeatClass.NO_SEAT


def parse_left_tickets(
    payload: Mapping[str, Any],
    directory: StationDirectory,
    fetched_at: dt.datetime,
    source_name: str,
    train_date: dt.date,
    fare: FareKind = FareKind.ADULT,
) -> list[TrainOffer]:
    """Offers from a successful left-ticket body; `train_date` is the query's date, `fare`
    whose fares the query asked for (its `purpose_codes`)."""
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
            offer = parse_row(row, names, directory, train_date, fetched_at, source_name, fare)
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
    fare: FareKind = FareKind.ADULT,
) -> TrainOffer | None:
    """One `|`-separated result row as an offer; None for a train not running that day."""
    if not isinstance(row, str):
        raise BadRow(f"row is {type(row).__name__}, not a string")
    fields = row.split("|")
    if len(fields) < MIN_FIELDS:
        raise BadRow(f"row has {len(fields)} fields")
    fields += [""] * (ROW_FIELDS - len(fields))
    if fields[DURATION] == NOT_RUNNING_DURATION:
        return None  # 停运: 12306 lists cancelled trains with 24:00/99:59 placeholders
    duration = _duration(fields[DURATION])
    depart_at = dt.datetime.combine(train_date, _clock(fields[DEPART]), tzinfo=SHANGHAI)
    arrive_at = depart_at + duration
    if arrive_at.time() != _clock(fields[ARRIVE]):
        raise BadRow(f"{fields[TRAIN_CODE]}: arrival {fields[ARRIVE]} disagrees with duration")
    seats = _seats(fields, parse_price_chunks(fields[YP_INFO_NEW]))
    later = ON_SALE_LATER in fields[BUTTON] or any(
        s.status is SeatStatus.NOT_ON_SALE for s in seats
    )
    try:
        return TrainOffer(
            train_number=fields[TRAIN_CODE],
            train_no=fields[TRAIN_NO],
            origin_station=_station(fields[FROM_CODE], names, directory),
            destination_station=_station(fields[TO_CODE], names, directory),
            depart_at=depart_at,
            arrive_at=arrive_at,
            duration_min=int(duration.total_seconds()) // 60,
            seats=seats,
            sources=(source_name,),
            fetched_at=fetched_at,
            on_sale_at=parse_sale_time(fields[SALE_TIME]) if later else None,
            can_web_buy={"Y": True, "N": False, "IS_TIME_NOT_BUY": False}.get(fields[CAN_WEB_BUY]),
            features=parse_features(fields[FEATURE_FLAGS]),
            fare=fare,
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
    if cell == "*":
        return SeatStatus.NOT_ON_SALE, None
    if cell.isascii() and cell.isdigit():
        count = int(cell)
        return (SeatStatus.AVAILABLE, count) if count > 0 else (SeatStatus.SOLD_OUT, 0)
    return None  # unknown text: better to omit a class than to guess its status


def parse_price_chunks(text: str) -> list[PriceChunk]:
    """Every readable chunk of yp_info_new, in order, unknown codes included."""
    text = text.strip()
    widths = [w for w in PRICE_CHUNK_WIDTHS if text and len(text) % w == 0]
    split = {w: [text[i : i + w] for i in range(0, len(text), w)] for w in widths}
    # The width at which every chunk reads as a known code and digits, else at which every
    # chunk's digits read (an unknown code then costs nothing but its own class).
    for known_codes in (True, False):
        for width in widths:
            texts = split[width]
            if all(_digits(c[1:]) and (c[0] in PRICE_CODES or not known_codes) for c in texts):
                return [_chunk(c) for c in texts]
    # Damage: keep every 10-character chunk that reads cleanly. Once a chunk does not, digits
    # cannot tell a seat code from a price digit, so resynchronise only at a letter.
    chunks: list[PriceChunk] = []
    i = 0
    while i < len(text):
        candidate = text[i : i + 10]
        if len(candidate) == 10 and _digits(candidate[1:]):
            chunks.append(_chunk(candidate))
            i += 10
            continue
        i += 1
        while i < len(text) and not text[i].isalpha():
            i += 1
    return chunks


def parse_prices(text: str) -> dict[SeatClass, float]:
    """Yuan per seat class from yp_info_new (the first price of each class wins)."""
    return prices_by_class(parse_price_chunks(text))


def prices_by_class(chunks: list[PriceChunk]) -> dict[SeatClass, float]:
    """Yuan per seat class from decoded chunks; a 3000+ count files its price under 无座, an
    unknown code under 其他."""
    prices: dict[SeatClass, float] = {}
    for chunk in chunks:
        seat_class = SeatClass.NO_SEAT if chunk.is_no_seat else chunk.seat_class
        prices.setdefault(seat_class or SeatClass.OTHER, chunk.price)
    return prices


def parse_discounts(text: str) -> dict[SeatClass, float]:
    """Field 54: seat code + 4 digits (`M0095` = 一等座 at 9.5折) → share of the full fare."""
    discounts: dict[SeatClass, float] = {}
    for code, digits in DISCOUNT_CHUNK.findall(text.strip()):
        seat_class = PRICE_CODES.get(code)
        share = int(digits) / 100
        if seat_class is not None and 0 < share <= 1:
            discounts.setdefault(seat_class, share)
    return discounts


def parse_features(text: str) -> tuple[str, ...]:
    """Field 46 (dw_flag) as the names 12306 prints: 复兴号, 智能动车组, 静音车厢 …"""
    parts = text.split("#") if text else []
    found: list[str] = []
    for position, test, feature in FEATURE_CHECKS:
        if position >= len(parts) or not parts[position]:
            continue
        value, kind, want = parts[position], test[0], test[1:]
        if (
            (kind == "=" and value == want)
            or (kind == "^" and value.startswith(want))
            or (kind == "!" and value != want and value != "0")
        ):
            found.append(feature)
    return tuple(found)


def parse_sale_time(text: str) -> dt.datetime | None:
    """Field 55, `YYYYMMDDHHMM`, in Shanghai time; None when absent or unreadable."""
    try:
        return dt.datetime.strptime(text.strip(), "%Y%m%d%H%M").replace(tzinfo=SHANGHAI)
    except ValueError:
        return None


def _chunk(text: str) -> PriceChunk:
    return PriceChunk(text[0], PRICE_CODES.get(text[0]), int(text[1:6]) / 10, int(text[6:]))


def _digits(text: str) -> bool:
    return len(text) in (9, 10) and text.isascii() and text.isdigit()


def _seats(fields: list[str], chunks: list[PriceChunk]) -> tuple[Seat, ...]:
    prices = prices_by_class(chunks)
    discounts = parse_discounts(fields[DISCOUNTS])
    waitlist_open = fields[WAITLIST_FLAG].strip() == "1"
    closed_codes = set(fields[NO_WAITLIST_CODES].strip())
    seats: list[Seat] = []
    for index, seat_class in SEAT_FIELDS:
        cell = parse_seat_cell(fields[index])
        if cell is None:
            continue
        status, count = cell
        if status is SeatStatus.SOLD_OUT and waitlist_open:
            codes = {code for code, cls in PRICE_CODES.items() if cls is seat_class}
            if not codes & closed_codes:
                status, count = SeatStatus.WAITLIST, None
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
