"""IMPROVE: a plan was found; can the timetable do better for the stated objective?

The failure-driven stages (`app.agent.fallback`) look for transfers only when no direct train
fits, and the first plan they find is not the best one the railway sells: a crawling direct
train (郑州→惠州 by Z147, 17 h) is beaten by a change (8 h by G via 广州南), one change by two,
berths by seats. So once a plan exists, the agent searches the network's timetable
(`rules.journeys`) for the best journey for the objective (`rules.objective`: 最快, 最便宜,
最晚一班 before a deadline, 最早到; 最快 is a plain one-way trip's default), with every leg
asked so far taken as the sources answered it (a sold-out train is out of the bound):

- the plan is within `rules.objective.NEAR` of that bound, with the city proper and regular
  changes wherever the bound has them: stop. No bookable journey can beat the bound, so the
  search is complete for the objective, not for the first plan found;
- else, for a one-change bound under a time objective, the sources' own transfer search once
  (`improve_official`: one request, earliest arrival first, priced halves);
- else the bound's legs not asked yet (`improve_legs`), and the search again with what they
  say, until the plan reaches the bound or `app.agent.machine.MAX_IMPROVE_QUERIES` is spent.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence

from app.agent.bounds import bound_for, official_serves
from app.agent.fallback import Relaxation
from rules import Itinerary, LegKey, LegOffers, TripRequest
from rules.config import DEFAULT_RULES
from rules.journeys import Journey, missing_asks
from rules.objective import NEAR, effective_order, shortfall
from rules.planner import homeward_classes, homeward_night
from rules.schedule import Schedule, ScheduleIndex
from sources.models import SHANGHAI

TIME_STAGES = ("improve_official", "improve_legs")
STAGES = TIME_STAGES
"""Stages that look for a better route than the plan's (said as "直达需…，中转…")."""


def segment_minutes(itinerary: Itinerary, segment: int) -> tuple[int, int] | None:
    """Door-to-door minutes and changes of one segment of `itinerary` (None: not in it)."""
    legs = [leg for leg in itinerary.legs if leg.segment == segment]
    if not legs:
        return None
    minutes = (legs[-1].arrive_at - legs[0].depart_at).total_seconds() // 60
    return int(minutes), len(legs) - 1


def next_improvement(
    *,
    request: TripRequest,
    best: Itinerary,
    schedule: Schedule | None,
    tried: Sequence[str],
    official_search: bool,
    asked: Mapping[LegKey, LegOffers],
    now: dt.datetime,
    pairs: Mapping[LegKey, Collection[tuple[str, str]]] | None = None,
    budget: int = 0,
    seen: Mapping[LegKey, LegOffers] | None = None,
) -> Relaxation | None:
    """The next stage that could beat `best` for the objective, or None: stop.

    `asked`: the legs asked in full (every train of the day), as the sources answered, and
    `pairs` the stations each was asked by; the official transfer search's halves are only
    the trains of its plans, so not among them (but `seen` with every answer, whose seats
    count). `budget`: the queries left for improving; a bound whose legs cannot all be asked
    within it is not chased.
    """
    objective = effective_order(request)
    if schedule is None or budget < 1:
        return None
    if request.required_trains:
        return None  # the plan is about the train the traveller named, not any quicker one
    if not any(leg.segment == 0 for leg in best.legs):
        return None
    pairs = pairs or {}
    direct = (
        _direct_asks(request, best, schedule, now, objective, asked, pairs, seen, budget)
        if objective is not None
        else []
    )
    if not direct:
        # The ride home has an order of its own (回程要最早的) or the trip's: its best
        # direct train too, once the ride out is settled.
        direct = _direct_home_asks(request, best, schedule, now, asked, pairs, seen, budget)
    if direct:
        return Relaxation(
            "improve_legs", (request,), (), needs_query=True, probe=False, asks=tuple(direct)
        )
    if objective is None or request.max_transfers < 1:
        return None
    found = bound_for(request, schedule, now, objective, asked, pairs, seen or asked)
    index, bound = found.index, found.journey
    if bound is None or settled(best, bound, objective, index, request):
        return None
    day = request.depart_date
    asks = missing_asks(bound, index, day, asked, pairs)
    if not asks:
        return None  # every leg of the bound was asked: the plan is what they allow
    official = "improve_official" in tried or "transfer" in tried
    if not official and official_serves(found, official_search):
        return Relaxation(
            "improve_official",
            (request,),
            (),
            needs_query=True,
            hub_segments=(0,),
            official=True,
        )
    if len(asks) > budget:
        return None
    return Relaxation(
        "improve_legs",
        (request,),
        (),
        needs_query=True,
        probe=False,
        hubs=tuple(dict.fromkeys(k.destination for k in bound.legs(index, day)[:-1])),
        asks=tuple(asks),
    )


EXACT = 1e-6
"""The direct bound's `settled` margin: any shortfall at all."""


