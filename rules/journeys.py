"""The best journeys the timetable allows for one objective: up to three rides, seats aside.

An exact search over the static timetable (`rules.schedule`), under the planner's own rules:
a change of at least `MIN_CONNECTION_SAME_STATION` minutes in one station or
`MIN_CONNECTION_CROSS_STATION` across a city proper (`can_change`), at most `MAX_CONNECTION`
(a stop at the hub of up to `HUB_STOP_MAX_WAIT` only where no journey with regular changes
exists), a journey with changes at most `MAX_DETOUR` times the quickest direct ride of the
day, the city proper before its outlying stations, the traveller's windows, types and
classes, and the night rule. What it cannot know is whether a seat is left: a journey it
finds is a *bound* (no bookable journey does better) and a *lead* (the legs to ask). Rides on
legs already asked in full are taken from the live answer instead (`Ask.live`), so each
answer tightens the bound.

How: every ride out of the origin on the day (`firsts`: rides into each hub station, and the
direct journeys), every ride into the destination (`lasts`, by the station it leaves from),
then joined. One change: for each last ride, the best first ride arriving in its window at a
station it can be boarded from. Two changes: one pass along every train that calls where a
first ride arrives and later where a last ride leaves, carrying at each call the best first
ride that reaches it in time (for a time objective the latest departure, which is exact: the
middle ride fixed, both ends are independent; for price the few rides no other beats on both
price and departure, so the detour cap, which ties the ends together, holds) to every later
call's best last ride.
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace

from rules.config import DEFAULT_RULES, NIGHT_REST_UNTIL, RuleConfig
from rules.model import LegKey, LegOffers, TripRequest
from rules.schedule import (
    DAY,
    HORIZON,
    PENDING,
    PRESALE,
    Ask,
    Place,
    Schedule,
    ScheduleIndex,
    ask_for,
    full_trains,
    index_of,
    live_fares,
)
from sources.models import SeatClass

OBJECTIVES = ("fastest", "cheapest", "latest", "earliest", "earliest_arrival")
REST_UNTIL = NIGHT_REST_UNTIL.hour * 60 + NIGHT_REST_UNTIL.minute
"""`rules.config.NIGHT_REST_UNTIL` in minutes after midnight."""


@dataclass(frozen=True, slots=True)
class Hop:
    """One ride: train `run` started `start` days after the travel day (negative: before),
    from stop `board` to stop `alight`; times in minutes after the travel day's midnight."""

    run: int
    start: int
    board: int
    alight: int
    dep: int
    arr: int
    price: float

    @property
    def train_day(self) -> tuple[int, int]:
        return (self.run, self.start)


