"""A small factory of stations, seats and offers for rule-engine tests (real telecodes)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from rules.model import LegKey, LegOffers, TripRequest
from sources.models import SHANGHAI, Freshness, Seat, SeatClass, SeatStatus, Station, TrainOffer

BEIJING = Station(telecode="BJP", name="北京", city="北京")
BEIJING_SOUTH = Station(telecode="VNP", name="北京南", city="北京")
BEIJING_WEST = Station(telecode="BXP", name="北京西", city="北京")
SHANGHAI_STATION = Station(telecode="SHH", name="上海", city="上海")
HONGQIAO = Station(telecode="AOH", name="上海虹桥", city="上海")
NANJING_SOUTH = Station(telecode="NKH", name="南京南", city="南京")
XIAN_NORTH = Station(telecode="EAY", name="西安北", city="西安")
CHENGDU_EAST = Station(telecode="ICW", name="成都东", city="成都")
WUHAN = Station(telecode="WHN", name="武汉", city="武汉")
ZHENGZHOU_EAST = Station(telecode="ZAF", name="郑州东", city="郑州")

DAY = dt.date(2026, 12, 4)
NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=SHANGHAI)
FETCHED = dt.datetime(2026, 12, 1, 8, 59, tzinfo=SHANGHAI)


def at(day: dt.date, clock: str) -> dt.datetime:
    """`at(DAY, "08:00")` in Shanghai time."""
    hour, minute = (int(part) for part in clock.split(":"))
    return dt.datetime.combine(day, dt.time(hour, minute), SHANGHAI)


def seat(
    seat_class: SeatClass,
    price: float | None,
    available: int | None = None,
    status: SeatStatus = SeatStatus.AVAILABLE,
) -> Seat:
    """One seat class; `available` None means 12306's "有"."""
    return Seat(seat_class=seat_class, status=status, available=available, price=price)


def high_speed_seats(second: float = 553.0, left: int | None = None) -> tuple[Seat, ...]:
    """Business, first and second class priced like 北京南→上海虹桥."""
    return (
        seat(SeatClass.BUSINESS, round(second * 3.16, 1), left),
        seat(SeatClass.FIRST, round(second * 1.69, 1), left),
        seat(SeatClass.SECOND, second, left),
    )


def offer(
    number: str,
    origin: Station,
    destination: Station,
    depart: str,
    arrive: str,
    *,
    day: dt.date = DAY,
    seats: Iterable[Seat] | None = None,
) -> TrainOffer:
    """A ride; an arrival clock earlier than the departure means the next day."""
    depart_at = at(day, depart)
    arrive_at = at(day, arrive)
    if arrive_at <= depart_at:
        arrive_at += dt.timedelta(days=1)
    return TrainOffer(
        train_number=number,
        origin_station=origin,
        destination_station=destination,
        depart_at=depart_at,
        arrive_at=arrive_at,
        duration_min=int((arrive_at - depart_at).total_seconds() // 60),
        seats=tuple(high_speed_seats() if seats is None else seats),
        sources=("sandbox-12306",),
        fetched_at=FETCHED,
    )


def book(*offers: TrainOffer, freshness: Freshness = "realtime") -> dict[LegKey, LegOffers]:
    """Offers grouped the way the query service returns them: per city pair and date."""
    grouped: dict[LegKey, list[TrainOffer]] = {}
    for item in offers:
        key = LegKey(item.origin_station.city, item.destination_station.city, item.date)
        grouped.setdefault(key, []).append(item)
    return {key: LegOffers(key, tuple(items), freshness) for key, items in grouped.items()}


def empty(*keys: LegKey) -> dict[LegKey, LegOffers]:
    """Legs that were queried but returned nothing."""
    return {key: LegOffers(key, (), "unavailable") for key in keys}


def night_at_nanjing() -> tuple[TripRequest, dict[LegKey, LegOffers]]:
    """北京→上海 where the only way is G7 to 南京南 in the evening and G7001 on next morning."""
    entries = book(
        offer("G7", BEIJING_SOUTH, NANJING_SOUTH, "17:00", "20:30"),
        offer("G7001", NANJING_SOUTH, HONGQIAO, "08:00", "09:10", day=DAY + dt.timedelta(days=1)),
    )
    entries |= empty(LegKey("北京", "上海", DAY), LegKey("南京", "上海", DAY))
    request = TripRequest(origin="北京", destination="上海", depart_date=DAY, return_trip=False)
    return request, entries
