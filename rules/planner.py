"""The planner: from a trip request and the fetched offers to ranked, validated itineraries.

Per segment (outbound, via chain, return): usable rides → direct and one-transfer routes →
a short list; then the segments are combined under the budget (`rules.budget`), the best
mutually different trips are dressed as itineraries (legs, transfers, stays, Chinese day
plan, reasons) and each one is checked by `rules.validate` before it leaves.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from rules import texts
from rules.budget import Combo, combine, remaining_per_day, similar
from rules.config import DEFAULT_RULES, RuleConfig, in_city_proper, is_overnight
from rules.legs import (
    TWO_CHANGE_DAYS,
    required_legs,
    stay_nights,
    two_change_legs,
    via_follow_legs,
)
from rules.model import (
    FILTERED_OUT,
    NO_CONNECTION,
    NO_OFFERS,
    PAST_DEPARTURE,
    SOLD_OUT,
    UNKNOWN_TRAIN,
    Failure,
    Itinerary,
    Leg,
    LegKey,
    LegOffers,
    PlanResult,
    ScoreBreakdown,
    TripRequest,
)
from rules.objective import (
    apply_leisure,
    apply_near,
    apply_night,
    apply_order,
    apply_same_day,
    effective_order,
)
from rules.options import Funnel, Ride, at_place, build_rides, expected_arrival
from rules.party import ride_fares, ride_price
from rules.ranking import Route, breakdown, make_route
from rules.timeline import build_days, hotel_nights, sleeper_nights, stays_of, transfers_of
from rules.transfers import connect, connect_twice
from rules.validate import OfferIndex, validate
from sources.models import TrainOffer, normalise_train_number, wished_type

ENGINE_MAX_TRANSFERS = 2
"""Transfers the engine can plan per segment: `transfer_legs` fetches one hub at a time."""


def homeward_classes(request: TripRequest) -> dict[str, object]:
    """The ride home's own classes and train types, when said of it alone (回程换成卧铺,
    回来坐高铁): they replace the trip's for that ride; a berth asked for is the traveller's
    own choice of a night ride."""
    own: dict[str, object] = {}
    if request.return_no_overnight:
        own["no_overnight"] = True
    if request.return_train_types:
        # 回来坐高铁 after 坐卧铺: the berth was the night ride's; the ride home is its own.
        own.update(
            train_types=request.return_train_types,
            exclude_train_types=frozenset(),
            seat_class=None,
            seat_classes=frozenset(),
        )
    if request.return_seat_classes:
        own.update(
            seat_class=None,
            seat_classes=request.return_seat_classes,
            strict_seat=True,
            allow_night=homeward_night(request)
            or any(c.is_sleeper for c in request.return_seat_classes),
        )
    return own


def homeward_night(request: TripRequest) -> bool:
    """Whether the ride home may use the night hours: its own say, else the trip's."""
    if request.return_allow_night is None:
        return request.allow_night
    return request.return_allow_night


@dataclass(slots=True)
class _Segment:
    index: int
    key: LegKey
    request: TripRequest
    routes: list[Route] = field(default_factory=list)
    funnel: Funnel = field(default_factory=Funnel)
    seen: set[str] = field(default_factory=set)
    # Best times of connections, which keep only each train's best partners as routes.
    earliest: list[int] = field(default_factory=list)
    fastest: list[int] = field(default_factory=list)

    def bests(self) -> tuple[int, float, int]:
        """Earliest arrival, lowest price and shortest journey among the segment's options."""
        return (
            min([r.arrive for r in self.routes] + self.earliest),
            min(r.unit_price for r in self.routes),
            min([r.arrive - r.depart for r in self.routes] + self.fastest),
        )


