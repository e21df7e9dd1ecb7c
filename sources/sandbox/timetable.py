"""A deterministic timetable over the station directory: trains on the corridors of `lines.py`.

Pure: no IO, no clock. Each train's pattern (stops, departure, seat classes) is seeded by its
line, direction, kind and slot, so G101 looks the same every day; which trains run on a date
is seeded by the date and the line, so the same date always gives the same timetable and a
few trains are cancelled on some dates. A query between two stations returns the rides of
every train serving both in that direction, city-wide as 12306 answers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from sources.models import SHANGHAI, SeatClass, Station
from sources.sandbox.lines import LINES, Line, LineStop, Service
from sources.sandbox.seeding import stable_int, stable_rng, stable_unit
from sources.stations import StationDirectory, curated_directory

OVERNIGHT_KINDS = frozenset("ZTK")
# 12306 numbers trains in blocks by kind; each line gets its own block so codes never clash.
_BLOCK = {"G": 300, "D": 200, "C": 200, "Z": 20, "T": 40, "K": 100}
_BLOCK_START = {"G": 0, "D": 0, "C": 2000, "Z": 0, "T": 0, "K": 0}
_BUREAUS = ("24", "31", "5l", "65", "38", "27", "39", "76", "86", "88", "62", "57", "6i")
_SUFFIX = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
_CANCEL_RATE = 0.06
_CACHED_DATES = 32

_Index = dict[str, list[tuple["Train", int]]]

# Yuan per km of 二等座 (high-speed) by kind; other classes are multiples of it.
_FIRST, _BUSINESS, _PREMIUM = 1.6, 3.15, 1.9
_CONVENTIONAL_RATES = {
    SeatClass.PREMIUM_SLEEPER: 0.75,
    SeatClass.SOFT_SLEEPER: 0.41,
    SeatClass.HARD_SLEEPER: 0.26,
    SeatClass.SOFT_SEAT: 0.24,
    SeatClass.HARD_SEAT: 0.15,
    SeatClass.NO_SEAT: 0.15,
}


@dataclass(frozen=True)
class Stop:
    """One call of a train at a station; `number` is its 1-based position in the train's run."""

    station: Station
    km: int
    arrive: dt.datetime
    depart: dt.datetime
    number: int


@dataclass(frozen=True)
class Train:
    """One train on one date: `start_date` is the day it leaves its origin."""

    code: str
    train_no: str
    line: str
    start_date: dt.date
    stops: tuple[Stop, ...]
    rates: tuple[tuple[SeatClass, float], ...]

    @property
    def kind(self) -> str:
        return self.code[0]

    @property
    def seat_classes(self) -> tuple[SeatClass, ...]:
        return tuple(cls for cls, _ in self.rates)

    @property
    def origin(self) -> Station:
        return self.stops[0].station

    @property
    def terminus(self) -> Station:
        return self.stops[-1].station

    @property
    def departs_at(self) -> dt.datetime:
        return self.stops[0].depart


