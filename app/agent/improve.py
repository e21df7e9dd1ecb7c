"""IMPROVE: a plan was found, but could a change of trains beat it for the stated objective?

The failure-driven stages (`app.agent.fallback`) look for transfers only when no direct train
fits. Under a time objective (`rules.objective.TIME_ORDERS`: 最快, 最早到, 最晚一班 before a
deadline; 最快 is a plain one-way trip's default) a direct train that crawls (郑州→惠州 by
Z147, 17 h) is beaten by a change (8 h by G via 广州南), so once a plan exists the search
goes on while the objective can still improve:

1. `improve_official`: the sources' own transfer search (one request, earliest arrival
   first), where a source has it; else (or when it found nothing better) `improve_hubs`:
   both halves via the topology's best hub (two leg queries);
2. `improve_two`: two changes via the best hub pair (three leg queries, and the later hops
   again on the days rides reach them), once one change is the best found.

Under 最便宜 a plan with changes built on the official search's halves (its own trains only)
asks those legs in full once (`improve_cheap`): a slower train between the same cities may
sell a cheaper seat.

Each stage runs at most once, and only while the bound allows an improvement worth a change:
the best plan's segment takes longer than the quickest any route with more changes could
take (`rules.hubs.change_bound`, from the topology's distances at the network's top speed)
plus `rules.objective.CHANGE_WORTH` per extra change. When the bound says no route can beat
the plan, the search stops: it is complete for the objective, not for the first plan found.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence

from app.agent.fallback import Relaxation
from rules import Itinerary, LegKey, TripRequest, required_legs, transfer_legs
from rules.hubs import Topology, change_bound, one_change_hubs, two_change_hubs
from rules.legs import two_change_query_legs
from rules.objective import CHANGE_WORTH, TIME_ORDERS, effective_order

TIME_STAGES = ("improve_official", "improve_hubs", "improve_two")
STAGES = (*TIME_STAGES, "improve_cheap")
"""Stages that look for a quicker route (said as "直达需…，中转…")."""


def improvable(request: TripRequest) -> bool:
    """Whether the order is one a change of trains can serve better than a direct train."""
    return effective_order(request) in TIME_ORDERS and request.max_transfers >= 1


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
    topology: Topology | None,
    tried: Sequence[str],
    official_search: bool,
    fetched: Collection[LegKey] = (),
) -> Relaxation | None:
    """The next search stage that could beat `best` for the objective, or None: stop.

    `fetched`: the legs asked in full (every train of the day); the official transfer
    search's halves are only the trains of its plans.
    """
    found = segment_minutes(best, 0)
    if found is None:
        return None
    minutes, changes = found
    if request.order == "cheapest" and changes and "improve_cheap" not in tried:
        # The official plans' halves are their own trains only (the quickest first): every
        # train between the same cities that day may sell a cheaper seat.
        rides = [leg for leg in best.legs if leg.segment == 0]
        legs = [
            LegKey(leg.origin_station.city, leg.destination_station.city, leg.depart_at.date())
            for leg in rides
        ]
        legs = [k for k in dict.fromkeys(legs) if k not in fetched]
        if legs:
            hubs = [leg.destination_station.city for leg in rides[:-1]]
            return _stage("improve_cheap", request, legs, hubs)
    if not improvable(request) or topology is None:
        return None
    key = required_legs(request)[0]

    room = _room(request, best, minutes)
    if request.order is None and not _slack(best):
        return None  # the default objective: searched on only where the plan leaves room

    def worth(more_changes: int) -> bool:
        bound = change_bound(topology, key.origin, key.destination, more_changes)
        return bound is not None and room > bound + CHANGE_WORTH * (more_changes - changes)

    if changes == 0 and worth(1):
        if official_search and "improve_official" not in tried:
            return Relaxation(
                "improve_official",
                (request,),
                (),
                needs_query=True,
                hub_segments=(0,),
                official=True,
            )
        if "improve_hubs" not in tried:
            hubs = one_change_hubs(topology, key.origin, key.destination)[:1]
            legs = transfer_legs(key, hubs)
            if legs:
                return _stage("improve_hubs", request, legs, hubs)
    # Two changes once one change is the best found, and only while they could beat it; for
    # a stated order only (the default keeps a one-change plan's cost to its own queries).
    stated = request.order is not None
    two = changes == 1 and request.max_transfers >= 2 and "improve_two" not in tried
    if two and stated and worth(2):
        pairs = two_change_hubs(topology, key.origin, key.destination)
        legs = two_change_query_legs(key, pairs, days=1)
        if legs:
            return _stage("improve_two", request, legs, [h for pair in pairs for h in pair])
    return None


FAST_TYPES = frozenset({"G", "C"})
"""Trains at the network's top speed class: a route of these with short changes leaves no
room for another change to save its worth."""
LONG_CHANGE = 60
"""Minutes of a change past which another route may well be quicker."""


def _slack(best: Itinerary) -> bool:
    """Whether the first segment leaves room to improve: a ride below the top speed class
    (D, Z, T, K …) or a long wait at a change. With no order stated (the default `fastest`),
    G trains with short changes are taken as quick enough: no queries are spent trying to
    beat them; a stated 最快 searches on while the bound allows."""
    legs = [leg for leg in best.legs if leg.segment == 0]
    if any(leg.train_number[0] not in FAST_TYPES for leg in legs):
        return True
    return any(
        (later.depart_at - earlier.arrive_at).total_seconds() / 60 > LONG_CHANGE
        for earlier, later in zip(legs, legs[1:], strict=False)
    )


def _room(request: TripRequest, best: Itinerary, minutes: int) -> float:
    """The minutes a better route could take at most: the plan's own for 最快 and 最早到; for
    最晚一班, from the plan's departure to the stated arrival deadline (a route leaving later
    must still arrive by it; none stated: the last direct train is the latest)."""
    if effective_order(request) != "latest":
        return minutes
    window = request.arrive_window
    if window is None:
        return 0
    day = request.arrive_date or best.legs[0].depart_at.date()
    deadline = dt.datetime.combine(day, window[1], tzinfo=best.legs[0].depart_at.tzinfo)
    return (deadline - best.legs[0].depart_at).total_seconds() / 60


def _stage(
    stage: str, request: TripRequest, legs: Sequence[LegKey], hubs: Sequence[str]
) -> Relaxation:
    return Relaxation(
        stage,
        (request,),
        tuple(legs),
        needs_query=True,
        hub_segments=(0,),
        probe=False,
        hubs=tuple(dict.fromkeys(hubs)),
    )
