"""Combining segments into whole trips under a budget, with a bounded search.

Each segment keeps a short list (its best-scored distinct routes plus its cheapest ones), then
a beam search chains the lists in trip order, dropping any partial trip that could no longer
fit the budget even with the cheapest route for every remaining segment.

A short list cut without regard to its neighbours can lose the only return that connects, or
the only berth that fits what the budget leaves. So when the short lists yield no whole trip,
the beam runs again over the full lists, shortlisting each segment per partial trip among the
routes that chain with it and still fit the budget: bounded (beam width × routes per segment),
and only paid for when the cheap pass found nothing.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.config import RuleConfig
from rules.model import NO_CONNECTION, OVER_BUDGET, Failure, LegKey, TripRequest
from rules.party import rides_price
from rules.ranking import Route
from rules.texts import FAILURE_CHAIN, FAILURE_OVER_BUDGET, day_label, route_label, yuan

BUDGET_EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class Combo:
    """A whole trip: one route per segment, its summed score and the party's ticket total."""

    routes: tuple[Route, ...]
    cost: float
    total: float

    @property
    def order(self) -> tuple[object, ...]:
        """Deterministic ranking key: score, price, then each route's own key."""
        return (round(self.cost, 9), self.total, tuple(r.order for r in self.routes))


def similar(a: Sequence[Route], b: Sequence[Route], gap: int) -> bool:
    """Two choices are near-duplicates: same trains, or every train within `gap` minutes."""
    rides_a = [ride for route in a for ride in route.rides]
    rides_b = [ride for route in b for ride in route.rides]
    if [r.offer.train_number for r in rides_a] == [r.offer.train_number for r in rides_b]:
        return True
    if len(rides_a) != len(rides_b):
        return False
    return all(abs(x.depart - y.depart) < gap for x, y in zip(rides_a, rides_b, strict=True))


def smallest(
    routes: Sequence[Route], count: int, key: Callable[[Route], tuple[object, ...]]
) -> list[Route]:
    """The `count` routes of least `key`, plus any tied with the last one, in full `order`.

    Selecting on a cheap numeric key and only then sorting by the full key keeps the choice
    independent of input order without building the full key for every route.
    """
    head = heapq.nsmallest(count + 1, routes, key=key)
    if len(head) == count + 1:
        extra = head.pop()
        edge = key(head[-1])
        if key(extra) == edge:
            taken = {id(route) for route in head}
            head.extend(r for r in routes if key(r) == edge and id(r) not in taken)
    return sorted(head, key=lambda r: r.order)


def shortlist(routes: Sequence[Route], config: RuleConfig) -> list[Route]:
    """The routes a segment brings to the combination: best distinct ones and the cheapest."""
    ranked = smallest(routes, config.top_k_per_segment * 8, lambda r: r.rough_order)
    picked: list[Route] = []
    for route in ranked:
        if len(picked) == config.top_k_per_segment:
            break
        if not any(similar((route,), (p,), config.alternative_min_gap) for p in picked):
            picked.append(route)
    cheap = smallest(
        routes, config.cheapest_k_per_segment, lambda r: (r.unit_price, *r.rough_order)
    )
    cheap.sort(key=lambda r: (r.unit_price, r.order))
    del cheap[config.cheapest_k_per_segment :]
    # And the quickest, so the fastest trip is always there to be offered (`rules.objective`).
    quick = smallest(
        routes,
        config.cheapest_k_per_segment,
        lambda r: (r.arrive - r.depart, *r.rough_order),
    )
    quick.sort(key=lambda r: (r.arrive - r.depart, r.order))
    del quick[config.cheapest_k_per_segment :]
    seen = {route.rides for route in picked}
    for route in (*cheap, *quick):
        if route.rides not in seen:
            seen.add(route.rides)
            picked.append(route)
    return picked


def _chains(before: Route, after: Route, config: RuleConfig) -> bool:
    last = before.rides[-1].offer.destination_station
    first = after.rides[0].offer.origin_station
    gap = config.min_gap_between_segments(last.telecode == first.telecode)
    return after.depart - before.arrive >= gap


def _stays_said(before: Route, after: Route, request: TripRequest, index: int) -> bool:
    """True unless segment `index` leaves a stop on the way whose nights the traveller said
    other than as many nights after the ride in arrives (住一晚 after a night train in is the
    night after it arrives, not the one spent on board)."""
    if not 1 <= index <= len(request.via):
        return True
    stop = request.via[index - 1]
    if not stop.said or stop.nights < 1:
        return True
    arrived = before.rides[-1].offer.arrive_at.date()
    return (after.rides[0].offer.depart_at.date() - arrived).days == stop.nights


