"""FALLBACK: what to try next, chosen by what failed, each stage at most once; then say what
was tried.

The stages (`stage_order` maps each failure code to the ones that can cure it, in order):

- `transfer`: with the network's timetable (`rules.journeys`), the legs of the best journey
  it allows for the objective, or for a one-change journey under a time objective the
  sources' own transfer search (12306's lcquery, one page per failing segment) when a source
  has it; its plans' halves join the book. Without a timetable, the official search first;
  then (or when it found no plan) the planner's own hub search: `hubs` (or `transfer` when
  there is no official search), both halves via the best hub of the network's topology
  (`rules.hubs`) within a bounded detour, then `more_hubs` via the next one; two hubs in a
  row where no single hub joins the ends; without a topology, probe which of the fixed hubs
  reach the far end, then ask only those for both halves. Leg queries stay within the run's budget;
- `night`: the trip as asked with the night default lifted on the failing rides (a seat in
  the small hours): a default nobody said gives way before anything the traveller did say;
- `day_before`: an arrival deadline no train of the day meets, met the day before;
- `relax`: the fewest stated constraints dropped on the asked day (`rules.relax`), each set
  tried as asked, then with the night default lifted;
- `days`: the adjacent days (±1, the whole trip moved), then `days_relax`: those days with
  the fewest dropped;
- stop, with a Chinese explanation of what was really tried and what the traveller could relax.

No offers at all calls for a transfer first; a stated constraint that filtered everything
out, for relaxing it; a budget shortfall, for cheaper classes and other days; a sold-out or
departed day, for other days. Stages the failures do not call for are not tried.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from app.agent import texts
from app.agent.bounds import bound_for, official_serves
from app.agent.trip import has_preferences, relaxed, shifted
from rules import (
    MAJOR_HUBS,
    Failure,
    LegKey,
    LegOffers,
    TripRequest,
    required_legs,
    transfer_legs,
)
from rules.config import DEFAULT_RULES
from rules.hubs import Topology, one_change_hubs, two_change_hubs
from rules.journeys import missing_asks
from rules.legs import TWO_CHANGE_DAYS, stay_nights, two_change_query_legs
from rules.model import (
    FILTERED_OUT,
    NO_CONNECTION,
    NO_OFFERS,
    OVER_BUDGET,
    PAST_DEPARTURE,
    SOLD_OUT,
    UNKNOWN_TRAIN,
)
from rules.objective import effective_order
from rules.planner import plan
from rules.relax import (
    kin_meets_window,
    leaving_hours_meet_deadline,
    minimal_relaxation,
    outlying_keeps_windows,
    proper_station,
    stated,
    station_meets_window,
    without,
)
from rules.schedule import Schedule
from sources.models import TrainOffer


@dataclass(frozen=True, slots=True)
class Relaxation:
    """The next attempt: the candidate requests to plan and the legs they need."""

    stage: str
    candidates: tuple[TripRequest, ...]
    legs: tuple[LegKey, ...]
    needs_query: bool
    hub_segments: tuple[int, ...] = ()  # failing segments whose hub legs follow the probe
    probe: bool = True  # False: the legs already ask both halves via topology-chosen hubs
    hubs: tuple[str, ...] = ()  # the hubs asked, for the reply
    official: bool = False  # ask the sources' own transfer search for `hub_segments`
    asks: tuple[tuple[LegKey, str, str], ...] = ()  # legs asked by two of their stations


def segment_failures(failures: tuple[Failure, ...]) -> list[Failure]:
    return [f for f in failures if f.segment is not None]


def hub_probe_legs(request: TripRequest, failing: list[int]) -> list[LegKey]:
    """Phase 1 of the hub search: which hubs reach the far end of the first failing segment.

    Asking every hub for both halves of every failing segment costs dozens of queries, more
    than a 5-requests-per-second source answers within the query deadline. The far end (the
    end that is not itself a hub, e.g. 昆明 for 北京→昆明) is reached by few hubs, so probing
    it first narrows phase 2 to the hubs that can work at all.
    """
    keys = required_legs(request)
    segments = [keys[i] for i in failing if 0 <= i < len(keys)]
    if not segments:
        return []
    first = segments[0]
    hubs = [h for h in MAJOR_HUBS if h not in (first.origin, first.destination)]
    if first.destination not in MAJOR_HUBS or first.origin in MAJOR_HUBS:
        return [LegKey(h, first.destination, first.date) for h in hubs]
    return [LegKey(first.origin, h, first.date) for h in hubs]


def topology_transfer_legs(
    request: TripRequest,
    failing: list[int],
    topology: Topology,
    tried: tuple[str, ...] = (),
) -> tuple[list[LegKey], list[str]]:
    """Both halves of every failing segment via its best hub not yet `tried`, and the hubs.

    One hub at a time: the best hub usually works, and then a transfer plan costs the direct
    query and two more per source; the next hub is asked only when it did not.
    """
    keys = required_legs(request)
    legs: list[LegKey] = []
    hubs: list[str] = []
    for index in dict.fromkeys(failing):
        if not 0 <= index < len(keys):
            continue
        segment = keys[index]
        ranked = one_change_hubs(topology, segment.origin, segment.destination)
        found = [h for h in ranked if h not in tried][:1]
        hubs.extend(found)
        legs.extend(transfer_legs(segment, found))
        # Two changes: at once where no single hub joins the ends (喀什→三亚), else with the
        # second stage, once the best single hub has failed (漠河→张家界).
        first_stage = not tried
        if request.max_transfers < 2 or bool(ranked) == first_stage:
            continue
        pairs = two_change_hubs(topology, segment.origin, segment.destination)
        hubs.extend(h for pair in pairs for h in pair)
        legs.extend(two_change_query_legs(segment, pairs, days=1))
    return list(dict.fromkeys(legs)), list(dict.fromkeys(hubs))


def hub_follow_legs(
    request: TripRequest, failing: list[int], offers_of: dict[LegKey, int]
) -> list[LegKey]:
    """Phase 2: both halves of every failing segment, via the hubs the probe found."""
    keys = required_legs(request)
    segments = [keys[i] for i in failing if 0 <= i < len(keys)]
    if not segments:
        return []
    first = segments[0]
    responsive = [
        h
        for h in MAJOR_HUBS
        if offers_of.get(LegKey(h, first.destination, first.date))
        or offers_of.get(LegKey(first.origin, h, first.date))
    ]
    legs: list[LegKey] = []
    for segment in segments:
        legs.extend(transfer_legs(segment, responsive))
    return [k for k in dict.fromkeys(legs) if k not in offers_of]


def overnight_follow_legs(
    request: TripRequest, failing: list[int], offers: Mapping[LegKey, Sequence[TrainOffer]]
) -> list[LegKey]:
    """Phase 3, only when needed: the second half on the next day, where a first half
    reaches its hub the next day (北京→兰州 by sleeper), or reaches it the same day after the
    last train on (a night at the hub, `rules.config.HUB_STOP_MAX_WAIT`)."""
    keys = required_legs(request)
    legs: list[LegKey] = []
    for index in failing:
        if not 0 <= index < len(keys):
            continue
        segment = keys[index]
        next_day = segment.date + dt.timedelta(days=1)
        for key, firsts in offers.items():
            hub = key.destination
            if key.origin != segment.origin or key.date != segment.date:
                continue
            if hub == segment.destination or not firsts:
                continue
            seconds = offers.get(LegKey(hub, segment.destination, segment.date), ())
            overnight = any(o.arrive_at.date() == next_day for o in firsts)
            same_day = [o.arrive_at for o in firsts if o.arrive_at.date() == segment.date]
            # Skipped where some train leaves the hub within a connection of a same-day
            # arrival, and after same-day arrivals only where the hub serves the destination.
            if _catchable(same_day, seconds) or not (overnight or seconds):
                continue
            legs.append(LegKey(hub, segment.destination, next_day))
    return [k for k in dict.fromkeys(legs) if k not in offers]


def chain_follow_legs(
    request: TripRequest, failing: Sequence[int], offers: Mapping[LegKey, Sequence[TrainOffer]]
) -> list[LegKey]:
    """The later hops of a chain of changes on the days its rides really reach them.

    A two-change route's middle and last hops are asked first on the travel day only
    (`two_change_query_legs(days=1)`); where a ride reaches a hub on a later day (overnight),
    or too late for any onward train that day (a stop at the hub, after every same-day
    connection), the onward hop is asked on that day, or the next, as well: a few queries
    instead of every hop on five days. Call again after fetching: each call follows one hop.
    """
    keys = required_legs(request)
    wanted: list[LegKey] = []
    for index in failing:
        if not 0 <= index < len(keys):
            continue
        segment = keys[index]
        last_day = segment.date + dt.timedelta(days=TWO_CHANGE_DAYS - 1)
        onward: dict[str, set[str]] = {}
        for key in offers:
            if key.origin != segment.origin and segment.date <= key.date <= last_day:
                onward.setdefault(key.origin, set()).add(key.destination)
        for key, rides in offers.items():
            hub = key.destination
            if hub == segment.destination or hub not in onward or not rides:
                continue
            if key.origin != segment.origin and key.origin not in onward:
                continue
            for after in sorted(onward[hub] - {key.origin, segment.origin}):
                for day in sorted({o.arrive_at.date() for o in rides}):
                    days = [day]
                    same_day = [o.arrive_at for o in rides if o.arrive_at.date() == day]
                    there = LegKey(hub, after, day)
                    if there in offers and not _catchable(same_day, offers[there]):
                        days.append(day + dt.timedelta(days=1))
                    wanted.extend(
                        LegKey(hub, after, d) for d in days if segment.date <= d <= last_day
                    )
    return [k for k in dict.fromkeys(wanted) if k not in offers]


def _catchable(arrivals: Sequence[dt.datetime], seconds: Sequence[TrainOffer]) -> bool:
    """True when some second half leaves within a connection (`DEFAULT_RULES`) of an arrival."""
    shortest = dt.timedelta(minutes=DEFAULT_RULES.min_connection(True))
    longest = dt.timedelta(minutes=DEFAULT_RULES.max_connection)
    return any(shortest <= o.depart_at - arrive <= longest for arrive in arrivals for o in seconds)


def useful_hubs(offers_of: dict[LegKey, int]) -> set[str]:
    """Hubs that had trains on both halves of some transfer (worth asking again on other days)."""
    arriving = {(k.destination, k.date) for k, n in offers_of.items() if n}
    leaving = {(k.origin, k.date) for k, n in offers_of.items() if n}
    return {hub for hub, _ in arriving & leaving}


def _via_hubs(
    stage: str,
    original: TripRequest,
    segments: list[int],
    topology: Topology,
    hubs_tried: tuple[str, ...],
) -> Relaxation | None:
    """Both halves of every failing segment via the next topology-chosen hubs, or None."""
    hub_legs, named = topology_transfer_legs(original, segments, topology, hubs_tried)
    if not hub_legs:
        return None
    return Relaxation(
        stage,
        (original,),
        tuple(hub_legs),
        needs_query=True,
        hub_segments=tuple(dict.fromkeys(segments)),
        probe=False,
        hubs=tuple(named),
    )


STAGES_AFTER: dict[str, tuple[str, ...]] = {
    # No train at all, or none that connects: another route first, then other days.
    # A station of a city's outskirts named (昌平 for 北京) with no train there: the city's
    # stations, said openly, before a change of trains from the outskirts (three days by
    # 通辽 and 集宁南 from 昌平北 to 上海, where 北京南 has a train every few minutes).
    NO_OFFERS: ("station", "transfer", "hubs", "more_hubs", "days", "relax", "days_relax"),
    NO_CONNECTION: ("transfer", "hubs", "more_hubs", "night", "days", "relax", "days_relax"),
    # Trains exist but a stated constraint removed them all. A route that honours it beats
    # one that drops it (不坐高铁 北京西→西安北: only the hub search's full legs hold a non-G
    # pair; the official search's first page ranks G trains first), so every transfer stage
    # comes before the constraint gives way (said openly), and other days last.
    # The night default (no seat through the night, no small-hours start) is nobody's word: it
    # gives way ("night") before any stated constraint or the day does.
    FILTERED_OUT: (
        "station",
        "transfer",
        "hubs",
        "more_hubs",
        "night",
        "day_before",
        "relax",
        "days",
        "days_relax",
    ),
    # Too dear: cheaper classes or types first, then other days; a change of trains rarely
    # costs less than the direct train it replaces.
    OVER_BUDGET: ("night", "relax", "days", "days_relax"),
    # Sold out on the day: a stated wish given way openly on the day the traveller stated
    # (a D train for 坐高铁, the afternoon for 上午) before the whole trip moves a day; then
    # the same trains on another day, then a route whose trains have seats (with the
    # timetable, `TIMETABLE_STAGES_AFTER`).
    SOLD_OUT: (
        "night",
        "day_before",
        "relax",
        "days",
        "transfer",
        "hubs",
        "more_hubs",
        "days_relax",
    ),
    # Every train of the day has left: only another day can help.
    PAST_DEPARTURE: ("days", "relax", "days_relax"),
    # A named train that does not run: drop it openly, then other days.
    UNKNOWN_TRAIN: ("relax", "days", "days_relax"),
}
DEFAULT_STAGES = ("transfer", "hubs", "more_hubs", "night", "relax", "days", "days_relax")
TIMETABLE_STAGES_AFTER: dict[str, tuple[str, ...]] = {
    # With the timetable the transfer stage asks only the legs of a journey that runs on the
    # day, so a route whose trains have seats comes before moving the date, which the
    # traveller stated.
    SOLD_OUT: (
        "transfer",
        "hubs",
        "night",
        "day_before",
        "relax",
        "days",
        "more_hubs",
        "days_relax",
    ),
}


def stage_order(failures: tuple[Failure, ...], *, timetable: bool = False) -> tuple[str, ...]:
    """The stages worth trying, in the order the failures call for (the first failure leads).

    A fixed order (transfer, then other days, then relaxations) spends queries on transfers
    when the trouble is a budget or a stated constraint; each failure code instead names the
    stages that can cure it, and stages the failures do not call for are not tried at all.
    `timetable`: the agent has the network's timetable (`TIMETABLE_STAGES_AFTER`).
    """
    order: list[str] = []
    for failure in failures:
        after = TIMETABLE_STAGES_AFTER.get(failure.code) if timetable else None
        order.extend(after or STAGES_AFTER.get(failure.code, DEFAULT_STAGES))
    return tuple(dict.fromkeys(order or DEFAULT_STAGES))


def next_relaxation(
    *,
    original: TripRequest,
    failures: tuple[Failure, ...],
    tried: list[str],
    today: dt.date,
    last_sale_day: dt.date,
    hub_offers: dict[LegKey, int],
    topology: Topology | None = None,
    hubs_tried: tuple[str, ...] = (),
    book: Mapping[LegKey, LegOffers] | None = None,
    now: dt.datetime | None = None,
    official_search: bool = False,
    schedule: Schedule | None = None,
    asked: Mapping[LegKey, LegOffers] | None = None,
    pairs: Mapping[LegKey, Collection[tuple[str, str]]] | None = None,
) -> Relaxation | None:
    """The next stage worth trying after `tried` (stage names), or None: time to stop.

    Stages follow what failed (`stage_order`), each at most once. With `official_search`
    (a source runs the railway's own transfer search) the stage "transfer" asks it, and the
    planner's own hub search ("hubs", then "more_hubs") runs only if that found no plan.
    """
    context = _Context(
        original,
        failures,
        tried,
        today,
        last_sale_day,
        hub_offers,
        topology,
        hubs_tried,
        book,
        now,
        official_search,
        schedule,
        asked or {},
        pairs or {},
    )
    for stage in stage_order(failures, timetable=schedule is not None):
        if stage in tried:
            continue
        found = _BUILDERS[stage](context)
        if found is not None:
            return found
    return None


@dataclass(frozen=True, slots=True)
class _Context:
    original: TripRequest
    failures: tuple[Failure, ...]
    tried: list[str]
    today: dt.date
    last_sale_day: dt.date
    hub_offers: dict[LegKey, int]
    topology: Topology | None
    hubs_tried: tuple[str, ...]
    book: Mapping[LegKey, LegOffers] | None
    now: dt.datetime | None
    official_search: bool
    schedule: Schedule | None = None
    asked: Mapping[LegKey, LegOffers] = field(default_factory=dict)
    pairs: Mapping[LegKey, Collection[tuple[str, str]]] = field(default_factory=dict)

    @property
    def segments(self) -> list[int]:
        """The failing segments a transfer could cure (not those whose trains have all left)."""
        if self.original.max_transfers < 1:
            return []
        failing = segment_failures(self.failures)
        if all(f.code == PAST_DEPARTURE for f in failing):
            return []
        return [f.segment for f in failing if f.segment is not None]

    @property
    def asks_official(self) -> bool:
        """Whether the stage "transfer" asks the official search: a source has it, and some
        failing segment has a one-change route at all (the search finds one change only;
        喀什→三亚 needs two, so asking would cost requests and find nothing)."""
        if not self.official_search:
            return False
        if self.topology is None:
            return True
        keys = required_legs(self.original)
        return any(
            one_change_hubs(self.topology, keys[i].origin, keys[i].destination)
            for i in self.segments
            if 0 <= i < len(keys)
        )

    @property
    def may_relax(self) -> bool:
        return has_preferences(self.original) or any(
            f.code in (OVER_BUDGET, FILTERED_OUT) for f in self.failures
        )


def _by_timetable(stage: str, c: _Context, *, official: bool) -> Relaxation | None:
    """The best journey the timetable allows for the ride out (`rules.journeys`): the
    official search when that is one change under a time objective (`official`: the search
    may still be asked), else its legs not asked yet; None when the timetable cannot say
    (no timetable, a later segment failing, a named train to ride, or no journey in it: the
    sources may know one)."""
    if c.schedule is None or c.now is None or c.segments != [0] or c.original.required_trains:
        return None
    objective = effective_order(c.original) or "fastest"
    day = c.original.depart_date
    found = bound_for(c.original, c.schedule, c.now, objective, c.asked, c.pairs, c.book or c.asked)
    index, bound = found.index, found.journey
    if bound is None:
        return None
    if official and official_serves(found, c.official_search):
        return Relaxation(
            stage, (c.original,), (), needs_query=True, hub_segments=(0,), official=True
        )
    asks = missing_asks(bound, index, day, c.asked, c.pairs)
    if not asks:
        return None
    return Relaxation(
        stage,
        (c.original,),
        (),
        needs_query=True,
        probe=False,
        hubs=tuple(dict.fromkeys(k.destination for k in bound.legs(index, day)[:-1])),
        asks=tuple(asks),
    )


def _transfer(c: _Context) -> Relaxation | None:
    """The timetable's best journey (or the railway's own transfer search where that serves
    it); without a timetable the railway's search when it can help, else the own hubs."""
    segments = c.segments
    if not segments:
        return None
    found = _by_timetable("transfer", c, official=True)
    if found is not None:
        return found
    if c.asks_official:
        return Relaxation(
            "transfer",
            (c.original,),
            (),
            needs_query=True,
            hub_segments=tuple(dict.fromkeys(segments)),
            official=True,
        )
    return _own_hubs("transfer", c)