def _direct_asks(
    request: TripRequest,
    best: Itinerary,
    schedule: Schedule,
    now: dt.datetime,
    objective: str,
    asked: Mapping[LegKey, LegOffers],
    pairs: Mapping[LegKey, Collection[tuple[str, str]]],
    seen: Mapping[LegKey, LegOffers] | None,
    budget: int,
) -> list[tuple[LegKey, str, str]]:
    """The stations to ask the best direct train by, when the plan may not be it.

    A city-wide answer names each train at one station of each city (K178 at 兰州, ¥29.5,
    though it calls at 兰州西 first for ¥28.5; G8048 at 沈阳 07:09, though it leaves 沈阳北
    at 06:56): the cheapest or earliest direct train a traveller finds by asking station by
    station is not in it. The bound with changes may lie elsewhere (an earlier start by a
    change at 鞍山), so the direct bound is asked first: one query, the train's own stations.
    """
    plain = request.model_copy(update={"max_transfers": 0})
    found = bound_for(plain, schedule, now, objective, asked, pairs, seen or asked)
    bound = found.journey
    # Exact: a traveller comparing direct trains sees ¥1 or ten minutes (not so a bound
    # with changes, an estimate of a journey nobody has priced).
    if bound is None or settled(best, bound, objective, found.index, request, near=EXACT):
        return []
    asks = missing_asks(bound, found.index, request.depart_date, asked, pairs)
    return asks if len(asks) <= budget else []


def homeward_request(request: TripRequest, day: dt.date) -> TripRequest | None:
    """The ride home of a round trip as a one-way trip of its own on `day`, with its own
    hours, classes, train types, stations and order (the trip's order when none was said of
    it); None when no order ranks it (the balanced score) or there is no ride home."""
    order = request.return_order or request.order
    if not request.return_trip or order is None:
        return None
    board, alight = request.homeward_stations or (
        request.destination_station,
        request.origin_station,
    )
    return request.model_copy(
        update={
            "origin": request.destination,
            "destination": request.origin,
            "depart_date": day,
            "return_date": None,
            "nights": None,
            "return_trip": False,
            "via": (),
            "depart_window": request.return_window,
            "arrive_window": request.return_arrive_window,
            "rank_window": request.return_rank_window,
            "arrive_date": None,
            "origin_station": board,
            "destination_station": alight,
            "homeward_stations": None,
            "allow_night": homeward_night(request),
            "night_lifted": request.return_night_lifted,
            # The ride home's own classes, train types and night refusal, as the planner
            # reads them for that ride.
            **homeward_classes(request),
            "order": order,
            "return_order": None,
            "max_transfers": 0,
            "budget": None,
        }
    )


def _direct_home_asks(
    request: TripRequest,
    best: Itinerary,
    schedule: Schedule,
    now: dt.datetime,
    asked: Mapping[LegKey, LegOffers],
    pairs: Mapping[LegKey, Collection[tuple[str, str]]],
    seen: Mapping[LegKey, LegOffers] | None,
    budget: int,
) -> list[tuple[LegKey, str, str]]:
    """The stations to ask the best direct train home by, when the plan's ride home may not
    be it: as for the ride out (`_direct_asks`), a city-wide answer names each train at one
    station of each city (K1583 吐鲁番北 ¥23 beside D2703 吐鲁番北 ¥47 after five)."""
    home = len(request.via) + 1
    legs = [leg for leg in best.legs if leg.segment == home]
    if not legs or request.required_trains:
        return []
    day = legs[0].depart_at.astimezone(SHANGHAI).date()
    ride = homeward_request(request, day)
    if ride is None or ride.order is None:
        return []
    found = bound_for(ride, schedule, now, ride.order, asked, pairs, seen or asked)
    bound = found.journey
    if bound is None or settled(
        best, bound, ride.order, found.index, ride, near=EXACT, segment=home
    ):
        return []
    asks = missing_asks(bound, found.index, day, asked, pairs)
    return asks if len(asks) <= budget else []


def settled(
    best: Itinerary,
    bound: Journey,
    objective: str,
    index: ScheduleIndex,
    request: TripRequest,
    near: float = NEAR,
    segment: int = 0,
) -> bool:
    """Whether the plan's ride out (or the ride of `segment`, `request` being that ride's
    own) is as good as the bound allows: within `NEAR` for the objective, from and to the
    city proper where the bound is, and with regular changes where the bound has them (the
    planner's own rules, kept)."""
    legs = [leg for leg in best.legs if leg.segment == segment]
    midnight = dt.datetime.combine(request.depart_date, dt.time(0), tzinfo=SHANGHAI)

    def minutes(moment: dt.datetime) -> float:
        return (moment - midnight).total_seconds() / 60

    plan = (
        minutes(legs[0].depart_at),
        minutes(legs[-1].arrive_at),
        sum(leg.unit_price for leg in legs),
    )
    if shortfall(objective, plan, (bound.dep, bound.arr, bound.price)) > near:
        return False
    if bound.proper:
        ends = index.place(request.origin, request.origin_station, request.open_cities)
        start = legs[0].origin_station.telecode
        if start in ends.outlying:
            return False
        last = request.destination if not request.via else request.via[0].city
        named = request.destination_station if last == request.destination else None
        ends = index.place(last, named, request.open_cities)
        if legs[-1].destination_station.telecode in ends.outlying:
            return False
    if bound.regular:
        longest = DEFAULT_RULES.max_connection
        for earlier, later in zip(legs, legs[1:], strict=False):
            if (later.depart_at - earlier.arrive_at).total_seconds() / 60 > longest:
                return False
    return True
