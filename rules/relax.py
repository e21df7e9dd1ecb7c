"""Minimal relaxation: when nothing meets every stated constraint, drop the fewest needed.

Each constraint the traveller can state is named by its intent field (`depart_window`,
`exclude_seat_classes`, …). `minimal_relaxation` tries dropping one constraint at a time, in
`RELAX_ORDER` (the least important first; in a chat, the one said longest ago first; a named
station before the window of its own end, `STATION_BEFORE_WINDOW`), then pairs; the first
request that plans wins.
`relaxed_between` names what a chosen request gave up against the original, so the reply
can never relax a constraint without saying so.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Mapping

from rules.config import CITY_PROPER_EXTRA, STAY_LEAVE_NOT_BEFORE
from rules.legs import stay_nights
from rules.model import LegKey, LegOffers, TripRequest
from rules.planner import plan
from sources.models import kin_widens

Drop = Callable[[TripRequest], TripRequest]


def _drop(**update: object) -> Drop:
    return lambda request: request.model_copy(update=update)


def _drop_station(request: TripRequest, end: str) -> TripRequest:
    """`request` without the station named at `end` ("origin" or "destination"): its city's
    other stations of the city proper where the named one is in it (苏州园区 → 苏州, 苏州北,
    not 昆山南, a town of its own), else any station of the official city, as before."""
    update: dict[str, object] = {f"{end}_station": None}
    if proper_station(request, end):
        city = request.origin if end == "origin" else request.destination
        update["open_cities"] = request.open_cities - {city}
    return request.model_copy(update=update)


# (constraint, is it stated?, the request without it), least important first.
RELAX_ORDER: tuple[tuple[str, Callable[[TripRequest], bool], Drop], ...] = (
    (
        # 高铁 or 动车 with none that day: their kin EMUs (D and C for 高铁, C for 动车) before
        # anything else gives way: a 动车 arriving in time is closer to "只坐高铁，中午前到"
        # than a G train in the evening or on another day.
        "train_kin",
        lambda r: not r.train_kin and kin_widens(r.train_types),
        _drop(train_kin=True),
    ),
    ("return_window", lambda r: r.return_window is not None, _drop(return_window=None)),
    (
        "return_arrive_window",
        lambda r: r.return_arrive_window is not None,
        _drop(return_arrive_window=None),
    ),
    (
        "depart_window",
        lambda r: r.depart_window is not None,
        # Still ranked toward the window: the nearest train, not any train.
        lambda r: r.model_copy(update={"depart_window": None, "rank_window": r.depart_window}),
    ),
    ("arrive_window", lambda r: r.arrive_window is not None, _drop(arrive_window=None)),
    ("arrive_date", lambda r: r.arrive_date is not None, _drop(arrive_date=None)),
    ("stay", lambda r: r.min_stay is not None, _drop(min_stay=None)),
    ("seat_class", lambda r: r.seat_class is not None, _drop(seat_class=None)),
    ("seat_classes", lambda r: bool(r.seat_classes), _drop(seat_classes=frozenset())),
    (
        "return_seat_classes",
        lambda r: bool(r.return_seat_classes),
        _drop(return_seat_classes=frozenset()),
    ),
    (
        "return_train_types",
        lambda r: bool(r.return_train_types),
        _drop(return_train_types=frozenset()),
    ),
    ("no_overnight", lambda r: r.no_overnight, _drop(no_overnight=False)),
    (
        "return_no_overnight",
        lambda r: r.return_no_overnight,
        _drop(return_no_overnight=False),
    ),
    ("train_types", lambda r: bool(r.train_types), _drop(train_types=frozenset())),
    (
        "exclude_train_types",
        lambda r: bool(r.exclude_train_types),
        _drop(exclude_train_types=frozenset()),
    ),
    (
        "exclude_seat_classes",
        lambda r: bool(r.exclude_seat_classes),
        _drop(exclude_seat_classes=frozenset()),
    ),
    ("origin", lambda r: r.origin_station is not None, lambda r: _drop_station(r, "origin")),
    (
        "destination",
        lambda r: r.destination_station is not None,
        lambda r: _drop_station(r, "destination"),
    ),
    ("budget", lambda r: r.budget is not None and r.budget_strict, _drop(budget_strict=False)),
)
"""Every constraint `minimal_relaxation` may drop; the date is moved by the agent instead."""

STATION_BEFORE_WINDOW: tuple[tuple[str, str], ...] = (
    ("destination", "arrive_window"),
    ("origin", "depart_window"),
)
"""A named station gives way before the window of its own end (`stated`): a deadline missed at
苏州园区 but met at 苏州, 20 minutes away, is still the meeting reached, where a later train to
苏州园区 is not. Only a station of the city proper (`proper_station`): its city's other
stations are as near; 昆山南 is a town of its own, and its window gives way first."""

MAX_DROPPED = 2
"""Constraints dropped at once at most; beyond that the reply says what to relax instead."""


def stated(request: TripRequest) -> list[str]:
    """The droppable constraints `request` states, in relaxation order: in a chat the ones
    said longest ago first (the latest word wins: "还是上午走吧" after "硬座就行" gives up the
    class, not the morning), each age in `RELAX_ORDER`."""
    names = [name for name, present, _ in RELAX_ORDER if present(request)]
    for station, window in STATION_BEFORE_WINDOW:
        if station in names and window in names and proper_station(request, station):
            names.remove(station)
            names.insert(names.index(window), station)
    for station, _ in STATION_BEFORE_WINDOW:
        if station in names and "train_kin" in names and proper_station(request, station):
            # 武昌 named, 只坐高铁 after nine: the G train from 武汉 beats an intercity EMU
            # from 武昌 (a city-proper station gives way before the type widens).
            names.remove(station)
            names.insert(names.index("train_kin"), station)
    recency = {name: age for age, name in enumerate(request.stated_order)}
    # Only the constraints a chat dated trade places, among the slots they hold: the others
    # (a place, a budget said in the first sentence) keep the engine's order.
    slots = [i for i, name in enumerate(names) if name in recency]
    for i, name in zip(
        slots, sorted((names[i] for i in slots), key=recency.__getitem__), strict=True
    ):
        names[i] = name
    return names


def proper_station(request: TripRequest, end: str) -> bool:
    """True when the station named at `end` ("origin" or "destination") is in its city proper
    (苏州园区 for 苏州, 汉口 for 武汉): the city's other stations there are as good a place."""
    if end == "origin":
        city, name = request.origin, request.origin_station
    else:
        city, name = request.destination, request.destination_station
    return name is not None and (name.startswith(city) or name in CITY_PROPER_EXTRA)