def _hubs(c: _Context) -> Relaxation | None:
    """After the transfer stage found no plan: the timetable's best journey with what the
    sources answered, else the own hub search after the official transfer search."""
    if "transfer" not in c.tried or not c.segments:
        return None
    found = _by_timetable("hubs", c, official=False)
    if found is not None:
        return found
    if not c.asks_official:
        return None
    return _own_hubs("hubs", c)


def _own_hubs(stage: str, c: _Context) -> Relaxation | None:
    segments = c.segments
    if not segments:
        return None
    if c.topology is not None:
        via_hubs = _via_hubs(stage, c.original, segments, c.topology, ())
        if via_hubs is not None:
            return via_hubs
    probe = hub_probe_legs(c.original, segments)
    ends = {end for k in required_legs(c.original) for end in (k.origin, k.destination)}
    probed = {k.origin for k in probe} | {k.destination for k in probe}
    return Relaxation(
        stage,
        (c.original,),
        tuple(probe),
        needs_query=True,
        hub_segments=tuple(dict.fromkeys(segments)),
        hubs=tuple(h for h in MAJOR_HUBS if h in probed - ends),
    )


def _more_hubs(c: _Context) -> Relaxation | None:
    """The next topology hubs, once the first hub search failed (and before other days)."""
    first = "hubs" if c.asks_official else "transfer"
    if c.topology is None or first not in c.tried or "days" in c.tried or not c.segments:
        return None
    return _via_hubs("more_hubs", c.original, c.segments, c.topology, c.hubs_tried)