def plan(
    request: TripRequest,
    book: Mapping[LegKey, LegOffers],
    *,
    now: dt.datetime,
    limit: int = 3,
    config: RuleConfig = DEFAULT_RULES,
) -> PlanResult:
    """Up to `limit` itineraries for `request` built only from `book`, best first."""
    keys = required_legs(request)
    returns_home = stay_nights(request) is not None
    if request.min_stay is not None and request.min_stay > config.min_stay:
        # 至少待6个小时: the visit the traveller asked for, not the rule's shortest one.
        config = replace(config, min_stay=request.min_stay)
    notes: list[str] = []
    if request.return_trip and not returns_home:
        notes.append(texts.NOTE_ONE_WAY)
    hubs: dict[tuple[str, dt.date], set[str]] = {}
    for key in book:
        hubs.setdefault((key.origin, key.date), set()).add(key.destination)
    transfers = min(request.max_transfers, config.max_transfers, ENGINE_MAX_TRANSFERS)
    return_segment = len(keys) - 1 if returns_home else None
    # The stated windows describe the journey out; the return has its own (周日晚上回来).
    homeward = request.model_copy(
        update={
            "depart_window": request.return_window,
            "arrive_window": request.return_arrive_window,
            "rank_window": request.return_rank_window
            if request.return_window
            else (config.return_not_before, dt.time(23, 59)),
            "allow_night": homeward_night(request),
            "night_lifted": request.return_night_lifted,
            **homeward_classes(request),
        }
    )
    last_onward = len(keys) - 1 - (1 if returns_home else 0)

    def build(index: int, key: LegKey, said_notes: list[str]) -> _Segment:
        """One segment's routes, filtered and ranked as its place in the trip wants."""
        if index == return_segment:
            board, alight = request.homeward_stations or (
                request.destination_station,
                request.origin_station,
            )
            ends = _Ends(
                board,
                alight,
                expected_arrival(key.date, request.return_window, request.return_arrive_window),
            )
        else:
            ends = _Ends(
                request.origin_station if index == 0 else None,
                request.destination_station if index == last_onward else None,
                request.arrive_date if index == 0 else None,
            )
        rider = homeward if index == return_segment else request
        # A window said that opens in the small hours (凌晨走) is the traveller's own choice.
        small_hours = rider.depart_window and rider.depart_window[0] < config.stay_leave_not_before
        # So is the earliest train asked for that ride (回程要最早的): the first one leaving.
        first_asked = index == return_segment and request.return_order in (
            "earliest",
            "earliest_arrival",
        )
        if _after_stay(request, index, return_segment) and not small_hours and not first_asked:
            ends = replace(ends, not_before=config.stay_leave_not_before)
        segment = _segment(index, key, book, hubs, rider, config, now, transfers, ends)
        if not segment.routes and ends.not_before is not None:
            # Nothing leaves after the night said but a train in the small hours: that one,
            # said openly, rather than no trip at all.
            ends = replace(ends, not_before=None)
            early = _segment(index, key, book, hubs, rider, config, now, transfers, ends)
            if early.routes:
                segment = early
                said_notes.append(
                    texts.NOTE_STAY_CUT_SHORT.format(
                        route=texts.route_label(key.origin, key.destination),
                        date=texts.day_label(key.date),
                        time=config.stay_leave_not_before.strftime("%H:%M"),
                        city=key.origin,
                    )
                )
        homeward_ride = index == return_segment
        into_stay = _after_stay(request, index + 1, return_segment)  # the next one leaves a stay
        if into_stay and not _night_ride_wanted(request):
            # A stay said by its days (周六去周日回, 住三晚) is nights there: a night train
            # arriving the next morning spends one of them on board.
            segment.routes = apply_same_day(segment.routes, key.date)
        said = request.return_order if homeward_ride else request.order
        if request.leisure and (returns_home or index == last_onward) and said is None:
            # Time at the destination: the ride there and the ride home (`rules.objective`);
            # an order said of the ride (回坐最晚的) ranks it alone.
            segment.routes = apply_leisure(segment.routes, key.date, homeward=homeward_ride)
        if index == return_segment and request.return_order is not None:
            segment.routes = apply_order(
                segment.routes, request.return_order, index, said_of_it=True
            )
        else:
            # The default order (nobody said 最快) weighs a station not named after the city
            # named as the balanced score does; a stated order keeps its objective.
            implied = request.order is None
            segment.routes = apply_order(
                segment.routes,
                effective_order(request),
                index,
                aside_weight=config.weights.station_fit if implied else 0.0,
            )
        if rider.depart_window is not None and rider.rank_window is not None:
            # 10点左右: of the two hours either side, the train nearest ten.
            segment.routes = apply_near(segment.routes, rider.rank_window)
        if rider.night_lifted:
            # The night hours nobody chose, allowed for want of any other ride: as few as can be.
            segment.routes = apply_night(segment.routes, config, order_said=said is not None)
        return segment

    segments = [build(index, key, notes) for index, key in enumerate(keys)]
    # A night train into the last stop on the way: the ride on the day after each later
    # arrival joins the ride on's routes (`via_follow_legs`); `rules.budget` pairs each ride
    # in with the ride on its nights after.
    # (Only a trip with a stop asks: `plan` runs once per relaxation tried, so the other
    # trips do not copy the book's offers.)
    follow = via_follow_legs(request, {k: v.offers for k, v in book.items()}) if request.via else []
    for key in follow:
        if key in book:
            segments[-1].routes.extend(build(len(keys) - 1, key, []).routes)
    # A stay counted from arrival: the ride home for each later day a ride there arrives.
    later_homes: dict[int, _Segment] = {}
    if request.stay_from_arrival and return_segment is not None:
        home = keys[return_segment]
        for lag in sorted({_lag(r, keys[last_onward].date) for r in segments[last_onward].routes}):
            later = LegKey(home.origin, home.destination, home.date + dt.timedelta(days=lag))
            if lag > 0 and later in book:
                later_homes[lag] = build(return_segment, later, [])
    failures = _apply_required(request, [*segments, *later_homes.values()], notes)
    home_later = any(home.routes for home in later_homes.values())
    failures.extend(
        _segment_failure(s, request, config)
        for s in segments
        if not s.routes and not (s.index == return_segment and home_later)
    )
    if any(f.segment is not None for f in failures):
        return PlanResult(notes=tuple(notes), failures=tuple(failures))
    trips: dict[int, list[_Segment]] = {}
    combos: list[Combo] = []
    if request.stay_from_arrival and return_segment is not None:
        combos = _by_arrival(segments, later_homes, last_onward, request, config, trips)
    failure = None
    if not combos:
        # The trip as dated: any trip but a stay counted from arrival, and that one where no
        # ride home pairs with the rides there (the later day not on sale yet).
        combos, failure = combine([s.routes for s in segments], keys, request, config)
        # (A visit of the hours said is a stated constraint: given up openly, not cut.)
        cut_short = config.short_visit < config.min_stay and request.min_stay is None
        if failure is not None and failure.code == NO_CONNECTION and cut_short:
            # No trip of the day leaves the hours of a visit there: a shorter one, said.
            short = replace(config, min_stay=config.short_visit)
            cut, _ = combine([s.routes for s in segments], keys, request, short)
            if cut:
                notes.extend(_short_visit_notes(cut[0], config.min_stay))
                combos, failure, config = cut, None, short
        trips = {id(combo): segments for combo in combos}
    if failure is not None:
        return PlanResult(notes=tuple(notes), failures=(*failures, failure))
    # Index only the offers of trains that appear in a candidate trip: validation stays cheap.
    numbers = {r.offer.train_number for c in combos for route in c.routes for r in route.rides}
    offers = OfferIndex(
        offer for entry in book.values() for offer in entry.offers if offer.train_number in numbers
    )
    itineraries: list[Itinerary] = []
    picked: list[Combo] = []
    for combo in _offered(combos, limit, config):
        if len(itineraries) == limit:
            break
        trip = trips[id(combo)]
        bests = [segment.bests() for segment in trip]
        itinerary = _itinerary(combo, request, trip, return_segment, returns_home, config, bests)
        # Defence in depth: nothing leaves the engine that its own validator rejects.
        if validate(itinerary, offers, config=config, allow_waitlist=request.allow_waitlist):
            continue
        picked.append(combo)
        itineraries.append(itinerary)
    if itineraries:
        notes.extend(_class_notes(request, picked[0]))
        notes.extend(_freshness_notes(picked[0]))
        notes.extend(_outlying_notes(request, picked[0]))
    return PlanResult(tuple(itineraries), tuple(notes), tuple(failures))


