"""The station directory: resolve a city, station name, pinyin, initials or telecode.

The default directory is every official station (`sources/data/official_stations.csv`, 3,364
stations derived from 12306's `station_name.js` by `scripts/build_stations.py`), with
the curated table (`sources/data/stations.csv`) layered on top: its order ranks a city's
stations and the cities themselves. A deployment can load another list from a file or URL
(`load_directory`), and one that queries 12306 refreshes it at start-up (`refresh_directory`).

What each kind of input resolves to (`StationDirectory.resolve`):

- a city (北京, 北京市, Beijing, beijing, Peking) -> the whole city, all its stations, main first;
- a station name (北京南, 北京南站) -> that station; a bare name with direction-suffixed siblings
  (昆山 -> 昆山 + 昆山南, 华山 -> 华山 + 华山北) -> the town with all those stations;
- `X站` / `X火车站` -> exactly station X (北京站 is the station, not the city);
- pinyin, case, spaces and apostrophes ignored (beijingnan, "Shanghai Hongqiao", "Xi'an North",
  "Guangzhou South Railway Station");
- initials (bjn) when they point at one place, or at one provincial capital (bj -> 北京);
- a telecode: upper case always (VNP); lower case (vnp) only when it is not pinyin or initials.

Input is tidied first (`normalise_input`: full-width forms, tone marks, spaces inside Chinese).
Pinyin or initials shared by several places raise `AmbiguousStationError` (a subclass of
`UnknownStationError`) listing them, so a caller can ask the traveller which one. Search and
suggestions are `matching.py`'s, the list readers `parsers.py`'s, loading from elsewhere
`refresh.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache, partial
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import Field

from sources.models import TOWN_SIBLING, Frozen, Station
from sources.stations.matching import (
    DIRECTIONS,
    STATION_SUFFIXES,
    TextSearch,
    _ascii_key,
    ascii_key,
    normalise_input,
)
from sources.stations.parsers import (
    OfficialRecord,
    parse_official_records,
    read_official_csv,
    read_stations_csv,
)

# The bundled tables (package data, read through importlib.resources: never the working dir).
DATA = files("sources") / "data"
CURATED_CSV = DATA / "stations.csv"
OFFICIAL_CSV = DATA / "official_stations.csv"

# English and other romanised names that pinyin does not give (Beijing, Xi'an ... come from
# the pinyin itself).
ENGLISH_NAMES: dict[str, str] = {
    "peking": "北京",
    "canton": "广州",
    "harbin": "哈尔滨",
    "urumqi": "乌鲁木齐",
    "hohhot": "呼和浩特",
    "lhasa": "拉萨",
    "hongkong": "香港",
    "xianggang": "香港",
    "amoy": "厦门",
    "tsingtao": "青岛",
}


class UnknownStationError(LookupError):
    """No station or city matches `text`; `suggestions` holds the nearest names."""

    def __init__(self, text: str, suggestions: list[str]) -> None:
        hint = f" (did you mean {', '.join(suggestions)}?)" if suggestions else ""
        super().__init__(f"unknown station or city: {text!r}{hint}")
        self.text = text
        self.suggestions = suggestions


class AmbiguousStationError(UnknownStationError):
    """`text` (pinyin or initials) fits several places; `suggestions` lists them all."""

    def __init__(self, text: str, candidates: list[str]) -> None:
        LookupError.__init__(self, f"ambiguous station or city: {text!r} ({', '.join(candidates)})")
        self.text = text
        self.suggestions = candidates


class Place(Frozen):
    """What a name resolved to: a whole city, a town with several stations, or one station.

    `telecode` is the code to query with (for a city, its namesake station, as 12306 does);
    `stations` are the stations the traveller may use, main station first. `is_city` is True
    only for a whole city of the directory (then `name == city`).
    """

    name: str
    city: str
    telecode: str
    is_city: bool
    stations: tuple[Station, ...] = Field(min_length=1)


class StationDirectory(TextSearch):
    """An indexed set of stations, immutable but for `adopt` (a refresh while running).

    `generation` counts adoptions: anything that caches what it derived from a directory keys
    the cache on (the directory, its generation), or is told through the refresher's
    `on_change`.
    """

    generation: int = 0

    def __init__(
        self,
        stations: Iterable[Station],
        aliases: Mapping[str, str] | None = None,
        ranking: Mapping[str, int] | None = None,
    ) -> None:
        """Index `stations`; `aliases` map extra romanised names to a station or city name;
        `ranking` (telecode -> position, lower first) orders stations and cities by importance,
        unranked ones after ranked ones in input order."""
        self._by_code: dict[str, Station] = {}
        self._by_name: dict[str, Station] = {}
        grouped: dict[str, list[Station]] = {}
        for station in stations:
            self._by_code[station.telecode] = station
            self._by_name[station.name] = station
            grouped.setdefault(station.city, []).append(station)
        # Main station first: the namesake, then by ranking, then names that start with the city
        # (北京南) before the rest (汉口), each in input order (the curated table's is by
        # importance).
        rank = partial(_main_first, ranking=ranking or {}, unranked=len(ranking or {}))
        self._by_city: dict[str, list[Station]] = {
            city: sorted(members, key=partial(rank, city=city)) for city, members in grouped.items()
        }
        by_importance = sorted(self._by_city, key=lambda c: rank(self._by_city[c][0], city=c)[1])
        self._city_order = {city: i for i, city in enumerate(by_importance)}
        self._ascii: dict[str, list[str]] = {}
        self._initials: dict[str, list[str]] = {}
        self._city_pinyin: dict[str, str] = {}
        self._city_initials: dict[str, str] = {}
        for station in self._by_code.values():
            target = self._target(station)
            self._index(self._ascii, station.pinyin, target)
            self._index(self._initials, station.initials, target)
            if target == station.city:
                self._city_pinyin[station.city] = station.pinyin.lower()
                self._city_initials[station.city] = station.initials.lower()
        for city, members in self._by_city.items():
            if city not in self._city_pinyin:
                self._derive_city_pinyin(city, members)
        for names in (ENGLISH_NAMES, aliases or {}):
            for alias, target in names.items():
                if target in self._by_city or target in self._by_name:
                    self._index(self._ascii, ascii_key(alias), target)

    # -- construction ------------------------------------------------------------------

    @classmethod
    def from_csv(cls, path: Path | Traversable) -> StationDirectory:
        """Load a table with columns telecode, name, city, pinyin, initials."""
        return cls(read_stations_csv(path))

    @classmethod
    def from_station_name_js(cls, text: str) -> StationDirectory:
        """Parse 12306's `station_name.js` (`@bjb|北京北|VAP|beijingbei|bjb|0|0357|北京|||…`)."""
        return cls.from_official_records(parse_official_records(text))

    @classmethod
    def from_official_csv(cls, path: Path | Traversable) -> StationDirectory:
        """Load `official_stations.csv` (the official list as `build_stations` writes it)."""
        return cls.from_official_records(read_official_csv(path))

    @classmethod
    def from_official_records(cls, records: Iterable[OfficialRecord]) -> StationDirectory:
        """The official stations, their English names as aliases, ranked by the curated table."""
        records = list(records)
        aliases = {
            part: r.station.name
            for r in records
            for part in r.english.split("#")
            if part.strip() and ascii_key(part) != r.station.pinyin
        }
        # The official list carries no notion of importance; the curated table's order does, so
        # the stations railtrip curates come first in their city and their cities first in search.
        ranking = {station.telecode: i for i, station in enumerate(curated_directory())}
        return cls((r.station for r in records), aliases, ranking)

    def adopt(self, newer: StationDirectory) -> None:
        """Take `newer`'s stations and indexes in place, so every holder of this directory (the
        adapters, the parser, the agent, the sandbox) knows the new list at once. One
        assignment: a reader sees the old list or the new one, never half of each."""
        self.__dict__ = {**newer.__dict__, "generation": self.generation + 1}

    # -- plain lookups -----------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._by_code)

    def __iter__(self) -> Iterator[Station]:
        return iter(self._by_code.values())

    def get(self, telecode: str) -> Station | None:
        return self._by_code.get(telecode.upper())

    def by_name(self, name: str) -> Station | None:
        return self._by_name.get(name)

    def cities(self) -> list[str]:
        return list(self._by_city)

    def in_city(self, city: str) -> list[Station]:
        """The city's stations, main station first (empty for an unknown city)."""
        return list(self._by_city.get(city, ()))

    def city_code(self, city: str) -> str:
        """The telecode that stands for a whole city in a query (its namesake station).

        A city without a namesake station (华阴: 华山北, 华山) uses its main station.
        """
        return self._by_city[city][0].telecode

    def city(self, city: str) -> Place:
        """The whole of a city of the directory, all its stations, main first (KeyError if none)."""
        return self._city_place(city)

    def names(self) -> list[str]:
        """Every city and station name, longest first (for scanning free text)."""
        return sorted(set(self._by_name) | set(self._by_city), key=lambda n: (-len(n), n))

    # -- resolution --------------------------------------------------------------------

    def resolve(self, text: str) -> Place:
        """Resolve a city, station name, pinyin, initials or telecode, or raise."""
        key = normalise_input(text)
        place = self._lookup(key) if key else None
        if place is None:
            raise UnknownStationError(text, self.suggest(key) if key else [])
        return place

    def _lookup(self, key: str) -> Place | None:
        if key in self._by_city:
            return self._city_place(key)
        if key in self._by_name:
            town = key.removesuffix(TOWN_SIBLING)
            if town != key and town in self._by_name:  # 平遥古城: the town 平遥, both stations
                return self._station_place(self._by_name[town])
            return self._station_place(self._by_name[key])
        for suffix in STATION_SUFFIXES:
            base = key.removesuffix(suffix)
            if base != key and base in self._by_name:
                return self._station_place(self._by_name[base], town=False)
            if base != key and base in self._by_city:
                return self._city_place(base)
        if key.endswith("市") and key[:-1] in self._by_city:
            return self._city_place(key[:-1])
        if not key.isascii():
            return self._directed_town(key)
        if len(key) == 3 and key.isupper() and key in self._by_code:
            return self._station_place(self._by_code[key], town=False)
        plain = "".join(ch for ch in key.lower() if ch.isalnum())
        # Exact pinyin first, so a name that ends like a suffix (银盏, yinzhan) is not cut.
        normalised, said_station = (plain, False) if plain in self._ascii else _ascii_key(key)
        target = self._pick(key, self._ascii.get(normalised, []), self._rank)
        if target is None:
            target = self._pick_initials(key, normalised)
        if target is not None and said_station and target in self._by_name:
            return self._station_place(self._by_name[target], town=False)  # "Kunshan Station"
        if target is not None:
            return self._named_place(target)
        if len(normalised) == 3 and normalised.upper() in self._by_code:
            return self._station_place(self._by_code[normalised.upper()], town=False)
        return None

    def _pick_initials(self, key: str, normalised: str) -> str | None:
        candidates = self._initials.get(normalised, [])
        try:
            return self._pick(key, candidates, self._rank, decisive=(0, 2))
        except AmbiguousStationError:
            # `bjp` may be initials of several places and also a telecode: the code wins.
            if len(normalised) == 3 and normalised.upper() in self._by_code:
                return None
            raise

    @staticmethod
    def _pick(
        key: str,
        candidates: list[str],
        rank: Callable[[str], int],
        decisive: tuple[int, ...] = (0, 1, 2, 3),
    ) -> str | None:
        """The one best-ranked candidate, or raise `AmbiguousStationError` on a tie or when
        the best rank is not `decisive` enough to settle it."""
        if len(candidates) <= 1:
            return candidates[0] if candidates else None
        ordered = sorted(candidates, key=rank)
        best = rank(ordered[0])
        if best == rank(ordered[1]) or best not in decisive:
            raise AmbiguousStationError(key, ordered)
        return ordered[0]

    def directed(self, name: str) -> list[Station]:
        """The stations named `name` plus a direction when `name` itself is none (河口 ->
        河口北, 河口南)."""
        if name in self._by_name:
            return []
        return [self._by_name[name + d] for d in DIRECTIONS if name + d in self._by_name]

    def _directed_town(self, key: str) -> Place | None:
        """A town named without the direction its only station carries (大冶 for 大冶北):
        that station. Several (河口北 and 河口南, 300 km apart) are asked about instead."""
        stations = self.directed(key)
        if len(stations) != 1:
            return None
        return self._station_place(stations[0], town=False)

    def _named_place(self, name: str) -> Place:
        if name in self._by_city:
            return self._city_place(name)
        return self._station_place(self._by_name[name])

    def _city_place(self, city: str) -> Place:
        stations = tuple(self._by_city[city])
        return Place(
            name=city, city=city, telecode=stations[0].telecode, is_city=True, stations=stations
        )

    def _station_place(self, station: Station, *, town: bool = True) -> Place:
        """One station, or with `town` its direction-suffixed siblings too (昆山 + 昆山南)."""
        stations: tuple[Station, ...] = (station,)
        if town:
            stations += tuple(
                s
                for s in self._by_city[station.city]
                if s.name.startswith(station.name)
                and (
                    s.name[len(station.name) :] in DIRECTIONS
                    or s.name[len(station.name) :] == TOWN_SIBLING
                )
            )
        return Place(
            name=station.name,
            city=station.city,
            telecode=station.telecode,
            is_city=False,
            stations=stations,
        )

    def _target(self, station: Station) -> str:
        """What a station's pinyin names: the city for a namesake station, else the station."""
        return station.city if station.name == station.city else station.name

    @staticmethod
    def _index(index: dict[str, list[str]], key: str, target: str) -> None:
        key = key.lower()
        if key and target not in index.setdefault(key, []):
            index[key].append(target)

    def _derive_city_pinyin(self, city: str, members: list[Station]) -> None:
        """A city without a namesake station still has a romanised name: 资阳北 -> ziyang."""
        for station in members:
            suffix = station.name.removeprefix(city)
            if suffix in DIRECTIONS and station.pinyin.endswith(DIRECTIONS[suffix]):
                pinyin = station.pinyin.lower().removesuffix(DIRECTIONS[suffix])
                self._city_pinyin[city] = pinyin
                self._city_initials[city] = station.initials.lower()[:-1]
                self._index(self._ascii, pinyin, city)
                self._index(self._initials, station.initials[:-1], city)
                return


