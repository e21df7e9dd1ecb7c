"""The static timetable the planner searches for bounds, and the request as that search reads it.

The agent holds the network's timetable (a 2019–2021 picture of the real one; on the embedded
default it is exactly what the sandbox sells from): every train's stops, clock times, km and
classes. Seats and today's changes are not in it, so it cannot plan a trip, but it says which
hubs a good trip can use and how good any trip can possibly be (`rules.journeys`): a plan
within a few percent of that is done, and a better one is fetched leg by leg.

`Schedule` is what the search needs of the timetable (the sandbox network implements it);
`ScheduleIndex` is its per-station index, built once per schedule; `Ask` is one request's
first segment in the search's terms (minutes after the travel day's midnight), built from a
`TripRequest` by `ask_for` with the same reading the planner applies to offers
(`rules.options`): the places (a named station, or the city proper), the windows, the train
types, the classes, and the night rule.
"""

from __future__ import annotations

import copy
import datetime as dt
from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rules.config import DEFAULT_RULES, RuleConfig, can_change, in_city_proper
from rules.model import LegKey, LegOffers, Town, TripRequest
from rules.options import at_place, build_rides, expected_arrival
from rules.party import seats_needed
from rules.towns import as_town
from sources.models import SHANGHAI, SLEEPER_CLASSES, SeatClass, Station, TrainOffer

DAY = 24 * 60
HORIZON = 5 * DAY
"""The latest arrival searched, in minutes after the travel day's midnight."""
PRESALE = 14 * DAY
"""A ride is on sale from this long before it leaves (`sources.sale_window`)."""


class ScheduledRun(Protocol):
    """One train's stop pattern: clock minutes after midnight of the day it starts."""

    @property
    def tier(self) -> str: ...
    @property
    def codes(self) -> Sequence[str]: ...
    @property
    def seat_classes(self) -> Sequence[SeatClass]: ...
    @property
    def stations(self) -> Sequence[str]: ...
    @property
    def km(self) -> Sequence[int]: ...
    @property
    def arrive(self) -> Sequence[int]: ...
    @property
    def depart(self) -> Sequence[int]: ...

    def code_at(self, position: int) -> str: ...


class Schedule(Protocol):
    """The static timetable: every run, its stations, and the published fare of a ride."""

    @property
    def runs(self) -> Sequence[ScheduledRun]: ...
    @property
    def stations(self) -> Mapping[str, Station]: ...

    def city_of(self, code: str) -> str:
        """The city of station `code` (without building its model)."""
        ...

    def fare(self, run: int, board: int, alight: int, seat_class: SeatClass) -> float: ...


