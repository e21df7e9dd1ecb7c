"""Executors of the read-only data tools: tickets, transfers, stop lists, stations."""

from __future__ import annotations

import datetime as dt

from app.agent.fallback import topology_transfer_legs
from app.agent.fetch import with_transfer_halves
from app.tickets.model import TicketResult
from app.tools import texts
from app.tools.context import ToolContext, ToolFailure
from app.tools.model import (
    FindStationsIn,
    FindStationsOut,
    FindTransfersIn,
    FindTransfersOut,
    SearchTicketsIn,
    SearchTicketsOut,
    StationView,
    StopView,
    TrainStopsIn,
    TrainStopsOut,
)
from app.tools.views import clock_text, itinerary_view, offer_view, provenance
from app.usecases.queries import parse_train_types
from app.usecases.stops import train_stops as stop_list
from app.usecases.tickets import find_stations as station_matches
from rules import LegKey, LegOffers, PlanResult, TripRequest, plan
from sources.models import SHANGHAI, TrainOffer


def _window(args: SearchTicketsIn) -> tuple[dt.time, dt.time]:
    after = dt.time.fromisoformat(args.depart_after) if args.depart_after else dt.time.min
    before = dt.time.fromisoformat(args.depart_before) if args.depart_before else dt.time.max
    if after > before:
        raise ToolFailure(
            "invalid_input", "depart_before: earlier than depart_after", "depart_before"
        )
    return after, before


async def search_tickets(ctx: ToolContext, args: SearchTicketsIn) -> SearchTicketsOut:
    """Offers on one route and date, filtered by type, class and departure window."""
    types = parse_train_types(",".join(args.train_types))
    after, before = _window(args)
    resolved = ctx.resolve(args.origin, args.destination, args.date)
    # Filters apply to the answer, not the query: every filter shares one cached query.
    result = await ctx.search(resolved)

    def wanted(offer: TrainOffer) -> bool:
        leaves = offer.depart_at.astimezone(SHANGHAI).time()
        return (
            (not types or offer.train_type in types)
            and (args.seat_class is None or offer.seat(args.seat_class) is not None)
            and after <= leaves <= before
        )

    offers = [o for o in result.offers if wanted(o)]
    shown = offers[: args.max_results]
    ctx.answered("search_tickets", result.freshness)
    route = {
        "date": resolved.query.date,
        "origin": resolved.origin.name,
        "destination": resolved.destination.name,
    }
    freshness = texts.freshness_text(result.freshness, result.age_s)
    if offers:
        summary = texts.TICKETS.format(
            **route,
            count=len(offers),
            shown=texts.TICKETS_SHOWN.format(n=len(shown))
            if len(shown) < len(offers)
            else texts.TICKETS_ALL,
            freshness=freshness,
        )
    else:
        summary = texts.TICKETS_NONE.format(**route, freshness=freshness)
    return SearchTicketsOut(
        summary=summary,
        freshness=result.freshness,
        as_of=result.as_of,
        age_s=result.age_s,
        warnings=list(result.warnings),
        origin=resolved.origin.name,
        destination=resolved.destination.name,
        date=resolved.query.date,
        count=len(offers),
        offers=[offer_view(o, args.seat_class) for o in shown],
    )


