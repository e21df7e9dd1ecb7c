"""The station directory: resolve a city, station name, pinyin, initials or telecode.

The curated table (`sources/data/stations.csv`) is the default; a deployment can load the
official 12306 list (`station_name.js`) from a file or URL instead.
"""

from __future__ import annotations

import csv
import difflib
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

from pydantic import Field

from sources.models import Frozen, Station

CURATED_CSV = Path(__file__).parent / "data" / "stations.csv"


class UnknownStationError(LookupError):
    """No station or city matches `text`; `suggestions` holds the nearest names."""

    def __init__(self, text: str, suggestions: list[str]) -> None:
        hint = f" (did you mean {', '.join(suggestions)}?)" if suggestions else ""
        super().__init__(f"unknown station or city: {text!r}{hint}")
        self.text = text
        self.suggestions = suggestions


class Place(Frozen):
    """What a name resolved to: a whole city or one station.

    `telecode` is the code to query with (for a city, its namesake station, as 12306 does);
    `stations` are the stations the traveller may use.
    """

    name: str
    city: str
    telecode: str
    is_city: bool
    stations: tuple[Station, ...] = Field(min_length=1)


class StationDirectory:
    """An immutable, indexed set of stations."""

    def __init__(self, stations: Iterable[Station]) -> None:
        self._by_code: dict[str, Station] = {}
        self._by_name: dict[str, Station] = {}
        self._by_city: dict[str, list[Station]] = {}
        self._by_pinyin: dict[str, Station] = {}
        self._by_initials: dict[str, list[Station]] = {}
        for station in stations:
            self._by_code[station.telecode] = station
            self._by_name[station.name] = station
            self._by_city.setdefault(station.city, []).append(station)
            if station.pinyin:
                self._by_pinyin.setdefault(station.pinyin.lower(), station)
            if station.initials:
                self._by_initials.setdefault(station.initials.lower(), []).append(station)

    # -- construction ------------------------------------------------------------------

    @classmethod
    def from_csv(cls, path: Path) -> StationDirectory:
        with path.open(encoding="utf-8", newline="") as fh:
            return cls(Station(**row) for row in csv.DictReader(fh))

    @classmethod
    def from_station_name_js(cls, text: str) -> StationDirectory:
        """Parse 12306's `station_name.js` (`@bjb|北京北|VAP|beijingbei|bjb|0|0357|北京|||…`)."""
        return cls(parse_station_name_js(text))

    # -- lookups -----------------------------------------------------------------------

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
        return list(self._by_city.get(city, ()))

    def city_code(self, city: str) -> str:
        """The telecode that stands for a whole city in a query (its namesake station)."""
        stations = self._by_city[city]
        for station in stations:
            if station.name == city:
                return station.telecode
        return stations[0].telecode

    def names(self) -> list[str]:
        """Every city and station name, longest first (for scanning free text)."""
        return sorted(set(self._by_name) | set(self._by_city), key=lambda n: (-len(n), n))

    def resolve(self, text: str) -> Place:
        """Resolve a city, station name, pinyin, initials or telecode, or raise."""
        key = text.strip()
        if not key:
            raise UnknownStationError(text, [])
        if key in self._by_city:
            return self._city_place(key)
        station = (
            self._by_name.get(key)
            or self._by_name.get(key.removesuffix("站"))
            or (self._by_code.get(key) if key.isupper() and len(key) == 3 else None)
            or self._by_pinyin.get(key.lower())
        )
        if station is None:
            matches = self._by_initials.get(key.lower(), [])
            if len(matches) == 1:
                station = matches[0]
        if station is None:
            raise UnknownStationError(text, self.suggest(key))
        if station.name == station.city and self._by_city.get(station.city):
            return self._city_place(station.city)
        return Place(
            name=station.name,
            city=station.city,
            telecode=station.telecode,
            is_city=False,
            stations=(station,),
        )

    def search(self, q: str, limit: int = 20) -> list[Station]:
        """Stations whose name, city, pinyin, initials or telecode start with `q`."""
        needle = q.strip().lower()
        if not needle:
            return []
        hits = [
            s
            for s in self._by_code.values()
            if s.name.startswith(q.strip())
            or s.city.startswith(q.strip())
            or s.pinyin.startswith(needle)
            or s.initials.startswith(needle)
            or s.telecode.lower() == needle
        ]
        hits.sort(key=lambda s: (s.city != q.strip(), s.name != s.city, len(s.name), s.name))
        return hits[:limit]

    def suggest(self, text: str, limit: int = 5) -> list[str]:
        """The nearest known names for a misspelt `text`."""
        pool = list(set(self._by_name) | set(self._by_city))
        close = difflib.get_close_matches(text, pool, n=limit, cutoff=0.5)
        if not close and text.isascii():
            by_pinyin = difflib.get_close_matches(text.lower(), list(self._by_pinyin), n=limit)
            close = [self._by_pinyin[p].name for p in by_pinyin]
        return close

    def _city_place(self, city: str) -> Place:
        stations = tuple(self._by_city[city])
        return Place(
            name=city, city=city, telecode=self.city_code(city), is_city=True, stations=stations
        )


def parse_station_name_js(text: str) -> list[Station]:
    """Records split on `@`, fields on `|`: alias, name, telecode, pinyin, initials, order,
    city code, city name (and for cross-border stations country code, name, English name)."""
    body = text.split("'", 1)[1].rsplit("'", 1)[0] if "'" in text else text
    stations: list[Station] = []
    for record in body.split("@"):
        fields = record.split("|")
        if len(fields) < 5 or not fields[1] or not fields[2]:
            continue
        name, telecode, pinyin, initials = fields[1], fields[2], fields[3], fields[4]
        city = fields[7] if len(fields) > 7 and fields[7] else name
        stations.append(
            Station(telecode=telecode, name=name, city=city, pinyin=pinyin, initials=initials)
        )
    return stations


@cache
def curated_directory() -> StationDirectory:
    """The curated directory shipped with railtrip (loaded once per process)."""
    return StationDirectory.from_csv(CURATED_CSV)
