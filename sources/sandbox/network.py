"""The committed sandbox network (`sources/data/network.json.gz`) as date-independent runs.

Pure apart from reading the packaged file once (`default_network`). A `Run` is one train
number's stop pattern with clock minutes counted from midnight of the day it leaves its
origin (so `depart[i] // 1440` is the stop's day offset); `Network.by_city` indexes every
city by the runs that call there, so a ride search intersects two small dicts instead of
scanning trains. How the file is derived: `scripts/build_network.py` and
`sources/data/README.md`.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib.resources import files
from typing import NamedTuple

from sources.models import SeatClass, Station
from sources.sandbox.seeding import stable_int

NETWORK_FILE = files("sources") / "data" / "network.json.gz"
FORMAT = 2
MINUTES_PER_DAY = 24 * 60

_BUREAUS = ("24", "31", "5l", "65", "38", "27", "39", "76", "86", "88", "62", "57", "6i")
_SUFFIX = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"


class Run(NamedTuple):
    """One train number's pattern: stops, km from the origin, clock minutes, fare and classes.

    `codes` has two numbers for a train renumbered en route; the second applies from stop
    index `change_at`. A NamedTuple (not a dataclass) because 7,749 are built at start-up;
    the sequences are the parsed JSON lists, never mutated.
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
    stations: Mapping[str, Station]
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
                there = self.stations[run.stations[other]].city
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
        stations = {
            code: Station(telecode=code, name=name, city=city, pinyin=pinyin, initials=initials)
            for code, name, city, pinyin, initials in records
        }
        codes = [record[0] for record in records]
        city_of = [stations[code].city for code in codes]
        classes = {
            seats: tuple(SeatClass(s) for s in seats.split(","))
            for seats in {train[3] for train in document["trains"]}
        }
        runs: list[Run] = []
        by_city: dict[str, dict[int, tuple[int, ...]]] = {city: {} for city in city_of}
        for number, change_at, tier, seats, real, idx, km, arrive, depart in document["trains"]:
            index = len(runs)
            telecodes = [codes[i] for i in idx]
            runs.append(
                Run(
                    tuple(number.split("_")),
                    change_at,
                    tier,
                    classes[seats],
                    bool(real),
                    telecodes,
                    km,
                    arrive,
                    depart,
                )
            )
            for position, i in enumerate(idx):
                city = by_city[city_of[i]]
                known = city.get(index)
                city[index] = (position,) if known is None else (*known, position)
        return cls(runs=tuple(runs), stations=stations, official_by_city=by_city)

    @cached_property
    def calls(self) -> Mapping[str, Mapping[int, int]]:
        """Per telecode, the runs calling there and the position of their (first) call."""
        calls: dict[str, dict[int, int]] = {code: {} for code in self.stations}
        for index, run in enumerate(self.runs):
            for position, code in enumerate(run.stations):
                calls[code].setdefault(index, position)
        return calls

    @property
    def by_city(self) -> Mapping[str, Mapping[int, tuple[int, ...]]]:
        """Per official city, the runs calling there and the positions of their calls."""
        return self.official_by_city


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
def train_no(code: str, origin: str) -> str:
    """12306's internal id: bureau, zero fill, code and a two-character suffix (12 chars)."""
    bureau = _BUREAUS[stable_int(0, len(_BUREAUS) - 1, origin)]
    suffix = "".join(_SUFFIX[stable_int(0, len(_SUFFIX) - 1, code, i)] for i in range(2))
    return f"{bureau}{'0' * (8 - len(code))}{code}{suffix}"


@cache
def default_network() -> Network:
    """The committed network (loaded once per process)."""
    return Network.from_document(json.loads(gzip.decompress(NETWORK_FILE.read_bytes())))