def _offered(combos: Sequence[Combo], limit: int, config: RuleConfig) -> list[Combo]:
    """The combos to offer, best first: mutually different ones, with the fastest and the
    cheapest trip always among them (in place of the last alternatives when `limit` is hit)."""
    chosen: list[Combo] = []
    for combo in combos:
        if not any(similar(combo.routes, c.routes, config.alternative_min_gap) for c in chosen):
            chosen.append(combo)
    if not chosen:
        return []

    def minutes(combo: Combo) -> int:
        return sum(r.arrive - r.depart for r in combo.routes)

    head = chosen[: max(limit, 1)]
    kept = [head[0]]  # the best trip stays first
    for key in (minutes, lambda c: c.total):
        best = min(chosen, key=lambda c: (key(c), c.order))
        if any(key(c) <= key(best) for c in head):
            continue
        if len(head) >= limit:
            # In place of the weakest alternative that is not itself kept.
            weakest = next((c for c in reversed(head) if not any(c is k for k in kept)), None)
            if weakest is None:
                continue
            head.remove(weakest)
        head.append(best)
        kept.append(best)
    head = [head[0], *sorted(head[1:], key=lambda c: c.order)]
    # Validation may still drop some: the rest follow in their order.
    return [*head, *[c for c in chosen if not any(c is h for h in head)]]


