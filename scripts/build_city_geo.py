"""Generate `app/intent/data/city_geo.csv`: where each city is, for telling romanised
namesakes apart.

Run from the repository root: `python -m scripts.build_city_geo [--shared ../shared/data]`.

"suzhou" spells 苏州 and 宿州, "taizhou" 台州 and 泰州. Said beside another end of the trip
("Shanghai to Suzhou"), the namesake a short ride from it is the one a ticket agent would
book; the parser asks only when the other end does not tell them apart. A city's position is
its namesake station's by the TrainVis coordinates (`timetable/station-geo.json`, keyed by
name; see `../shared/data/timetable/README.md`), else its first station with coordinates in
the official list's order. A city with none is left out (then nothing is decided by
distance). Inputs are read-only and not shipped; the table has one row per city
(`city,lon,lat`, degrees to two decimals, about a kilometre). Deterministic: same inputs,
same bytes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from scripts import REPO, SHARED_DATA, reference_positions

DEFAULT_SHARED = SHARED_DATA
OUTPUT = REPO / "app" / "intent" / "data" / "city_geo.csv"
COLUMNS = ("city", "lon", "lat")


def positions(
    rows: list[dict[str, str]], geo: dict[str, list[float]]
) -> list[tuple[str, float, float]]:
    """(city, lon, lat) of each city with a station that has coordinates, sorted by city."""
    found: dict[str, tuple[float, float]] = {}
    for row in rows:
        city = row["city"]
        if city in geo and city not in found:
            found[city] = (geo[city][0], geo[city][1])
    for row in rows:
        city, name = row["city"], row["name"]
        if city not in found and name in geo:
            found[city] = (geo[name][0], geo[name][1])
    return sorted((city, lon, lat) for city, (lon, lat) in found.items())


def render(found: list[tuple[str, float, float]]) -> str:
    lines = [",".join(COLUMNS)]
    lines += [f"{city},{lon:.2f},{lat:.2f}" for city, lon, lat in found]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args(argv)
    geo, rows = reference_positions(args.shared)
    found = positions(rows, geo)
    OUTPUT.write_text(render(found), encoding="utf-8")
    print(f"{len(found)} cities -> {OUTPUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
