"""Ranking: explicit weighted penalties per route and per itinerary, lower is better.

Every penalty is additive over rides (price, window fit, station fit, seat margin, fallback)
or depends only on the first departure and the last arrival (travel time), so the score of a
two-ride route is `lead_key(first) + tail_key(second) + transfer weight`. That split is what
lets the connection search find each train's best partner with a sliding window instead of
trying all pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.config import RankingWeights
from rules.model import ScoreBreakdown, TripRequest
from rules.options import Ride, arrival_gap, window_gap

Parts = tuple[float, float, float, float, float, float, float]
"""price, travel_time, window_fit, transfers, seat_margin, seat_fallback, station_fit
(weighted)."""


@dataclass(frozen=True, slots=True)
class Route:
    """One way to cover a trip segment: a direct ride, or two rides with a change between."""

    segment: int
    rides: tuple[Ride, ...]
    cost: float
    unit_price: float
    depart: int
    arrive: int
    rough_order: tuple[float, float, int, int]
    """The numeric head of `order`, precomputed: routes are compared by the thousand."""

    @property
    def aside(self) -> int:
        """Segment ends at a station not named after the city the traveller named there."""
        return sum(ride.aside for ride in self.rides)

    @property
    def trains(self) -> tuple[str, ...]:
        return tuple(ride.offer.train_number for ride in self.rides)

    @property
    def order(self) -> tuple[object, ...]:
        """Deterministic ranking key: score, then price, times, train numbers and classes."""
        return (
            round(self.cost, 9),
            self.unit_price,
            self.depart,
            self.arrive,
            self.trains,
            tuple(ride.seat_class.value for ride in self.rides),
        )


def _ride_base(ride: Ride, w: RankingWeights) -> float:
    return (
        w.price * ride.unit_price / 100
        + w.seat_margin * ride.scarcity
        + w.seat_fallback * ride.fallback
        + w.station_fit * ride.aside
    )


def soft_gap(ride: Ride, request: TripRequest) -> int:
    """Minutes a departure falls outside `request.rank_window` (0 when none is set)."""
    return window_gap(ride.offer.depart_at, request.rank_window)


def lead_key(ride: Ride, request: TripRequest, w: RankingWeights, epoch: int = 0) -> float:
    """The part of a two-ride route's score owed to its first ride.

    Times count from `epoch` (minutes) so the terms stay small and the sum stays exact.
    """
    return (
        _ride_base(ride, w)
        - w.travel_time * (ride.depart - epoch) / 60
        + w.window_fit * window_gap(ride.offer.depart_at, request.depart_window) / 60
        + w.window_fit * soft_gap(ride, request) / 60
    )


def tail_key(ride: Ride, request: TripRequest, w: RankingWeights, epoch: int = 0) -> float:
    """The part of a two-ride route's score owed to its second ride (see `lead_key`)."""
    return (
        _ride_base(ride, w)
        + w.travel_time * (ride.arrive - epoch) / 60
        + w.window_fit * arrival_gap(ride.offer.arrive_at, request) / 60
    )


def route_parts(rides: tuple[Ride, ...], request: TripRequest, w: RankingWeights) -> Parts:
    """The weighted penalties of one route, component by component."""
    first, last = rides[0], rides[-1]
    window = soft_gap(first, request) + window_gap(first.offer.depart_at, request.depart_window)
    window += arrival_gap(last.offer.arrive_at, request)
    return (
        w.price * sum(r.unit_price for r in rides) / 100,
        w.travel_time * (last.arrive - first.depart) / 60,
        w.window_fit * window / 60,
        w.transfers * (len(rides) - 1),
        w.seat_margin * sum(r.scarcity for r in rides),
        w.seat_fallback * sum(r.fallback for r in rides),
        w.station_fit * sum(r.aside for r in rides),
    )


def make_route(
    segment: int, rides: tuple[Ride, ...], request: TripRequest, w: RankingWeights
) -> Route:
    """A route with its score and per-person price."""
    return new_route(
        segment, rides, sum(route_parts(rides, request, w)), sum(r.unit_price for r in rides)
    )


def new_route(segment: int, rides: tuple[Ride, ...], cost: float, unit_price: float) -> Route:
    """A route from its rides and score, with its times and sort key filled in."""
    depart, arrive, price = rides[0].depart, rides[-1].arrive, round(unit_price, 2)
    return Route(
        segment, rides, cost, price, depart, arrive, (round(cost, 9), price, depart, arrive)
    )


def breakdown(
    routes: Iterable[Route], requests: Sequence[TripRequest], w: RankingWeights
) -> ScoreBreakdown:
    """The score of an itinerary: its routes' penalties summed component by component.

    `requests[i]` is the request as segment `i` was ranked under (windows apply onward only).
    """
    sums = [0.0] * 7
    for route in routes:
        for index, value in enumerate(route_parts(route.rides, requests[route.segment], w)):
            sums[index] += value
    parts = [round(value, 3) for value in sums]
    return ScoreBreakdown(
        price=parts[0],
        travel_time=parts[1],
        window_fit=parts[2],
        transfers=parts[3],
        seat_margin=parts[4],
        seat_fallback=parts[5],
        station_fit=parts[6],
        total=round(sum(sums), 3),
    )
