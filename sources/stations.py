"""The station directory: resolve a city, station name, pinyin, initials or telecode.

The default directory is every official station (`sources/data/official_stations.csv`, 3,364
stations derived from 12306's `station_name.js` by `sources/data/build_stations.py`), with
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
`UnknownStationError`) listing them, so a caller can ask the traveller which one.
"""

from __future__ import annotations

import asyncio
import csv
import difflib
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path

import httpx
from pydantic import Field, ValidationError

from sources.models import Frozen, Station

CURATED_CSV = Path(__file__).parent / "data" / "stations.csv"
OFFICIAL_CSV = Path(__file__).parent / "data" / "official_stations.csv"
OFFICIAL_COLUMNS = ("telecode", "name", "city", "pinyin", "initials", "english")

PROVINCIAL_CAPITALS: tuple[str, ...] = (
    "北京", "天津", "上海", "重庆", "石家庄", "太原", "呼和浩特", "沈阳", "长春", "哈尔滨",
    "南京", "杭州", "合肥", "福州", "南昌", "济南", "郑州", "武汉", "长沙", "广州", "南宁",
    "海口", "成都", "贵阳", "昆明", "拉萨", "西安", "兰州", "西宁", "银川", "乌鲁木齐",
)  # fmt: skip
_CAPITALS = frozenset(PROVINCIAL_CAPITALS)

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

_DIRECTIONS = {"东": "dong", "西": "xi", "南": "nan", "北": "bei"}
_ENGLISH_DIRECTIONS = {"east": "dong", "west": "xi", "south": "nan", "north": "bei"}
_STATION_WORDS = ("railwaystation", "trainstation", "station", "huochezhan", "zhan")
_STATION_SUFFIXES = ("火车站", "站")


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


class StationListError(Exception):
    """The station list at `location` could not be fetched, read or parsed."""

    def __init__(self, location: str, reason: str) -> None:
        super().__init__(f"cannot load station list from {location}: {reason}")
        self.location = location
        self.reason = reason


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


@dataclass(frozen=True, slots=True)
class OfficialRecord:
    """One record of `station_name.js`; cross-border stations also carry country and English."""

    station: Station
    country_code: str = ""
    country: str = ""
    english: str = ""


def normalise_input(text: str) -> str:
    """Tidy what a traveller typed: full-width forms, tone marks, stray spaces in Chinese.

    "ＶＮＰ" -> "VNP", "Běijīng Nán" -> "Beijing Nan", "Lüliang" -> "Lvliang" (12306 writes ü
    as v), "北京 南" -> "北京南". Romanised text keeps its spaces for `ascii_key`.
    """
    text = unicodedata.normalize("NFKC", text).strip()
    if text.isascii():
        return text
    plain = unicodedata.normalize("NFKD", text)
    plain = plain.replace("u\u0308", "v").replace("U\u0308", "V")  # ü, ǚ … keep their dots as v
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return plain if plain.isascii() else "".join(text.split())


def ascii_key(text: str) -> str:
    """Normalise romanised input: "Xi'an North Railway Station" -> "xianbei"."""
    return _ascii_key(text)[0]


def _ascii_key(text: str) -> tuple[str, bool]:
    """`ascii_key` and whether the text said "station" (Beijing Station is not all Beijing)."""
    key = "".join(ch for ch in text.lower() if ch.isalnum())
    said_station = False
    for word in _STATION_WORDS:
        if key.endswith(word) and len(key) > len(word):
            key, said_station = key.removesuffix(word), True
            break
    for english, pinyin in _ENGLISH_DIRECTIONS.items():
        if key.endswith(english) and len(key) > len(english):
            return key.removesuffix(english) + pinyin, said_station
    return key, said_station


