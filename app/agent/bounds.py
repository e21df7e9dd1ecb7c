"""The timetable's bound for a request, as the agent asks it: memoised, and read for what the
official transfer search can show.

The search (`rules.journeys`) costs a tenth of a second or more on a large city, and a plan
asks it once per stage: a warm plan (every answer from the cache) asks the same questions
again, so the answers are kept, keyed by everything they depend on (the request, the clock's
minute, the objective, and every answer and station pair the bound was built on).
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Collection, Hashable, Mapping

from rules import LegKey, LegOffers, TripRequest
from rules.journeys import Bound, allowed, first_page, timetable_bound
from rules.objective import NEAR, shortfall
from rules.schedule import Schedule

PLANS_PER_PAGE = 10
"""Plans one page of 12306's transfer search lists (lcquery's `result_index` steps by ten;
the sandbox pages the same way): a journey ranked later is not on the page the agent asks."""

SURE_OF = PLANS_PER_PAGE // 2
"""Of the page as the timetable predicts it, the plans counted on: the search also joins
rides across a prefecture's stations (渑池 to 三门峡南), which our rules never change between,
so its page fills sooner than predicted."""

OFFICIAL_ORDERS = frozenset({"fastest", "earliest_arrival"})
"""Orders the official transfer search serves: it ranks its plans by arrival."""

KEPT = 32
"""Bounds remembered (least recently used dropped): a few plans' worth, each a few hundred KB
(the search's reading of the request holds the live answers it was built on)."""

_memo: OrderedDict[Hashable, Bound] = OrderedDict()


def bound_for(
    request: TripRequest,
    schedule: Schedule,
    now: dt.datetime,
    objective: str,
    asked: Mapping[LegKey, LegOffers],
    pairs: Mapping[LegKey, Collection[tuple[str, str]]],
    seen: Mapping[LegKey, LegOffers],
) -> Bound:
    """`rules.journeys.timetable_bound`, remembered for the same inputs."""
    # The answers enter the key as hashes: keeping the offers themselves would hold every
    # answer of the last plans alive long after the ticket caches let them go.
    key = (
        id(schedule),
        request,
        objective,
        now.replace(second=0, microsecond=0),
        # Offers only: a warm answer is the cold one tagged `cached`, and bounds the same.
        hash(frozenset((leg, entry.offers) for leg, entry in asked.items())),
        hash(frozenset((leg, frozenset(found)) for leg, found in pairs.items())),
        hash(frozenset((leg, entry.offers) for leg, entry in seen.items())),
    )
    found = _memo.get(key)
    if found is not None and found.index.schedule is schedule:
        _memo.move_to_end(key)
        return found
    found = timetable_bound(request, schedule, now, objective, asked, pairs, seen)
    _memo[key] = found
    if len(_memo) > KEPT:
        _memo.popitem(last=False)
    return found


def official_serves(bound: Bound, official_search: bool) -> bool:
    """Whether the sources' own transfer search is worth its request for the bound: a source
    has it, the bound is one change under an order it ranks by (arrival), and its first page
    lists a plan within `NEAR` of the bound that our rules let the traveller take (as the
    timetable says it would)."""
    journey = bound.journey
    objective = bound.ask.objective
    if not official_search or journey is None or journey.changes != 1:
        return False
    if objective not in OFFICIAL_ORDERS:
        return False
    figures = (journey.dep, journey.arr, journey.price)
    return any(
        shortfall(objective, (j.dep, j.arr, j.price), figures) <= NEAR
        and allowed(bound.index, bound.ask, j)
        for j in first_page(bound.index, bound.ask, journey, SURE_OF)
    )