async def find_transfers(ctx: ToolContext, args: FindTransfersIn) -> FindTransfersOut:
    """Transfer plans as the agent finds them: the sources' own transfer search first, then
    the network's derived hubs (both halves queried), planned by the rule engine."""
    resolved = ctx.resolve(args.origin, args.destination, args.date)
    key = LegKey(resolved.origin.city, resolved.destination.city, resolved.query.date)
    places = (resolved.origin, resolved.destination)
    one_way = TripRequest(
        origin=key.origin,
        destination=key.destination,
        depart_date=key.date,
        return_trip=False,
        # A station asked for keeps its whole official city (义乌: 金华's); a city, its proper.
        open_cities=frozenset(place.city for place in places if not place.is_city),
    )
    results = await ctx.legs([key])
    halves = await ctx.official_transfers(key)
    found = _plan_on(one_way, with_transfer_halves(results, halves), ctx, args.max_results)
    if not _has_transfer(found) and ctx.topology is not None:
        hub_legs, _ = topology_transfer_legs(one_way, [0], ctx.topology)
        results |= await ctx.legs(hub_legs)
        found = _plan_on(one_way, with_transfer_halves(results, halves), ctx, args.max_results)
    answers = with_transfer_halves(results, halves)
    used_keys = {
        LegKey(leg.origin_station.city, leg.destination_station.city, leg.depart_at.date())
        for it in found.itineraries
        for leg in it.legs
    }
    used = [r for k, r in answers.items() if k in used_keys]
    used = used or ([answers[key]] if key in answers else [])
    freshness, as_of = provenance(found.itineraries, used)
    ctx.answered("find_transfers", freshness)
    route = {"date": key.date, "origin": key.origin, "destination": key.destination}
    fresh = texts.freshness_text(freshness)
    if found.itineraries:
        best = found.itineraries[0]
        summary = texts.TRANSFERS.format(
            **route,
            count=len(found.itineraries),
            best="→".join(best.train_numbers),
            price=best.total_price,
            freshness=fresh,
        )
    else:
        summary = texts.TRANSFERS_NONE.format(**route, freshness=fresh)
    warnings = list(dict.fromkeys(w for r in used for w in r.warnings))
    return FindTransfersOut(
        summary=summary,
        freshness=freshness,
        as_of=as_of,
        warnings=warnings,
        options=[itinerary_view(it) for it in found.itineraries],
        failures=[f.message for f in found.failures],
    )


def _plan_on(
    request: TripRequest, answers: dict[LegKey, TicketResult], ctx: ToolContext, limit: int
) -> PlanResult:
    book = {k: LegOffers(k, r.offers, r.freshness) for k, r in answers.items()}
    return plan(request, book, now=ctx.now(), limit=limit)


def _has_transfer(found: PlanResult) -> bool:
    return any(len(it.legs) > 1 for it in found.itineraries)


async def train_stops(ctx: ToolContext, args: TrainStopsIn) -> TrainStopsOut:
    """The stations a train calls at, with times."""
    result = await stop_list(ctx.services, args.train_number, args.date)
    number, day = result.train_number, result.date
    ctx.answered("train_stops", result.freshness)
    stops = [
        StopView(
            station=stop.name,
            telecode=stop.station.telecode if stop.station else "",
            arrive=clock_text(stop.arrive_at),
            depart=clock_text(stop.depart_at),
        )
        for stop in result.stops
    ]
    fresh = texts.freshness_text(result.freshness, result.age_s)
    if stops:
        summary = texts.STOPS.format(
            train=number,
            date=day,
            first=stops[0].station,
            last=stops[-1].station,
            count=len(stops),
            freshness=fresh,
        )
    else:
        summary = texts.STOPS_NONE.format(train=number, date=day, freshness=fresh)
    return TrainStopsOut(
        summary=summary,
        freshness=result.freshness,
        as_of=result.as_of,
        warnings=list(result.warnings),
        train_number=number,
        date=day,
        stops=stops,
    )


async def find_stations(ctx: ToolContext, args: FindStationsIn) -> FindStationsOut:
    """Stations by Chinese name, pinyin, initials or telecode (the station directory)."""
    found = station_matches(ctx.directory, args.query, args.limit)
    stations, suggestions = found.stations, found.suggestions
    if stations:
        summary = texts.STATIONS.format(
            count=len(stations), names="、".join(s.name for s in stations[:5])
        )
    else:
        summary = texts.STATIONS_NONE.format(
            query=args.query, suggestions="、".join(suggestions) or "—"
        )
    return FindStationsOut(
        summary=summary,
        # The directory is read for this very call; it is not ticket data.
        freshness="realtime",
        as_of=ctx.clock(),
        stations=[StationView(telecode=s.telecode, name=s.name, city=s.city) for s in stations],
        suggestions=suggestions,
    )
