"""Connections: which second train each first train can catch, found in near-linear time.

Rides are grouped by station and sorted by time. For a first ride arriving at `t`, the
catchable second rides leave within `[t + minimum, t + MAX_CONNECTION]`; both ends move
forward as `t` does, so a monotonic deque yields the best partner of every ride in one sweep
(O(n) after sorting) instead of comparing all pairs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rules.config import RuleConfig, can_change
from rules.model import TripRequest
from rules.options import Ride
from rules.ranking import Route, lead_key, make_route, new_route, tail_key


def connection_ok(
    arriving: Ride, leaving: Ride, config: RuleConfig, *, overnight: bool = False
) -> bool:
    """True when `leaving` can be caught after `arriving`, under the connection rules;
    `overnight` also allows a stop at the hub of up to a day (`HUB_STOP_MAX_WAIT`)."""
    here, there = arriving.offer.destination_station, leaving.offer.origin_station
    if not can_change(here, there):
        return False
    gap = leaving.depart - arriving.arrive
    return (
        config.min_connection(here.telecode == there.telecode) <= gap <= _longest(config, overnight)
    )


def _longest(config: RuleConfig, overnight: bool) -> int:
    """The longest wait at a hub: a same-day connection, or with `overnight` a day's stop."""
    if overnight:
        return max(config.max_connection, config.hub_stop_max_wait)
    return config.max_connection


def window_min(
    times: Sequence[int], keys: Sequence[float], queries: Iterator[tuple[int, int, int]]
) -> Iterator[tuple[int, int]]:
    """For queries `(lo, hi, tag)` with `lo` and `hi` non-decreasing, over points sorted by
    time, yield `(tag, j)` where point `j` has the least key among times in `[lo, hi]`
    (earliest on ties)."""
    window: deque[int] = deque()
    nxt = 0
    count = len(times)
    for lo, hi, tag in queries:
        while nxt < count and times[nxt] <= hi:
            key = keys[nxt]
            while window and keys[window[-1]] > key:
                window.pop()
            window.append(nxt)
            nxt += 1
        while window and times[window[0]] < lo:
            window.popleft()
        if window:
            yield tag, window[0]


def _groups(rides: Sequence[Ride], *, by_arrival: bool) -> dict[str, list[int]]:
    """Ride indices per station (arrival or departure), sorted by that time."""
    groups: dict[str, list[int]] = {}
    for index, ride in enumerate(rides):
        station = ride.offer.destination_station if by_arrival else ride.offer.origin_station
        groups.setdefault(station.telecode, []).append(index)
    for indices in groups.values():
        indices.sort(key=lambda i: rides[i].arrive if by_arrival else rides[i].depart)
    return groups


@dataclass(frozen=True, slots=True)
class Connections:
    """Two-ride routes through one hub, and the best times any connection there achieves."""

    routes: list[Route]
    earliest: int | None
    fastest: int | None


