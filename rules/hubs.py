"""Transfer hubs from the network's topology, ranked by distance, within a bounded detour (pure).

A fixed hub list sends 南京→西安 through 成都 (徐州 is not on it) and finds nothing at all for
大理 or 丽江 (昆明 is not on it). The planner instead asks the network which cities join the
two ends with one change: a city H qualifies when some train runs origin→H and some train
runs H→destination; H's cost is the km of the shortest such pair, stretched when few trains
serve the thinner half (`route_cost`: a connection needs a train on both), and only hubs
within `MAX_DETOUR` of the best one are tried, best first, skipping a hub within `NEAR_KM`
of one already chosen (徐州 and 蚌埠 sit on the same trains: asking both adds little). Two changes
(origin→H1→H2→destination) are searched the same way, over the busiest first hubs only,
when no single hub joins the ends.

`Topology` is all the planner needs to know, date-independent: per city, the cities its
trains reach and the cities whose trains reach it, each as `(km, trains)` (the shortest
distance and how many trains). The sandbox network implements it; the live queries that
follow decide whether a hub works on the day. With the network's timetable the agent asks the
legs of the best journey it allows instead (`rules.journeys`); these hubs serve where there is
no timetable, and the tool mode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

MAX_DETOUR = 1.3  # a hub route at most 30 % longer than the shortest hub route
ONE_CHANGE_HUBS = 2  # hubs tried per failing segment (2 legs each)
NEAR_KM = 250  # a hub this close to a chosen one (on a train between them) is redundant
FIRST_HUBS_SCANNED = 40  # busiest first hubs considered for a two-change route
THIN_SERVICE = 2.0  # km x (1 + 2 / n) where n trains run the thinner half: few, few connections


class Topology(Protocol):
    def reach(self, city: str) -> Mapping[str, tuple[int, int]]:
        """Cities the trains calling at `city` go on to: `{city: (km, trains)}`."""
        ...

    def reached_from(self, city: str) -> Mapping[str, tuple[int, int]]:
        """Cities whose trains go on to `city`: `{city: (km, trains)}`."""
        ...


def route_cost(*halves: tuple[int, int]) -> float:
    """The cost of a route of `(km, trains)` halves: its km, stretched by the thinnest half."""
    km = sum(h[0] for h in halves)
    trains = min(h[1] for h in halves)
    return km * (1 + THIN_SERVICE / max(trains, 1))


def one_change_hubs(
    topology: Topology,
    origin: str,
    destination: str,
    limit: int = ONE_CHANGE_HUBS,
    max_detour: float = MAX_DETOUR,
) -> list[str]:
    """Cities joining `origin` and `destination` with one change, best first."""
    out, into = topology.reach(origin), topology.reached_from(destination)
    costs = sorted(
        (route_cost(out[hub], into[hub]), hub)
        for hub in out.keys() & into.keys()
        if hub not in (origin, destination)
    )
    if not costs:
        return []
    best = costs[0][0]
    chosen: list[str] = []
    for cost, hub in costs:
        if cost > best * max_detour or len(chosen) == limit:
            break
        if not any(_near(topology, hub, other) for other in chosen):
            chosen.append(hub)
    return chosen


def _near(topology: Topology, a: str, b: str) -> bool:
    link = topology.reach(a).get(b) or topology.reached_from(a).get(b)
    return link is not None and link[0] <= NEAR_KM


def two_change_hubs(
    topology: Topology,
    origin: str,
    destination: str,
    limit: int = 1,
    max_detour: float = MAX_DETOUR,
) -> list[tuple[str, str]]:
    """Pairs (H1, H2) joining the ends with two changes (origin→H1→H2→destination), best first."""
    out, into = topology.reach(origin), topology.reached_from(destination)
    firsts = sorted(
        (h for h in out if h not in (origin, destination)), key=lambda h: (-out[h][1], h)
    )[:FIRST_HUBS_SCANNED]
    costs: list[tuple[float, str, str]] = []
    for first in firsts:
        onward = topology.reach(first)
        for second in onward.keys() & into.keys():
            if second in (origin, destination, first):
                continue
            costs.append((route_cost(out[first], onward[second], into[second]), first, second))
    if not costs:
        return []
    costs.sort()
    best = costs[0][0]
    return [(a, b) for cost, a, b in costs if cost <= best * max_detour][:limit]
