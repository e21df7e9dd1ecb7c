"""Connections: which second train each first train can catch, found in near-linear time.

Rides are grouped by station and sorted by time. For a first ride arriving at `t`, the
catchable second rides leave within `[t + minimum, t + MAX_CONNECTION]`; both ends move
forward as `t` does, so a monotonic deque yields the best partner of every ride in one sweep
(O(n) after sorting) instead of comparing all pairs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence

from rules.config import RuleConfig
from rules.model import TripRequest
from rules.options import Ride
from rules.ranking import Route, lead_key, make_route, tail_key


def connection_ok(arriving: Ride, leaving: Ride, config: RuleConfig) -> bool:
    """True when `leaving` can be caught after `arriving`, under the connection rules."""
    same = arriving.offer.destination_station.telecode == leaving.offer.origin_station.telecode
    gap = leaving.depart - arriving.arrive
    return config.min_connection(same) <= gap <= config.max_connection


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


def connect(
    segment: int,
    firsts: Sequence[Ride],
    seconds: Sequence[Ride],
    request: TripRequest,
    config: RuleConfig,
) -> list[Route]:
    """Two-ride routes through one hub: for every ride, its best partner by score, and for
    every first ride also its cheapest and its earliest-arriving partner."""
    w = config.weights
    leads = [lead_key(r, request, w) for r in firsts]
    tails = [tail_key(r, request, w) for r in seconds]
    second_prices = [r.unit_price for r in seconds]
    second_arrivals = [float(r.arrive) for r in seconds]
    pairs: set[tuple[int, int]] = set()
    longest = config.max_connection
    arrivals = _groups(firsts, by_arrival=True)
    departures = _groups(seconds, by_arrival=False)
    for here, f_idx in arrivals.items():
        arrive_times = [firsts[i].arrive for i in f_idx]
        for there, s_idx in departures.items():
            shortest = config.min_connection(here == there)
            depart_times = [seconds[j].depart for j in s_idx]
            for keys in (tails, second_prices, second_arrivals):
                local = [keys[j] for j in s_idx]
                queries = ((t + shortest, t + longest, k) for k, t in enumerate(arrive_times))
                for k, j in window_min(depart_times, local, queries):
                    pairs.add((f_idx[k], s_idx[j]))
            local_leads = [leads[i] for i in f_idx]
            back = ((t - longest, t - shortest, k) for k, t in enumerate(depart_times))
            for k, i in window_min(arrive_times, local_leads, back):
                pairs.add((f_idx[i], s_idx[k]))
    # Scores are recomputed per route (not leads + tails) so that direct and connecting
    # routes compare without float noise from the large epoch-minute terms.
    return [make_route(segment, (firsts[i], seconds[j]), request, w) for i, j in sorted(pairs)]