@dataclass(frozen=True, slots=True)
class _Ends:
    """The exact stations a segment must start and end at, the day it must arrive, and the
    earliest hour it may leave (after a stay said: `_after_stay`)."""

    board: str | None = None
    alight: str | None = None
    arrive_date: dt.date | None = None
    not_before: dt.time | None = None


def _segment(
    index: int,
    key: LegKey,
    book: Mapping[LegKey, LegOffers],
    hubs: Mapping[tuple[str, dt.date], set[str]],
    request: TripRequest,
    config: RuleConfig,
    now: dt.datetime,
    transfers: int,
    ends: _Ends | None = None,
) -> _Segment:
    """All routes of one segment: direct rides, and routes with one or two changes through
    fetched hubs; a night at a hub only where no same-day route exists."""
    segment = _Segment(index, key, request)
    weights = config.weights
    ends = ends or _Ends()
    outlying = False

    def rides(leg: LegKey, first: bool, last: bool) -> list[Ride]:
        entry = book[leg]
        segment.seen.update(offer.train_number for offer in entry.offers)
        found, funnel = build_rides(
            leg,
            entry.offers,
            entry.freshness,
            request,
            config,
            now,
            depart_window=first,
            arrive_window=last,
            board=ends.board if first else None,
            alight=ends.alight if last else None,
            arrive_date=ends.arrive_date if last else None,
            outlying=outlying,
            not_before=ends.not_before if first else None,
        )
        segment.funnel.add(funnel)
        return found

    # A change of trains is a way round a gap, not a tour: no transfer route may take more
    # than MAX_DETOUR times the quickest direct train of the day between the same ends, of
    # a type the traveller takes (南京→上海 via 汉口 is none). A direct train to an outlying
    # station (张家港 for 苏州) joins other ends: it caps no journey to the city proper.
    def same_ends(offer: TrainOffer) -> bool:
        if not wished_type(offer.train_type, request.train_types, request.exclude_train_types):
            return False
        for station, named in (
            (offer.origin_station, ends.board),
            (offer.destination_station, ends.alight),
        ):
            if named is not None:
                if not at_place(station, named):
                    return False
            elif not outlying and not in_city_proper(station, request.open_cities):
                return False
        return True

    longest = 10**9

    def detour_cap() -> int:
        direct = [o.duration_min for o in book[key].offers if same_ends(o)] if key in book else []
        return int(config.max_detour * min(direct)) if direct else 10**9

    def one_change(overnight: bool) -> None:
        for hub in sorted(hubs.get((key.origin, key.date), ())):
            # An overnight first ride reaches the hub the next morning (or later): its
            # connection leaves that day (the night is spent on the train, not in the
            # station); a night at the hub, too, goes on the next day.
            onward = [
                leg
                for offset in range(TWO_CHANGE_DAYS)
                if (leg := LegKey(hub, key.destination, key.date + dt.timedelta(days=offset)))
                in book
            ]
            if hub in (key.origin, key.destination) or not onward:
                continue
            firsts = rides(LegKey(key.origin, hub, key.date), True, False)
            seconds = [r for leg in onward for r in rides(leg, False, True)]
            if firsts and seconds:
                found = connect(index, firsts, seconds, request, config, overnight=overnight)
                segment.routes.extend(r for r in found.routes if r.arrive - r.depart <= longest)
                if found.earliest is not None and found.fastest is not None:
                    segment.earliest.append(found.earliest)
                    segment.fastest.append(found.fastest)

    def two_changes(overnight: bool) -> None:
        # Two changes, only where nothing else joins the ends (the hub pairs the book holds).
        for first_hub, second_hub, (middle_days, last_days) in two_change_legs(key, book):
            firsts = rides(LegKey(key.origin, first_hub, key.date), True, False)
            middles = [
                r
                for d in middle_days
                for r in rides(LegKey(first_hub, second_hub, d), False, False)
            ]
            lasts = [
                r
                for d in last_days
                for r in rides(LegKey(second_hub, key.destination, d), False, True)
            ]
            found = connect_twice(
                index, firsts, middles, lasts, request, config, overnight=overnight
            )
            segment.routes.extend(r for r in found if r.arrive - r.depart <= longest)

    # A night in a hotel at a hub is a last resort: tried only where no same-day connection
    # exists, so it never outranks one.
    proper_direct = 0  # direct offers at the city proper, whatever the wishes (`outlying`)

    def search() -> None:
        nonlocal proper_direct, longest
        longest = detour_cap()
        if key in book:
            direct = rides(key, True, True)
            proper_direct = segment.funnel.total
            segment.routes = [make_route(index, (r,), request, weights) for r in direct]
        # Two changes wherever the book holds their legs (the agent asks for them only where
        # they can beat one change, `app.agent.improve`): a quicker or cheaper route is one.
        for overnight in (False, True):
            if overnight and segment.routes:
                break
            if transfers:
                one_change(overnight)
            if transfers >= 2:
                two_changes(overnight)

    search()
    if not segment.routes and proper_direct == 0:
        # An outlying station (义乌 for 金华) only where the city proper has no journey at
        # all that day, direct or with changes: checked on the offers, said in the plan. A
        # city-proper train the traveller's other wishes rule out is no such gap (大理→丽江
        # in the morning by D is K9625 from 大理 with the wishes relaxed, not D8788 from
        # 鹤庆, 100 km away, said nowhere).
        outlying = True
        segment.funnel, segment.seen = Funnel(), set()
        segment.earliest, segment.fastest = [], []
        search()
    if request.no_overnight:
        segment.routes = [r for r in segment.routes if not through_the_night(r)]
    return segment


