"""Seat inventory that changes over time, deterministically.

Pure: the clock is an argument. Counts depend only on (train, start date, seat class, time
bucket): a stable hash picks each class's capacity and demand, and a sales curve that only
rises over the 14-day presale of `sources.sale_window` (an opening burst, a steady middle, a
rush in the last two days) decides how many are sold by the start of the bucket. So the same
bucket always gives the same counts, a later bucket never shows more seats than an earlier
one, classes sell out (some then open a waitlist), and a few hot trains sell out entirely.
The juhe vendor reads an earlier bucket (`lag`), as an aggregator's cache lags the railway.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from enum import StrEnum

from sources.models import SeatClass
from sources.sale_window import SALE_WINDOW_DAYS
from sources.sandbox.seeding import stable_int, stable_unit
from sources.sandbox.timetable import Ride, Train

BUCKET = dt.timedelta(minutes=10)
# A ride goes on sale SALE_WINDOW_DAYS before it departs (its `sale_time` on the wire).
PRESALE = dt.timedelta(days=SALE_WINDOW_DAYS)
AGGREGATOR_LAG = BUCKET
HOT_TRAIN_RATE = 0.04
DISCOUNTED_SHARE = 0.3
DISCOUNTS = (0.95, 0.9, 0.87, 0.85)
WAITLIST_RATE = 0.6
_EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)

_CAPACITY: dict[SeatClass, tuple[int, int]] = {
    SeatClass.BUSINESS: (10, 28),
    SeatClass.PREMIUM: (8, 20),
    SeatClass.FIRST: (60, 120),
    SeatClass.SECOND: (400, 900),
    SeatClass.PREMIUM_SLEEPER: (8, 16),
    SeatClass.SOFT_SLEEPER: (36, 96),
    SeatClass.EMU_SLEEPER: (200, 480),
    SeatClass.HARD_SLEEPER: (250, 500),
    SeatClass.SOFT_SEAT: (60, 120),
    SeatClass.HARD_SEAT: (300, 600),
    SeatClass.NO_SEAT: (40, 150),
}


class SaleState(StrEnum):
    AVAILABLE = "available"
    SOLD_OUT = "sold_out"
    WAITLIST = "waitlist"
    NOT_ON_SALE = "not_on_sale"  # presale not open yet (12306 shows "*")
    CLOSED = "closed"  # the train has left the boarding station


@dataclass(frozen=True)
class SeatInventory:
    """One class on one ride at one moment: `remaining` is 0 unless `state` is AVAILABLE;
    `price` is what is paid (the discounted fare when `discount` is set)."""

    seat_class: SeatClass
    state: SaleState
    remaining: int
    price: float
    discount: float | None = None

    @property
    def purchasable(self) -> bool:
        return self.state is SaleState.AVAILABLE


def bucket_start(now: dt.datetime) -> dt.datetime:
    """The start of the time bucket `now` falls in (counts are constant within a bucket)."""
    if now.tzinfo is None:
        raise ValueError("inventory needs an aware datetime")
    buckets = (now - _EPOCH) // BUCKET
    return (_EPOCH + buckets * BUCKET).astimezone(now.tzinfo)


def capacity(train: Train, seat_class: SeatClass) -> int:
    """Seats of `seat_class` on `train` (stable across dates: it is the same rolling stock)."""
    low, high = _CAPACITY[seat_class]
    return stable_int(low, high, train.train_no, seat_class.value, "capacity")


def is_hot(train: Train) -> bool:
    """A hot train on its date sells out in the opening burst."""
    return stable_unit(train.train_no, train.start_date, "hot") < HOT_TRAIN_RATE


def remaining_seats(train: Train, seat_class: SeatClass, now: dt.datetime) -> int:
    """Seats left at the start of `now`'s bucket, on the train's sales curve."""
    at = bucket_start(now)
    seats = capacity(train, seat_class)
    sold = math.floor(seats * _demand(train, seat_class) * _sales_curve(train.departs_at, at))
    return max(0, seats - sold)


def discount(train: Train, seat_class: SeatClass) -> float | None:
    """The share of the full fare a discounted class sells at (12306's 浮动票价: business
    class on some G trains, as the real G105 at 8.7折), or None at the full fare."""
    if train.kind != "G" or seat_class is not SeatClass.BUSINESS:
        return None
    if stable_unit(train.train_no, train.start_date, "discount") >= DISCOUNTED_SHARE:
        return None
    return DISCOUNTS[stable_int(0, len(DISCOUNTS) - 1, train.train_no, train.start_date, "off")]


def seat_inventory(ride: Ride, seat_class: SeatClass, now: dt.datetime) -> SeatInventory:
    """What a vendor shows for `seat_class` on `ride` at `now`."""
    share = discount(ride.train, seat_class)
    price = ride.price(seat_class)
    if share is not None:
        price = round(price * share * 2) / 2  # to the half yuan, as fares are
    if now >= ride.depart_at:
        return SeatInventory(seat_class, SaleState.CLOSED, 0, price, share)
    if now < ride.depart_at - PRESALE:
        return SeatInventory(seat_class, SaleState.NOT_ON_SALE, 0, price, share)
    left = remaining_seats(ride.train, seat_class, now)
    if left > 0:
        return SeatInventory(seat_class, SaleState.AVAILABLE, left, price, share)
    state = _exhausted_state(ride.train, seat_class)
    return SeatInventory(seat_class, state, 0, price, share)


def ride_inventory(
    ride: Ride, now: dt.datetime, lag: dt.timedelta = dt.timedelta(0)
) -> tuple[SeatInventory, ...]:
    """Every class of `ride` as seen `lag` behind `now` (the aggregator uses AGGREGATOR_LAG)."""
    seen_at = now - lag
    return tuple(seat_inventory(ride, cls, seen_at) for cls in ride.train.seat_classes)


def _demand(train: Train, seat_class: SeatClass) -> float:
    """How much of the class the market wants by departure (>= 1 sells out)."""
    if is_hot(train):
        return 6.0
    base = 0.35 + 0.9 * stable_unit(train.train_no, train.start_date, "demand")
    factor = 0.7 + 0.6 * stable_unit(train.train_no, train.start_date, seat_class.value)
    return base * factor


def _sales_curve(departs_at: dt.datetime, at: dt.datetime) -> float:
    """Share of demand sold by `at`: 0 before presale, 1 at departure, never decreasing."""
    opens = departs_at - PRESALE
    if at <= opens:
        return 0.0
    elapsed_h = min((at - opens) / dt.timedelta(hours=1), PRESALE / dt.timedelta(hours=1))
    window_h = PRESALE / dt.timedelta(hours=1)
    to_go_h = max(0.0, window_h - elapsed_h)
    burst = min(1.0, elapsed_h / 6)
    steady = (elapsed_h / window_h) ** 1.5
    rush = max(0.0, 1 - to_go_h / 48) ** 2
    return 0.3 * burst + 0.45 * steady + 0.25 * rush


def _exhausted_state(train: Train, seat_class: SeatClass) -> SaleState:
    if stable_unit(train.train_no, train.start_date, seat_class.value, "waitlist") < WAITLIST_RATE:
        return SaleState.WAITLIST
    return SaleState.SOLD_OUT
