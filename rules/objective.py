"""Objectives: what "best" means for each stated order, and the default when none is stated.

| order | objective (per segment, lower wins) |
| --- | --- |
| `fastest` (最快) | minutes door to door, first departure to last arrival |
| `cheapest` (最便宜) | total fare over every leg, in the cheapest class the constraints allow |
| `latest` (最晚一班) | the latest first departure that still meets every stated window |
| `earliest` (最早一班) | the earliest first departure of a route no other beats on both clocks |
| `earliest_arrival` (最早到) | the earliest last arrival |
| none, one way | `fastest` (`DEFAULT_ORDER`; the cheapest trip is among the alternatives) (*) |
| none, one way, a stated window relaxed | the balanced score: the nearest train to the window |
| none, an hour said around (10点左右) | nearest that hour first (`apply_near`), then balanced |
| none, a stay or leisure | the balanced score (`rules.ranking`: ¥100 as an hour, a change 1.5 h) |

(*) An end at a station not named after the city the traveller named (肥东 for 合肥) counts
`RankingWeights.station_fit` hours more under the default order (`apply_order`).

An order outranks every other penalty (`ORDER_WEIGHT` points per hour or per ¥100); the
balanced score breaks ties. Under a time objective each change of trains must save its worth
(`change_cost`: `CHANGE_SHARE` of the journey, at most `CHANGE_WORTH` minutes) to beat a
route with fewer changes, so a direct train is kept unless a change is really quicker, and a
plan is never more than twice `CHANGE_SHARE` slower than the quickest route it was offered.
Whatever the order, the fastest and the cheapest trip are always among the alternatives
(`rules.planner`). Under an order about a clock, a route with changes follows every other
when one with fewer changes leaves no earlier and arrives no later (`dominated`). The
objective orders the ride out: for `latest`, `earliest` and `earliest_arrival` only the first
segment is ranked by it.

A leisure trip (玩三天, 周末, 当天来回: `TripRequest.leisure`) also weighs the time at the
destination against price, `LEISURE_HOUR` points (¥100) per hour lost there: the ride out by
how late it arrives, the ride home by how early it leaves (`apply_leisure`). A saving of a few
yuan never costs an afternoon; the stated order still comes first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from rules.config import NIGHT_REST_UNTIL, RuleConfig, is_overnight
from rules.legs import stay_nights
from rules.model import TripRequest
from rules.options import Ride, epoch_minutes, window_gap
from rules.ranking import Route, new_route
from sources.models import SHANGHAI

ORDER_WEIGHT = 100_000.0
"""Points per hour (or per 100 yuan) of an order preference: it outranks every other penalty.
Half a yuan (the fares' step) is 500 points and a minute 1,667, above the largest balanced
penalty a route carries (a class three steps down its fallback order is 75): at 1,000 the
fallback outweighed ¥7.5, and 最便宜 took a ¥40 seat over a ¥35 one on a night ride."""

CHANGE_WORTH = 30
"""Minutes a change of trains must save at most under a time objective to be worth making."""

CHANGE_SHARE = 0.02
"""Share of the journey a change must save under a time objective (up to `CHANGE_WORTH`)."""

NEAR = 0.04
"""A plan this close to the timetable's bound for its objective is as good as any bookable
one can be (`shortfall`): the search for a better one stops (`app.agent.improve`)."""


def change_cost(minutes: float, changes: int) -> float:
    """The minutes `changes` changes of trains weigh on a journey of `minutes`."""
    return changes * min(CHANGE_WORTH, CHANGE_SHARE * minutes)


def shortfall(
    order: str, plan: tuple[float, float, float], bound: tuple[float, float, float]
) -> float:
    """How far a plan falls short of the bound, as a share of the bound's measure: the ratio
    less one for minutes and price, the minutes lost over the bound's door-to-door minutes
    for the orders about a clock time. Each figure is `(departure, arrival, price)`, times in
    minutes on one clock. 0 or less: as good as the bound."""
    dep, arr, price = plan
    b_dep, b_arr, b_price = bound
    minutes = max(b_arr - b_dep, 1.0)
    if order == "fastest":
        return (arr - dep) / minutes - 1
    if order == "cheapest":
        return price / b_price - 1 if b_price > 0 else float(price > 0)
    if order == "latest":
        return (b_dep - dep) / minutes
    if order == "earliest":
        return (dep - b_dep) / minutes
    if order == "earliest_arrival":
        return (arr - b_arr) / minutes
    raise ValueError(f"unknown order {order!r}")


FIRST_SEGMENT_ORDERS = frozenset({"earliest", "latest", "earliest_arrival"})
"""Orders about the ride out only."""


DEFAULT_ORDER = "fastest"
"""The objective of a one-way trip that states no order: get there soonest."""


def effective_order(request: TripRequest) -> str | None:
    """The order a segment is ranked by: the stated one, else `DEFAULT_ORDER` for a plain
    one-way trip, else (a trip with a stay, or for pleasure) the balanced score (None)."""
    if request.order is not None:
        return request.order
    if request.leisure or stay_nights(request) is not None or request.via:
        return None
    if request.rank_window is not None:
        # A stated window relaxed: the nearest train to it, not the quickest of the day
        # (06:00-09:00 relaxed is 09:30, not a quicker 15:22); the balanced score weighs it.
        # So does an hour said with 左右 (8点左右): the train nearest eight, not the quickest
        # of the hour either side (`apply_near` then ranks by that nearness first).
        return None
    return DEFAULT_ORDER


def metric(route: Route, order: str) -> float:
    """The objective's figure of one route (hours, or hundreds of yuan), lower is better;
    relative figures only: compare routes of one segment."""
    changes = change_cost(route.arrive - route.depart, len(route.rides) - 1)
    if order == "cheapest":
        return route.unit_price / 100
    if order == "fastest":
        return (route.arrive - route.depart + changes) / 60
    if order == "earliest":
        return route.depart / 60
    if order == "latest":
        return -route.depart / 60
    if order == "earliest_arrival":
        return (route.arrive + changes) / 60
    raise ValueError(f"unknown order {order!r}")


def apply_order(
    routes: Sequence[Route],
    order: str | None,
    segment: int,
    *,
    said_of_it: bool = False,
    aside_weight: float = 0.0,
) -> list[Route]:
    """`routes` re-scored by the stated order (the balanced score breaks ties); an order
    `said_of_it` (the ride home's own, 回来那趟晚一点的) ranks whatever segment it is.

    `aside_weight`: hours (or ¥100) the order's figure counts per segment end at a station not
    named after the city the traveller named (`Route.aside`). The planner gives it to the
    default order only (`DEFAULT_ORDER`, nobody said 最快): a stated order keeps its objective,
    but a traveller who said none expects 合肥南 over 肥东, 17 km out, for 7 minutes less."""
    if order is None or not routes:
        return list(routes)
    if order in FIRST_SEGMENT_ORDERS and segment != 0 and not said_of_it:
        return list(routes)
    figures = [metric(r, order) + aside_weight * r.aside for r in routes]
    if order in TIME_ORDERS:
        # A change beaten on both clocks by a route with fewer changes is not "the first
        # train": 05:34 to 邯郸东 to board there the G71 that left 北京西 at 07:26 is G71 with
        # two hours' waiting. It follows every other route.
        beaten = dominated(routes)
        figures = [m + DAY_HOURS if lost else m for m, lost in zip(figures, beaten, strict=True)]
    base = min(figures)
    return [
        new_route(r.segment, r.rides, r.cost + ORDER_WEIGHT * (m - base), r.unit_price)
        for r, m in zip(routes, figures, strict=True)
    ]


NEAR_WEIGHT = 100.0
"""Points per hour a ride leaves outside the hour its window was said around (10点左右): a
minute is worth more than the fare differences within the window, an hour less than any
stated order (`ORDER_WEIGHT`)."""


def apply_near(routes: Sequence[Route], near: tuple[dt.time, dt.time]) -> list[Route]:
    """`routes` re-scored by how far their first ride leaves from the hour said around."""
    return [
        new_route(
            r.segment,
            r.rides,
            r.cost + NEAR_WEIGHT * window_gap(r.rides[0].offer.depart_at, near) / 60,
            r.unit_price,
        )
        for r in routes
    ]


TIME_ORDERS = frozenset({"earliest", "latest", "earliest_arrival"})
"""Orders about a clock time, where a route beaten on every clock may still tie or win."""

DAY_HOURS = 24.0
"""The order figure added to a dominated route: a day, more than any clock time differs by."""


def dominated(routes: Sequence[Route]) -> list[bool]:
    """For each route, whether another with fewer changes leaves no earlier and arrives no
    later: a change is worth making only to leave later or arrive sooner. Between routes of
    as many changes the order's own clock decides (最早一班 is the 07:00 train even when the
    08:00 one arrives first). The sweep goes from the latest departure."""
    changes = [len(r.rides) - 1 for r in routes]
    top = max(changes, default=0)
    beaten = [False] * len(routes)
    sooner = [float("inf")] * (top + 1)  # earliest arrival, by changes, leaving no earlier
    order = sorted(range(len(routes)), key=lambda i: -routes[i].depart)
    start = 0
    while start < len(order):
        depart = routes[order[start]].depart
        end = start
        while end < len(order) and routes[order[end]].depart == depart:
            end += 1
        group = order[start:end]
        for i in group:
            sooner[changes[i]] = min(sooner[changes[i]], routes[i].arrive)
        for i in group:
            beaten[i] = min(sooner[: changes[i]], default=float("inf")) <= routes[i].arrive
        start = end
    return beaten


WAKING = (7, 21)
"""The hours of a day out (07:00-21:00): time at the destination outside them is not counted."""
LEISURE_HOUR = 1.0
"""Points per hour of a leisure trip's time at the destination: an hour there is worth ¥100."""


def apply_leisure(
    routes: Sequence[Route], day: dt.date, *, homeward: bool, weight: float = LEISURE_HOUR
) -> list[Route]:
    """`routes` of a leisure trip's segment on `day` re-scored by the time they leave at the
    destination: the ride out by its arrival, the ride home (`homeward`) by its departure."""
    if not routes:
        return list(routes)
    midnight = epoch_minutes(dt.datetime.combine(day, dt.time(0, 0), tzinfo=SHANGHAI))
    # Only waking hours there count: arriving at 04:15 or leaving at 23:49 buys no time out
    # (a day trip was planned 00:10 out, 23:49 back, home at 04:00).
    first, last = midnight + WAKING[0] * 60, midnight + WAKING[1] * 60
    lost = [
        (midnight + 24 * 60 - min(r.depart, last))
        if homeward
        else (max(r.arrive, first) - midnight)
        for r in routes
    ]
    base = min(lost)
    return [
        new_route(r.segment, r.rides, r.cost + weight * (m - base) / 60, r.unit_price)
        for r, m in zip(routes, lost, strict=True)
    ]


SAME_DAY = 1_000.0
"""Points a ride into a stay said by its days loses by arriving the day after it leaves: above
the whole balanced score of a ride (its hours, fare, class and fit), below any stated order
(`ORDER_WEIGHT`)."""


def apply_same_day(routes: Sequence[Route], day: dt.date, weight: float = SAME_DAY) -> list[Route]:
    """`routes` into a stay the traveller said (周六去周日回, 住三晚) re-scored so that one
    arriving on `day` beats any arriving later: a night train saves a hotel night by spending
    one of the nights said there on board (呼和浩特 23:12 → 二连 06:50 left no night in 二连,
    西安 23:05 → 延安 02:40 one of 住三晚). A stated order still comes first."""
    if not routes:
        return list(routes)
    midnight = epoch_minutes(dt.datetime.combine(day, dt.time(0, 0), tzinfo=SHANGHAI))
    late = [r.arrive >= midnight + 24 * 60 for r in routes]
    if all(late) or not any(late):
        return list(routes)
    return [
        new_route(r.segment, r.rides, r.cost + weight * lost, r.unit_price)
        for r, lost in zip(routes, late, strict=True)
    ]


NIGHT_WEIGHT = 10 * ORDER_WEIGHT
"""Points per hour riding awake at night on a ride whose night hours were lifted for want of
any other (`TripRequest.night_lifted`) and no order was said: above the default order, so
宣威→昆明 by nine leaves at 05:43, not at 01:58 for a ride 36 minutes shorter."""


def night_minutes(ride: Ride, config: RuleConfig) -> int:
    """Minutes of `ride` in the night hours (before `earliest_departure`, after
    `latest_arrival`) spent awake: none on an overnight berth that lets the traveller sleep
    until `NIGHT_REST_UNTIL`."""
    offer = ride.offer
    if (
        ride.seat_class.is_sleeper
        and is_overnight(offer)
        and offer.arrive_at.time() >= NIGHT_REST_UNTIL
    ):
        return 0
    day = offer.depart_at.date() - dt.timedelta(days=1)
    dawn = config.earliest_departure.hour * 60 + config.earliest_departure.minute
    dusk = config.latest_arrival.hour * 60 + config.latest_arrival.minute
    total = 0
    while day <= offer.arrive_at.date():
        midnight = epoch_minutes(dt.datetime.combine(day, dt.time(0, 0), tzinfo=SHANGHAI))
        # The night from this day's `dusk` to the next day's `dawn`.
        start, end = midnight + dusk, midnight + 24 * 60 + dawn
        total += max(0, min(end, ride.arrive) - max(start, ride.depart))
        day += dt.timedelta(days=1)
    return total


def apply_night(routes: Sequence[Route], config: RuleConfig, *, order_said: bool) -> list[Route]:
    """`routes` of a ride whose night hours were lifted re-scored by the minutes they ride
    awake at night: first of all under the default order, after a stated one (最早到 still
    arrives first) as its tie-break."""
    if not routes:
        return list(routes)
    weight = 1.0 if order_said else NIGHT_WEIGHT
    night = [sum(night_minutes(ride, config) for ride in r.rides) for r in routes]
    base = min(night)
    return [
        new_route(r.segment, r.rides, r.cost + weight * (m - base) / 60, r.unit_price)
        for r, m in zip(routes, night, strict=True)
    ]