def _short_visit_notes(combo: Combo, visit: int) -> list[str]:
    """Say where the trip leaves a place sooner than a visit's `visit` minutes."""
    notes = []
    for before, after in zip(combo.routes, combo.routes[1:], strict=False):
        minutes = after.depart - before.arrive
        if minutes < visit:
            station = before.rides[-1].offer.destination_station
            # The place by its own name where it is no city's (五台山 is 忻州's).
            city = station.city if station.name.startswith(station.city) else station.name
            hours = texts.hours_minutes(minutes)
            notes.append(texts.NOTE_SHORT_VISIT.format(city=city, hours=hours))
    return notes


def _lag(route: Route, day: dt.date) -> int:
    """Days after `day` that `route` arrives (1 for a night train out)."""
    return (route.rides[-1].offer.arrive_at.date() - day).days


def _by_arrival(
    segments: Sequence[_Segment],
    later_homes: Mapping[int, _Segment],
    into: int,
    request: TripRequest,
    config: RuleConfig,
    trips: dict[int, list[_Segment]],
) -> list[Combo]:
    """Whole trips for a stay counted from arrival (`TripRequest.stay_from_arrival`), best
    first: each ride there paired with the ride home as many days after the dated one as it
    arrives late, so every trip spends the nights said there. `trips` receives each combo's
    segments (their ride home's)."""
    day = segments[into].key.date
    found: list[Combo] = []
    for lag, home in ((0, segments[-1]), *later_homes.items()):
        there = [route for route in segments[into].routes if _lag(route, day) == lag]
        if not there or not home.routes:
            continue
        trip = [*segments[:-1], home]
        lists = [s.routes for s in trip]
        lists[into] = there
        combos, _ = combine(lists, [s.key for s in trip], request, config)
        for combo in combos:
            trips[id(combo)] = trip
        found.extend(combos)
    return sorted(found, key=lambda combo: combo.order)


def _after_stay(request: TripRequest, index: int, return_segment: int | None) -> bool:
    """True when segment `index` leaves a city after a stay of a night or more the traveller
    said (a via stop's nights, or the days at the destination before the ride home)."""
    if index == return_segment:
        return (stay_nights(request) or 0) >= 1
    if index == 0 or index > len(request.via):
        return False
    stop = request.via[index - 1]
    return stop.said and stop.nights >= 1