def _relax(c: _Context) -> Relaxation | None:
    if not c.may_relax:
        return None
    if c.book is not None and c.now is not None:
        # The fewest stated constraints dropped on the asked day, said openly (README
        # "What was asked").
        lifted = night_lifted(c.original, c.failures)
        found = minimal_relaxation(c.original, c.book, now=c.now, lifted=lifted)
        if found is None:
            return None
        kept = outlying_keeps_windows(c.original, c.book, now=c.now, dropped=found[1])
        # An outlying station of the place named that keeps the hours said beats the city
        # proper's trains at other hours (the plan says where the station is).
        return Relaxation("relax", (kept or found[0],), (), needs_query=False)
    base = [c.original]
    if "days" in c.tried:
        base += [shifted(c.original, d) for d in (1, -1)]
    return Relaxation("relax", tuple(relaxed(r) for r in base), (), needs_query=False)


def _station(c: _Context) -> Relaxation | None:
    """The trip from the whole city where the station the traveller leaves from is one of a
    big city's outskirts (昌平 of 北京; not 北京西, not 江宁 within 20 km of 南京, not a town
    keyed as its own) and nothing runs from it as asked: the city's stations, said openly as
    the origin relaxed. Only the origin of a rail hub's city (`MAJOR_HUBS`): a place gone to
    is the goal (峨眉山, 五台山, 潢川 are not 乐山, 忻州, 信阳), and a smaller city's outskirts
    are towns of their own."""
    request = c.original
    named = request.origin_station
    if named is None or request.origin not in MAJOR_HUBS or proper_station(request, "origin"):
        return None
    candidate = without(request, ("origin",))
    return Relaxation("station", (candidate,), tuple(required_legs(candidate)), needs_query=True)


