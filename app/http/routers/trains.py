"""A train's stop list (12306's 经停站), tagged with freshness like every ticket answer."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from app.http.contract import INVALID, NOT_FOUND, OVERLOADED, errors, ok
from app.http.deps import ServicesDep
from app.observability.answers import count_answer
from app.policy import route_policy
from app.tickets.stops import StopListResult
from app.usecases.stops import train_stops

router = APIRouter(prefix="/v1", tags=["trains"])


@router.get(
    "/trains/{train_number}/stops",
    response_model=StopListResult,
    operation_id="getTrainStops",
    responses={
        200: ok("The train's stops with times, tagged with freshness."),
        **errors(INVALID, NOT_FOUND, OVERLOADED),
    },
)
@route_policy(answers=True)
async def get_stops(
    services: ServicesDep,
    request: Request,
    train_number: Annotated[str, Path(examples=["G1"])],
    date: Annotated[
        str,
        Query(
            description="the date the train leaves its origin, YYYY-MM-DD", examples=["2026-12-04"]
        ),
    ],
    origin: str | None = Query(default=None, max_length=40, description="first stop to show"),
    destination: str | None = Query(default=None, max_length=40, description="last stop"),
) -> StopListResult:
    """The stops of a train on a date, optionally only from `origin` to `destination`."""
    result = await train_stops(services, train_number, date, origin, destination)
    count_answer(services.metrics, request, "tickets", result.freshness)
    return result