class StationDirectory:
    """An immutable, indexed set of stations."""

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
    def from_csv(cls, path: Path) -> StationDirectory:
        """Load a table with columns telecode, name, city, pinyin, initials."""
        with path.open(encoding="utf-8", newline="") as fh:
            return cls(Station(**row) for row in csv.DictReader(fh))

    @classmethod
    def from_station_name_js(cls, text: str) -> StationDirectory:
        """Parse 12306's `station_name.js` (`@bjb|北京北|VAP|beijingbei|bjb|0|0357|北京|||…`)."""
        return cls.from_official_records(parse_official_records(text))

    @classmethod
    def from_official_csv(cls, path: Path) -> StationDirectory:
        """Load `official_stations.csv` (the official list as `build_stations` writes it)."""
        with path.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
        return cls.from_official_records(
            OfficialRecord(
                Station(**{k: row[k] for k in OFFICIAL_COLUMNS[:5]}), english=row["english"]
            )
            for row in rows
        )

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
            return self._station_place(self._by_name[key])
        for suffix in _STATION_SUFFIXES:
            base = key.removesuffix(suffix)
            if base != key and base in self._by_name:
                return self._station_place(self._by_name[base], town=False)
            if base != key and base in self._by_city:
                return self._city_place(base)
        if key.endswith("市") and key[:-1] in self._by_city:
            return self._city_place(key[:-1])
        if not key.isascii():
            return None
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

    def _rank(self, name: str) -> int:
        """How likely a traveller means `name` when romanised input fits several places:
        0 a provincial capital, 1 another city, 2 a station of a capital, 3 any other station.

        Pinyin settles on any unique best rank (nanjing is 南京, not the station 南靖); initials
        only on a capital or a capital's station (bj is 北京 over 宝鸡, bjn 北京南 over 宝鸡南,
        while hs, 黄山 or 华山, stays ambiguous).
        """
        if name in self._by_city:
            return 0 if name in _CAPITALS else 1
        return 2 if self._by_name[name].city in _CAPITALS else 3

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
                if s.name.startswith(station.name) and s.name[len(station.name) :] in _DIRECTIONS
            )
        return Place(
            name=station.name,
            city=station.city,
            telecode=station.telecode,
            is_city=False,
            stations=stations,
        )

    # -- search and suggestions --------------------------------------------------------

    def search(self, q: str, limit: int = 20) -> list[Station]:
        """Stations whose name, city, pinyin, initials or telecode start with `q`.

        Results come grouped by city (a city's stations together, main station first). Naming
        a whole city (北京, beijing, Peking, bj) brings all its stations; a prefix brings only
        the stations it matches. Groups are ordered by their best match (exact before prefix
        before initials before telecode), then groups whose city itself matches, then
        provincial capitals, then directory order."""
        text = normalise_input(q)
        text = next((text.removesuffix(s) for s in _STATION_SUFFIXES if text.endswith(s)), text)
        if not text or limit <= 0:
            return []
        score = self._ascii_score if text.isascii() else self._chinese_score
        needle = ascii_key(text) if text.isascii() else text
        if not needle:
            return []
        groups: dict[str, list[tuple[int, Station]]] = {}
        for city, members in self._by_city.items():
            for station in members:
                s = score(needle, station)
                if s is not None:
                    groups.setdefault(city, []).append((s, station))
        ranked = sorted(
            groups.items(),
            key=lambda item: (
                min(s for s, _ in item[1]),
                not self._city_matches(needle, item[0]),  # 上海 before 北京's 沙河 for "sh"
                item[0] not in _CAPITALS,
                self._city_order[item[0]],
            ),
        )
        return [station for _, hits in ranked for _, station in hits][:limit]

    def _city_matches(self, needle: str, city: str) -> bool:
        if not needle.isascii():
            return city.startswith(needle)
        romanised = (self._city_pinyin.get(city, ""), self._city_initials.get(city, ""))
        return any(r and r.startswith(needle) for r in romanised)

    def _chinese_score(self, needle: str, station: Station) -> int | None:
        # A city's other stations join only when the whole city is named (北京 -> 清河 too):
        # a prefix such as 北 would otherwise drag in every small station of every 北 city.
        if needle in (station.name, station.city):
            return 0
        if station.name.startswith(needle):
            return 1
        if len(needle) >= 2 and needle in station.name:
            return 3
        return None

    def _ascii_score(self, needle: str, station: Station) -> int | None:
        pinyin, initials = station.pinyin.lower(), station.initials.lower()
        code = station.telecode.lower()
        named = self._ascii.get(needle, ())  # pinyin and aliases: beijing, peking -> 北京
        if needle in (pinyin, code) or station.name in named or station.city in named:
            return 0
        if needle in (initials, self._city_initials.get(station.city)):
            return 1
        if pinyin.startswith(needle):
            return 1
        if initials.startswith(needle):
            return 2
        if code.startswith(needle):
            return 3
        return None

    def suggest(self, text: str, limit: int = 5) -> list[str]:
        """The nearest known names for a misspelt `text` (北惊 -> 北京, shanghia -> 上海).

        Ranked by edit distance counting a swap of neighbours as one edit (typing order slips),
        then by `_rank` (a capital before a small station), then by similarity.
        """
        key = normalise_input(text)
        if not key or limit <= 0:
            return []
        if key.isascii():
            needle = ascii_key(key)
            # difflib's quick filters keep the candidate set small before the exact ranking.
            pool = difflib.get_close_matches(needle, list(self._ascii), n=limit * 8, cutoff=0.6)
            targets = [(k, name) for k in pool for name in self._ascii[k]]
        else:
            needle = key
            chars = set(key)
            targets = [
                (name, name)
                for name in set(self._by_name) | set(self._by_city)
                if chars & set(name)  # a typo keeps at least one character right
            ]
        scored = []
        for spelling, name in targets:
            ratio = difflib.SequenceMatcher(None, needle, spelling).ratio()
            if ratio >= 0.5:
                scored.append((edit_distance(needle, spelling), self._rank(name), -ratio, name))
        return list(dict.fromkeys(entry[-1] for entry in sorted(scored)))[:limit]

    # -- internals ---------------------------------------------------------------------

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
            if suffix in _DIRECTIONS and station.pinyin.endswith(_DIRECTIONS[suffix]):
                pinyin = station.pinyin.lower().removesuffix(_DIRECTIONS[suffix])
                self._city_pinyin[city] = pinyin
                self._city_initials[city] = station.initials.lower()[:-1]
                self._index(self._ascii, pinyin, city)
                self._index(self._initials, station.initials[:-1], city)
                return


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance where swapping two neighbours costs one edit (shanghia/shanghai)."""
    previous: list[int] = []
    current = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        before, previous, current = previous, current, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
    return current[len(b)]


def _main_first(
    station: Station, city: str, ranking: Mapping[str, int], unranked: int
) -> tuple[bool, int, int]:
    prefix_tier = 0 if station.name.startswith(city) else 1
    return (station.name != city, ranking.get(station.telecode, unranked), prefix_tier)


def parse_official_records(text: str) -> list[OfficialRecord]:
    """Records split on `@`, fields on `|`: alias, name, telecode, pinyin, initials, order,
    city code, city name, and for cross-border stations country code, country, English name.

    Records that cannot be a station (no name, a malformed telecode) are skipped.
    """
    body = text.split("'", 1)[1].rsplit("'", 1)[0] if "'" in text else text
    records: list[OfficialRecord] = []
    for record in body.split("@"):
        fields = [f.strip() for f in record.split("|")] + [""] * 11
        name, telecode, pinyin, initials = fields[1], fields[2], fields[3], fields[4]
        if not name or not telecode:
            continue
        try:
            station = Station(
                telecode=telecode,
                name=name,
                city=fields[7] or name,
                pinyin=pinyin,
                initials=initials,
            )
        except ValidationError:
            continue
        records.append(OfficialRecord(station, fields[8], fields[9], fields[10]))
    return records


def parse_station_name_js(text: str) -> list[Station]:
    """The stations of a `station_name.js` text (see `parse_official_records`)."""
    return [record.station for record in parse_official_records(text)]


@cache
def curated_directory() -> StationDirectory:
    """The curated subset shipped with railtrip (loaded once per process)."""
    return StationDirectory.from_csv(CURATED_CSV)


@cache
def default_directory() -> StationDirectory:
    """Every official station with the curated ranking on top (loaded once per process)."""
    return StationDirectory.from_official_csv(OFFICIAL_CSV)


async def refresh_directory(
    url: str,
    cache_path: Path,
    client: httpx.AsyncClient,
    timeout_s: float = 5.0,
) -> tuple[StationDirectory, str]:
    """12306's current list, else the copy cached on disk, else the bundled one.

    Bounded by `timeout_s`; a good answer is written to `cache_path` for the next start.
    Returns the directory and where it came from (`live`, `disk cache`, `bundled`), so the
    caller can warn when it fell back.
    """
    try:
        async with asyncio.timeout(timeout_s):
            text = await _fetch(url, client)
        directory = StationDirectory.from_station_name_js(text)
        if len(directory) < MIN_OFFICIAL_STATIONS:
            raise StationListError(url, f"only {len(directory)} stations")
    except (StationListError, TimeoutError) as exc:
        reason = str(exc) or "timed out"
        try:
            text = await asyncio.to_thread(cache_path.read_text, encoding="utf-8")
            cached = StationDirectory.from_station_name_js(text)
        except (OSError, UnicodeDecodeError):
            cached = None
        if cached is not None and len(cached) >= MIN_OFFICIAL_STATIONS:
            return cached, f"disk cache ({reason})"
        return default_directory(), f"bundled ({reason})"
    try:
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(cache_path.write_text, text, encoding="utf-8")
    except OSError:
        pass  # a read-only disk only costs the next start its fallback copy
    return directory, "live"


# A list much shorter than the official one is a broken answer, not a new railway.
MIN_OFFICIAL_STATIONS = 3000


async def load_directory(
    location: str | None, client: httpx.AsyncClient | None = None
) -> StationDirectory:
    """The default directory for None, else the list at a file path or http(s) URL.

    A `.csv` file is read as the curated format, anything else as `station_name.js`. A URL is
    fetched with `client` (a short-lived one when None). Raises `StationListError`.
    """
    if not location:
        return default_directory()
    if location.startswith(("http://", "https://")):
        text = await _fetch(location, client)
    else:
        path = Path(location.removeprefix("file://"))
        try:
            if path.suffix == ".csv":
                return await asyncio.to_thread(StationDirectory.from_csv, path)
            text = await asyncio.to_thread(path.read_text, encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError, ValidationError, TypeError) as exc:
            raise StationListError(location, str(exc) or type(exc).__name__) from exc
    directory = StationDirectory.from_station_name_js(text)
    if not len(directory):
        raise StationListError(location, "no station records found")
    return directory


async def _fetch(url: str, client: httpx.AsyncClient | None) -> str:
    try:
        if client is None:
            async with httpx.AsyncClient(timeout=10.0, follow_redirects=True) as own:
                response = await own.get(url)
        else:
            response = await client.get(url)
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise StationListError(url, str(exc) or type(exc).__name__) from exc
    try:
        return response.content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StationListError(url, "response is not UTF-8 text") from exc