@dataclass(frozen=True, slots=True)
class Journey:
    """Up to three hops in order, and the tier it was found in."""

    hops: tuple[Hop, ...]
    regular: bool = True
    proper: bool = True

    @property
    def dep(self) -> int:
        return self.hops[0].dep

    @property
    def arr(self) -> int:
        return self.hops[-1].arr

    @property
    def minutes(self) -> int:
        return self.arr - self.dep

    @property
    def price(self) -> float:
        return round(sum(h.price for h in self.hops), 2)

    @property
    def changes(self) -> int:
        return len(self.hops) - 1

    def value(self, objective: str) -> float:
        """The objective's figure, lower is better (minutes, yuan, or a clock minute)."""
        if objective == "fastest":
            return self.minutes
        if objective == "cheapest":
            return self.price
        if objective == "latest":
            return -self.dep
        if objective == "earliest":
            return self.dep
        if objective == "earliest_arrival":
            return self.arr
        raise ValueError(f"unknown objective {objective!r}")

    def key(self, objective: str) -> tuple[float, ...]:
        """Best first; ties go to fewer changes, then a shorter journey."""
        return (self.value(objective), self.changes, self.minutes, self.dep)

    def legs(self, index: ScheduleIndex, day: dt.date) -> tuple[LegKey, ...]:
        """The city-to-city queries that sell these rides (each on its departure date)."""
        return tuple(leg for leg, _, _ in self.asks(index, day))

    def asks(self, index: ScheduleIndex, day: dt.date) -> tuple[tuple[LegKey, str, str], ...]:
        """Each ride's leg and the stations to ask it by: a city-wide answer names a train at
        one station of each city, the asked one wherever the train calls there."""
        found = []
        for hop in self.hops:
            stations = index.runs[hop.run].stations
            board, alight = stations[hop.board], stations[hop.alight]
            leg = LegKey(
                index.city[board], index.city[alight], day + dt.timedelta(days=hop.dep // DAY)
            )
            found.append((leg, board, alight))
        return tuple(found)

    def trains(self, index: ScheduleIndex) -> tuple[str, ...]:
        return tuple(index.runs[h.run].code_at(h.board) for h in self.hops)


@dataclass(frozen=True)
class Bound:
    """The best journey the timetable allows for a request (None: it has none), and the
    search's reading of the request it was found for."""

    index: ScheduleIndex
    ask: Ask
    journey: Journey | None


def timetable_bound(
    request: TripRequest,
    schedule: Schedule,
    now: dt.datetime,
    objective: str,
    asked: Mapping[LegKey, LegOffers],
    pairs: Mapping[LegKey, Collection[tuple[str, str]]] | None = None,
    seen: Mapping[LegKey, LegOffers] | None = None,
) -> Bound:
    """The best journey of a request's ride out the timetable allows for `objective`, with
    the legs `asked` in full (by the station `pairs`) taken as the sources answered them
    (`rules.schedule.live_fares`), and no train any answer `seen` shows full."""
    index = index_of(schedule, request.towns)
    live = live_fares(asked, request, now, pairs)
    full = full_trains(seen if seen is not None else asked, request, index)
    ask = ask_for(request, index, now, objective=objective, live=live, full=full)
    return Bound(index, ask, best_journey(index, ask))


def missing_asks(
    journey: Journey,
    index: ScheduleIndex,
    day: dt.date,
    asked: Mapping[LegKey, LegOffers],
    pairs: Mapping[LegKey, Collection[tuple[str, str]]],
) -> list[tuple[LegKey, str, str]]:
    """The queries that would show the journey's rides as they run: each ride's leg by the
    ride's own stations, unless an answer already names the ride there or that leg was
    asked by those stations."""
    wanted = []
    for (leg, board, alight), train in zip(
        journey.asks(index, day), journey.trains(index), strict=True
    ):
        if (board, alight) in pairs.get(leg, ()):
            continue
        entry = asked.get(leg)
        if entry is not None and any(
            o.train_number == train
            and o.origin_station.telecode == board
            and o.destination_station.telecode == alight
            for o in entry.offers
        ):
            continue
        wanted.append((leg, board, alight))
    return list(dict.fromkeys(wanted))


SEARCH_WAIT = 6 * 60
"""The longest change the railway's own transfer search lists (12306 joins plans with waits
of hours, not our 4-hour connection rule): a page holds such plans too."""


def first_page(
    index: ScheduleIndex,
    ask: Ask,
    journey: Journey,
    size: int,
    config: RuleConfig = DEFAULT_RULES,
) -> list[Journey]:
    """The one-change journeys a transfer search ranking its plans by arrival lists first
    (`size` of them, each first ride with its earliest connection), among those arriving no
    later than `journey`. The search is city-wide and knows none of the traveller's wishes:
    its first rides leave every station of the city (the prefecture's outlying towns too), at
    any hour, by any train, and its changes last up to `SEARCH_WAIT`, so its page fills
    sooner than our rules would."""
    everywhere = replace(
        ask,
        origin=Place(ask.origin.city, _every(ask.origin)),
        destination=Place(ask.destination.city, _every(ask.destination)),
        night_rule=False,
        depart=None,
        arrive=(0, HORIZON),
        train_types=frozenset(),
        exclude_train_types=frozenset(),
    )
    search = _Search(
        index,
        everywhere,
        everywhere.origin.stations,
        everywhere.destination.stations,
        max(config.max_connection, SEARCH_WAIT),
        config,
    )
    _, arrivals = search.firsts()
    if not arrivals:
        return []
    first_arrival = min(h.arr for rides in arrivals.values() for h in rides)
    departures = search.lasts(first_arrival + search.least, journey.arr)
    times = {code: [h.dep for h in rides] for code, rides in departures.items()}
    page = []
    for code, rides in arrivals.items():
        for first in rides:
            earliest: Hop | None = None
            for there, least in index.change_to[code]:
                leaving = departures.get(there)
                if not leaving:
                    continue
                begin = bisect.bisect_left(times[there], first.arr + least)
                end = bisect.bisect_right(times[there], first.arr + search.wait)
                for last in leaving[begin:end]:
                    if last.train_day != first.train_day and (
                        earliest is None or last.arr < earliest.arr
                    ):
                        earliest = last
            if earliest is not None:
                page.append(Journey((first, earliest)))
    page.sort(key=lambda j: (j.arr, j.dep))
    return page[:size]


def allowed(
    index: ScheduleIndex, ask: Ask, journey: Journey, config: RuleConfig = DEFAULT_RULES
) -> bool:
    """Whether our own rules let the traveller take `journey` (a transfer search's plan):
    within the windows, from and to the stations meant, every ride as the request reads it
    (night rule, classes, types), every change a regular one."""
    search = _Search(
        index,
        ask,
        ask.origin.stations + ask.origin.secondary,
        ask.destination.stations + ask.destination.secondary,
        config.max_connection,
        config,
    )
    first, last = journey.hops[0], journey.hops[-1]
    if not _in_window(first.dep, ask.depart) or not ask.arrive[0] <= last.arr <= ask.arrive[1]:
        return False
    if index.runs[first.run].stations[first.board] not in search.origin:
        return False
    if index.runs[last.run].stations[last.alight] not in search.destination:
        return False
    for hop in journey.hops:
        if not search.kind_ok(hop.run, hop.board):
            return False
        if search.hop(hop.run, hop.start, hop.board, hop.alight) is None:
            return False
    return all(b.dep - a.arr <= config.max_connection for a, b in itertools.pairwise(journey.hops))


def _every(place: Place) -> tuple[str, ...]:
    return place.stations + place.secondary + place.outlying


def best_journey(
    index: ScheduleIndex, ask: Ask, config: RuleConfig = DEFAULT_RULES
) -> Journey | None:
    """The best journey for `ask.objective`: between the city propers (or the named
    stations) with regular changes if there is one, else with a stop at a hub, else from or
    to outlying stations (the planner's own order of resort); None: the timetable has none."""
    origin, destination = ask.origin, ask.destination
    tiers = [
        (origin.stations + origin.secondary, destination.stations + destination.secondary, True)
    ]
    if origin.outlying or destination.outlying:
        tiers.append(
            (
                origin.stations + origin.secondary + origin.outlying,
                destination.stations + destination.secondary + destination.outlying,
                False,
            )
        )
    for starts, ends, proper in tiers:
        for wait, regular in (
            (config.max_connection, True),
            (max(config.max_connection, config.hub_stop_max_wait), False),
        ):
            search = _Search(index, ask, starts, ends, wait, config)
            found = search.best()
            if found is not None:
                return Journey(found.hops, regular=regular, proper=proper)
            if not search.may_stop_at_hub:
                break
    return None


class _Search:
    """One tier of the search: fixed end stations and a longest wait at a change."""

    def __init__(
        self,
        index: ScheduleIndex,
        ask: Ask,
        origin: Iterable[str],
        destination: Iterable[str],
        wait: int,
        config: RuleConfig,
    ) -> None:
        self.index = index
        self.ask = ask
        self.origin = tuple(origin)
        self.destination = frozenset(destination)
        # An end other than the stations meant serves only a train calling at none of them.
        self.o_meant = frozenset(ask.origin.stations)
        self.d_meant = frozenset(ask.destination.stations)
        self.o_city = ask.origin.city
        self.d_city = ask.destination.city
        self.wait = wait
        self.config = config
        self.objective = ask.objective
        self.cheapest = ask.objective == "cheapest"
        self.least = config.min_connection(True)
        self.cap: int | None = None
        self.may_stop_at_hub = True
        self.cheapest_last = 0.0
        self._classes: dict[int, tuple[SeatClass, ...]] = {}
        self._arrivals: dict[str, tuple[list[int], list[Hop]]] = {}

    # -- rides ---------------------------------------------------------------------------

    def classes(self, run: int) -> tuple[SeatClass, ...]:
        found = self._classes.get(run)
        if found is None:
            wanted = self.ask.classes
            found = tuple(c for c in self.index.runs[run].seat_classes if c in wanted)
            self._classes[run] = found
        return found

    def kind_ok(self, run: int, board: int) -> bool:
        code = self.index.runs[run].code_at(board)
        kind = code[0] if code[0].isalpha() else ""
        ask = self.ask
        if ask.train_types and kind not in ask.train_types:
            return False
        return kind not in ask.exclude_train_types

    def at_night(self, minute: int) -> bool:
        clock = minute % DAY
        return clock < self.ask.earliest_departure or clock > self.ask.latest_arrival

    def hop(self, run: int, start: int, board: int, alight: int) -> Hop | None:
        """The ride if the traveller may take it (classes, night rule, sale, live answer)."""
        pattern = self.index.runs[run]
        dep = start * DAY + pattern.depart[board]
        arr = start * DAY + pattern.arrive[alight]
        ask = self.ask
        if dep <= ask.now or dep - PRESALE > ask.now:
            return None
        overnight = arr // DAY > dep // DAY
        if overnight and ask.no_overnight:
            return None
        classes = self.classes(run)
        if ask.night_rule and (self.at_night(dep) or self.at_night(arr)):
            # A berth on an overnight ride is the night's lodging (when it lets the traveller
            # sleep until `NIGHT_REST_UNTIL`, as the engine keeps it); a seat at night is not.
            lodged = overnight and arr % DAY >= REST_UNTIL
            sleepers = self.index.sleepers(run)
            classes = tuple(c for c in classes if c in sleepers) if lodged else ()
        if not classes:
            return None
        if ask.full and (run, ask.day + dt.timedelta(days=start)) in ask.full:
            return None
        price = 0.0
        if ask.live:
            stations = pattern.stations
            city = self.index.city
            leg = LegKey(
                city[stations[board]],
                city[stations[alight]],
                ask.day + dt.timedelta(days=dep // DAY),
            )
            answer = ask.live.get(leg)
            if answer is not None:
                sold = answer.fare(pattern.code_at(board), stations[board], stations[alight])
                if sold is None:
                    return None
                if sold != PENDING:
                    return Hop(run, start, board, alight, dep, arr, sold)
        if self.cheapest:
            fare = self.index.fare
            price = min(fare(run, board, alight, c) for c in classes)
        return Hop(run, start, board, alight, dep, arr, price)

    def firsts(self) -> tuple[list[Hop], dict[str, list[Hop]]]:
        """Direct journeys' rides, and first rides by the station they alight at."""
        index, ask = self.index, self.ask
        runs, city = index.runs, index.city
        directs: list[Hop] = []
        arrivals: dict[str, list[Hop]] = defaultdict(list)
        for code in self.origin:
            for run, board in index.calls(code):
                pattern = runs[run]
                if code not in self.o_meant and not self.o_meant.isdisjoint(pattern.stations):
                    continue
                start = -(pattern.depart[board] // DAY)
                dep = start * DAY + pattern.depart[board]
                if not _in_window(dep, ask.depart) or not self.kind_ok(run, board):
                    continue
                if dep <= ask.now:
                    continue
                stations = pattern.stations
                for alight in range(board + 1, len(stations)):
                    there = stations[alight]
                    where = city[there]
                    if where == self.o_city:
                        continue
                    if there in self.destination:
                        if there not in self.d_meant and not self.d_meant.isdisjoint(stations):
                            continue
                        arr = start * DAY + pattern.arrive[alight]
                        if ask.arrive[0] <= arr <= ask.arrive[1]:
                            found = self.hop(run, start, board, alight)
                            if found is not None:
                                directs.append(found)
                        continue
                    if where == self.d_city:
                        continue
                    found = self.hop(run, start, board, alight)
                    if found is not None:
                        arrivals[there].append(found)
        for rides in arrivals.values():
            rides.sort(key=lambda h: h.arr)
        return directs, arrivals

    def lasts(self, not_before: int, arrive_by: int) -> dict[str, list[Hop]]:
        """Last rides into the destination by the station they leave from, leaving at
        `not_before` or later and arriving by `arrive_by`, sorted by departure."""
        index, ask = self.index, self.ask
        runs, city = index.runs, index.city
        departures: dict[str, list[Hop]] = defaultdict(list)
        lo = max(ask.arrive[0], not_before)
        hi = min(ask.arrive[1], arrive_by)
        for code in self.destination:
            for run, alight in index.calls(code):
                pattern = runs[run]
                if code not in self.d_meant and not self.d_meant.isdisjoint(pattern.stations):
                    continue
                clock = pattern.arrive[alight]
                stations = pattern.stations
                for start in range(-((clock - lo) // DAY), (hi - clock) // DAY + 1):
                    base = start * DAY
                    if not lo <= base + clock <= hi:
                        continue
                    for board in range(alight - 1, -1, -1):
                        dep = base + pattern.depart[board]
                        if dep < not_before:
                            break
                        here = stations[board]
                        where = city[here]
                        if where in (self.d_city, self.o_city):
                            continue
                        if not self.kind_ok(run, board):
                            continue
                        found = self.hop(run, start, board, alight)
                        if found is not None:
                            departures[here].append(found)
        for rides in departures.values():
            rides.sort(key=lambda h: h.dep)
        return departures

    def quickest_direct(self) -> int | None:
        """Minutes of the quickest train between this tier's ends leaving on the day, of a
        type the traveller takes, seats aside: the detour cap's measure, as the planner reads
        its direct leg (a train to an outlying station caps no journey to the city proper)."""
        index = self.index
        best: int | None = None
        for code in self.origin:
            for run, board in index.calls(code):
                if not self.kind_ok(run, board):
                    continue
                pattern = index.runs[run]
                stations = pattern.stations
                for alight in range(board + 1, len(stations)):
                    if stations[alight] in self.destination:
                        minutes = pattern.arrive[alight] - pattern.depart[board]
                        best = minutes if best is None else min(best, minutes)
                        break
        return best

    # -- joins ---------------------------------------------------------------------------

    def best(self) -> Journey | None:
        objective = self.objective
        directs, arrivals = self.firsts()
        best = min((Journey((h,)) for h in directs), key=lambda j: j.key(objective), default=None)
        if self.ask.max_changes < 1 or not arrivals:
            return best
        quickest = self.quickest_direct()
        latest_dep = max(h.dep for rides in arrivals.values() for h in rides)
        horizon = HORIZON
        if quickest is not None:
            self.cap = int(self.config.max_detour * quickest)
            horizon = latest_dep + self.cap
        if self.ask.no_overnight:
            # 不要过夜: no night on the way either, on a train or waiting at a hub.
            horizon = min(horizon, DAY - 1)
        if best is not None and objective == "fastest":
            horizon = min(horizon, latest_dep + best.minutes)
        elif best is not None and objective == "earliest_arrival":
            horizon = min(horizon, best.arr)
        if best is not None:
            # A ride that cannot be part of a journey beating the best is dropped.
            arrivals = self.useful(arrivals, best, first=True)
            if not arrivals:
                return best
        self._arrivals = {code: ([h.arr for h in rides], rides) for code, rides in arrivals.items()}
        first_arrival = min(h.arr for rides in arrivals.values() for h in rides)
        departures = self.lasts(first_arrival + self.least, horizon)
        if best is not None:
            departures = self.useful(departures, best, first=False)
        one = self.one_change(departures)
        if one is not None:
            best = _better(best, one, objective)
        if self.ask.max_changes >= 2 and departures:
            two = self.two_changes(arrivals, departures, best)
            if two is not None:
                best = _better(best, two, objective)
        return best

    def useful(
        self, rides: dict[str, list[Hop]], best: Journey, *, first: bool
    ) -> dict[str, list[Hop]]:
        """The rides (by station) that could be part of a journey with a change beating
        `best`: a change adds at least `least` minutes and the rides' prices."""
        objective, least = self.objective, self.least
        if objective == "fastest":
            keep = lambda h: h.arr - h.dep + least < best.minutes  # noqa: E731
        elif objective == "cheapest":
            keep = lambda h: h.price < best.price  # noqa: E731
        elif objective == "earliest_arrival":
            keep = lambda h: h.arr + (least if first else 0) <= best.arr  # noqa: E731
        elif objective == "latest" and first:
            keep = lambda h: h.dep >= best.dep  # noqa: E731
        elif objective == "earliest" and first:
            keep = lambda h: h.dep <= best.dep  # noqa: E731
        else:
            return rides
        return {code: kept for code, found in rides.items() if (kept := list(filter(keep, found)))}

    def capped(self, dep: int, arr: int) -> bool:
        return self.cap is not None and arr - dep > self.cap

    def feeder(self, station: str, leaves: int, train_day: tuple[int, int]) -> list[Hop]:
        """First rides that reach a ride leaving `station` at `leaves` (any station they
        may change from, in the change window), other than that very train."""
        found: list[Hop] = []
        for code, least in self.index.change_to[station]:
            known = self._arrivals.get(code)
            if known is None:
                continue
            times, rides = known
            begin = bisect.bisect_left(times, leaves - self.wait)
            end = bisect.bisect_right(times, leaves - least)
            found.extend(h for h in rides[begin:end] if h.train_day != train_day)
        return found

    def one_change(self, departures: dict[str, list[Hop]]) -> Journey | None:
        objective = self.objective
        best: Journey | None = None
        for code, rides in departures.items():
            for last in rides:
                feeders = self.feeder(code, last.dep, last.train_day)
                feeders = [f for f in feeders if not self.capped(f.dep, last.arr)]
                if not feeders:
                    continue
                first = _pick_first(feeders, objective)
                journey = Journey((first, last))
                if best is None or journey.key(objective) < best.key(objective):
                    best = journey
        return best

    def connecting(self, departures: dict[str, list[Hop]], station: str, arrives: int) -> list[Hop]:
        """Last rides that can be caught after arriving at `station` at `arrives`."""
        found: list[Hop] = []
        for code, least in self.index.change_to[station]:
            rides = departures.get(code)
            if not rides:
                continue
            times = self._departure_times(departures, code)
            begin = bisect.bisect_left(times, arrives + least)
            end = bisect.bisect_right(times, arrives + self.wait)
            found.extend(rides[begin:end])
        return found

    def _departure_times(self, departures: dict[str, list[Hop]], code: str) -> list[int]:
        cache = self.__dict__.setdefault("_dep_times", {})
        times = cache.get(code)
        if times is None:
            times = cache[code] = [h.dep for h in departures[code]]
        return times

    def two_changes(
        self,
        arrivals: dict[str, list[Hop]],
        departures: dict[str, list[Hop]],
        best: Journey | None,
    ) -> Journey | None:
        index = self.index
        change_to = index.change_to
        boards = {o for code in arrivals for o, _ in change_to[code]}
        alights = {o for code in departures for o, _ in change_to[code]}
        if not boards or not alights:
            return None
        arrived = [h.arr for rides in arrivals.values() for h in rides]
        lo = min(arrived) + self.least
        hi = max(arrived) + self.wait
        first_deps = [h.dep for rides in arrivals.values() for h in rides]
        latest_first = max(first_deps)
        runs: dict[int, int] = {}
        for code in boards:
            for run, position in index.calls(code):
                known = runs.get(run)
                if known is None or position < known:
                    runs[run] = position
        found: Journey | None = None
        state = _Best(best, self.objective)
        self.cheapest_last = min(h.price for rides in departures.values() for h in rides)
        for run, first_board in runs.items():
            pattern = index.runs[run]
            stations = pattern.stations
            if not any(code in alights for code in stations[first_board + 1 :]):
                continue
            board_at = [p for p in range(first_board, len(stations) - 1) if stations[p] in boards]
            earliest = min(pattern.depart[p] for p in board_at)
            latest = max(pattern.depart[p] for p in board_at)
            for start in range(-((latest - lo) // DAY), (hi - earliest) // DAY + 1):
                journey = self._along(
                    run, start, board_at, lo, hi, boards, alights, departures, state, latest_first
                )
                if journey is not None:
                    found = _better(found, journey, self.objective)
        return found

    def _along(
        self,
        run: int,
        start: int,
        board_at: list[int],
        lo: int,
        hi: int,
        boards: set[str],
        alights: set[str],
        departures: dict[str, list[Hop]],
        state: _Best,
        latest_first: int,
    ) -> Journey | None:
        """The best journey whose middle ride is this train on this start date."""
        index = self.index
        pattern = index.runs[run]
        stations = pattern.stations
        city = index.city
        base = start * DAY
        train_day = (run, start)
        objective = self.objective
        carried: list[tuple[int, list[Hop]]] = []  # (boarding stop, its feeders)
        carried_first = -HORIZON  # the latest departure of a carried first ride
        found: Journey | None = None
        for position in range(board_at[0], len(stations)):
            code = stations[position]
            if carried and code in alights:
                arrives = base + pattern.arrive[position]
                if state.hopeless_arrival(arrives + self.least, carried_first):
                    break  # later stops arrive later still
                here = city[code]
                lasts = [
                    h
                    for h in self.connecting(departures, code, arrives)
                    if h.train_day != train_day
                ]
                if lasts:
                    cheapest_last = min(h.price for h in lasts) if self.cheapest else 0.0
                    for board, feeders in carried:
                        if city[stations[board]] == here:
                            continue
                        if self.cheapest and state.best is not None:
                            floor = min(h.price for h in feeders) + cheapest_last
                            if floor >= state.best.price:
                                continue
                        middle = self.hop(run, start, board, position)
                        if middle is None:
                            continue
                        journey = self._join(feeders, middle, lasts)
                        if journey is not None and state.improves(journey):
                            state.best = journey
                            found = _better(found, journey, objective)
            if code not in boards or position == len(stations) - 1:
                continue
            dep = base + pattern.depart[position]
            if not lo <= dep <= hi:
                continue
            if state.hopeless_boarding(dep, latest_first):
                if objective == "latest":
                    continue
                break  # later stops leave later still
            if not self.kind_ok(run, position):
                continue
            feeders = self.feeder(code, dep, train_day)
            if feeders and self.cheapest and state.best is not None:
                floor = min(h.price for h in feeders) + self.cheapest_last
                if floor >= state.best.price:
                    continue
            if feeders:
                carried.append((position, feeders))
                carried_first = max(carried_first, max(h.dep for h in feeders))
        return found

    def _join(self, feeders: list[Hop], middle: Hop, lasts: list[Hop]) -> Journey | None:
        """The best (first, middle, last) with this middle ride, within the detour cap."""
        objective = self.objective
        if not self.cheapest:
            first = _pick_first(feeders, objective)
            last = _pick_last(lasts, objective)
            if not self.capped(first.dep, last.arr):
                return Journey((first, middle, last))
            if objective != "earliest":
                return None  # the shortest pair is over the cap: every pair is
        best: Journey | None = None
        ordered = sorted(lasts, key=lambda h: (h.price, h.arr))
        cheapest_last = ordered[0].price
        for first in sorted(feeders, key=lambda h: (h.price, -h.dep)):
            if best is not None and self.cheapest:
                if first.price + middle.price + cheapest_last >= best.price:
                    break
            for last in ordered:
                if self.capped(first.dep, last.arr):
                    continue
                journey = Journey((first, middle, last))
                if best is None or journey.key(objective) < best.key(objective):
                    best = journey
                if self.cheapest:
                    break  # the cheapest last this first ride can take
        return best


class _Best:
    """The best journey found so far, and what a candidate must beat."""

    def __init__(self, best: Journey | None, objective: str) -> None:
        self.best = best
        self.objective = objective

    def improves(self, journey: Journey) -> bool:
        return self.best is None or journey.key(self.objective) < self.best.key(self.objective)

    def hopeless_arrival(self, arrives: int, latest_first: int) -> bool:
        """No journey reaching a change at `arrives` (or later) can beat the best."""
        best = self.best
        if best is None:
            return False
        if self.objective == "fastest":
            return arrives - latest_first >= best.minutes
        if self.objective == "earliest_arrival":
            return arrives >= best.arr
        return False

    def hopeless_boarding(self, leaves: int, latest_first: int) -> bool:
        """No middle ride leaving at `leaves` (or later) can be part of a better journey."""
        best = self.best
        if best is None:
            return False
        if self.objective == "fastest":
            return leaves - latest_first >= best.minutes
        if self.objective == "earliest_arrival":
            return leaves >= best.arr
        return False


def _pick_first(feeders: list[Hop], objective: str) -> Hop:
    if objective == "cheapest":
        return min(feeders, key=lambda h: (h.price, -h.dep))
    if objective == "earliest":
        return min(feeders, key=lambda h: (h.dep, h.arr))
    return max(feeders, key=lambda h: (h.dep, -h.arr))


def _pick_last(lasts: list[Hop], objective: str) -> Hop:
    if objective == "cheapest":
        return min(lasts, key=lambda h: (h.price, h.arr))
    return min(lasts, key=lambda h: (h.arr, -h.dep))


def _better(a: Journey | None, b: Journey | None, objective: str) -> Journey | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if b.key(objective) < a.key(objective) else a


def _in_window(minute: int, window: tuple[int, int] | None) -> bool:
    if window is None:
        return True
    clock = minute % DAY
    lo, hi = window
    if lo <= hi:
        return lo <= clock <= hi
    return clock >= lo or clock <= hi
