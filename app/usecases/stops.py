"""A train's stop list on a date, optionally only from one stop to another.

Called by `GET /v1/trains/{train_number}/stops`, the MCP `train_stops` tool and the CLI.
"""

from __future__ import annotations

from app.errors import InvalidInput, excerpt
from app.services import TicketServices
from app.tickets.stops import StopListResult
from app.usecases.queries import parse_date, resolve_place
from sources.capabilities import StopCall
from sources.models import is_train_number, normalise_train_number
from sources.stations import StationDirectory


async def train_stops(
    services: TicketServices,
    train_number: str,
    date: str,
    origin: str | None = None,
    destination: str | None = None,
) -> StopListResult:
    """The stops of a train leaving its origin on `date`; `NotFound` when it does not run."""
    number = normalise_train_number(train_number)
    if not is_train_number(number):
        raise InvalidInput(
            "train_number", f"train_number: {excerpt(train_number)} is not a train number"
        )
    day = parse_date("date", date, services.runtime.today())
    result = await services.stop_lists.stops(number, day)
    if origin or destination:
        first = _position(services.directory, result.stops, "origin", origin, 0)
        last = _position(services.directory, result.stops, "destination", destination, -1)
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