def connect(
    segment: int,
    firsts: Sequence[Ride],
    seconds: Sequence[Ride],
    request: TripRequest,
    config: RuleConfig,
    *,
    overnight: bool = False,
) -> Connections:
    """For every ride its best partner by score, and for every first ride its cheapest one;
    plus the earliest arrival and shortest journey over all catchable pairs (exact, so that
    "最早到达" and "用时最短" are true of the routes chosen).

    `overnight`: stops at the hub of up to a day, for when no regular connection exists.
    """
    w = config.weights
    epoch = min((r.depart for r in firsts), default=0)
    leads = [lead_key(r, request, w, epoch) for r in firsts]
    tails = [tail_key(r, request, w, epoch) for r in seconds]
    second_prices = [r.unit_price for r in seconds]
    second_arrivals = [float(r.arrive) for r in seconds]
    first_prices = [r.unit_price for r in firsts]
    first_departures = [float(-r.depart) for r in firsts]
    # Pairs are encoded as one int (i * width + j): ints cost the garbage collector nothing.
    width = len(seconds)
    pairs: set[int] = set()
    earliest: int | None = None
    fastest: int | None = None
    longest = _longest(config, overnight)
    arrivals = _groups(firsts, by_arrival=True)
    departures = _groups(seconds, by_arrival=False)
    for here, f_idx in arrivals.items():
        arrive_times = [firsts[i].arrive for i in f_idx]
        arrived_at = firsts[f_idx[0]].offer.destination_station
        for there, s_idx in departures.items():
            if not can_change(arrived_at, seconds[s_idx[0]].offer.origin_station):
                continue
            shortest = config.min_connection(here == there)
            depart_times = [seconds[j].depart for j in s_idx]
            for keys in (tails, second_prices):
                local = [keys[j] for j in s_idx]
                queries = ((t + shortest, t + longest, k) for k, t in enumerate(arrive_times))
                for k, j in window_min(depart_times, local, queries):
                    pairs.add(f_idx[k] * width + s_idx[j])
            local = [second_arrivals[j] for j in s_idx]
            queries = ((t + shortest, t + longest, k) for k, t in enumerate(arrive_times))
            for k, j in window_min(depart_times, local, queries):
                # Every first ride's earliest-arriving partner: the fastest and the earliest
                # arrival through this hub are among the routes, whatever the order asked.
                pairs.add(f_idx[k] * width + s_idx[j])
                arrive = seconds[s_idx[j]].arrive
                journey = arrive - firsts[f_idx[k]].depart
                earliest = arrive if earliest is None else min(earliest, arrive)
                fastest = journey if fastest is None else min(fastest, journey)
            # Every second ride's best feeder by score, by price and by latest departure (the
            # latest departure meeting a deadline, the cheapest whole route).
            for keys in (leads, first_prices, first_departures):
                local_leads = [keys[i] for i in f_idx]
                back = ((t - longest, t - shortest, k) for k, t in enumerate(depart_times))
                for k, i in window_min(arrive_times, local_leads, back):
                    pairs.add(f_idx[i] * width + s_idx[k])
    routes = []
    for pair in sorted(pairs):
        i, j = divmod(pair, width)
        routes.append(
            new_route(
                segment,
                (firsts[i], seconds[j]),
                leads[i] + tails[j] + w.transfers,
                firsts[i].unit_price + seconds[j].unit_price,
            )
        )
    return Connections(routes, earliest, fastest)


def connect_twice(
    segment: int,
    firsts: Sequence[Ride],
    middles: Sequence[Ride],
    lasts: Sequence[Ride],
    request: TripRequest,
    config: RuleConfig,
    *,
    overnight: bool = False,
) -> list[Route]:
    """Three-ride routes (two changes): for every middle ride, the best first ride that
    reaches it and the best last ride it reaches, each under the connection rules
    (`overnight`: a change may also be a stop at the hub of up to a day).

    Only asked for when no direct or one-change route exists, over the few hubs the network
    offers, so a scan per middle ride (O(m × (f + l))) is cheap enough.
    """
    w = config.weights
    epoch = min((r.depart for r in firsts), default=0)
    leads = [lead_key(r, request, w, epoch) for r in firsts]
    tails = [tail_key(r, request, w, epoch) for r in lasts]
    routes = []
    for middle in middles:
        before = [
            i for i, f in enumerate(firsts) if connection_ok(f, middle, config, overnight=overnight)
        ]
        after = [
            j
            for j, last in enumerate(lasts)
            if connection_ok(middle, last, config, overnight=overnight)
        ]
        if not before or not after:
            continue
        # With the middle ride fixed the two ends are independent: per objective, its best
        # first and last ride (score; price; latest departure and earliest arrival).
        chosen = {
            (min(before, key=lambda k: (leads[k], k)), min(after, key=lambda k: (tails[k], k))),
            (
                min(before, key=lambda k: (firsts[k].unit_price, leads[k], k)),
                min(after, key=lambda k: (lasts[k].unit_price, tails[k], k)),
            ),
            (
                min(before, key=lambda k: (-firsts[k].depart, leads[k], k)),
                min(after, key=lambda k: (lasts[k].arrive, tails[k], k)),
            ),
        }
        for i, j in sorted(chosen):
            routes.append(make_route(segment, (firsts[i], middle, lasts[j]), request, w))
    return routes