def _night(c: _Context) -> Relaxation | None:
    """The trip as asked with the night default lifted on the failing rides (`night_lifted`),
    when that plans it: a seat at 04:04 or till 23:58 the traveller never refused beats moving
    a window, the day or a station they did say. Nothing stated gives way, so nothing is said
    as relaxed."""
    if c.book is None or c.now is None:
        return None
    lifted = night_lifted(c.original, c.failures)
    if lifted is None or not plan(lifted, c.book, now=c.now, limit=1).itineraries:
        return None
    return Relaxation("night", (lifted,), (), needs_query=False)


def night_lifted(request: TripRequest, failures: tuple[Failure, ...]) -> TripRequest | None:
    """`request` with the night hours allowed on the rides that failed (the ride home alone
    when only it did), or None when they are allowed already."""
    legs = len(required_legs(request))
    homeward = stay_nights(request) is not None
    failing = {f.segment for f in segment_failures(failures)} or set(range(legs))
    home_fails = homeward and legs - 1 in failing
    out_fails = any(i < legs - 1 or not homeward for i in failing if i is not None)
    home_night = (
        request.allow_night if request.return_allow_night is None else request.return_allow_night
    )
    update: dict[str, object] = {}
    if out_fails and not request.allow_night:
        # The ride home keeps its own night hours: only the failing rides change.
        update.update(allow_night=True, night_lifted=True, return_allow_night=home_night)
    if home_fails and not home_night:
        update.update(return_allow_night=True, return_night_lifted=True)
    return request.model_copy(update=update) if update else None


