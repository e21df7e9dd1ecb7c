"""Executors of the read-only data tools: tickets, transfers, stop lists, stations."""

from __future__ import annotations

import datetime as dt

from app.agent.fallback import topology_transfer_legs
from app.agent.fetch import with_transfer_halves
from app.errors import InvalidInput, excerpt
from app.tickets.model import TicketResult
from app.tools import texts
from app.tools.context import ToolContext, ToolFailure
from app.tools.model import (
    CurrentDateIn,
    CurrentDateOut,
    FindStationsIn,
    FindStationsOut,
    FindTransfersIn,
    FindTransfersOut,
    RelaxedView,
    SearchTicketsIn,
    SearchTicketsOut,
    StationView,
    StopView,
    TrainStopsIn,
    TrainStopsOut,
)
from app.tools.views import clock_text, itinerary_view, offer_view, provenance
from app.usecases.queries import parse_train_types, resolve_place
from app.usecases.stops import train_stops as stop_list
from app.usecases.tickets import find_stations as station_matches
from app.usecases.tickets import with_fare_warning
from rules import Itinerary, LegKey, LegOffers, PlanResult, TripRequest, plan
from rules.legs import transfer_legs
from sources.models import SHANGHAI, SeatClass, TrainOffer
from sources.sale_window import last_sale_day
from sources.stations import Place

WEEKDAYS = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")


async def current_date(ctx: ToolContext, args: CurrentDateIn) -> CurrentDateOut:
    """Today in Beijing, its weekday, and the sale window's first and last dates: what a model
    needs to turn 明天 or 下周五 into a date (the server's clock, never the model's guess)."""
    now = ctx.clock().astimezone(SHANGHAI)
    today = now.date()
    last = last_sale_day(today)
    weekday = WEEKDAYS[today.weekday()]
    return CurrentDateOut(
        summary=texts.CURRENT_DATE.format(
            date=today, weekday=weekday, time=f"{now:%H:%M}", last=last
        ),
        freshness="realtime",
        as_of=now,
        date=today,
        weekday=weekday,
        iso_weekday=today.isoweekday(),
        time=f"{now:%H:%M}",
        tomorrow=today + dt.timedelta(days=1),
        sale_window_first=today,
        sale_window_last=last,
    )


def _lowest_price(offer: TrainOffer, seat_class: SeatClass | None) -> float:
    prices = [
        s.price
        for s in offer.seats
        if s.price is not None and (seat_class is None or s.seat_class is seat_class)
    ]
    return min(prices, default=float("inf"))


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
    resolved = ctx.resolve(args.origin, args.destination, args.date, fare=args.fare)
    # Filters apply to the answer, not the query: every filter shares one cached query.
    result = with_fare_warning(await ctx.search(resolved), resolved.query.fare)

    def wanted(offer: TrainOffer) -> bool:
        leaves = offer.depart_at.astimezone(SHANGHAI).time()
        return (
            (not types or offer.train_type in types)
            and (args.seat_class is None or offer.seat(args.seat_class) is not None)
            and after <= leaves <= before
            and all(feature in offer.features for feature in args.features)
        )

    order = {
        "departure": lambda o: (o.depart_at, o.train_number),
        "arrival": lambda o: (o.arrive_at, o.depart_at),
        "duration": lambda o: (o.duration_min, o.depart_at),
        "price": lambda o: (_lowest_price(o, args.seat_class), o.depart_at),
    }[args.sort]
    offers = sorted((o for o in result.offers if wanted(o)), key=order)
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
    elif result.freshness == "unavailable":
        summary = texts.TICKETS_NO_DATA.format(**route)
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
        fare=resolved.query.fare.value,
        offers=[offer_view(o, args.seat_class) for o in shown],
    )