def _beam(
    lists: Sequence[Sequence[Route]],
    request: TripRequest,
    config: RuleConfig,
    budget: float | None,
    *,
    by_price: bool = False,
    conditioned: bool = False,
) -> tuple[list[Combo], int]:
    """Best combos by score; with them, the index of the segment where the search emptied.

    `conditioned`: `lists` are full, and each partial trip takes the short list of the routes
    that chain with it and fit the budget (instead of every route of the list).
    """
    priced: dict[int, float] = {}

    def price(route: Route) -> float:
        """The party's price of a route (per ticket kind when the party is typed)."""
        if not request.party:
            return route.unit_price * request.passengers
        found = priced.get(id(route))
        if found is None:
            found = priced[id(route)] = rides_price(request, route.rides)
        return found

    cheapest_rest = [0.0] * (len(lists) + 1)
    for index in range(len(lists) - 1, -1, -1):
        cheapest = min(price(route) for route in lists[index])
        cheapest_rest[index] = cheapest_rest[index + 1] + cheapest
    # Routes by departure: those leaving before a partial trip could go on are skipped whole.
    earliest_gap = config.min_gap_between_segments(True)
    partial = [Combo((), 0.0, 0.0)]
    for index, listed in enumerate(lists):
        routes = sorted(listed, key=lambda r: r.depart)
        departs = [route.depart for route in routes]
        grown: list[Combo] = []
        for combo in partial:
            start = 0
            if combo.routes:
                start = bisect.bisect_left(departs, combo.routes[-1].arrive + earliest_gap)
            fitting = []
            for route in itertools.islice(routes, start, None):
                if combo.routes and not _chains(combo.routes[-1], route, config):
                    continue
                if combo.routes and not _stays_said(combo.routes[-1], route, request, index):
                    continue
                total = combo.total + price(route)
                floor = total + cheapest_rest[index + 1]
                if budget is not None and floor > budget + BUDGET_EPSILON:
                    continue
                fitting.append(route)
            if conditioned:
                fitting = shortlist(fitting, config) if fitting else []
            for route in fitting:
                total = combo.total + price(route)
                grown.append(Combo((*combo.routes, route), combo.cost + route.cost, total))
        if not grown:
            return [], index
        if by_price:
            partial = heapq.nsmallest(config.beam_width, grown, key=lambda c: (c.total, c.order))
        else:
            partial = heapq.nsmallest(config.beam_width, grown, key=lambda c: c.order)
    return [Combo(c.routes, c.cost, round(c.total, 2)) for c in partial], len(lists)


def combine(
    routes: Sequence[Sequence[Route]],
    keys: Sequence[LegKey],
    request: TripRequest,
    config: RuleConfig,
) -> tuple[list[Combo], Failure | None]:
    """Whole trips best first (fitting the budget if one is given), or why there are none.

    `routes` are every segment's full list: the short lists are cut here, and the full lists
    searched (conditioned on chaining and budget) only when the short lists yield no trip.
    """
    limit = request.budget if request.budget_strict else None
    lists = [shortlist(segment, config) for segment in routes]
    combos, stuck = _beam(lists, request, config, limit)
    if combos:
        return combos, None
    combos, stuck = _beam(routes, request, config, limit, conditioned=True)
    if combos:
        return combos, None
    if limit is not None:
        unbounded, _ = _beam(routes, request, config, None, by_price=True, conditioned=True)
        if unbounded:
            cheapest = unbounded[0].total
            message = FAILURE_OVER_BUDGET.format(budget=yuan(limit), cheapest=yuan(cheapest))
            return [], Failure(OVER_BUDGET, message)
    key = keys[stuck]
    message = FAILURE_CHAIN.format(
        route=route_label(key.origin, key.destination), date=day_label(key.date)
    )
    return [], Failure(NO_CONNECTION, message, segment=stuck)


def remaining_per_day(
    budget: float | None, total: float, trip_days: int, sleeper_nights: int
) -> float | None:
    """What the budget leaves per day for lodging and food after tickets.

    An overnight sleeper adds a calendar day to the trip (the evening it leaves) but neither
    a hotel night nor a day to pay for, so those days are not counted.
    """
    if budget is None:
        return None
    return round((budget - total) / max(1, trip_days - sleeper_nights), 2)
