"""The committed sandbox network (`sources/data/network.json.gz`) as date-independent runs.

Pure apart from reading the packaged file once (`default_network`). A `Run` is one train
number's stop pattern with clock minutes counted from midnight of the day it leaves its
origin (so `depart[i] // 1440` is the stop's day offset); `Network.by_city` indexes every
city by the runs that call there, so a ride search intersects two small dicts instead of
scanning trains. How the file is derived: `scripts/build_network.py` and
`sources/data/README.md`.

The file keeps the 69,158 stops as four columns (station, km, arrival and departure
minutes), each one string whose characters' code points are the numbers (`encode_column`):
parsed as JSON numbers they took ~0.3 s and 18 MiB of int objects at every start; as
strings they load in ~20 ms into 16-bit arrays, and each run's numbers are slices of them.
The per-city index is built for a city when it is first asked about.
"""

from __future__ import annotations

import gzip
import itertools
import json
import sys
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib.resources import files
from operator import itemgetter
from typing import NamedTuple

from sources.models import SeatClass, Station
from sources.sandbox.fares import fare
from sources.sandbox.seeding import stable_int

NETWORK_FILE = files("sources") / "data" / "network.json.gz"
FORMAT = 3
MINUTES_PER_DAY = 24 * 60
COLUMNS = ("stations", "km", "arrive", "depart")
"""The stop columns of the file, in run order: a station's index, km, minutes."""
COLUMN_MAX = 0xD7FF
"""A column's numbers are code points below the surrogates (km and minutes stay under 10,000)."""

_BUREAUS = ("24", "31", "5l", "65", "38", "27", "39", "76", "86", "88", "62", "57", "6i")
_SUFFIX = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"


class Run(NamedTuple):
    """One train number's pattern: stops, km from the origin, clock minutes, fare and classes.

    `codes` has two numbers for a train renumbered en route; the second applies from stop
    index `change_at`. A NamedTuple (not a dataclass) because 7,749 are built at start-up;
    the numbers are slices of the file's 16-bit columns, never mutated.
    """

    codes: tuple[str, ...]
    change_at: int
    tier: str
    seat_classes: tuple[SeatClass, ...]
    real_time: bool
    stations: Sequence[str]  # telecodes
    km: Sequence[int]
    arrive: Sequence[int]  # minutes after midnight of the start date
    depart: Sequence[int]

    @property
    def train_no(self) -> str:
        """12306's internal id of the train (stable: the first number and the origin)."""
        return train_no(self.codes[0], self.stations[0])

    def code_at(self, position: int) -> str:
        """The number the train carries when it leaves stop `position`."""
        if len(self.codes) > 1 and position >= self.change_at:
            return self.codes[1]
        return self.codes[0]


