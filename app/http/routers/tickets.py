"""Left-ticket queries and the booking precheck: HTTP in, the use case, HTTP out."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from starlette.datastructures import QueryParams

from app.errors import InvalidInput, excerpt
from app.http import examples
from app.http.contract import CONFLICT, INVALID, OVERLOADED, PRECHECK_UNAVAILABLE, errors, ok
from app.http.deps import ServicesDep
from app.observability.answers import count_answer
from app.policy import route_policy
from app.services import Services
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

    The hottest route: its parameters are read directly (validated below and by the use case,
    every refusal naming its field) instead of through FastAPI's per-parameter machinery,
    which was a third of a cache hit's cost (bench/hit_profile.py).
    """
    services: Services = request.app.state.services
    params = request.query_params
    result = await search_tickets(
        services,
        _text_param(params, "origin", 40),
        _text_param(params, "destination", 40),
        _text_param(params, "date", 10),
        train_types=_text_param(params, "train_types", 20, required=False) or None,
        refresh=_bool_param(params, "refresh"),
        fare=_text_param(params, "fare", 10, required=False) or None,
    )
    count_answer(services.metrics, request, "tickets", result.freshness)
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