@dataclass(frozen=True)
class Ride:
    """A passenger's ride on `train` from `board` to `alight`."""

    train: Train
    board: Stop
    alight: Stop

    @property
    def depart_at(self) -> dt.datetime:
        return self.board.depart

    @property
    def arrive_at(self) -> dt.datetime:
        return self.alight.arrive

    @property
    def duration_min(self) -> int:
        return int((self.arrive_at - self.depart_at).total_seconds() // 60)

    @property
    def distance_km(self) -> int:
        return self.alight.km - self.board.km

    def price(self, seat_class: SeatClass) -> float:
        """The fare in yuan for `seat_class`, rounded to 0.5 yuan as 12306 does."""
        rate = dict(self.train.rates)[seat_class]
        return max(0.5, round(self.distance_km * rate * 2) / 2)


class Timetable:
    """Every train of every line, per date, with a city-wide ride search."""

    def __init__(
        self, directory: StationDirectory | None = None, lines: Sequence[Line] = LINES
    ) -> None:
        self.directory = directory or curated_directory()
        self._lines = [(line, _resolve(line, self.directory)) for line in lines]
        self._lines = [(line, stops) for line, stops in self._lines if len(stops) >= 2]
        self._blocks = _number_blocks(line for line, _ in self._lines)
        self._by_date: dict[dt.date, tuple[tuple[Train, ...], _Index]] = {}

    def trains(self, start_date: dt.date) -> tuple[Train, ...]:
        """Every train leaving its origin on `start_date`."""
        return self._day(start_date)[0]

    def train(self, number: str, start_date: dt.date) -> Train | None:
        """The train `number` (its code G1, or 12306's train_no) leaving its origin that day."""
        return next((t for t in self.trains(start_date) if number in (t.code, t.train_no)), None)

    def rides(self, from_code: str, to_code: str, date: dt.date) -> list[Ride]:
        """Rides departing on `date` from any station of `from_code`'s city to `to_code`'s."""
        origin, destination = self.directory.get(from_code), self.directory.get(to_code)
        if origin is None or destination is None or origin.city == destination.city:
            return []
        boards = {s.telecode for s in self.directory.in_city(origin.city)}
        alights = {s.telecode for s in self.directory.in_city(destination.city)}
        rides = []
        # An overnight train boarded after midnight left its origin a day or two earlier.
        for start in (date - dt.timedelta(days=2), date - dt.timedelta(days=1), date):
            index = self._day(start)[1]
            for code in boards:
                for train, position in index.get(code, ()):
                    board = train.stops[position]
                    if board.depart.date() != date:
                        continue
                    alight = next(
                        (s for s in train.stops[position + 1 :] if s.station.telecode in alights),
                        None,
                    )
                    if alight is not None:
                        rides.append(Ride(train=train, board=board, alight=alight))
        rides.sort(key=lambda r: (r.depart_at, r.train.code))
        return rides

    def _day(self, start_date: dt.date) -> tuple[tuple[Train, ...], _Index]:
        cached = self._by_date.get(start_date)
        if cached is None:
            trains = tuple(
                train
                for line, stops in self._lines
                for train in _line_trains(line, stops, self._blocks[line.name], start_date)
            )
            index: _Index = {}
            for train in trains:
                for position, stop in enumerate(train.stops[:-1]):
                    index.setdefault(stop.station.telecode, []).append((train, position))
            if len(self._by_date) >= _CACHED_DATES:
                self._by_date.pop(next(iter(self._by_date)))
            cached = self._by_date[start_date] = (trains, index)
        return cached


# -- generation -------------------------------------------------------------------------------


def _resolve(line: Line, directory: StationDirectory) -> list[tuple[LineStop, Station]]:
    """The line's stops that exist in the directory (a small directory just shortens lines)."""
    resolved = []
    for stop in line.stops:
        station = directory.by_name(stop.name)
        if station is not None:
            resolved.append((stop, station))
    return resolved


def _number_blocks(lines: Iterable[Line]) -> dict[str, dict[str, int]]:
    """The first train number of each line's block, per kind."""
    used = dict.fromkeys(_BLOCK, 0)
    blocks: dict[str, dict[str, int]] = {}
    for line in lines:
        blocks[line.name] = {}
        for kind in sorted({s.kind for s in line.services}):
            blocks[line.name][kind] = _BLOCK_START[kind] + used[kind] * _BLOCK[kind]
            used[kind] += 1
    return blocks


def _line_trains(
    line: Line,
    stops: list[tuple[LineStop, Station]],
    blocks: dict[str, int],
    start_date: dt.date,
) -> list[Train]:
    trains = []
    for direction in ("down", "up"):
        run = stops if direction == "down" else stops[::-1]
        zero = run[0][0].km
        # km counted from this direction's origin
        run_km = [(stop, station, abs(stop.km - zero)) for stop, station in run]
        offset: dict[str, int] = {}
        for service in line.services:
            first = offset.get(service.kind, 0)
            offset[service.kind] = first + service.per_direction
            slots = list(range(service.per_direction))
            stable_rng(line.name, direction, service.kind, service.sleeper).shuffle(slots)
            for k, slot in enumerate(slots):
                key = (start_date, line.name, direction, service.kind, service.sleeper, k)
                if k >= 2 and stable_unit(*key) < _CANCEL_RATE:
                    continue  # not running today
                number = (
                    blocks[service.kind] + 2 * (first + slot) + (1 if direction == "down" else 2)
                )
                trains.append(_train(line, run_km, service, k, slot, direction, number, start_date))
    return trains


def _train(
    line: Line,
    run: list[tuple[LineStop, Station, int]],
    service: Service,
    k: int,
    slot: int,
    direction: str,
    number: int,
    start_date: dt.date,
) -> Train:
    kind = service.kind
    code = f"{kind}{number}"
    rng = stable_rng(line.name, direction, code)
    calls = _calls(run, service, k, rng.random)
    speed = _speed(line, service)
    runtime = sum(
        (b[2] - a[2]) / speed * 60 for a, b in zip(calls, calls[1:], strict=False)
    ) + 6 * len(calls)
    minute = _departure_minute(service, slot, runtime, rng.random())
    clock = dt.datetime.combine(start_date, dt.time(0), SHANGHAI) + dt.timedelta(minutes=minute)
    built: list[Stop] = []
    for i, (_, station, km) in enumerate(calls):
        if i > 0:
            hop = km - calls[i - 1][2]
            clock += dt.timedelta(minutes=round(hop / speed * 60 + (4 if speed > 150 else 6)))
        arrive = clock
        if 0 < i < len(calls) - 1:
            dwell = rng.randint(2, 5) if speed > 150 else rng.randint(4, 12)
            clock += dt.timedelta(minutes=dwell)
        built.append(Stop(station=station, km=km, arrive=arrive, depart=clock, number=i + 1))
    return Train(
        code=code,
        train_no=_train_no(code, run[0][1].name),
        line=line.name,
        start_date=start_date,
        stops=tuple(built),
        rates=_rates(line, service, code),
    )


def _calls(
    run: list[tuple[LineStop, Station, int]], service: Service, k: int, draw: Callable[[], float]
) -> list[tuple[LineStop, Station, int]]:
    """Where the train calls: a segment of the line, endpoints always, others by chance."""
    majors = [i for i, (stop, _, _) in enumerate(run) if stop.major]
    first, last = 0, len(run) - 1
    high_speed = service.kind in "GDC" and not service.sleeper
    # Most trains run end to end; the rest short-turn between two major stations.
    if high_speed and k >= max(2, service.per_direction * 4 // 5) and len(majors) > 2:
        a = majors[int(draw() * (len(majors) - 1))]
        later = [m for m in majors if m > a]
        b = later[int(draw() * len(later))]
        if (a, b) != (first, last):
            first, last = a, b
    calls = []
    for i in range(first, last + 1):
        stop = run[i][0]
        chance = _stop_chance(stop, service, k)
        if i in (first, last) or draw() < chance:
            calls.append(run[i])
    return calls


def _stop_chance(stop: LineStop, service: Service, k: int) -> float:
    if service.kind in OVERNIGHT_KINDS:
        return 1.0  # conventional lines list only the big stations
    if service.sleeper:
        return 1.0 if stop.major else 0.15
    if k == 0:
        return 1.0  # the all-stations train: every pair on a line has at least one train
    return 0.9 if stop.major else 0.4


def _speed(line: Line, service: Service) -> float:
    """Average running speed in km/h (stops and acceleration are added separately)."""
    if service.sleeper:
        return max(130.0, line.length_km / 11)  # overnight EMUs dawdle to arrive at breakfast
    match service.kind:
        case "G":
            return 300.0 if line.speed_kmh >= 350 else 230.0
        case "D":
            return 210.0
        case "C":
            return line.speed_kmh * 0.75
        case "Z":
            return 120.0
        case "T":
            return 105.0
        case _:
            return 85.0


def _departure_minute(service: Service, slot: int, runtime: float, draw: float) -> int:
    """Minutes after midnight: day trains spread over the day, sleepers leave in the evening."""
    n = service.per_direction
    overnight = service.sleeper or service.kind in OVERNIGHT_KINDS
    if overnight and not (service.kind == "K" and slot % 2 == 1):
        start, end = 17 * 60, 23 * 60 + 30
    elif overnight:
        start, end = 7 * 60, 15 * 60  # every other K train runs by day
    else:
        start, end = 6 * 60, max(6 * 60 + 30, int(23 * 60 - runtime))
    spacing = (end - start) / n
    return int(start + spacing * (slot + 0.2 + 0.6 * draw))


def _rates(line: Line, service: Service, code: str) -> tuple[tuple[SeatClass, float], ...]:
    """Seat classes offered and their yuan/km, from the kind and the line's speed."""
    chance = stable_unit(code, "classes")
    if service.kind in OVERNIGHT_KINDS:
        classes = [SeatClass.SOFT_SLEEPER, SeatClass.HARD_SLEEPER]
        if service.kind == "Z" and chance < 0.4:
            classes.insert(0, SeatClass.PREMIUM_SLEEPER)
        if service.kind == "K" and chance > 0.8:
            classes.append(SeatClass.SOFT_SEAT)
        classes += [SeatClass.HARD_SEAT, SeatClass.NO_SEAT]
        return tuple((cls, _CONVENTIONAL_RATES[cls]) for cls in classes)
    if service.sleeper:
        return ((SeatClass.SOFT_SLEEPER, 0.82), (SeatClass.EMU_SLEEPER, 0.58))
    fast = line.speed_kmh >= 300
    second = {"G": 0.46 if fast else 0.37, "D": 0.31, "C": 0.46 if fast else 0.31}[service.kind]
    rates = []
    if service.kind == "G":
        top = SeatClass.PREMIUM if chance < 0.1 else SeatClass.BUSINESS
        rates.append((top, second * (_PREMIUM if top is SeatClass.PREMIUM else _BUSINESS)))
    rates += [(SeatClass.FIRST, second * _FIRST), (SeatClass.SECOND, second)]
    if service.kind != "G" or chance > 0.5:
        rates.append((SeatClass.NO_SEAT, second))
    return tuple(rates)


def _train_no(code: str, origin_name: str) -> str:
    """12306's internal id: bureau, zero fill, code and a two-character suffix (12 chars)."""
    bureau = _BUREAUS[stable_int(0, len(_BUREAUS) - 1, origin_name)]
    suffix = "".join(_SUFFIX[stable_int(0, len(_SUFFIX) - 1, code, i)] for i in range(2))
    return f"{bureau}{'0' * (8 - len(code))}{code}{suffix}"
