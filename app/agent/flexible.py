"""Any day will do ("哪天都行", "随便哪天", "这两周哪天都行"): the trip leaves on the best day.

The intent's `date_start`..`flexible_until` (within the sale window) become one candidate
request per day, each asked of the sources like any trip; the day chosen is the best by the
traveller's stated order (the cheapest fare for 最便宜, the shortest ride for 最快), else the
soonest day with a plan. Nobody is asked "which day?", and the day chosen is said, never as
a relaxation: the traveller accepted every one of those days.
"""

from __future__ import annotations

import datetime as dt

from app.agent.trip import shifted
from rules import Itinerary, TripRequest
from rules.legs import required_legs
from sources.sale_window import last_sale_day


def day_candidates(
    request: TripRequest, until: dt.date, today: dt.date, max_queries: int
) -> list[TripRequest]:
    """The request moved to each accepted day on sale, as many as `max_queries` leg queries
    allow (at least the first day)."""
    first = max(request.depart_date, today)
    last = min(until, last_sale_day(today))
    per_day = max(1, len(required_legs(request)))
    count = max(1, min((last - first).days + 1, max_queries // per_day))
    start = (first - request.depart_date).days
    return [shifted(request, start + offset) for offset in range(count)]


def best_day_key(
    order: str | None, request: TripRequest, itinerary: Itinerary
) -> tuple[float, ...]:
    """How one day's best itinerary ranks among the accepted days (lower is better)."""
    day = float(request.depart_date.toordinal())
    if order == "cheapest":
        return (itinerary.total_price, day)
    if order == "fastest":
        legs = [leg for leg in itinerary.legs if leg.segment == itinerary.legs[0].segment]
        minutes = (legs[-1].arrive_at - legs[0].depart_at).total_seconds() / 60
        return (minutes, day)
    return (day,)
