"""The party's price of one ride: each passenger on their own ticket (`sources.fare_rules`).

A request without a typed party (`TripRequest.party` empty) is `passengers` adults, priced
`unit_price × passengers` as before. With one, each ride is priced per ticket kind from the
class's adult fare: a child under 6 rides free without a seat (and needs none), a child of 6
to 13 pays half, a student the student fare where the class carries one (the fare rules).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal, Protocol

from rules.model import PassengerFare, TripRequest
from sources.fare_rules import TicketKind, fare
from sources.models import SeatClass, TrainOffer

FareType = Literal["adult", "student", "child", "child_free"]
FARE_TYPE: dict[TicketKind, FareType] = {
    TicketKind.ADULT: "adult",
    TicketKind.STUDENT: "student",
    TicketKind.CHILD: "child",
    TicketKind.FREE_CHILD: "child_free",
}
"""The reply's name of each ticket kind (`Leg.fares[].type`)."""
KIND_ORDER = (TicketKind.ADULT, TicketKind.STUDENT, TicketKind.CHILD, TicketKind.FREE_CHILD)


def tickets(request: TripRequest) -> tuple[TicketKind, ...]:
    """One ticket kind per traveller (all adults when the party is not typed)."""
    return request.party or (TicketKind.ADULT,) * request.passengers


def seats_needed(request: TripRequest) -> int:
    """Seats the party buys: a child under 6 rides on a grown-up's ticket, without one."""
    return sum(1 for kind in tickets(request) if kind is not TicketKind.FREE_CHILD) or 1


def ride_fares(
    request: TripRequest, offer: TrainOffer, seat_class: SeatClass, unit_price: float
) -> tuple[PassengerFare, ...]:
    """The ride's price per ticket kind, for the whole party (adults first)."""
    counts = Counter(tickets(request))
    hard_seat = offer.seat(SeatClass.HARD_SEAT)
    seat = offer.seat(seat_class)
    out = []
    for kind in KIND_ORDER:
        count = counts.get(kind, 0)
        if not count:
            continue
        unit = fare(
            kind,
            seat_class,
            unit_price,
            train_type=offer.train_type,
            hard_seat_fare=hard_seat.price if hard_seat else None,
            discount=seat.discount if seat else None,
        )
        if unit is None:  # a student berth whose seat part is unknown: the adult fare
            unit = unit_price
        out.append(
            PassengerFare(
                type=FARE_TYPE[kind], count=count, unit_price=unit, price=round(unit * count, 2)
            )
        )
    return tuple(out)


def ride_price(
    request: TripRequest, offer: TrainOffer, seat_class: SeatClass, unit_price: float
) -> float:
    """The party's price of one ride in one class."""
    if not request.party:
        return round(unit_price * request.passengers, 2)
    return round(sum(f.price for f in ride_fares(request, offer, seat_class, unit_price)), 2)


class _Ride(Protocol):  # the part of rules.ranking.Ride this module reads
    @property
    def offer(self) -> TrainOffer: ...
    @property
    def seat_class(self) -> SeatClass: ...
    @property
    def unit_price(self) -> float: ...


def rides_price(request: TripRequest, rides: Sequence[_Ride]) -> float:
    """The party's price of a route's rides."""
    return round(sum(ride_price(request, r.offer, r.seat_class, r.unit_price) for r in rides), 2)
