"""A train's stop list (12306's 经停站), tagged with freshness like every ticket answer."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from app.http.deps import ServicesDep
from app.observability.answers import count_answer
from app.policy import route_policy
from app.tickets.stops import StopListResult
from app.usecases.stops import train_stops

router = APIRouter(prefix="/v1", tags=["trains"])


@router.get(
    "/trains/{train_number}/stops",
    response_model=StopListResult,
    responses={404: {"description": "no such train on that date"}},
)
@route_policy(answers=True)
async def get_stops(
    services: ServicesDep,
    request: Request,
    train_number: str,
    date: str = Query(description="the date the train leaves its origin, YYYY-MM-DD"),
    origin: str | None = Query(default=None, max_length=40, description="first stop to show"),
    destination: str | None = Query(default=None, max_length=40, description="last stop"),
) -> StopListResult:
    """The stops of a train on a date, optionally only from `origin` to `destination`."""
    result = await train_stops(services, train_number, date, origin, destination)
    count_answer(services.metrics, request, "tickets", result.freshness)
    return result
