"""The booking precheck: one train re-checked live before money moves, never from a cache.

Called by `POST /v1/bookings/precheck` and the MCP `check_booking` tool. The verdicts are
errors of the tree (app/errors.py): `Conflict` (not_found | not_on_sale | sold_out |
price_changed) and `NoLiveAnswer`; each face says them its own way (409/503 over HTTP,
`bookable: false` over MCP), with the same reason.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.errors import Conflict, NoLiveAnswer
from app.services import Services
from app.usecases import texts
from app.usecases.queries import SEAT_CLASS_SCHEMA, parse_seat_class, resolve_query
from rules.limits import MAX_ORDER
from sources import fare_rules
from sources.fare_rules import TicketKind
from sources.models import (
    TRAIN_LETTERS,
    FareKind,
    Freshness,
    SeatClass,
    SeatStatus,
)

# What a booking client may send as a train number: the grammar's shape (an optional letter, no
# leading zero) with up to five digits, so that a number no railway runs (G99999) is asked live
# and answered 409 `not_found` like any invented train (README, the precheck's 409); what
# has no such shape (G0, X123, G012) is a 422 naming the field before any query.
PRECHECK_TRAIN_NUMBER_PATTERN = rf"^[{TRAIN_LETTERS}{TRAIN_LETTERS.lower()}]?[1-9]\d{{0,4}}$"


class PrecheckRequest(BaseModel):
    """One train, one seat class, one party, on one date between two places."""

    model_config = ConfigDict(extra="forbid")

    train_number: str = Field(max_length=8, pattern=PRECHECK_TRAIN_NUMBER_PATTERN)
    date: str = Field(description="YYYY-MM-DD")
    origin: str = Field(min_length=1, max_length=40)
    destination: str = Field(min_length=1, max_length=40)
    seat_class: str = Field(json_schema_extra=SEAT_CLASS_SCHEMA)
    expected_price: float | None = Field(default=None, ge=0, le=100000)
    passengers: int = Field(default=1, ge=1, le=MAX_ORDER)
    fare: Literal["adult", "student"] = Field(
        default="adult",
        description="the passengers' ticket: adult, or student (checked with 12306's student "
        "query; `expected_price` is then the student fare)",
    )


class Bookable(BaseModel):
    """The live answer that the train can be booked now, in that class, for the party."""

    bookable: Literal[True] = True
    train_number: str
    seat_class: SeatClass
    available: int | None
    price: float | None
    depart_at: dt.datetime
    arrive_at: dt.datetime
    checked_at: dt.datetime | None
    freshness: Literal["realtime"] = "realtime"
    fare: Literal["adult", "student"] = Field(
        default="adult", description="whose fare `price` is (the request's `fare`)"
    )
    fare_from_rules: bool = Field(
        default=False,
        description="true when the source priced adults only and the student fare was "
        "derived from it by the railway's student rules",
    )


async def precheck(
    services: Services,
    request: PrecheckRequest,
    on_answer: Callable[[Freshness], None] | None = None,
) -> Bookable:
    """A live query, then the verdict: `Bookable`, or `Conflict` / `NoLiveAnswer` raised.

    `on_answer` is told the live answer's freshness before any verdict is raised (the HTTP
    face counts the 503 as a ticket answer that was not realtime)."""
    seat_class = parse_seat_class(request.seat_class)
    resolved = resolve_query(
        services.directory,
        request.origin,
        request.destination,
        request.date,
        today=services.runtime.today(),
        fare=request.fare,
    )
    result = await services.tickets.search(resolved, refresh=True, allow_stale=False)
    if on_answer is not None:
        on_answer(result.freshness)
    if result.freshness != "realtime":
        raise NoLiveAnswer(
            texts.PRECHECK_NO_LIVE_ANSWER, sources=[s.model_dump() for s in result.sources]
        )
    train = request.train_number.upper()
    offer = next((o for o in result.offers if o.train_number == train), None)
    silent = [s.name for s in result.sources if s.status != "ok"]
    if offer is None and silent:
        # A source that did not answer may be the one that lists this train: no verdict.
        raise NoLiveAnswer(
            texts.PRECHECK_INCOMPLETE.format(train=train, sources="、".join(silent)),
            sources=[s.model_dump() for s in result.sources],
        )
    if offer is None:
        services.metrics.invented_trains.labels(origin="user").inc()
        raise Conflict(
            "not_found",
            texts.PRECHECK_NOT_FOUND.format(
                date=request.date,
                origin=resolved.origin.name,
                destination=resolved.destination.name,
                train=train,
            ),
            train_number=train,
        )
    seat = offer.seat(seat_class)
    if seat is not None and seat.status is SeatStatus.NOT_ON_SALE:
        opens = texts.PRECHECK_OPENS.format(at=offer.on_sale_at) if offer.on_sale_at else ""
        raise Conflict(
            "not_on_sale",
            texts.PRECHECK_NOT_ON_SALE.format(train=train, seat=seat_class.label, opens=opens),
            train_number=train,
            on_sale_at=offer.on_sale_at.isoformat() if offer.on_sale_at else None,
        )
    if seat is None or not seat.can_seat(request.passengers):
        raise Conflict(
            "sold_out",
            texts.PRECHECK_SOLD_OUT.format(train=train, seat=seat_class.label),
            train_number=train,
            status=seat.status if seat else "not_offered",
            available=seat.available if seat else 0,
        )
    price, derived = seat.price, False
    if request.fare == "student" and offer.fare is FareKind.ADULT and price is not None:
        # Juhe prices adults only: the student fare by the railway's rules from the adult one.
        hard_seat = offer.seat(SeatClass.HARD_SEAT)
        price = fare_rules.fare(
            TicketKind.STUDENT,
            seat_class,
            price,
            train_type=offer.train_type,
            hard_seat_fare=hard_seat.price if hard_seat else None,
            discount=seat.discount,
        )
        derived = True
    expected = request.expected_price
    if expected is not None and price is not None and abs(price - expected) > 0.001:
        raise Conflict(
            "price_changed",
            texts.PRECHECK_PRICE_CHANGED.format(
                train=train, seat=seat_class.label, expected=expected, price=price
            ),
            train_number=train,
            expected_price=expected,
            price=price,
        )
    return Bookable(
        train_number=train,
        seat_class=seat_class,
        available=seat.available,
        price=price,
        depart_at=offer.depart_at,
        arrive_at=offer.arrive_at,
        checked_at=result.as_of,
        fare=request.fare,
        fare_from_rules=derived,
    )
