"""Left-ticket queries and the booking precheck."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.deps import State
from app.errors import Conflict, NoLiveAnswer
from app.queries import parse_seat_class, resolve_query
from app.tickets.model import TicketResult
from sources.stations import Place

router = APIRouter(prefix="/v1", tags=["tickets"])


@router.get("/tickets", response_model=TicketResult)
async def get_tickets(
    state: State,
    request: Request,
    origin: Annotated[str, Query(min_length=1, max_length=40)],
    destination: Annotated[str, Query(min_length=1, max_length=40)],
    date: Annotated[str, Query(description="YYYY-MM-DD")],
    train_types: Annotated[str | None, Query(max_length=20, description="e.g. G,D")] = None,
    refresh: bool = False,
) -> Response:
    """Offers between two places on a date, each answer tagged with its freshness."""
    resolved = resolve_query(
        state.directory,
        origin,
        destination,
        date,
        today=state.runtime.today(),
        sale_window_days=state.settings.sale_window_days,
        train_types=train_types,
    )
    result = await state.tickets.search(
        resolved.query,
        resolved.origin_station,
        resolved.destination_station,
        refresh=refresh,
    )
    result = _only_requested_stations(result, resolved.origin, resolved.destination)
    state.metrics.responses.labels(endpoint="/v1/tickets", freshness=result.freshness).inc()
    request.state.log_extra = {
        "freshness": result.freshness,
        "sources": {s.name: s.status for s in result.sources},
    }
    return Response(result.to_json(), media_type="application/json")


def _only_requested_stations(
    result: TicketResult, origin: object, destination: object
) -> TicketResult:
    """A query for one station (北京南) keeps only rides at that station; a city keeps all."""

    assert isinstance(origin, Place) and isinstance(destination, Place)
    if origin.is_city and destination.is_city:
        return result
    wanted_from = {s.telecode for s in origin.stations}
    wanted_to = {s.telecode for s in destination.stations}
    offers = tuple(
        o
        for o in result.offers
        if o.origin_station.telecode in wanted_from and o.destination_station.telecode in wanted_to
    )
    return result.with_offers(offers)


class PrecheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    train_number: str = Field(min_length=2, max_length=8, pattern=r"^[A-Za-z]?\d{1,5}$")
    date: str = Field(description="YYYY-MM-DD")
    origin: str = Field(min_length=1, max_length=40)
    destination: str = Field(min_length=1, max_length=40)
    seat_class: str
    expected_price: float | None = Field(default=None, ge=0, le=100000)
    passengers: int = Field(default=1, ge=1, le=9)


@router.post(
    "/bookings/precheck",
    responses={409: {"description": "not_found | sold_out | price_changed"}, 503: {}},
)
async def precheck(state: State, body: PrecheckRequest) -> dict[str, object]:
    """Re-check one train live before money moves; never answers from a cache."""
    seat_class = parse_seat_class(body.seat_class)
    resolved = resolve_query(
        state.directory,
        body.origin,
        body.destination,
        body.date,
        today=state.runtime.today(),
        sale_window_days=state.settings.sale_window_days,
    )
    result = await state.tickets.search(
        resolved.query,
        resolved.origin_station,
        resolved.destination_station,
        refresh=True,
        allow_stale=False,
    )
    state.metrics.responses.labels(
        endpoint="/v1/bookings/precheck", freshness=result.freshness
    ).inc()
    if result.freshness != "realtime":
        raise NoLiveAnswer(
            "暂时无法实时核验余票，请稍后再试。",
            sources=[s.model_dump() for s in result.sources],
        )
    train = body.train_number.upper()
    result = _only_requested_stations(result, resolved.origin, resolved.destination)
    offer = next((o for o in result.offers if o.train_number == train), None)
    if offer is None:
        state.metrics.invented_trains.labels(origin="user").inc()
        raise Conflict(
            "not_found",
            f"{body.date} {resolved.origin.name}→{resolved.destination.name} 没有 {train} 次列车。",
            train_number=train,
        )
    seat = offer.seat(seat_class)
    if seat is None or not seat.can_seat(body.passengers):
        raise Conflict(
            "sold_out",
            f"{train} {seat_class.label}已无足够余票。",
            train_number=train,
            status=seat.status if seat else "not_offered",
            available=seat.available if seat else 0,
        )
    if (
        body.expected_price is not None
        and seat.price is not None
        and abs(seat.price - body.expected_price) > 0.001
    ):
        raise Conflict(
            "price_changed",
            f"{train} {seat_class.label}票价已由 {body.expected_price:g} 元"
            f"变为 {seat.price:g} 元。",
            train_number=train,
            expected_price=body.expected_price,
            price=seat.price,
        )
    return {
        "bookable": True,
        "train_number": train,
        "seat_class": seat_class,
        "available": seat.available,
        "price": seat.price,
        "depart_at": offer.depart_at,
        "arrive_at": offer.arrive_at,
        "checked_at": result.as_of,
        "freshness": "realtime",
    }