class ScheduleIndex:
    """Per station: its city, the runs calling there and the stations a traveller arriving
    there may leave from (with the least change time).

    Built in a tenth of a second on first use and small (the calls as one array of numbers
    per station, 0.5 MiB); a station's model and its changes are made when first asked for,
    as the network builds its stations."""

    def __init__(self, schedule: Schedule, config: RuleConfig = DEFAULT_RULES) -> None:
        self.schedule = schedule
        self.runs = schedule.runs
        self.station = schedule.stations
        self.city = {code: schedule.city_of(code) for code in schedule.stations}
        calls: dict[str, array[int]] = {}
        for index, run in enumerate(self.runs):
            for position, code in enumerate(run.stations):
                found = calls.get(code)
                if found is None:
                    found = calls[code] = array("l")
                found.append(index * _POSITIONS + position)
        self._calls = calls
        by_city: dict[str, list[str]] = defaultdict(list)
        for code, city in self.city.items():
            by_city[city].append(code)
        self.by_city = {city: tuple(sorted(codes)) for city, codes in by_city.items()}
        self.change_to = _Changes(self, config)
        self._proper: dict[str, bool] = {}
        self._sleepers: dict[int, frozenset[SeatClass]] = {}
        self._by_code: dict[str, int] | None = None
        self.fare = schedule.fare

    def with_towns(self, towns: tuple[Town, ...]) -> ScheduleIndex:
        """This index with each town's stations keyed under the town (`rules.towns`): their
        city is the town, and the prefecture's place no longer holds them (苏州 without
        昆山 and 昆山南 on a trip 苏州→昆山). The runs and calls are shared."""
        view = copy.copy(self)
        view.station = dict(self.station)
        view.city = dict(self.city)
        for town in towns:
            for code in town.codes:
                if code in view.station:
                    view.station[code] = as_town(view.station[code], towns)
                    view.city[code] = view.station[code].city
        by_city: dict[str, list[str]] = defaultdict(list)
        for code, city in view.city.items():
            by_city[city].append(code)
        view.by_city = {city: tuple(sorted(codes)) for city, codes in by_city.items()}
        view.change_to = _Changes(view, self.change_to.config)
        view._proper = {}
        view._by_code = None
        return view

    def calls(self, code: str) -> list[tuple[int, int]]:
        """Every call at station `code`: (run, position)."""
        return [divmod(value, _POSITIONS) for value in self._calls.get(code, ())]

    def proper(self, code: str) -> bool:
        """Whether the station is in its city proper (`rules.config.in_city_proper`)."""
        found = self._proper.get(code)
        if found is None:
            found = self._proper[code] = in_city_proper(self.station[code])
        return found

    def sleepers(self, run: int) -> frozenset[SeatClass]:
        """The berths run `run` sells."""
        found = self._sleepers.get(run)
        if found is None:
            classes = self.runs[run].seat_classes
            found = self._sleepers[run] = frozenset(c for c in classes if c in SLEEPER_CLASSES)
        return found

    def run_of(self, train: str) -> int | None:
        """The run sold under the train number `train` (either number of a renumbered one)."""
        if self._by_code is None:
            by_code: dict[str, int] = {}
            for index, run in enumerate(self.runs):
                for code in run.codes:
                    by_code.setdefault(code, index)
            self._by_code = by_code
        return self._by_code.get(train)

    def train_day(self, offer: TrainOffer) -> tuple[int, dt.date] | None:
        """The run an offer rides and the date it left its first station (None: unknown)."""
        run = self.run_of(offer.train_number)
        if run is None:
            return None
        pattern = self.runs[run]
        code = offer.origin_station.telecode
        position = next((p for p, c in enumerate(pattern.stations) if c == code), None)
        if position is None:
            return None
        return run, offer.depart_at.date() - dt.timedelta(days=pattern.depart[position] // DAY)

    def place(self, city: str, named: str | None, open_cities: frozenset[str]) -> Place:
        """A segment end: the named station (or town), else the city proper, with the rest
        of the city as outlying (planned only where the city proper has no journey).

        Of the city proper, the stations named after the city (北京西, 深圳坪山) are where a
        traveller may be sent to board: a station inside it under another name (汉口 for
        武汉, 合浦 for 北海) only for a train calling at none of them, as a city-wide answer
        names it there; boarding at 肥东 to leave 合肥 later is no quicker trip."""
        codes = self.by_city.get(city, ())
        if named is not None:
            exact = tuple(c for c in codes if at_place(self.station[c], named))
            if exact:
                return Place(city, exact)
        if city in open_cities:
            return Place(city, codes)
        proper = tuple(c for c in codes if self.proper(c))
        if not proper:
            return Place(city, codes)
        named_after = tuple(c for c in proper if self.station[c].name.startswith(city))
        if not named_after:
            return Place(city, proper, tuple(c for c in codes if c not in proper))
        return Place(
            city,
            named_after,
            tuple(c for c in codes if c not in proper),
            tuple(c for c in proper if c not in named_after),
        )


_POSITIONS = 1 << 8
"""A call is stored as run × `_POSITIONS` + its position along the run (runs stop fewer times)."""


class _Changes(dict[str, tuple[tuple[str, int], ...]]):
    """Per station, the stations a traveller arriving there may leave from and the least
    change time: itself, and the stations of its city proper `can_change` joins."""

    def __init__(self, index: ScheduleIndex, config: RuleConfig) -> None:
        super().__init__()
        self.index = index
        self.config = config
        self.same = config.min_connection(True)
        self.cross = config.min_connection(False)

    def __missing__(self, code: str) -> tuple[tuple[str, int], ...]:
        index = self.index
        here = index.station[code]
        others = tuple(
            (other, self.cross)
            for other in index.by_city[index.city[code]]
            if other != code and can_change(here, index.station[other])
        )
        found = self[code] = ((code, self.same), *others)
        return found


_INDEXES: dict[int, ScheduleIndex] = {}
_TOWN_VIEWS: OrderedDict[tuple[int, tuple[Town, ...]], ScheduleIndex] = OrderedDict()
TOWN_VIEWS_KEPT = 64
"""Views of an index with towns keyed as places of their own (`with_towns`) kept for reuse."""


def index_of(schedule: Schedule, towns: tuple[Town, ...] = ()) -> ScheduleIndex:
    """The schedule's index, built on first use and kept (a schedule is built once); with
    `towns`, its view where those towns are places of their own (`ScheduleIndex.with_towns`)."""
    found = _INDEXES.get(id(schedule))
    if found is None or found.schedule is not schedule:
        found = _INDEXES[id(schedule)] = ScheduleIndex(schedule)
    if not towns:
        return found
    key = (id(schedule), towns)
    view = _TOWN_VIEWS.get(key)
    if view is None or view.schedule is not schedule:
        view = _TOWN_VIEWS[key] = found.with_towns(towns)
        if len(_TOWN_VIEWS) > TOWN_VIEWS_KEPT:
            _TOWN_VIEWS.popitem(last=False)
    _TOWN_VIEWS.move_to_end(key)
    return view


@dataclass(frozen=True, slots=True)
class Place:
    """Where a segment starts or ends: the stations meant, the city's outlying ones, and the
    city proper's stations under other names (`secondary`: only for trains calling at none
    of `stations`)."""

    city: str
    stations: tuple[str, ...]
    outlying: tuple[str, ...] = ()
    secondary: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ask:
    """The first segment of a request in the search's terms; times are minutes after the
    travel day's midnight (Asia/Shanghai)."""

    day: dt.date
    origin: Place
    destination: Place
    objective: str
    now: int = -DAY
    """Nothing leaving at or before this can be boarded (the planner's clock)."""
    depart: tuple[int, int] | None = None
    """The stated departure window, as clock minutes (may wrap midnight)."""
    arrive: tuple[int, int] = (0, HORIZON)
    """The arrival bound, absolute minutes (the day meant, and the stated window)."""
    train_types: frozenset[str] = frozenset()
    exclude_train_types: frozenset[str] = frozenset()
    classes: frozenset[SeatClass] = frozenset(c for c in SeatClass if c is not SeatClass.NO_SEAT)
    night_rule: bool = True
    """Seats are not taken on a ride leaving or arriving in the night hours (a berth on an
    overnight ride is): the planner's rule unless the traveller chose the hours or price."""
    no_overnight: bool = False
    max_changes: int = 2
    earliest_departure: int = 360
    latest_arrival: int = 23 * 60
    live: Mapping[LegKey, LiveLeg] = field(default_factory=dict)
    """Legs already asked in full: what the sources really sell there (`LiveLeg.fare`)."""
    full: frozenset[tuple[int, dt.date]] = frozenset()
    """Trains (run, first day) some answer showed with no seat of an allowed class for the
    party: they have none from any other station either."""


def ask_for(
    request: TripRequest,
    index: ScheduleIndex,
    now: dt.datetime,
    *,
    objective: str,
    live: Live | None = None,
    full: frozenset[tuple[int, dt.date]] = frozenset(),
    config: RuleConfig = DEFAULT_RULES,
) -> Ask:
    """The request's ride out (its first segment) as the search reads it."""
    day = request.depart_date
    midnight = dt.datetime.combine(day, dt.time(0), tzinfo=SHANGHAI)
    arrive = (0, HORIZON)
    one_segment = not request.via and request.return_date is None and not request.return_trip
    last = request.destination if one_segment or not request.via else request.via[0].city
    named_end = request.destination_station if last == request.destination else None
    arrive_day = request.arrive_date or expected_arrival(
        day, request.depart_window, request.arrive_window
    )
    if last == request.destination and arrive_day is not None:
        offset = (arrive_day - day).days * DAY
        arrive = (offset, offset + DAY - 1)
        if request.arrive_window is not None:
            lo, hi = (_minutes(t) for t in request.arrive_window)
            if lo <= hi:
                arrive = (offset + lo, offset + hi)
    depart = None
    if request.depart_window is not None:
        depart = (_minutes(request.depart_window[0]), _minutes(request.depart_window[1]))
    return Ask(
        day=day,
        origin=index.place(request.origin, request.origin_station, request.open_cities),
        destination=index.place(last, named_end, request.open_cities),
        objective=objective,
        now=int((now - midnight).total_seconds() // 60) + config.departure_lead,
        depart=depart,
        arrive=arrive,
        train_types=request.train_types,
        exclude_train_types=request.exclude_train_types,
        classes=allowed_classes(request),
        night_rule=not (request.allow_night or request.order == "cheapest"),
        no_overnight=request.no_overnight,
        max_changes=min(request.max_transfers, config.max_transfers, 2),
        earliest_departure=_minutes(config.earliest_departure),
        latest_arrival=_minutes(config.latest_arrival),
        live=live or {},
        full=full,
    )


PENDING = -1.0
"""`LiveLeg.fare` of a ride the leg's answers sell but name at other stations of the cities:
asking the leg by the ride's own stations will show it (a city-wide answer names each train at
one station of a city, `app.agent.fetch`)."""


@dataclass(frozen=True, slots=True)
class LiveLeg:
    """What the sources answered for one leg asked in full: the station pairs it was asked
    by, the rides the traveller could take (`(train, board, alight)` → the lowest usable
    fare) and the trains with a usable ride at any of the stations named."""

    pairs: frozenset[tuple[str, str]]
    rides: Mapping[tuple[str, str, str], float]
    trains: frozenset[str]

    def fare(self, train: str, board: str, alight: str) -> float | None:
        """The ride's lowest usable fare; `PENDING` when the answers sell the train at other
        stations and were never asked by these; None: not bookable, whatever the timetable
        says (not sold, sold out, or not calling where it was asked)."""
        found = self.rides.get((train, board, alight))
        if found is not None:
            return found
        if (board, alight) in self.pairs or train not in self.trains:
            return None
        return PENDING


Live = Mapping[LegKey, LiveLeg]


def full_trains(
    book: Mapping[LegKey, LegOffers], request: TripRequest, index: ScheduleIndex
) -> frozenset[tuple[int, dt.date]]:
    """The trains an answer shows with no seat of a class the traveller may take for the
    whole party: a train's seats are sold for its whole run, so none is left from any of its
    stations (the timetable's journeys through them are not bookable)."""
    classes = allowed_classes(request)
    seats = seats_needed(request)
    full: set[tuple[int, dt.date]] = set()
    for entry in book.values():
        for offer in entry.offers:
            if any(s.seat_class in classes and s.can_seat(seats) for s in offer.seats):
                continue
            found = index.train_day(offer)
            if found is not None:
                full.add(found)
    return frozenset(full)


def live_fares(
    book: Mapping[LegKey, LegOffers],
    request: TripRequest,
    now: dt.datetime,
    pairs: Mapping[LegKey, Collection[tuple[str, str]]] | None = None,
    config: RuleConfig = DEFAULT_RULES,
) -> Live:
    """What the legs asked in full really sell: per leg, each ride the traveller could take
    (`rules.options.build_rides`: not gone, seats for the party, classes and the night rule;
    the windows are the search's to apply) and its lowest usable fare. `pairs`: the station
    pairs each leg was asked by (default: none known)."""
    live: dict[LegKey, LiveLeg] = {}
    for key, entry in book.items():
        rides, _ = build_rides(
            key,
            entry.offers,
            entry.freshness,
            request,
            config,
            now,
            depart_window=False,
            arrive_window=False,
        )
        sold: dict[tuple[str, str, str], float] = {}
        for ride in rides:
            offer = ride.offer
            ends = (
                offer.train_number,
                offer.origin_station.telecode,
                offer.destination_station.telecode,
            )
            sold[ends] = min(sold.get(ends, ride.unit_price), ride.unit_price)
        asked = frozenset((pairs or {}).get(key, ()))
        live[key] = LiveLeg(asked, sold, frozenset(train for train, _, _ in sold))
    return live


def allowed_classes(request: TripRequest) -> frozenset[SeatClass]:
    """The classes the planner may sell the traveller (`RuleConfig.seat_order`): the named
    one (with its category when strict), a category, else every class but standing."""
    if request.seat_class is not None and request.strict_seat:
        found = {request.seat_class, *request.seat_classes}
    elif request.seat_class is None and request.seat_classes:
        found = set(request.seat_classes)
    else:
        found = {c for c in SeatClass if c is not SeatClass.NO_SEAT}
        if request.seat_class is SeatClass.NO_SEAT:
            found.add(SeatClass.NO_SEAT)
    return frozenset(found - request.exclude_seat_classes)


def _minutes(moment: dt.time) -> int:
    return moment.hour * 60 + moment.minute
