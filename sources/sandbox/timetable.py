"""The sandbox timetable: the real network of `network.py`, on any date, with a city-wide search.

Pure: no IO, no clock. Every run of the committed network (real stop patterns, distances and
running times, real departure clock times for most trains; see `data/README.md`) runs every
day, so the same date always gives the same timetable. A query between two stations returns
the rides of every train serving both cities in that direction, as 12306 answers: each
station indexes the runs calling there, so a query intersects the two cities' run sets and
builds only the trains it returns (`Train` objects are cached, bounded). A train renumbered
en route (K1075/K1078) carries the number valid where the ride boards.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from sources.models import SHANGHAI, SeatClass, Station
from sources.sandbox.fares import fare
from sources.sandbox.network import (
    MINUTES_PER_DAY,
    Network,
    Run,
    default_network,
    group_by_city,
)
from sources.sandbox.seeding import stable_unit
from sources.stations import StationDirectory, curated_directory

OVERNIGHT_KINDS = frozenset("ZTK")
SMART_EMU_SHARE = 0.2
_CACHED_TRAINS = 20_000


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
    """One train on one date: `start_date` is the day it leaves its origin; `code` the number it
    carries on this ride (a renumbered train's second number after its change stop)."""

    code: str
    train_no: str
    start_date: dt.date
    run: Run = field(compare=False, repr=False)
    stations: tuple[Station, ...] = field(compare=False, repr=False)

    @property
    def kind(self) -> str:
        return self.code[0]

    @property
    def codes(self) -> tuple[str, ...]:
        """Every number the train carries, in running order."""
        return self.run.codes

    @property
    def seat_classes(self) -> tuple[SeatClass, ...]:
        return self.run.seat_classes

    @cached_property
    def features(self) -> tuple[str, ...]:
        """What 12306 marks on the train (its `dw_flag`), as the vendors render it: every G
        train is a 复兴号; about one in five is a 复兴号智能动车组, with a quiet coach."""
        if self.kind != "G":
            return ()
        if stable_unit(self.train_no, "smart") < SMART_EMU_SHARE:
            return ("智能动车组", "复兴号", "静音车厢")
        return ("复兴号",)

    @property
    def origin(self) -> Station:
        return self.stations[0]

    @property
    def terminus(self) -> Station:
        return self.stations[-1]

    @property
    def departs_at(self) -> dt.datetime:
        return self._clock(self.run.depart[0])

    @cached_property
    def stops(self) -> tuple[Stop, ...]:
        return tuple(self.stop(i) for i in range(len(self.stations)))

    def stop(self, position: int) -> Stop:
        """The train's call at 0-based `position` of its run (built once, on first use)."""
        built = self._built_stops.get(position)
        if built is None:
            built = self._built_stops[position] = Stop(
                station=self.stations[position],
                km=self.run.km[position],
                arrive=self._clock(self.run.arrive[position]),
                depart=self._clock(self.run.depart[position]),
                number=position + 1,
            )
        return built

    @cached_property
    def _built_stops(self) -> dict[int, Stop]:
        return {}

    @cached_property
    def _midnight(self) -> dt.datetime:
        return dt.datetime.combine(self.start_date, dt.time(0), SHANGHAI)

    def _clock(self, minutes: int) -> dt.datetime:
        return self._midnight + dt.timedelta(minutes=minutes)


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
        """The fare in yuan for `seat_class` over this ride's distance (see `fares.py`)."""
        if seat_class not in self.train.seat_classes:
            raise KeyError(seat_class)
        return fare(self.train.run.tier, seat_class, self.distance_km)


class Timetable:
    """Every train of the network, per date, with a city-wide ride search."""

    def __init__(
        self, directory: StationDirectory | None = None, network: Network | None = None
    ) -> None:
        self.directory = directory if directory is not None else curated_directory()
        self._network = network
        self._trains: OrderedDict[tuple[int, dt.date, str], Train] = OrderedDict()
        self._run_stations: dict[int, tuple[Station, ...]] = {}

    # The network and its indexes are built on first use, not with the timetable: a vendor
    # mounted in-process is built at every start (the command line's too), and its first
    # request comes after the source's limiter admitted it, so the load (20-30 ms of CPU)
    # runs while that source's next request waits for its turn.

    @cached_property
    def network(self) -> Network:
        return self._network or default_network()

    @cached_property
    def _stations(self) -> dict[str, Station]:
        # The directory's own Station where it knows the telecode, so offers compare equal to
        # what the app resolves; the network's official record otherwise.
        official = self.network.stations
        return {code: self.directory.get(code) or official[code] for code in official}

    @cached_property
    def _by_city(self) -> Mapping[str, Mapping[int, tuple[int, ...]]]:
        official = self.network.stations
        city_of = {code: station.city for code, station in self._stations.items()}
        if all(city_of[code] == official.city(code) for code in official):
            return self.network.by_city  # the usual case: shared, built once
        return group_by_city(self.network.calls, city_of)

    @cached_property
    def _by_code(self) -> dict[str, int]:
        return {code: index for index, run in enumerate(self.network.runs) for code in run.codes}

    def station(self, telecode: str) -> Station | None:
        """A station of the directory or of the network."""
        return self.directory.get(telecode) or self._stations.get(telecode.upper())

    def trains(self, start_date: dt.date) -> tuple[Train, ...]:
        """Every train leaving its origin on `start_date`."""
        return tuple(
            self._train(index, start_date, run.codes[0])
            for index, run in enumerate(self.network.runs)
        )

    def calling_at(self, city: str, start_date: dt.date) -> list[Train]:
        """The trains leaving their origin on `start_date` that call somewhere in `city`
        (the station index: a few hundred trains, not the whole network's thousands)."""
        return [
            self._train(index, start_date, self.network.runs[index].codes[0])
            for index in self._by_city.get(city, {})
        ]

    def numbered(self, prefix: str, start_date: dt.date) -> list[Train]:
        """The trains leaving their origin on `start_date` with a number that starts with
        `prefix` (12306's train search): only those are built, not the day's 7,749. A train
        renumbered en route is found by either number (G1953 is G1952 from 太原南 on), as
        12306's search lists each."""
        prefix = prefix.upper()
        return [
            self._train(index, start_date, code)
            for index, run in enumerate(self.network.runs)
            for code in run.codes
            if code.startswith(prefix)
        ]

    def train(self, number: str, start_date: dt.date) -> Train | None:
        """The train `number` leaving its origin that day: either code of a renumbered one
        (G1, K1078), or 12306's train_no."""
        index = self._by_code.get(number.upper())
        if index is not None:
            return self._train(index, start_date, number.upper())
        # A train_no carries its first number between the bureau and the suffix (network.py's
        # `train_no`): look that number up instead of building every train of the day.
        index = self._by_code.get(number[2:-2].lstrip("0"))
        if index is None or self.network.runs[index].train_no != number:
            return None
        return self._train(index, start_date, self.network.runs[index].codes[0])

    def rides(self, from_code: str, to_code: str, date: dt.date) -> list[Ride]:
        """Rides departing on `date` from any station of `from_code`'s city to `to_code`'s;
        within one city, from the asked station's town to the other's (`_in_town`)."""
        origin, destination = self.station(from_code), self.station(to_code)
        if origin is None or destination is None:
            return []
        boards = self._by_city.get(origin.city)
        alights = self._by_city.get(destination.city)
        if not boards or not alights:
            return []
        if origin.city == destination.city:
            # Two places of one prefecture (苏州 and 昆山): a town's end is its own stations
            # (昆山, 昆山南), the city's end the rest of the city (苏州北, 张家港, never 昆山).
            leaving, reaching = _town(origin), _town(destination)
            if leaving == reaching:
                return []
            boards = self._in_town(boards, leaving, origin.city, reaching)
            alights = self._in_town(alights, reaching, origin.city, leaving)
        rides = []
        for index in boards.keys() & alights.keys():
            run = self.network.runs[index]
            board = self._pick(run, boards[index], origin, after=-1)
            alight = self._pick(run, alights[index], destination, after=board)
            if alight is None or board is None:
                continue
            # An overnight train boarded after midnight left its origin a day or more earlier.
            start = date - dt.timedelta(days=run.depart[board] // MINUTES_PER_DAY)
            train = self._train(index, start, run.code_at(board))
            rides.append(Ride(train=train, board=train.stop(board), alight=train.stop(alight)))
        rides.sort(key=lambda r: (r.depart_at, r.train.code))
        return rides

    def _in_town(
        self, calls: Mapping[int, tuple[int, ...]], town: str, city: str, other: str
    ) -> Mapping[int, tuple[int, ...]]:
        """The calls of `calls` (run → positions) at `town`'s stations (`_town`); for the
        `city` itself, at any of its stations but those of the `other` end's town."""

        def wanted(code: str) -> bool:
            here = _town(self._stations[code])
            return here != other if town == city else here == town

        found: dict[int, tuple[int, ...]] = {}
        for index, positions in calls.items():
            codes = self.network.runs[index].stations
            kept = tuple(p for p in positions if wanted(codes[p]))
            if kept:
                found[index] = kept
        return found

    def _pick(
        self, run: Run, positions: tuple[int, ...], asked: Station, after: int | None
    ) -> int | None:
        """Where a ride boards (or alights, after `after`) in the asked station's city: the
        asked station itself, else a station named after the city (桂林北 before 恭城), else the
        first call."""
        if after is None:
            return None
        if len(positions) == 1:
            return positions[0] if positions[0] > after else None
        candidates = [p for p in positions if p > after]
        if not candidates:
            return None

        def rank(position: int) -> int:
            station = self._stations[run.stations[position]]
            if station.telecode == asked.telecode:
                return 0
            return 1 if station.name.startswith(asked.city) else 2

        return min(candidates, key=lambda p: (rank(p), p))

    def _train(self, index: int, start_date: dt.date, code: str) -> Train:
        key = (index, start_date, code)
        train = self._trains.get(key)
        if train is not None:
            self._trains.move_to_end(key)
            return train
        run = self.network.runs[index]
        stations = self._run_stations.get(index)
        if stations is None:
            stations = self._run_stations[index] = tuple(self._stations[c] for c in run.stations)
        train = Train(
            code=code, train_no=run.train_no, start_date=start_date, run=run, stations=stations
        )
        self._trains[key] = train
        if len(self._trains) > _CACHED_TRAINS:
            self._trains.popitem(last=False)
        return train


def _town(station: Station) -> str:
    """The place a station serves within its prefecture: the city for a station named after
    it (苏州北, 苏州园区), else the town it is named after (昆山南 → 昆山)."""
    if station.name.startswith(station.city):
        return station.city
    name = station.name
    return name[:-1] if len(name) > 2 and name[-1] in "东西南北" else name