def _main_first(
    station: Station, city: str, ranking: Mapping[str, int], unranked: int
) -> tuple[bool, int, int]:
    prefix_tier = 0 if station.name.startswith(city) else 1
    return (station.name != city, ranking.get(station.telecode, unranked), prefix_tier)


@cache
def curated_directory() -> StationDirectory:
    """The curated subset shipped with railtrip (loaded once per process)."""
    return StationDirectory.from_csv(CURATED_CSV)


class _ReadOnFirstUse(StationDirectory):
    """A directory whose table is read when it is first asked something, not when it is
    handed out: the bundled list costs 30-35 ms of CPU to read and index, and the command
    line's `stops` first needs it only after 12306 answered its first request, while the
    source's pacing holds the next one, so it is read then. Once read it is the directory
    `load` returns, in place (the same object for every holder)."""

    def __init__(self, load: Callable[[], StationDirectory]) -> None:
        self.__dict__["_read"] = load

    def __getattr__(self, name: str) -> Any:
        # Only for what the instance lacks: before the read, every index.
        load = self.__dict__.pop("_read", None)
        if load is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.__dict__.update(load().__dict__)
        return getattr(self, name)


@cache
def default_directory() -> StationDirectory:
    """Every official station with the curated ranking on top (read once per process, on
    first use)."""
    return _ReadOnFirstUse(lambda: StationDirectory.from_official_csv(OFFICIAL_CSV))