def without(request: TripRequest, names: tuple[str, ...]) -> TripRequest:
    """`request` with the named constraints dropped."""
    drops = {name: drop for name, _, drop in RELAX_ORDER}
    for name in names:
        request = drops[name](request)
    return request


def minimal_relaxation(
    request: TripRequest,
    book: Mapping[LegKey, LegOffers],
    *,
    now: dt.datetime,
    lifted: TripRequest | None = None,
) -> tuple[TripRequest, tuple[str, ...]] | None:
    """The request with the fewest constraints dropped that yields an itinerary, or None.

    `lifted`: the same request with the night default lifted (nobody said it), tried for each
    set of dropped constraints after the request itself: the default gives way before one
    more stated constraint does."""
    names = stated(request)
    for size in range(1, min(MAX_DROPPED, len(names)) + 1):
        for combo in itertools.combinations(names, size):
            candidates = _candidates(request, without(request, combo))
            if lifted is not None:
                candidates += _candidates(lifted, without(lifted, combo))
            for candidate in candidates:
                if plan(candidate, book, now=now, limit=1).itineraries:
                    return candidate, combo
    return None


def station_meets_window(
    request: TripRequest, book: Mapping[LegKey, LegOffers], *, now: dt.datetime
) -> bool:
    """True when giving up a named station of the city proper alone, for its city's other
    stations (`STATION_BEFORE_WINDOW`), plans the trip with every window kept: the deadline
    missed at 苏州园区 is met at 苏州 on the day, so neither the hour nor the day moves."""
    names = stated(request)
    for station, window in STATION_BEFORE_WINDOW:
        if station not in names or window not in names or not proper_station(request, station):
            continue
        for candidate in _candidates(request, without(request, (station,))):
            found = plan(candidate, book, now=now, limit=STATION_ROUTES_SEEN).itineraries
            if any(_humane_start(request, itinerary.legs[0].depart_at) for itinerary in found):
                return True
    return False


STATION_ROUTES_SEEN = 5
"""The other station's best plans looked at for one that leaves at a humane hour."""


def _humane_start(request: TripRequest, depart_at: dt.datetime) -> bool:
    """True when leaving at `depart_at` is a start the traveller would take over leaving the
    day before: not in the small hours (长沙 at 04:15 to reach 武昌 by eight, where 汉口 was
    named: the evening before to 汉口 is the trip), unless the hours of leaving were said."""
    return request.depart_window is not None or depart_at.time() >= STAY_LEAVE_NOT_BEFORE


WINDOWS = frozenset({"depart_window", "arrive_window", "return_window", "return_arrive_window"})
"""The stated hours of the rides (`RELAX_ORDER`)."""