@dataclass(frozen=True)
class Network:  # not slots: `calls` is cached on the instance
    """Every run, the stations they use, and per city the runs calling there.

    Also the city-level topology the planner's hub search reads (`reach`, `reached_from`:
    `{city: (shortest km, trains)}`), built per city on first use.
    """

    runs: tuple[Run, ...]
    stations: StationRecords
    official_by_city: Mapping[str, Mapping[int, tuple[int, ...]]]  # positions ascending
    _reach: dict[tuple[str, bool], dict[str, tuple[int, int]]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def reach(self, city: str) -> Mapping[str, tuple[int, int]]:
        """Cities the trains calling at `city` go on to, with the shortest km and train count."""
        return self._links(city, onward=True)

    def reached_from(self, city: str) -> Mapping[str, tuple[int, int]]:
        """Cities whose trains go on to `city`, with the shortest km and train count."""
        return self._links(city, onward=False)

    def _links(self, city: str, *, onward: bool) -> Mapping[str, tuple[int, int]]:
        cached = self._reach.get((city, onward))
        if cached is not None:
            return cached
        links: dict[str, tuple[int, int]] = {}
        for index, positions in self.official_by_city.get(city, {}).items():
            run = self.runs[index]
            here = positions[0] if onward else positions[-1]
            others = range(here + 1, len(run.stations)) if onward else range(here)
            seen: set[str] = {city}
            for other in others:
                there = self.stations.city(run.stations[other])
                if there in seen:
                    continue
                seen.add(there)
                km = abs(run.km[other] - run.km[here])
                known = links.get(there)
                links[there] = (km, 1) if known is None else (min(km, known[0]), known[1] + 1)
        self._reach[(city, onward)] = links
        return links

    @classmethod
    def from_document(cls, document: dict) -> Network:
        """Parse the JSON document `build_network.py` writes."""
        if document.get("format") != FORMAT:
            raise ValueError(f"network format {document.get('format')!r}, expected {FORMAT}")
        records = document["stations"]
        stations = StationRecords(records)
        codes = [record[0] for record in records]
        classes = {
            seats: tuple(SeatClass(s) for s in seats.split(","))
            for seats in {train[3] for train in document["trains"]}
        }
        column = {name: decode_column(document["stops"][name]) for name in COLUMNS}
        runs: list[Run] = []
        start = 0
        for number, change_at, tier, seats, real, count in document["trains"]:
            end = start + count
            runs.append(
                Run(
                    tuple(number.split("_")),
                    change_at,
                    tier,
                    classes[seats],
                    bool(real),
                    itemgetter(*column["stations"][start:end])(codes),  # runs have 2+ stops
                    column["km"][start:end],
                    column["arrive"][start:end],
                    column["depart"][start:end],
                )
            )
            start = end
        lengths = [len(run.stations) for run in runs]
        calls = StationCalls(column["stations"], lengths)
        city_of = [stations.city(code) for code in codes]
        return cls(runs=tuple(runs), stations=stations, official_by_city=CityCalls(calls, city_of))

    @cached_property
    def calls(self) -> Mapping[str, Mapping[int, int]]:
        """Per telecode, the runs calling there and the position of their (first) call."""
        calls: dict[str, dict[int, int]] = {code: {} for code in self.stations}
        for index, run in enumerate(self.runs):
            for position, code in enumerate(run.stations):
                calls[code].setdefault(index, position)
        return calls

    def city_of(self, code: str) -> str:
        """The city of station `code`, without building its `Station`."""
        return self.stations.city(code)

    def fare(self, run: int, board: int, alight: int, seat_class: SeatClass) -> float:
        """The published fare of `seat_class` on run `run` from stop `board` to `alight`."""
        pattern = self.runs[run]
        return _fare(pattern.tier, seat_class, pattern.km[alight] - pattern.km[board])

    @property
    def by_city(self) -> Mapping[str, Mapping[int, tuple[int, ...]]]:
        """Per official city, the runs calling there and the positions of their calls."""
        return self.official_by_city


class StationRecords(Mapping[str, Station]):
    """The network's stations by telecode, each a `Station` once first asked for: the
    timetable serves the directory's own record of nearly every one, and building all 2,370
    models up front cost 2 MiB and 20 ms for the few it uses."""

    def __init__(self, records: Sequence[Sequence[str]]) -> None:
        self._records = {record[0]: record for record in records}
        self._built: dict[str, Station] = {}

    def __getitem__(self, code: str) -> Station:
        built = self._built.get(code)
        if built is None:
            telecode, name, city, pinyin, initials = self._records[code]
            built = self._built[code] = Station(
                telecode=telecode, name=name, city=city, pinyin=pinyin, initials=initials
            )
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def city(self, code: str) -> str:
        """The station's city, without building its `Station`."""
        return self._records[code][2]


class StationCalls:
    """Every call at a station, as (run, position), found in the stations column itself: a
    byte search per station (a few hundred calls at most) instead of indexing all 69,158
    stops before the first query."""

    def __init__(self, stations: array, lengths: Sequence[int]) -> None:
        self._column = stations.tobytes()
        self._starts = list(itertools.accumulate(lengths, initial=0))  # where each run starts

    def at(self, station: int) -> Iterator[tuple[int, int]]:
        """(run, position) of each call at station `station`, runs ascending."""
        unit = station.to_bytes(2, sys.byteorder)
        found = self._column.find(unit)
        while found >= 0:
            if found % 2 == 0:  # a whole number, not the high byte of one and the low of the next
                stop = found // 2
                run = bisect_right(self._starts, stop) - 1
                yield run, stop - self._starts[run]
            found = self._column.find(unit, found + 1)


class CityCalls(Mapping[str, Mapping[int, tuple[int, ...]]]):
    """Per official city, the runs calling at any of its stations and the positions of those
    calls (ascending), built for a city when it is first asked for."""

    def __init__(self, calls: StationCalls, city_of: Sequence[str]) -> None:
        self._calls = calls
        self._stations_of: dict[str, list[int]] = {}
        for station, city in enumerate(city_of):
            self._stations_of.setdefault(city, []).append(station)
        self._built: dict[str, dict[int, tuple[int, ...]]] = {}

    def __getitem__(self, city: str) -> Mapping[int, tuple[int, ...]]:
        built = self._built.get(city)
        if built is None:
            members = self._stations_of[city]  # KeyError for a city no station is in
            found: dict[int, list[int]] = {}
            for station in members:
                for run, position in self._calls.at(station):
                    found.setdefault(run, []).append(position)
            built = self._built[city] = {
                run: tuple(sorted(positions)) for run, positions in found.items()
            }
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self._stations_of)

    def __len__(self) -> int:
        return len(self._stations_of)


def encode_column(numbers: Sequence[int]) -> str:
    """A column of the file: one character per number, its code point the number."""
    if any(not 0 <= n <= COLUMN_MAX for n in numbers):
        raise ValueError(f"a column holds numbers from 0 to {COLUMN_MAX}")
    return "".join(map(chr, numbers))


def decode_column(text: str) -> array:
    """A column as 16-bit numbers: below the surrogates, each character is one UTF-16 unit."""
    return array("H", text.encode("utf-16-le" if sys.byteorder == "little" else "utf-16-be"))


def group_by_city(
    calls: Mapping[str, Mapping[int, int]], city_of: Mapping[str, str]
) -> dict[str, dict[int, tuple[int, ...]]]:
    """Per city, each run calling at one of its stations and where (positions ascending)."""
    grouped: dict[str, dict[int, tuple[int, ...]]] = {}
    for code, runs in calls.items():
        city = grouped.setdefault(city_of[code], {})
        for run, position in runs.items():
            known = city.get(run)
            city[run] = (position,) if known is None else tuple(sorted((*known, position)))
    return grouped


@cache
def _fare(tier: str, seat_class: SeatClass, km: int) -> float:
    return fare(tier, seat_class, km)


@cache
def train_no(code: str, origin: str) -> str:
    """12306's internal id: bureau, zero fill, code and a two-character suffix (12 chars)."""
    bureau = _BUREAUS[stable_int(0, len(_BUREAUS) - 1, origin)]
    suffix = "".join(_SUFFIX[stable_int(0, len(_SUFFIX) - 1, code, i)] for i in range(2))
    return f"{bureau}{'0' * (8 - len(code))}{code}{suffix}"


@cache
def default_network() -> Network:
    """The committed network (loaded once per process)."""
    return Network.from_document(json.loads(gzip.decompress(NETWORK_FILE.read_bytes())))
