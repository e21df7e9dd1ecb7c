"""Left-ticket queries and the booking precheck: HTTP in, the use case, HTTP out."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.http import examples
from app.http.contract import CONFLICT, INVALID, OVERLOADED, PRECHECK_UNAVAILABLE, errors, ok
from app.http.deps import ServicesDep
from app.http.ticket_args import read_ticket_args
from app.observability.answers import count_answer
from app.policy import route_policy
from app.services import Services
from app.tickets.hits import log_fields
from app.tickets.model import TicketResult
from app.usecases import precheck as booking
from app.usecases.precheck import Bookable, PrecheckRequest
from app.usecases.tickets import search_tickets
from sources.models import Freshness

router = APIRouter(prefix="/v1", tags=["tickets"])

_TICKET_PARAMS = [
    {
        "name": "origin",
        "in": "query",
        "required": True,
        "description": "城市、站名、拼音或电报码",
        "schema": {"type": "string", "minLength": 1, "maxLength": 40},
        "example": "北京",
    },
    {
        "name": "destination",
        "in": "query",
        "required": True,
        "description": "城市、站名、拼音或电报码",
        "schema": {"type": "string", "minLength": 1, "maxLength": 40},
        "example": "上海",
    },
    {
        "name": "date",
        "in": "query",
        "required": True,
        "description": "YYYY-MM-DD, within the sale window (today through today + 14)",
        "schema": {"type": "string", "format": "date"},
        "example": examples.DATE,
    },
    {
        "name": "train_types",
        "in": "query",
        "required": False,
        "description": "comma-separated train types (G, D, C, Z, T, K), e.g. G,D",
        "schema": {"type": "string", "maxLength": 20},
        "example": "G",
    },
    {
        "name": "fare",
        "in": "query",
        "required": False,
        "description": "whose fares to price: adult (default) or student (12306's student "
        "query, purpose_codes=0X00; Juhe answers adult fares only, each offer's `fare` says "
        "whose its prices are)",
        "schema": {"type": "string", "enum": ["adult", "student"], "default": "adult"},
        "example": "student",
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
    operation_id="getTickets",
    responses={
        200: ok("Offers with their freshness, per source and overall."),
        **errors(INVALID, OVERLOADED),
    },
    openapi_extra={"parameters": _TICKET_PARAMS},
)
@route_policy(answers=True)
async def get_tickets(request: Request) -> Response:
    """Offers between two places on a date, each answer tagged with its freshness.

    The hottest route: an exact L1 hit is answered before routing, with the same bytes, by
    app/http/ticket_hits.py; its parameters are read directly (app/http/ticket_args.py).
    """
    services: Services = request.app.state.services
    args = read_ticket_args(request.query_params)
    result = await search_tickets(
        services,
        args.origin,
        args.destination,
        args.date,
        train_types=args.train_types,
        refresh=args.refresh,
        fare=args.fare,
    )
    count_answer(services.metrics, request, "tickets", result.freshness)
    request.state.log_extra = log_fields(result)
    return Response(result.to_json(), media_type="application/json")


@router.post(
    "/bookings/precheck",
    operation_id="precheckBooking",
    responses={
        200: ok("Bookable now, checked live."),
        **errors(INVALID, CONFLICT, PRECHECK_UNAVAILABLE),
    },
)
@route_policy(answers=True, strict_key=True)
async def precheck(services: ServicesDep, request: Request, body: PrecheckRequest) -> Bookable:
    """Re-check one train live before money moves; never answers from a cache."""

    def count(freshness: Freshness) -> None:
        count_answer(services.metrics, request, "tickets", freshness)

    return await booking.precheck(services, body, count)
