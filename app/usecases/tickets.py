"""Left tickets between two places on a date, and the station search.

Called by `GET /v1/tickets` and `GET /v1/stations`, the MCP tools and the CLI. The query is
resolved once (`resolve_query`, refusals naming the field) and passed whole to the query
service, which answers at the stations asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.services import TicketServices
from app.tickets.model import TicketResult
from app.usecases.queries import resolve_query
from sources.models import Station
from sources.stations import StationDirectory


async def search_tickets(
    services: TicketServices,
    origin: str,
    destination: str,
    date: str,
    *,
    train_types: str | None = None,
    refresh: bool = False,
) -> TicketResult:
    """Offers between two places (cities, stations, pinyin or telecodes) on a date."""
    resolved = resolve_query(
        services.directory,
        origin,
        destination,
        date,
        today=services.runtime.today(),
        train_types=train_types or None,
    )
    return await services.tickets.search(resolved, refresh=refresh)


@dataclass(frozen=True, slots=True)
class StationMatches:
    """The stations a search found, or (none found) the nearest names to suggest."""

    stations: list[Station]
    suggestions: list[str]


def find_stations(directory: StationDirectory, query: str, limit: int) -> StationMatches:
    """Stations matching a Chinese name, pinyin, initials or telecode; typo suggestions."""
    stations = directory.search(query, limit)
    return StationMatches(stations, [] if stations else directory.suggest(query))
