"""Left-ticket queries and the booking precheck."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import QueryParams

from app.deps import ServicesDep
from app.errors import Conflict, InvalidInput, NoLiveAnswer, excerpt
from app.observability.answers import count_answer
from app.queries import only_requested_stations, parse_seat_class, resolve_query
from app.services import Services
from app.tickets.model import TicketResult
from rules.limits import MAX_PARTY
from sources.models import TRAIN_NUMBER_INPUT_PATTERN, SeatStatus

router = APIRouter(prefix="/v1", tags=["tickets"])

PRECHECK_NO_LIVE_ANSWER = "暂时无法实时核验余票，请稍后再试。"
PRECHECK_INCOMPLETE = (
    "数据源 {sources} 本次未能返回结果，无法确认 {train} 次列车是否存在，请稍后再试。"
)


_TICKET_PARAMS = [
    {
        "name": "origin",
        "in": "query",
        "required": True,
        "description": "城市、站名、拼音或电报码",
        "schema": {"type": "string", "minLength": 1, "maxLength": 40},
    },
    {
        "name": "destination",
        "in": "query",
        "required": True,
        "schema": {"type": "string", "minLength": 1, "maxLength": 40},
    },
    {
        "name": "date",
        "in": "query",
        "required": True,
        "description": "YYYY-MM-DD",
        "schema": {"type": "string", "format": "date"},
    },
    {
        "name": "train_types",
        "in": "query",
        "required": False,
        "description": "e.g. G,D",
        "schema": {"type": "string", "maxLength": 20},
    },
    {
        "name": "refresh",
        "in": "query",
        "required": False,
        "schema": {"type": "boolean", "default": False},
    },
]


@router.get(
    "/tickets",
    response_model=TicketResult,
    openapi_extra={"parameters": _TICKET_PARAMS},
)
async def get_tickets(request: Request) -> Response:
    """Offers between two places on a date, each answer tagged with its freshness.

    The hottest route: its parameters are read directly (validated below and by
    `resolve_query`, every refusal naming its field) instead of through FastAPI's per-parameter
    machinery, which was a third of a cache hit's cost (bench/hit_profile.py).
    """
    state: Services = request.app.state.services
    params = request.query_params
    origin = _text_param(params, "origin", 40)
    destination = _text_param(params, "destination", 40)
    date = _text_param(params, "date", 10)
    train_types = _text_param(params, "train_types", 20, required=False)
    refresh = _bool_param(params, "refresh")
    resolved = resolve_query(
        state.directory,
        origin,
        destination,
        date,
        today=state.runtime.today(),
        train_types=train_types or None,
    )
    result = await state.tickets.search(
        resolved.query,
        resolved.origin_station,
        resolved.destination_station,
        refresh=refresh,
    )
    result = only_requested_stations(result, resolved.origin, resolved.destination)
    count_answer(state.metrics, request, "/v1/tickets", "tickets", result.freshness)
    request.state.log_extra = {
        "freshness": result.freshness,
        "sources": {s.name: s.status for s in result.sources},
    }
    return Response(result.to_json(), media_type="application/json")


def _text_param(params: QueryParams, name: str, max_length: int, *, required: bool = True) -> str:
    value = params.get(name)
    if value is None or value == "":
        if required:
            raise InvalidInput(name, f"{name}: field required")
        return ""
    if len(value) > max_length:
        raise InvalidInput(name, f"{name}: at most {max_length} characters")
    return value


def _bool_param(params: QueryParams, name: str) -> bool:
    value = params.get(name, "false").lower()
    if value in ("true", "1", "yes", "on"):
        return True
    if value in ("false", "0", "no", "off", ""):
        return False
    raise InvalidInput(name, f"{name}: expected true or false, got {excerpt(value)}")


class PrecheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    train_number: str = Field(max_length=8, pattern=TRAIN_NUMBER_INPUT_PATTERN)
    date: str = Field(description="YYYY-MM-DD")
    origin: str = Field(min_length=1, max_length=40)
    destination: str = Field(min_length=1, max_length=40)
    seat_class: str
    expected_price: float | None = Field(default=None, ge=0, le=100000)
    passengers: int = Field(default=1, ge=1, le=MAX_PARTY)


@router.post(
    "/bookings/precheck",
    responses={409: {"description": "not_found | not_on_sale | sold_out | price_changed"}, 503: {}},
)
async def precheck(
    state: ServicesDep, request: Request, body: PrecheckRequest
) -> dict[str, object]:
    """Re-check one train live before money moves; never answers from a cache."""

    def count(freshness: str) -> None:
        count_answer(state.metrics, request, "/v1/bookings/precheck", "tickets", freshness)

    return await live_precheck(state, body, count)


async def live_precheck(
    state: Services, body: PrecheckRequest, count: Callable[[str], None] | None = None
) -> dict[str, object]:
    """The precheck itself (the HTTP route and the MCP tool): a live query, then the verdict;
    `count` is told the answer's freshness before any verdict is raised."""
    seat_class = parse_seat_class(body.seat_class)
    resolved = resolve_query(
        state.directory,
        body.origin,
        body.destination,
        body.date,
        today=state.runtime.today(),
    )
    result = await state.tickets.search(
        resolved.query,
        resolved.origin_station,
        resolved.destination_station,
        refresh=True,
        allow_stale=False,
    )
    if count is not None:
        count(result.freshness)
    if result.freshness != "realtime":
        raise NoLiveAnswer(
            PRECHECK_NO_LIVE_ANSWER,
            sources=[s.model_dump() for s in result.sources],
        )
    train = body.train_number.upper()
    result = only_requested_stations(result, resolved.origin, resolved.destination)
    offer = next((o for o in result.offers if o.train_number == train), None)
    silent = [s.name for s in result.sources if s.status != "ok"]
    if offer is None and silent:
        # A source that did not answer may be the one that lists this train: no verdict.
        raise NoLiveAnswer(
            PRECHECK_INCOMPLETE.format(train=train, sources="、".join(silent)),
            sources=[s.model_dump() for s in result.sources],
        )
    if offer is None:
        state.metrics.invented_trains.labels(origin="user").inc()
        raise Conflict(
            "not_found",
            f"{body.date} {resolved.origin.name}→{resolved.destination.name} 没有 {train} 次列车。",
            train_number=train,
        )
    seat = offer.seat(seat_class)
    if seat is not None and seat.status is SeatStatus.NOT_ON_SALE:
        opens = f"（{offer.on_sale_at:%m月%d日%H:%M}起售）" if offer.on_sale_at else ""
        raise Conflict(
            "not_on_sale",
            f"{train} {seat_class.label}尚未开售{opens}。",
            train_number=train,
            on_sale_at=offer.on_sale_at.isoformat() if offer.on_sale_at else None,
        )
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