def _night_ride_wanted(request: TripRequest) -> bool:
    """True when the traveller chose a night on board for the ride out: a berth asked for, or
    a departure in the evening (晚上走, 下班后)."""
    berth = any(c.is_sleeper for c in request.seat_classes) or bool(
        request.seat_class and request.seat_class.is_sleeper
    )
    window = request.depart_window
    return berth or (window is not None and window[0] >= EVENING)


EVENING = dt.time(17, 0)
"""A departure window opening this late is an evening ride out, a night on board allowed."""


def through_the_night(route: Route) -> bool:
    """True when a route of changes spends a night on the way (不要过夜): waiting past
    midnight for a train (张掖 23:20 → 00:02) or a night at a hub (嫩江 22:17 → 06:18) is a
    night away from home as much as a night train is; a night train itself is filtered per
    ride."""
    first, last = route.rides[0].offer, route.rides[-1].offer
    return last.arrive_at.date() > first.depart_at.date()


def _apply_required(
    request: TripRequest, segments: Sequence[_Segment], notes: list[str]
) -> list[Failure]:
    """Keep only routes with a named train where one can be had; explain the others."""
    wanted = {normalise_train_number(number) for number in request.required_trains}
    failures: list[Failure] = []
    for number in sorted(wanted):
        holders = [s for s in segments if any(number in r.trains for r in s.routes)]
        if holders:
            for segment in holders:
                segment.routes = [r for r in segment.routes if wanted.intersection(r.trains)]
        elif any(number in s.seen for s in segments):
            notes.append(texts.NOTE_REQUIRED_UNUSABLE.format(train=number))
        else:
            message = texts.FAILURE_UNKNOWN_TRAIN.format(train=number)
            failures.append(Failure(UNKNOWN_TRAIN, message))
    return failures


def _segment_failure(segment: _Segment, request: TripRequest, config: RuleConfig) -> Failure:
    """The first filtering step that left a segment with nothing, as a coded Failure."""
    funnel, key = segment.funnel, segment.key
    fields = {
        "route": texts.route_label(key.origin, key.destination),
        "date": texts.day_label(key.date),
        "passengers": request.passengers,
        "same": config.min_connection_same_station,
        "cross": config.min_connection_cross_station,
        "longest": config.max_connection,
    }
    if not funnel.total:
        code, template = NO_OFFERS, texts.FAILURE_NO_OFFERS
    elif not funnel.future:
        code, template = PAST_DEPARTURE, texts.FAILURE_PAST_DEPARTURE
    elif not funnel.eligible:
        code, template = FILTERED_OUT, texts.FAILURE_FILTERED_OUT
    elif not funnel.seated:
        code, template = SOLD_OUT, texts.FAILURE_SOLD_OUT
    elif not funnel.usable:
        code, template = FILTERED_OUT, texts.FAILURE_FILTERED_OUT
    else:
        code, template = NO_CONNECTION, texts.FAILURE_NO_CONNECTION
    return Failure(code, template.format(**fields), segment=segment.index)


def _reason(route: Route, bests: tuple[int, float, int], within_budget: bool | None) -> str:
    """Why this route was chosen, compared with every route of its segment (`_Segment.bests`)."""
    earliest, cheapest, fastest = bests
    qualities = []
    if any(ride.required for ride in route.rides):
        qualities.append(texts.REASON_REQUIRED)
    if any(r.seat_class.is_sleeper and is_overnight(r.offer) for r in route.rides):
        qualities.append(texts.REASON_SLEEPER)
    if route.arrive == earliest:
        qualities.append(texts.REASON_EARLIEST)
    if route.unit_price == cheapest:
        qualities.append(texts.REASON_CHEAPEST)
    if route.arrive - route.depart == fastest:
        qualities.append(texts.REASON_FASTEST)
    text = texts.REASON_LIST.join(qualities[:2] or [texts.REASON_BALANCED])
    if within_budget:
        text += texts.REASON_JOIN + texts.REASON_WITHIN_BUDGET
    if len(route.rides) > 1:
        hub = route.rides[0].offer.destination_station.name
        text = texts.REASON_VIA.format(station=hub) + text
    return text


def _score(combo: Combo, segments: Sequence[_Segment], config: RuleConfig) -> ScoreBreakdown:
    """The balanced parts of `combo`'s score and what its objective added: `total` is the
    cost it was ranked by."""
    parts = breakdown(combo.routes, [s.request for s in segments], config.weights)
    objective = round(combo.cost - parts.total, 3)
    if abs(objective) < 1e-3:
        return parts
    return parts.model_copy(update={"objective": objective, "total": round(combo.cost, 3)})