def _days(c: _Context) -> Relaxation | None:
    if not segment_failures(c.failures):
        return None
    candidates = []
    for delta in (1, -1):
        moved = shifted(c.original, delta)
        last = moved.return_date or moved.depart_date
        if moved.depart_date >= c.today and last <= c.last_sale_day:
            candidates.append(moved)
    if not candidates:
        return None
    hubs = useful_hubs(c.hub_offers) if set(c.tried) & {"transfer", "hubs"} else set()
    legs: list[LegKey] = []
    for moved in candidates:
        keys = required_legs(moved)
        legs.extend(keys)
        for key in keys:
            for hub in sorted(hubs - {key.origin, key.destination}):
                legs += [LegKey(key.origin, hub, key.date), LegKey(hub, key.destination, key.date)]
    return Relaxation("days", tuple(candidates), tuple(legs), needs_query=True)


def _day_before(c: _Context) -> Relaxation | None:
    """An arrival deadline no train of the day meets (周三上午十点前必须到): leave the day
    before rather than arrive late, said openly as the date moved. Two ways, the better
    planned: overnight, arriving the deadline's morning within it, or arriving the day before
    at any hour. The return, if any, keeps its day."""
    request = c.original
    window = request.arrive_window
    if window is None or window[0] != dt.time(0, 0) or request.arrive_date is None:
        return None
    if (
        request.depart_window is not None
        and request.depart_part_of_day
        and request.arrive_date == request.depart_date
    ):
        # 当天早上走，八点前到 with no train there by eight: the part of the day of leaving
        # was said of that day, so the day stays and the deadline gives way, openly (an hour
        # said for leaving, 六点以后的车, still moves to the day before).
        return None
    if not any(f.segment == 0 for f in segment_failures(c.failures)):
        return None
    before = request.depart_date - dt.timedelta(days=1)
    if before < c.today:
        return None
    if (
        c.book is not None
        and c.now is not None
        and (
            station_meets_window(request, c.book, now=c.now)
            or kin_meets_window(request, c.book, now=c.now)
            or leaving_hours_meet_deadline(request, c.book, now=c.now)
        )
    ):
        # 苏州园区 reached too late but 苏州 in time, or 早上 said for leaving and a train at
        # 05:57 there by eight: the station or the hours give way (`relax`), the day stays.
        return None
    overnight = request.model_copy(update={"depart_date": before})
    early = request.model_copy(
        update={
            "depart_date": before,
            "arrive_date": before,
            "arrive_window": (dt.time(0, 0), dt.time(23, 59)),
        }
    )
    candidates: tuple[TripRequest, ...] = (overnight, early)
    if _home_fails(request, c.failures):
        # The ride home fails on its own day too (周三晚上七点以后回, none that late): the
        # day before holds only with the ride home's wish given way as well, one at a time
        # and said openly; never before the trip kept whole.
        candidates += tuple(
            without(moved, (name,))
            for name in stated(request)
            if name in HOMEWARD_CONSTRAINTS
            for moved in (overnight, early)
        )
    legs = tuple(dict.fromkeys(k for r in candidates for k in required_legs(r)))
    return Relaxation("day_before", candidates, legs, needs_query=True)