def outlying_keeps_windows(
    request: TripRequest,
    book: Mapping[LegKey, LegOffers],
    *,
    now: dt.datetime,
    dropped: tuple[str, ...],
) -> TripRequest | None:
    """`request` with an end's whole prefecture opened (its outlying stations, 涡阳 for 亳州),
    when the city proper keeps the trip only by giving up stated hours (`dropped`, windows
    alone) and a through train to or from an outlying station keeps every one of them, the
    night default too: the hour said (下了班走, 十点前到) is the traveller's day, and a
    through train to a county station of the place named still takes them there.
    A change of trains to reach one (合肥 at 01:56 for 桐城, 安庆's) is a detour nobody asked
    for, and a wish about the train itself (动车, a class) is not traded for a station the
    traveller never named: 大理→丽江 by D in the morning stays at 大理 (`rules.planner`).
    The destination's end is opened first, then the origin's, then both; None when none
    plans."""
    if not dropped or not set(dropped) <= WINDOWS:
        return None
    towns = {town.name for town in request.towns}
    ends = [
        city
        for city, named in (
            (request.destination, request.destination_station),
            (request.origin, request.origin_station),
        )
        if named is None and city not in request.open_cities and city not in towns
    ]
    openings = [[city] for city in ends] + ([ends] if len(ends) > 1 else [])
    for cities in openings:
        update = {
            "open_cities": request.open_cities | set(cities),
            "outlying_cities": request.outlying_cities | set(cities),
            "max_transfers": 0,
        }
        opened = request.model_copy(update=update)
        if plan(opened, book, now=now, limit=1).itineraries:
            return opened
    return None


def leaving_hours_meet_deadline(
    request: TripRequest, book: Mapping[LegKey, LegOffers], *, now: dt.datetime
) -> bool:
    """True when giving up the part of the day said for leaving alone (当天早上过去) plans the
    trip on its day with its deadline kept (8点前到合肥): the day the traveller fixed stays and
    the loose words give way (`minimal_relaxation` drops `depart_window` first), rather than
    the whole ride moving to the day before a train of the day meets the deadline. An hour
    said for leaving (七点以后的车) is no such loose word: it stays, and the day may move."""
    if request.depart_window is None or not request.depart_part_of_day:
        return False
    if request.arrive_window is None:
        return False
    lifted = without(request, ("depart_window",))
    return bool(plan(lifted, book, now=now, limit=1).itineraries)


def kin_meets_window(
    request: TripRequest, book: Mapping[LegKey, LegOffers], *, now: dt.datetime
) -> bool:
    """True when the kin EMUs of the type wished for (a 动车 for 只坐高铁) plan the trip on its
    day with every window kept: the type gives way (`train_kin`), neither the hour nor the day."""
    if request.train_kin or not kin_widens(request.train_types):
        return False
    return bool(plan(without(request, ("train_kin",)), book, now=now, limit=1).itineraries)


def _candidates(original: TripRequest, dropped: TripRequest) -> list[TripRequest]:
    """The requests to try for one set of dropped constraints, the most faithful first: a
    named station of the city proper given up, the city's namesake station (苏州 for
    苏州园区: what the city's name stands for, its main station) before the rest of the city
    proper; each with the ride home still at the stations named first (`_faithful_first`)."""
    namesake: dict[str, object] = {}
    for end, city in (("origin", original.origin), ("destination", original.destination)):
        field = f"{end}_station"
        named = getattr(original, field)
        if named and named != city and getattr(dropped, field) is None:
            if proper_station(original, end):
                namesake[field] = city
    variants = [dropped.model_copy(update=namesake), dropped] if namesake else [dropped]
    return [candidate for variant in variants for candidate in _faithful_first(original, variant)]


def _faithful_first(original: TripRequest, dropped: TripRequest) -> list[TripRequest]:
    """`dropped`, first with the ride home still between the stations the traveller named
    where only the ride out gave them up (the meeting's deadline met at 苏州, the ride home
    still from 苏州园区), then as it is."""
    if stay_nights(original) is None or original.homeward_stations is not None:
        return [dropped]
    named = (original.destination_station, original.origin_station)
    if named == (dropped.destination_station, dropped.origin_station):
        return [dropped]
    return [dropped.model_copy(update={"homeward_stations": named}), dropped]


def relaxed_between(original: TripRequest, chosen: TripRequest) -> list[str]:
    """The constraints `chosen` no longer holds that `original` stated (date shifts included,
    and the stay they lengthen; a named station replaced by another, 苏州园区 by 苏州, is
    given up too)."""
    still = stated(chosen)
    moved = {
        "origin": chosen.origin_station != original.origin_station,
        "destination": chosen.destination_station != original.destination_station,
    }
    names = [name for name in stated(original) if name not in still or moved.get(name)]
    if chosen.depart_date != original.depart_date:
        names.insert(0, "date_start")
        if stay_nights(chosen) != stay_nights(original):
            # Leaving the day before, home on the day said: one night more there, said too.
            names.insert(1, "nights")
    return names