def _itinerary(
    combo: Combo,
    request: TripRequest,
    segments: Sequence[_Segment],
    return_segment: int | None,
    returns_home: bool,
    config: RuleConfig,
    bests: Sequence[tuple[int, float, int]],
) -> Itinerary:
    """Dress a combination of routes as an itinerary with totals, stays and a day plan."""
    party = request.passengers
    prices = [
        ride_price(request, r.offer, r.seat_class, r.unit_price)
        for route in combo.routes
        for r in route.rides
    ]
    total = round(sum(prices), 2)
    budget = request.budget
    within = None if budget is None else total <= budget
    legs = []
    for route in combo.routes:
        reason = _reason(route, bests[route.segment], within)
        for ride in route.rides:
            offer = ride.offer
            legs.append(
                Leg(
                    train_number=offer.train_number,
                    origin_station=offer.origin_station,
                    destination_station=offer.destination_station,
                    depart_at=offer.depart_at,
                    arrive_at=offer.arrive_at,
                    seat_class=ride.seat_class,
                    unit_price=ride.unit_price,
                    passengers=party,
                    price=ride_price(request, offer, ride.seat_class, ride.unit_price),
                    freshness=ride.freshness,
                    reason=reason,
                    segment=route.segment,
                    fares=ride_fares(request, offer, ride.seat_class, ride.unit_price)
                    if request.party
                    else (),
                )
            )
    stays = stays_of(legs, returns_home, config.max_connection)
    days = build_days(legs, stays, return_segment, config.max_connection)
    sleepers = sleeper_nights(legs)
    return Itinerary(
        legs=tuple(legs),
        transfers=tuple(transfers_of(legs)),
        stays=tuple(stays),
        days=days,
        total_price=total,
        budget=budget,
        within_budget=within,
        remaining_per_day=remaining_per_day(budget, total, len(days), sleepers),
        hotel_nights=hotel_nights(stays),
        sleeper_nights=sleepers,
        score=_score(combo, segments, config),
        reasons=tuple(dict.fromkeys(leg.reason for leg in legs)),
    )


def _class_notes(request: TripRequest, combo: Combo) -> list[str]:
    """Say where the requested class was replaced, and why (sold out, absent, over budget)."""
    wanted = request.seat_class
    if wanted is None:
        return []
    notes = []
    for route in combo.routes:
        for ride in route.rides:
            if ride.seat_class is wanted:
                continue
            seat = ride.offer.seat(wanted)
            if seat is None:
                template = texts.NOTE_MISSING_SWITCH
            elif seat.can_seat(request.passengers):
                template = texts.NOTE_BUDGET_SWITCH
            else:
                template = texts.NOTE_SOLD_OUT_SWITCH
            notes.append(
                template.format(
                    train=ride.offer.train_number,
                    wanted=wanted.label,
                    chosen=ride.seat_class.label,
                )
            )
    return notes


def _outlying_notes(request: TripRequest, combo: Combo) -> list[str]:
    """Say where a segment starts or ends outside the city proper the traveller named (only
    when the city proper has no train at all: `build_rides`)."""
    named = {request.origin_station, request.destination_station}
    named.update(request.homeward_stations or ())
    notes: dict[str, None] = {}
    for route in combo.routes:
        for station in (
            route.rides[0].offer.origin_station,
            route.rides[-1].offer.destination_station,
        ):
            if station.name in named:
                continue
            if not in_city_proper(station, request.open_cities):
                notes[texts.NOTE_OUTLYING.format(station=station.name, city=station.city)] = None
            elif station.city in request.outlying_cities and not in_city_proper(station):
                # Opened to keep a window the city proper cannot (`outlying_keeps_windows`).
                note = texts.NOTE_OUTLYING_WINDOW.format(station=station.name, city=station.city)
                notes[note] = None
    return list(notes)


def _freshness_notes(combo: Combo) -> list[str]:
    """Warn, once per city pair, when the chosen trains' seats come from a cache."""
    labels: dict[str, None] = {}
    for route in combo.routes:
        for ride in route.rides:
            if ride.freshness != "realtime":
                offer: TrainOffer = ride.offer
                label = texts.route_label(offer.origin_station.city, offer.destination_station.city)
                labels[texts.NOTE_CACHED.format(route=label)] = None
    return list(labels)