HOMEWARD_CONSTRAINTS = frozenset(
    {
        "return_window",
        "return_arrive_window",
        "return_seat_classes",
        "return_train_types",
        "return_no_overnight",
    }
)
"""The stated constraints of the ride home alone (`rules.relax.RELAX_ORDER`)."""


def _home_fails(request: TripRequest, failures: tuple[Failure, ...]) -> bool:
    """True when the ride home of a round trip is among the failing rides."""
    if stay_nights(request) is None:
        return False
    last = len(required_legs(request)) - 1
    return any(f.segment == last for f in segment_failures(failures))


def _days_relax(c: _Context) -> Relaxation | None:
    if "days" not in c.tried or not c.may_relax or c.book is None or c.now is None:
        return None
    now = c.now
    moved_found = []
    for delta in (1, -1):
        moved = shifted(c.original, delta)
        lifted = night_lifted(moved, c.failures)
        if found := minimal_relaxation(moved, c.book, now=now, lifted=lifted):
            moved_found.append(found)
    if not moved_found:
        return None
    return Relaxation("days_relax", tuple(r for r, _ in moved_found), (), needs_query=False)


_BUILDERS = {
    "station": _station,
    "transfer": _transfer,
    "hubs": _hubs,
    "more_hubs": _more_hubs,
    "relax": _relax,
    "days": _days,
    "night": _night,
    "day_before": _day_before,
    "days_relax": _days_relax,
}


