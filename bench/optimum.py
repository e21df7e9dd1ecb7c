"""The best plan the timetable allows: an exact search of up to three rides over the sandbox
network, written from the problem statement alone (it reads no planner code).

Pure: the network, the station directory and a clock time in; no IO. For one travel day, the
search builds every bookable first ride out of the origin (boarding that day) and every
bookable last ride into the destination, then joins them meet-in-the-middle:

- direct: a first ride that alights at the destination;
- one change: a last ride whose boarding station and time a first ride can reach;
- two changes: one pass along every other train on every start date, carrying the best first
  ride that reaches each stop in time (a prefix label) to every later stop from which a last
  ride leaves in time (a suffix label).

For the time objectives a label is one ride (the latest first departure reaching a boarding,
the earliest final arrival from an alighting), which is exact: with the middle ride fixed the
two ends are independent. For price a label is a Pareto set (price, departure or arrival), so
the detour cap below, which ties the two ends together, is still met exactly.

The connection rules are the planner's stated ones, imported from `rules/config.py`: a change
of at least `MIN_CONNECTION_SAME_STATION` minutes inside one station and
`MIN_CONNECTION_CROSS_STATION` across two stations `can_change` joins (one city proper), at
most `MAX_CONNECTION`; a stop at a hub of up to `HUB_STOP_MAX_WAIT` only where no journey with
regular connections exists at all; at most `MAX_TRANSFERS` changes; a journey with changes
taking at most `MAX_DETOUR` times the quickest direct ride of the day between the same ends
(when there is one). A city is its city proper (`in_city_proper`, every station where none
is); its outlying stations are searched only where the city proper gives no journey at all.

A ride is bookable when the 12306 sandbox would sell it at `now`: the ride is on sale (the
presale has opened, the train has not left the boarding station) and an allowed class has a
seat left (`sources/sandbox/inventory.py`, the same functions the vendor calls). Standing
(无座) is not a seat: it counts only when the traveller names it. Changes are never made in
the origin's or the destination's own city, nor onto the train just left.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from rules.config import (
    EARLIEST_DEPARTURE,
    HUB_STOP_MAX_WAIT,
    LATEST_ARRIVAL,
    MAX_CONNECTION,
    MAX_DETOUR,
    MAX_TRANSFERS,
    MIN_CONNECTION_CROSS_STATION,
    MIN_CONNECTION_SAME_STATION,
    NIGHT_REST_UNTIL,
    can_change,
    in_city_proper,
)
from sources.models import SHANGHAI, SLEEPER_CLASSES, SeatClass, Station
from sources.sandbox.fares import fare
from sources.sandbox.inventory import PRESALE, bucket_start, remaining_seats
from sources.sandbox.network import MINUTES_PER_DAY as DAY
from sources.sandbox.timetable import Timetable
from sources.stations import StationDirectory

HORIZON = 5 * DAY
"""The latest final arrival searched, in minutes after the travel day's midnight."""
PRESALE_MIN = int(PRESALE.total_seconds() // 60)
NIGHT_ENDS = EARLIEST_DEPARTURE.hour * 60 + EARLIEST_DEPARTURE.minute
NIGHT_STARTS = LATEST_ARRIVAL.hour * 60 + LATEST_ARRIVAL.minute
REST_UNTIL = NIGHT_REST_UNTIL.hour * 60 + NIGHT_REST_UNTIL.minute
OBJECTIVES = ("fastest", "cheapest", "latest", "earliest_arrival")
if MAX_TRANSFERS > 2:  # the joins below are written for up to three rides
    raise RuntimeError("the optimum search handles at most two changes")


@cache
def _fare(tier: str, seat_class: SeatClass, km: int) -> float:
    return fare(tier, seat_class, km)


@dataclass(frozen=True, slots=True)
class Ride:
    """One bookable ride: train `run` started `start` days after the travel day (negative: it
    left its origin earlier), boarding stop `board`, alighting stop `alight`; times in minutes
    after the travel day's midnight; the cheapest allowed class with a seat, and its fare."""

    run: int
    start: int
    board: int
    alight: int
    dep: int
    arr: int
    seat: SeatClass
    price: float

    @property
    def train_day(self) -> tuple[int, int]:
        return (self.run, self.start)


@dataclass(frozen=True, slots=True)
class Journey:
    """Up to three rides, in order."""

    rides: tuple[Ride, ...]

    @property
    def dep(self) -> int:
        return self.rides[0].dep

    @property
    def arr(self) -> int:
        return self.rides[-1].arr

    @property
    def minutes(self) -> int:
        return self.arr - self.dep

    @property
    def price(self) -> float:
        return round(sum(r.price for r in self.rides), 1)

    def waits(self) -> list[int]:
        return [b.dep - a.arr for a, b in zip(self.rides, self.rides[1:], strict=False)]

    def value(self, objective: str) -> float:
        """The objective's figure: minutes door to door, yuan, or a clock minute."""
        return {
            "fastest": self.minutes,
            "cheapest": self.price,
            "latest": self.dep,
            "earliest_arrival": self.arr,
        }[objective]

    def key(self, objective: str) -> tuple[float, ...]:
        """Sort key, best first; ties go to fewer changes, then a shorter journey."""
        changes = len(self.rides) - 1
        return {
            "fastest": (self.minutes, changes, self.arr),
            "cheapest": (self.price, changes, self.minutes),
            "latest": (-self.dep, changes, self.arr),
            "earliest_arrival": (self.arr, changes, -self.dep),
        }[objective]


@dataclass(frozen=True)
class Place:
    """Where a traveller boards or alights: the named station(s), or a city's city proper
    (`outlying`: the rest of the city, used only where the city proper gives no journey)."""

    name: str
    city: str
    is_city: bool
    proper: tuple[str, ...]
    outlying: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ask:
    """One request as the search reads it; windows in minutes after the travel day's midnight."""

    day: dt.date
    origin: Place
    destination: Place
    objective: str
    depart: tuple[int, int] = (0, DAY - 1)
    arrive: tuple[int, int] = (0, HORIZON)
    train_types: frozenset[str] = frozenset()
    exclude_train_types: frozenset[str] = frozenset()
    classes: frozenset[SeatClass] = frozenset(c for c in SeatClass if c is not SeatClass.NO_SEAT)
    max_changes: int = MAX_TRANSFERS
    detour_cap: bool = True
    night_rule: bool = False
    """The planner's night rule (`EARLIEST_DEPARTURE`, `LATEST_ARRIVAL`): no seat on a ride
    leaving or arriving in the night hours, a berth on an overnight ride being the night's
    lodging when it arrives at `NIGHT_REST_UNTIL` or later; it holds unless the traveller
    chose the hours, a berth or the price."""


@dataclass(frozen=True)
class Optimum:
    """The best journey and the tier it came from, with what the tiers say about the rules:
    `proper` (a journey between the city propers exists) and `regular` (one with every change
    within `MAX_CONNECTION` exists at those ends)."""

    journey: Journey | None
    proper: bool
    regular: bool
    cap: int | None  # the detour cap applied, minutes (None: no direct ride that day)


class Rails:
    """The sandbox network indexed for the search: stops per station, changes per station."""

    def __init__(self, directory: StationDirectory, timetable: Timetable | None = None) -> None:
        self.directory = directory
        self.timetable = timetable or Timetable(directory)
        network = self.timetable.network
        self.runs = network.runs
        self.station: dict[str, Station] = {
            code: directory.get(code) or s for code, s in network.stations.items()
        }
        self.city = {code: s.city for code, s in self.station.items()}
        self.calls: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for index, run in enumerate(self.runs):
            for position, code in enumerate(run.stations):
                self.calls[code].append((index, position))
        by_city: dict[str, list[str]] = defaultdict(list)
        for code, city in self.city.items():
            by_city[city].append(code)
        # Where a traveller arriving at a station may board next, and the least change time.
        self.change_to: dict[str, tuple[tuple[str, int], ...]] = {}
        for code, station in self.station.items():
            others = tuple(
                (other, MIN_CONNECTION_CROSS_STATION)
                for other in by_city[station.city]
                if other != code and can_change(station, self.station[other])
            )
            self.change_to[code] = ((code, MIN_CONNECTION_SAME_STATION), *others)
        self.by_city = dict(by_city)
        self._seats_left: dict[tuple[int, dt.date, dt.datetime], tuple[SeatClass, ...]] = {}

    def seats_left(self, run: int, start_date: dt.date, now: dt.datetime) -> tuple[SeatClass, ...]:
        """The classes of train `run` started on `start_date` with a seat left at `now` (what
        the 12306 sandbox shows; pass the start of an inventory bucket, in which counts are
        constant, so that searches at one clock time share the answers)."""
        key = (run, start_date, now)
        known = self._seats_left.get(key)
        if known is None:
            pattern = self.runs[run]
            train = self.timetable.train(pattern.codes[0], start_date)
            assert train is not None
            known = tuple(c for c in pattern.seat_classes if remaining_seats(train, c, now) > 0)
            self._seats_left[key] = known
        return known

    def place(self, name: str) -> Place:
        """A city name is its city proper (every station where none is named after it), with
        the rest as outlying; a station name is that station (and the directory's siblings)."""
        resolved = self.directory.resolve(name)
        if not resolved.is_city:
            codes = tuple(s.telecode for s in resolved.stations if s.telecode in self.station)
            return Place(resolved.name, resolved.city, False, codes)
        codes = tuple(s.telecode for s in self.directory.in_city(resolved.city))
        codes = tuple(c for c in codes if c in self.station)
        proper = tuple(c for c in codes if in_city_proper(self.station[c]))
        if not proper:
            return Place(resolved.name, resolved.city, True, codes)
        return Place(
            resolved.name, resolved.city, True, proper, tuple(c for c in codes if c not in proper)
        )

    def train_number(self, ride: Ride) -> str:
        return self.runs[ride.run].code_at(ride.board)

    def board_station(self, ride: Ride) -> Station:
        return self.station[self.runs[ride.run].stations[ride.board]]

    def alight_station(self, ride: Ride) -> Station:
        return self.station[self.runs[ride.run].stations[ride.alight]]


def train_type(number: str) -> str:
    head = number[0]
    return head if head.isalpha() else ""


class Search:
    """The optimum of one `Ask` at clock time `now` (what the app's clock reads)."""

    def __init__(self, rails: Rails, ask: Ask, now: dt.datetime) -> None:
        self.rails = rails
        self.ask = ask
        self.midnight = dt.datetime.combine(ask.day, dt.time(0), SHANGHAI)
        self.now = now
        self.bucket = bucket_start(now)
        self.now_min = (now - self.midnight).total_seconds() / 60
        self._seats: dict[tuple[int, int], tuple[SeatClass, ...]] = {}
        self.evaluated = 0

    # -- bookability ---------------------------------------------------------------------

    def on_sale(self, run: int, start: int) -> tuple[SeatClass, ...]:
        """Allowed classes with a seat left on the train started `start` days after the day."""
        key = (run, start)
        known = self._seats.get(key)
        if known is None:
            left = self.rails.seats_left(run, self.ask.day + dt.timedelta(days=start), self.bucket)
            known = self._seats[key] = tuple(c for c in left if c in self.ask.classes)
        return known

    def boardable(self, run: int, start: int, board: int, dep: int) -> bool:
        """Type allowed, ride on sale at `now` and an allowed class with a seat left."""
        return self.can_board(run, board, dep) and bool(self.on_sale(run, start))

    def can_board(self, run: int, board: int, dep: int) -> bool:
        """The cheap part of `boardable`: type allowed and the ride on sale at `now`."""
        kind = train_type(self.rails.runs[run].code_at(board))
        if self.ask.train_types and kind not in self.ask.train_types:
            return False
        if kind in self.ask.exclude_train_types:
            return False
        return dep - PRESALE_MIN <= self.now_min < dep

    def ride(self, run: int, start: int, board: int, alight: int) -> Ride | None:
        """The ride in its cheapest class with a seat, or None when the night rule leaves
        it no class."""
        pattern = self.rails.runs[run]
        km = pattern.km[alight] - pattern.km[board]
        dep = start * DAY + pattern.depart[board]
        arr = start * DAY + pattern.arrive[alight]
        classes = self.on_sale(run, start)
        if self.ask.night_rule and (_at_night(dep) or _at_night(arr)):
            # The berth is the night's lodging only when it lets the traveller sleep until
            # `NIGHT_REST_UNTIL` (rules.config, 2026-12-06: K838 setting down at 01:21 is not).
            lodged = arr // DAY > dep // DAY and arr % DAY >= REST_UNTIL
            classes = tuple(c for c in classes if lodged and c in SLEEPER_CLASSES)
            if not classes:
                return None
        price, seat = min((_fare(pattern.tier, c, km), c) for c in classes)
        return Ride(run, start, board, alight, dep, arr, seat, price)

    # -- the rides at both ends ----------------------------------------------------------

    def firsts(self, origin: Sequence[str], destination: Sequence[str]) -> tuple[list, dict]:
        """Direct journeys, and first rides by alighting station (for a change there)."""
        rails, ask = self.rails, self.ask
        ends = set(destination)
        o_city, d_city = ask.origin.city, ask.destination.city
        directs: list[Journey] = []
        arrivals: dict[str, list[Ride]] = defaultdict(list)
        for code in origin:
            for run, board in rails.calls[code]:
                pattern = rails.runs[run]
                start = -(pattern.depart[board] // DAY)
                dep = start * DAY + pattern.depart[board]
                if not ask.depart[0] <= dep <= ask.depart[1]:
                    continue
                if not self.boardable(run, start, board, dep):
                    continue
                for alight in range(board + 1, len(pattern.stations)):
                    there = pattern.stations[alight]
                    city = rails.city[there]
                    if city == o_city:
                        continue
                    if there in ends:
                        arr = start * DAY + pattern.arrive[alight]
                        ride = self.ride(run, start, board, alight)
                        if ride is not None and ask.arrive[0] <= arr <= ask.arrive[1]:
                            directs.append(Journey((ride,)))
                    elif city != d_city:
                        ride = self.ride(run, start, board, alight)
                        if ride is not None:
                            arrivals[there].append(ride)
        return directs, arrivals

    def lasts(
        self, destination: Sequence[str], not_before: int = 0, arrive_by: int = HORIZON
    ) -> dict:
        """Last rides into the destination by boarding station, leaving at `not_before` or
        later (no first ride arrives in time for an earlier one) and arriving by `arrive_by`."""
        rails, ask = self.rails, self.ask
        o_city, d_city = ask.origin.city, ask.destination.city
        departures: dict[str, list[Ride]] = defaultdict(list)
        latest = min(ask.arrive[1], arrive_by)
        for code in destination:
            for run, alight in rails.calls[code]:
                pattern = rails.runs[run]
                for start in range(-5, 6):
                    arr = start * DAY + pattern.arrive[alight]
                    if not ask.arrive[0] <= arr <= latest:
                        continue
                    for board in range(alight):
                        here = pattern.stations[board]
                        if rails.city[here] in (o_city, d_city):
                            continue
                        dep = start * DAY + pattern.depart[board]
                        if dep < not_before or not self.boardable(run, start, board, dep):
                            continue
                        ride = self.ride(run, start, board, alight)
                        if ride is not None:
                            departures[here].append(ride)
        return departures

    def _bounds(self, directs: list[Journey], arrivals: dict) -> tuple[int, int]:
        """When a last ride can leave at the earliest, and (for the time objectives, with a
        direct journey found) by when it must arrive to beat that journey."""
        firsts = [r.arr for rides in arrivals.values() for r in rides]
        not_before = min(firsts, default=HORIZON) + MIN_CONNECTION_SAME_STATION
        arrive_by = HORIZON
        objective = self.ask.objective
        if directs and objective in ("fastest", "earliest_arrival"):
            best = min(directs, key=lambda j: j.key(objective))
            latest_first = max((r.dep for rides in arrivals.values() for r in rides), default=0)
            if objective == "earliest_arrival":
                arrive_by = best.arr
            else:
                arrive_by = latest_first + best.minutes
        return not_before, arrive_by

    def quickest_direct(self, origin: Sequence[str], destination: Sequence[str]) -> int | None:
        """Minutes of the quickest direct ride that day between the ends, seats aside (the
        traveller's train types apply)."""
        rails, ask = self.rails, self.ask
        ends = set(destination)
        best: int | None = None
        for code in origin:
            for run, board in rails.calls[code]:
                pattern = rails.runs[run]
                kind = train_type(pattern.code_at(board))
                if (ask.train_types and kind not in ask.train_types) or (
                    kind in ask.exclude_train_types
                ):
                    continue
                for alight in range(board + 1, len(pattern.stations)):
                    if pattern.stations[alight] in ends:
                        minutes = pattern.arrive[alight] - pattern.depart[board]
                        best = minutes if best is None else min(best, minutes)
        return best

    # -- the optimum ---------------------------------------------------------------------

    def optimum(self) -> Optimum:
        """The best journey under the tier rules: city proper before outlying stations,
        regular connections before hub stops."""
        ask = self.ask
        tiers = [(ask.origin.proper, ask.destination.proper)]
        if ask.origin.outlying or ask.destination.outlying:
            tiers.append(
                (
                    ask.origin.proper + ask.origin.outlying,
                    ask.destination.proper + ask.destination.outlying,
                )
            )
        for number, (origin, destination) in enumerate(tiers):
            quickest = self.quickest_direct(origin, destination)
            cap = int(MAX_DETOUR * quickest) if quickest is not None and ask.detour_cap else None
            directs, arrivals = self.firsts(origin, destination)
            departures = self.lasts(destination, *self._bounds(directs, arrivals))
            if not ask.max_changes:
                departures = {}
            for wait in (MAX_CONNECTION, HUB_STOP_MAX_WAIT):
                join = Join(self, directs, arrivals, departures, wait, cap)
                best = join.best()
                if best is not None:
                    return Optimum(best, number == 0, wait == MAX_CONNECTION, cap)
        return Optimum(None, False, False, None)


@dataclass
class Join:
    """The joins for one tier: ends fixed, longest wait `wait`, detour cap `cap` (minutes)."""

    search: Search
    directs: list[Journey]
    arrivals: dict[str, list[Ride]]
    departures: dict[str, list[Ride]]
    wait: int
    cap: int | None
    _prefix: dict[tuple[str, int], object] = field(default_factory=dict)
    _suffix: dict[tuple[str, int], object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        change_to = self.search.rails.change_to
        # Stations a change can leave from (after a first ride) and arrive at (before a last
        # ride); their entries are built on first use, as few stations are ever asked.
        self.boards = {o for code in self.arrivals for o, _ in change_to[code]}
        self.alights = {o for code in self.departures for o, _ in change_to[code]}
        self._board: dict[str, tuple[list[int], list[tuple[int, int, Ride]]]] = {}
        self._alight: dict[str, tuple[list[int], list[tuple[int, int, Ride]]]] = {}
        self.cheapest = self.search.ask.objective == "cheapest"
        self.max_first_dep = max((r.dep for v in self.arrivals.values() for r in v), default=0)
        self._best: Journey | None = None
        self._useful: Journey | None = None  # entries that cannot beat this one are dropped

    def _board_entries(self, station: str) -> tuple[list[int], list[tuple[int, int, Ride]]]:
        """(ready to board at `station`, arrived at, first ride), sorted, and the keys."""
        known = self._board.get(station)
        if known is None:
            entries = [
                (r.arr + least, r.arr, r)
                for other, least in self.search.rails.change_to[station]
                for r in self.arrivals.get(other, ())
                if self._first_ok(r)
            ]
            entries.sort(key=_first)
            known = self._board[station] = ([e[0] for e in entries], entries)
        return known

    def _alight_entries(self, station: str) -> tuple[list[int], list[tuple[int, int, Ride]]]:
        """(latest arrival at `station` that still makes it, leaves at, last ride), sorted."""
        known = self._alight.get(station)
        if known is None:
            entries = [
                (r.dep - least, r.dep, r)
                for other, least in self.search.rails.change_to[station]
                for r in self.departures.get(other, ())
                if self._last_ok(r)
            ]
            entries.sort(key=_first)
            known = self._alight[station] = ([e[0] for e in entries], entries)
        return known

    def _first_ok(self, r: Ride) -> bool:
        """False for a first ride no journey beating `_useful` can use."""
        best = self._useful
        if best is None:
            return True
        objective = self.search.ask.objective
        if objective == "latest":
            return r.dep > best.dep
        if objective == "cheapest":
            return r.price < best.price
        if objective == "fastest":
            return r.arr - r.dep < best.minutes
        return r.arr < best.arr

    def _last_ok(self, r: Ride) -> bool:
        """False for a last ride no journey beating `_useful` can use."""
        best = self._useful
        if best is None:
            return True
        objective = self.search.ask.objective
        if objective == "earliest_arrival":
            return r.arr < best.arr
        if objective == "cheapest":
            return r.price < best.price
        if objective == "fastest":
            return r.arr - r.dep < best.minutes
        return True

    # Labels: for time objectives the one best ride; for price a Pareto list, cheapest first.

    def prefix(self, station: str, leave: int):
        """First rides from which a ride leaving `station` at `leave` can be caught."""
        key = (station, leave)
        if key in self._prefix:
            return self._prefix[key]
        keys, entries = self._board_entries(station)
        begin = bisect.bisect_left(keys, leave - self.wait)
        end = bisect.bisect_right(keys, leave)
        window = [r for _, arrived, r in entries[begin:end] if leave - arrived <= self.wait]
        label: object
        if self.cheapest:
            label = _pareto(window, lambda r: (r.price, -r.dep))
        else:
            label = max(window, key=lambda r: r.dep, default=None)
        self._prefix[key] = label
        return label

    def suffix(self, station: str, arrive: int):
        """Last rides that can be caught after arriving at `station` at `arrive`."""
        key = (station, arrive)
        if key in self._suffix:
            return self._suffix[key]
        keys, entries = self._alight_entries(station)
        begin = bisect.bisect_left(keys, arrive)
        end = bisect.bisect_right(keys, arrive + self.wait)
        window = [r for _, leaves, r in entries[begin:end] if leaves - arrive <= self.wait]
        label: object
        if self.cheapest:
            label = _pareto(window, lambda r: (r.price, r.arr))
        else:
            label = min(window, key=lambda r: r.arr, default=None)
        self._suffix[key] = label
        return label

    def best(self) -> Journey | None:
        """The best journey of this tier: direct, then one change, then two (each pass only
        has to beat what the ones before found)."""
        objective = self.search.ask.objective
        best = min(self.directs, key=lambda j: j.key(objective), default=None)
        if self.search.ask.max_changes >= 1:
            best = self._better(best, self.one_change())
        if self.search.ask.max_changes >= 2:
            best = self._better(best, self.two_changes(best))
        return best

    def _better(self, a: Journey | None, b: Journey | None) -> Journey | None:
        if a is None or (
            b is not None and b.key(self.search.ask.objective) < a.key(self.search.ask.objective)
        ):
            return b
        return a

    def capped(self, dep: int, arr: int) -> bool:
        return self.cap is not None and arr - dep > self.cap

    def one_change(self) -> Journey | None:
        objective = self.search.ask.objective
        best: Journey | None = None
        for code, rides in self.departures.items():
            for last in rides:
                label = self.prefix(code, last.dep)
                if not label:
                    continue
                if self.cheapest:
                    first = next(
                        (
                            f
                            for f in label  # type: ignore[attr-defined]
                            if f.train_day != last.train_day and not self.capped(f.dep, last.arr)
                        ),
                        None,
                    )
                else:
                    # The same train both ways is a direct ride, already among `directs`.
                    first = label
                    if first.train_day == last.train_day or self.capped(first.dep, last.arr):
                        continue
                if first is None:
                    continue
                journey = Journey((first, last))
                if best is None or journey.key(objective) < best.key(objective):
                    best = journey
        return best

    def two_changes(self, best: Journey | None) -> Journey | None:
        """One pass along every train that calls at a boarding station before an alighting
        one, on every start date that fits the first rides' arrivals."""
        rails = self.search.rails
        if best is not None:  # drop the rides that cannot help beat it
            self._useful = best
            self._board.clear()
            self._alight.clear()
            self._prefix.clear()
            self._suffix.clear()
            change_to = rails.change_to
            self.boards = {
                o
                for code, rides in self.arrivals.items()
                if any(self._first_ok(r) for r in rides)
                for o, _ in change_to[code]
            }
            self.alights = {
                o
                for code, rides in self.departures.items()
                if any(self._last_ok(r) for r in rides)
                for o, _ in change_to[code]
            }
        boards, alights = self.boards, self.alights
        arrived = [r.arr for rides in self.arrivals.values() for r in rides]
        if not boards or not alights:
            return None
        lo = min(arrived) + MIN_CONNECTION_SAME_STATION
        hi = max(arrived) + self.wait
        self._best = best
        found: Journey | None = None
        for run in _middle_runs(rails, boards, alights):
            pattern = rails.runs[run]
            stations = pattern.stations
            board_at = [p for p in range(len(stations) - 1) if stations[p] in boards]
            first = min(pattern.depart[p] for p in board_at)
            last = max(pattern.depart[p] for p in board_at)
            for start in range(-((last - lo) // DAY), (hi - first) // DAY + 1):
                journey = self._along(run, start, board_at, lo, hi)
                if journey is not None:
                    found = self._better(found, journey)
                    self._best = self._better(self._best, journey)
        return found

    def _beaten(self, dep: int, arr: int) -> bool:
        """True when a journey leaving at `dep` and arriving at `arr` or later cannot beat
        the best found (a journey with more changes loses ties)."""
        best = self._best
        if best is None:
            return False
        objective = self.search.ask.objective
        if objective == "fastest":
            return arr - dep >= best.minutes
        if objective == "earliest_arrival":
            return arr >= best.arr
        if objective == "latest":
            return dep <= best.dep
        return False

    def _useless_boarding(self, dep: int) -> bool:
        """True when a middle ride leaving at `dep` cannot be part of a journey that beats the
        best found: too late to arrive earlier or to be quicker, too early to leave later."""
        best = self._best
        if best is None:
            return False
        objective = self.search.ask.objective
        if objective == "fastest":
            return dep - self.max_first_dep >= best.minutes
        if objective == "earliest_arrival":
            return dep >= best.arr
        if objective == "latest":
            return dep - MIN_CONNECTION_SAME_STATION <= best.dep
        return False

    def _along(self, run: int, start: int, board_at: list[int], lo: int, hi: int) -> Journey | None:
        """The best journey whose middle ride is this train on this start date (a middle ride
        leaves the city it boards in: a ride across one city would only stretch a wait)."""
        search = self.search
        city = search.rails.city
        pattern = search.rails.runs[run]
        stations = pattern.stations
        base = start * DAY
        train_day = (run, start)
        carried: list[tuple[int, list[Ride]]] = []  # price: (boarding stop, prefix label)
        latest: dict[str, tuple[int, Ride]] = {}  # time: per boarding city, the latest first ride
        found: Journey | None = None
        boards = set(board_at)
        seats_checked = False
        for p in range(board_at[0], len(stations)):
            code = stations[p]
            if (carried or latest) and code in self.alights:
                if not seats_checked:  # the inventory of this train, read once it matters
                    if not search.on_sale(run, start):
                        return None
                    seats_checked = True
                arrive = base + pattern.arrive[p]
                here = city[code]
                if self.cheapest:
                    label = self.suffix(code, arrive)
                    away = [(b, f) for b, f in carried if city[stations[b]] != here]
                    if label and away:
                        found = self._better(found, self._priced(run, start, away, p, label))
                else:
                    if self._beaten(self.max_first_dep, arrive + MIN_CONNECTION_SAME_STATION):
                        break  # later stops arrive later still
                    options = [v for c, v in latest.items() if c != here]
                    # The latest first ride whose middle ride the night rule allows.
                    for board, first in sorted(options, key=lambda v: -v[1].dep):
                        if self._beaten(first.dep, arrive + MIN_CONNECTION_SAME_STATION):
                            break
                        last = self.suffix(code, arrive)
                        if (
                            last is None
                            or last.train_day == train_day  # type: ignore[attr-defined]
                            or self.capped(first.dep, last.arr)  # type: ignore[attr-defined]
                            or self._beaten(first.dep, last.arr)  # type: ignore[attr-defined]
                        ):
                            break
                        middle = search.ride(run, start, board, p)
                        if middle is None:
                            continue
                        journey = Journey((first, middle, last))  # type: ignore[arg-type]
                        found = self._better(found, journey)
                        self._best = self._better(self._best, journey)
                        break
            if p not in boards:
                continue
            dep = base + pattern.depart[p]
            if not lo <= dep <= hi:
                continue
            if self._useless_boarding(dep):
                if self.search.ask.objective == "latest":
                    continue
                break  # later stops leave later still
            label = self.prefix(code, dep)
            if not label or not search.can_board(run, p, dep):
                continue
            if self.cheapest:
                carried.append((p, label))  # type: ignore[arg-type]
            else:
                first = label  # type: ignore[assignment]
                known = latest.get(city[code])
                if first.train_day != train_day and (known is None or first.dep > known[1].dep):
                    latest[city[code]] = (p, first)
        return found

    def _priced(self, run, start, carried, alight, suffix) -> Journey | None:
        search = self.search
        bound = self._best.price if self._best is not None else None
        best: tuple[float, Journey] | None = None
        for board, prefix in carried:
            ends = prefix[0].price + suffix[0].price
            if (best is not None and ends >= best[0]) or (bound is not None and ends >= bound):
                continue
            middle = search.ride(run, start, board, alight)
            if middle is None:
                continue
            floor = ends + middle.price
            if (best is not None and floor >= best[0]) or (bound is not None and floor >= bound):
                continue
            for first in prefix:
                if first.train_day == (run, start):
                    continue
                for last in suffix:
                    if last.train_day == (run, start) or self.capped(first.dep, last.arr):
                        continue
                    total = first.price + middle.price + last.price
                    if best is None or total < best[0]:
                        best = (total, Journey((first, middle, last)))
                    break
        if best is None:
            return None
        self._best = self._better(self._best, best[1])
        return best[1]


def _at_night(minute: int) -> bool:
    clock = minute % DAY
    return clock < NIGHT_ENDS or clock > NIGHT_STARTS


def _first(entry: tuple) -> int:
    return entry[0]


def _pareto(rides: list[Ride], key) -> list[Ride]:
    """The rides no other beats on both parts of `key` (smaller is better), cheapest first."""
    kept: list[Ride] = []
    bound = None
    for ride in sorted(rides, key=key):
        second = key(ride)[1]
        if bound is None or second < bound:
            kept.append(ride)
            bound = second
    return kept


def _middle_runs(rails: Rails, boards: set[str], alights: set[str]) -> list[int]:
    """Trains that call at a boarding station before an alighting station."""
    runs = []
    for index, pattern in enumerate(rails.runs):
        stations = pattern.stations
        first = next((p for p, code in enumerate(stations) if code in boards), None)
        if first is None:
            continue
        if any(code in alights for code in stations[first + 1 :]):
            runs.append(index)
    return runs


def exhaustive(
    search: Search, wait: int, cap: int | None, *, proper: bool = True
) -> Journey | None:
    """The same optimum by brute force over every (first, middle, last) combination, for the
    self-check on small places: no labels, no pruning, every middle ride built."""
    ask, rails = search.ask, search.rails
    origin = ask.origin.proper if proper else ask.origin.proper + ask.origin.outlying
    destination = (
        ask.destination.proper if proper else ask.destination.proper + ask.destination.outlying
    )
    directs, arrivals = search.firsts(origin, destination)
    departures = search.lasts(destination) if ask.max_changes else {}
    firsts = [r for rides in arrivals.values() for r in rides]
    lasts = [r for rides in departures.values() for r in rides]

    def connects(a: Ride, b: Ride) -> bool:
        x, y = rails.alight_station(a), rails.board_station(b)
        if not can_change(x, y) or a.train_day == b.train_day:
            return False
        least = MIN_CONNECTION_SAME_STATION if x == y else MIN_CONNECTION_CROSS_STATION
        return least <= b.dep - a.arr <= wait

    def fits(journey: Journey) -> bool:
        return cap is None or len(journey.rides) == 1 or journey.minutes <= cap

    city = rails.city
    firsts_at: dict[str, list[Ride]] = defaultdict(list)  # by the station a change leaves
    for r in firsts:
        for other, _ in rails.change_to[rails.runs[r.run].stations[r.alight]]:
            firsts_at[other].append(r)
    lasts_at: dict[str, list[Ride]] = defaultdict(list)  # by the station a change arrives at
    for r in lasts:
        for other, _ in rails.change_to[rails.runs[r.run].stations[r.board]]:
            lasts_at[other].append(r)
    found = [j for j in directs if fits(j)]
    if ask.max_changes >= 1:
        found += [Journey((f, m)) for f in firsts for m in lasts if connects(f, m)]
    if ask.max_changes >= 2:
        for run, pattern in enumerate(rails.runs):
            stations = pattern.stations
            for start in range(-5, 7):
                for i in range(len(stations)):
                    if stations[i] not in firsts_at:
                        continue
                    if not search.boardable(run, start, i, start * DAY + pattern.depart[i]):
                        continue
                    for j in range(i + 1, len(stations)):
                        if stations[j] not in lasts_at or city[stations[j]] == city[stations[i]]:
                            continue
                        middle = search.ride(run, start, i, j)
                        if middle is None:
                            continue
                        before = [f for f in firsts_at[stations[i]] if connects(f, middle)]
                        if not before:
                            continue
                        after = [m for m in lasts_at[stations[j]] if connects(middle, m)]
                        found += [Journey((f, middle, m)) for f in before for m in after]
    found = [j for j in found if fits(j)]
    return min(found, key=lambda j: j.key(ask.objective), default=None)
