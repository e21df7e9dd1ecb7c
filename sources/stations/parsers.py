"""Readers of station lists: 12306's `station_name.js`, and the CSV tables railtrip ships
(`sources/data/stations.csv`, curated; `sources/data/official_stations.csv`, every official
station). Pure functions of text or a file: fetching lists is `refresh.py`'s job.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

from pydantic import ValidationError

from sources.models import Station

OFFICIAL_COLUMNS = ("telecode", "name", "city", "pinyin", "initials", "english")


@dataclass(frozen=True, slots=True)
class OfficialRecord:
    """One record of `station_name.js`; cross-border stations also carry country and English."""

    station: Station
    country_code: str = ""
    country: str = ""
    english: str = ""


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


def read_stations_csv(path: Path | Traversable) -> list[Station]:
    """A table with columns telecode, name, city, pinyin, initials (the curated format)."""
    return [Station(**row) for row in csv.DictReader(path.read_text("utf-8").splitlines())]


def read_official_csv(path: Path | Traversable) -> Iterator[OfficialRecord]:
    """`official_stations.csv` as `scripts/build_stations.py` writes it (`OFFICIAL_COLUMNS`)."""
    for row in csv.DictReader(path.read_text("utf-8").splitlines()):
        station = Station(**{k: row[k] for k in OFFICIAL_COLUMNS[:5]})
        yield OfficialRecord(station, english=row["english"])