def explain(
    *,
    header: str,
    original: TripRequest,
    failures: tuple[Failure, ...],
    tried: list[str],
    hubs_tried: bool,
    unavailable: list[LegKey],
    hubs: tuple[str, ...] = (),
    middles: tuple[str, ...] = (),
) -> str:
    """Why nothing could be planned, what was tried, and what the traveller could relax.

    Only what was really asked is named: the middle cities of the official transfer plans
    and the hubs whose legs were queried, never a list of hubs nobody asked. A leg no source
    (nor any cache) could answer is said as "no data", never as "no trains" (its planner
    failure, NO_OFFERS, only means nothing was returned).
    """
    legs = required_legs(original)
    failures = tuple(
        f
        for f in failures
        if not (
            f.code == NO_OFFERS
            and f.segment is not None
            and f.segment < len(legs)
            and legs[f.segment] in unavailable
        )
    )
    why = "；".join(dict.fromkeys(f.message for f in failures)) + ("。" if failures else "")
    why += "".join(
        texts.UNAVAILABLE.format(
            route=texts.route_label(key.origin, key.destination), date=texts.day_label(key.date)
        )
        for key in unavailable
    )
    steps = [texts.TRIED_DIRECT]
    if "transfer" in tried and middles:
        steps.append(texts.TRIED_OFFICIAL.format(cities=texts.some_of(middles)))
    elif "transfer" in tried and not hubs_tried:
        steps.append(texts.TRIED_OFFICIAL_NONE)
    if hubs_tried and hubs:
        steps.append(texts.TRIED_TRANSFER.format(hubs=texts.some_of(hubs)))
    if "days" in tried:
        days = [texts.day_label(original.depart_date + dt.timedelta(days=d)) for d in (-1, 1)]
        steps.append(texts.TRIED_DAYS.format(days="、".join(days)))
    if "relax" in tried:
        steps.append(texts.TRIED_RELAX)
    advice = []
    if unavailable:
        advice.append(texts.ADVISE_LATER)
    if any(f.code == OVER_BUDGET for f in failures) or original.budget is not None:
        advice.append(texts.ADVISE_BUDGET)
    advice.append(texts.ADVISE_DATE)
    if original.max_transfers == 0 or not set(tried) & {"transfer", "hubs", "more_hubs"}:
        advice.append(texts.ADVISE_TRANSFER)
    if has_preferences(original) and "relax" not in tried:
        advice.append(texts.ADVISE_RELAX)
    no_data = bool(unavailable) and not failures
    text = (texts.NO_DATA if no_data else texts.NO_PLAN).format(header=header, why=why)
    text += texts.TRIED.format(steps="、".join(steps))
    text += texts.ADVICE.format(advice=texts.ADVICE_JOIN.join(advice))
    return text