async def find_transfers(ctx: ToolContext, args: FindTransfersIn) -> FindTransfersOut:
    """Transfer plans as the agent finds them: the sources' own transfer search first, then
    the network's derived hubs (both halves queried), planned by the rule engine; or, with
    `transfer_station`, both halves via that place only. Plans that board or alight where
    the traveller asked come first; one that does not is kept only when none does, and the
    difference is said in `relaxed`."""
    resolved = ctx.resolve(args.origin, args.destination, args.date)
    if resolved.origin.city == resolved.destination.city:
        # Two places of one prefecture (温州→雁荡山) are asked for directly (search_tickets,
        # the planner): this tool's legs are keyed by city, one here for both ends.
        raise InvalidInput(
            "destination",
            f"destination: {excerpt(args.destination)} is in the same city as the origin "
            f"{excerpt(args.origin)}",
        )
    key = LegKey(resolved.origin.city, resolved.destination.city, resolved.query.date)
    places = (resolved.origin, resolved.destination)
    hub = _transfer_place(ctx, args.transfer_station, places)
    one_way = TripRequest(
        origin=key.origin,
        destination=key.destination,
        depart_date=key.date,
        return_trip=False,
        # A station asked for keeps its whole official city (义乌: 金华's); a city, its proper.
        open_cities=frozenset(place.city for place in places if not place.is_city),
    )
    if hub is not None:
        results = await ctx.legs(transfer_legs(key, [hub.city]))
        halves: dict[LegKey, TicketResult] = {}
        found = _plan_on(one_way, results, ctx, limit=20)
    else:
        results = await ctx.legs([key])
        halves = await ctx.official_transfers(key)
        found = _plan_on(
            one_way, with_transfer_halves(results, halves), ctx, limit=args.max_results
        )
        if not _has_transfer(found) and ctx.topology is not None:
            hub_legs, _ = topology_transfer_legs(one_way, [0], ctx.topology)
            results |= await ctx.legs(hub_legs)
            found = _plan_on(
                one_way, with_transfer_halves(results, halves), ctx, limit=args.max_results
            )
    answers = with_transfer_halves(results, halves)
    options = list(found.itineraries)
    if hub is not None:
        options = [it for it in options if _changes_at(it, hub)]
    honoured = [
        it
        for it in options
        if not _substitutions(it, resolved.origin, resolved.destination, key.date)
    ]
    options = (honoured or options)[: args.max_results]
    relaxed = (
        []
        if honoured or not options
        else _substitutions(options[0], resolved.origin, resolved.destination, key.date)
    )
    used_keys = {
        LegKey(leg.origin_station.city, leg.destination_station.city, leg.depart_at.date())
        for it in options
        for leg in it.legs
    }
    used = [r for k, r in answers.items() if k in used_keys]
    used = used or [r for k, r in answers.items() if k == key or k.origin == key.origin]
    freshness, as_of = provenance(options, used)
    ctx.answered("find_transfers", freshness)
    # What the traveller named (义乌, not its prefecture 金华): any other boarding is in `relaxed`.
    route = {
        "date": key.date,
        "origin": resolved.origin.name,
        "destination": resolved.destination.name,
    }
    fresh = texts.freshness_text(freshness)
    if options:
        best = options[0]
        summary = texts.TRANSFERS.format(
            **route,
            count=len(options),
            best="→".join(best.train_numbers),
            price=best.total_price,
            freshness=fresh,
        )
        summary = "".join(texts.RELAXED.format(reason=r.reason) for r in relaxed) + summary
    elif freshness == "unavailable":
        summary = texts.TRANSFERS_NO_DATA.format(**route)
    elif hub is not None:
        summary = texts.TRANSFERS_NONE_VIA.format(**route, hub=hub.name, freshness=fresh)
    else:
        summary = texts.TRANSFERS_NONE.format(**route, freshness=fresh)
    warnings = list(dict.fromkeys(w for r in used for w in r.warnings))
    return FindTransfersOut(
        summary=summary,
        freshness=freshness,
        as_of=as_of,
        warnings=warnings,
        options=[itinerary_view(it) for it in options],
        failures=[f.message for f in found.failures],
        transfer_station=hub.name if hub is not None else None,
        relaxed=relaxed,
    )


def _transfer_place(ctx: ToolContext, text: str | None, ends: tuple[Place, Place]) -> Place | None:
    """The transfer city or station asked for, resolved like every place (422 with suggestions)."""
    if text is None:
        return None
    place = resolve_place(ctx.directory, "transfer_station", text)
    if place.city in (ends[0].city, ends[1].city):
        raise ToolFailure(
            "invalid_input",
            "transfer_station: must be another city than the origin and the destination",
            "transfer_station",
        )
    return place


def _changes_at(itinerary: Itinerary, hub: Place) -> bool:
    """True when every change of trains happens at the asked transfer place."""
    wanted = {s.telecode for s in hub.stations}
    stops = [leg.destination_station for leg in itinerary.legs[:-1]]
    return bool(stops) and all(
        (s.telecode in wanted) if not hub.is_city else (s.city == hub.city) for s in stops
    )


def _substitutions(
    itinerary: Itinerary, origin: Place, destination: Place, date: dt.date
) -> list[RelaxedView]:
    """Where this plan answers other than asked: boarding, alighting, or the day it leaves."""
    first, last = itinerary.legs[0], itinerary.legs[-1]
    found: list[RelaxedView] = []
    for constraint, place, station in (
        ("origin", origin, first.origin_station),
        ("destination", destination, last.destination_station),
    ):
        if station.telecode not in {s.telecode for s in place.stations}:
            found.append(
                RelaxedView(
                    constraint=constraint,
                    requested=place.name,
                    offered=station.name,
                    reason=texts.SUBSTITUTED_STATION.format(
                        requested=place.name, offered=station.name
                    ),
                )
            )
    leaves = first.depart_at.astimezone(SHANGHAI).date()
    if leaves != date:
        found.append(
            RelaxedView(
                constraint="date_start",
                requested=date.isoformat(),
                offered=leaves.isoformat(),
                reason=texts.SUBSTITUTED_DATE.format(requested=date, offered=leaves),
            )
        )
    return found


def _plan_on(
    request: TripRequest, answers: dict[LegKey, TicketResult], ctx: ToolContext, *, limit: int
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
    elif result.freshness == "unavailable":
        summary = texts.STOPS_NO_DATA.format(train=number, date=day)
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
