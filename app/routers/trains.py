"""A train's stop list (12306's 经停站), tagged with freshness like every ticket answer."""

from __future__ import annotations

from fastapi import APIRouter, Query

from app.deps import ServicesDep
from app.errors import InvalidInput
from app.queries import parse_date, resolve_place
from app.tickets.stops import StopListResult
from sources.capabilities import StopCall
from sources.models import is_train_number, normalise_train_number
from sources.stations import StationDirectory

router = APIRouter(prefix="/v1", tags=["trains"])


@router.get(
    "/trains/{train_number}/stops",
    response_model=StopListResult,
    responses={404: {"description": "no such train on that date"}},
)
async def get_stops(
    state: ServicesDep,
    train_number: str,
    date: str = Query(description="the date the train leaves its origin, YYYY-MM-DD"),
    origin: str | None = Query(default=None, max_length=40, description="first stop to show"),
    destination: str | None = Query(default=None, max_length=40, description="last stop"),
) -> StopListResult:
    """The stops of a train on a date, optionally only from `origin` to `destination`."""
    number = normalise_train_number(train_number)
    if not is_train_number(number):
        raise InvalidInput("train_number", f"train_number: {train_number!r} is not a train number")
    day = parse_date("date", date, state.runtime.today())
    result = await state.stop_lists.stops(number, day)
    state.metrics.responses.labels(
        endpoint="/v1/trains/{train_number}/stops", freshness=result.freshness
    ).inc()
    if origin or destination:
        first = _position(state.directory, result.stops, "origin", origin, 0)
        last = _position(state.directory, result.stops, "destination", destination, -1)
        if first > last:
            raise InvalidInput("destination", f"destination: {destination} comes before {origin}")
        result = result.model_copy(update={"stops": result.stops[first : last + 1]})
    return result


def _position(
    directory: StationDirectory,
    stops: tuple[StopCall, ...],
    field: str,
    text: str | None,
    default: int,
) -> int:
    if not text or not stops:
        return default % len(stops) if stops else 0
    place = resolve_place(directory, field, text)
    codes = {s.telecode for s in place.stations}
    for i, stop in enumerate(stops):
        if stop.name == text or (stop.station is not None and stop.station.telecode in codes):
            return i
    raise InvalidInput(field, f"{field}: {text} is not a stop of this train")
