"""The station directory: resolve a city, station name, pinyin, initials or telecode.

directory.py   the index: stations by code, name and city; `resolve` → `Place`; the
               bundled tables (`curated_directory`, `default_directory`)
matching.py    text matching: input tidying, prefix search, typo suggestions
geo.py         great-circle distances (the generators' and the parser's city positions)
parsers.py     readers of `station_name.js` and of the CSV tables railtrip ships
refresh.py     lists from a file or URL, and 12306's current list cached on disk and
               re-read while running (`StationRefresher`)
"""

from sources.stations.directory import (
    CURATED_CSV,
    ENGLISH_NAMES,
    OFFICIAL_CSV,
    AmbiguousStationError,
    Place,
    StationDirectory,
    UnknownStationError,
    curated_directory,
    default_directory,
)
from sources.stations.matching import (
    PROVINCIAL_CAPITALS,
    ascii_key,
    edit_distance,
    normalise_input,
)
from sources.stations.parsers import (
    OFFICIAL_COLUMNS,
    OfficialRecord,
    parse_official_records,
    parse_station_name_js,
)
from sources.stations.refresh import (
    MIN_OFFICIAL_STATIONS,
    StationListError,
    StationRefresher,
    is_url,
    load_directory,
    refresh_directory,
)

__all__ = [
    "CURATED_CSV",
    "ENGLISH_NAMES",
    "MIN_OFFICIAL_STATIONS",
    "OFFICIAL_COLUMNS",
    "OFFICIAL_CSV",
    "PROVINCIAL_CAPITALS",
    "AmbiguousStationError",
    "OfficialRecord",
    "Place",
    "StationDirectory",
    "StationListError",
    "UnknownStationError",
    "ascii_key",
    "curated_directory",
    "default_directory",
    "edit_distance",
    "is_url",
    "load_directory",
    "normalise_input",
    "parse_official_records",
    "parse_station_name_js",
    "refresh_directory",
    "StationRefresher",
]
