"""Left tickets between two places on a date, and the station search.

Called by `GET /v1/tickets` and `GET /v1/stations`, the MCP tools and the CLI. The query is
resolved once (`resolve_query`, refusals naming the field) and passed whole to the query
service, which answers at the stations asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.services import TicketServices
from app.tickets.hits import HitBody
from app.tickets.model import ResolvedQuery, TicketResult
from app.tickets.service import CachedHit
from app.usecases import texts
from app.usecases.queries import resolve_query
from sources.models import FareKind, Station
from sources.stations import StationDirectory


async def search_tickets(
    services: TicketServices,
    origin: str,
    destination: str,
    date: str,
    *,
    train_types: str | None = None,
    refresh: bool = False,
    fare: str | None = None,
) -> TicketResult:
    """Offers between two places (cities, stations, pinyin or telecodes) on a date, priced
    for adults or (`fare="student"`) students where a source prices them."""
    resolved = resolve_tickets(
        services, origin, destination, date, train_types=train_types, fare=fare
    )
    result = await services.tickets.search(resolved, refresh=refresh)
    return with_fare_warning(result, resolved.query.fare)


def resolve_tickets(
    services: TicketServices,
    origin: str,
    destination: str,
    date: str,
    *,
    train_types: str | None = None,
    fare: str | None = None,
) -> ResolvedQuery:
    """The ticket query as `search_tickets` resolves it today (refusals name the field)."""
    return resolve_query(
        services.directory,
        origin,
        destination,
        date,
        today=services.runtime.today(),
        train_types=train_types or None,
        fare=fare or None,
    )


def hit_body(services: TicketServices, resolved: ResolvedQuery, hit: CachedHit) -> HitBody:
    """The body of every L1 hit on `hit.entry` for `resolved`: the answer `search_tickets`
    gives for such a hit, prepared once with its age left to splice in (app/tickets/hits.py)."""
    answer = services.tickets.hit_answer(resolved, hit.entry, hit.age)
    return HitBody(with_fare_warning(answer, resolved.query.fare))


def with_fare_warning(result: TicketResult, fare: FareKind) -> TicketResult:
    """A student query answered (in part) with adult fares says so: Juhe prices adults only."""
    if fare is FareKind.ADULT or not any(o.fare is FareKind.ADULT for o in result.offers):
        return result
    if texts.ADULT_FARES_ONLY in result.warnings:
        return result
    return result.model_copy(update={"warnings": (*result.warnings, texts.ADULT_FARES_ONLY)})


@dataclass(frozen=True, slots=True)
class StationMatches:
    """The stations a search found, or (none found) the nearest names to suggest."""

    stations: list[Station]
    suggestions: list[str]


def find_stations(directory: StationDirectory, query: str, limit: int) -> StationMatches:
    """Stations matching a Chinese name, pinyin, initials or telecode; typo suggestions."""
    stations = directory.search(query, limit)
    return StationMatches(stations, [] if stations else directory.suggest(query))
