"""Generate `rules/data/city_proper.csv`: the stations of a city proper not named after it.

Run from the repository root: `python -m scripts.build_city_proper [--shared ../shared/data]`.

The official list files every station under a prefecture-level city, which is wider than what
a traveller means by the city: 义乌 is 金华's (50 km away), 柳园 and 敦煌 are 酒泉's (300 km).
The rule engine takes a station as in its city proper when it is named after its city (金华南);
this file adds the few that are not but stand inside the city (武昌 and 汉口 for 武汉, 福田
for 深圳): a station within `RADIUS_KM` great-circle of the station named exactly after the
city, by the TrainVis coordinates (`timetable/station-geo.json`, keyed by name; see
`../shared/data/timetable/README.md`). Inputs are read-only and not shipped: the official
stations come from `sources/data/official_stations.csv`, the coordinates from `--shared`.
The table has one row per station (`name,city,km`); `rules/config.py` reads it once.
A station without coordinates (one opened since 2021) is left out: the conservative way.
Deterministic: same inputs, same bytes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from scripts import RULES_DATA, SHARED_DATA, reference_positions
from sources.stations.geo import great_circle_km

RADIUS_KM = 20.0
"""武昌 (13 km from 武汉), 汉口 (16), 福田 (6), 泰山 (7), 潮汕 (11) are in; 青铜峡 (25 km from
吴忠), 昆山 (33 km from 苏州) and 义乌 (49 km from 金华) are towns of their own."""

DEFAULT_SHARED = SHARED_DATA
OUTPUT = RULES_DATA / "city_proper.csv"
COLUMNS = ("name", "city", "km")


def inside(rows: list[dict[str, str]], geo: dict[str, list[float]]) -> list[tuple[str, str, float]]:
    """(name, city, km) of each station not named after its city, within `RADIUS_KM` of it."""
    names = {row["name"] for row in rows}
    found = []
    for row in rows:
        name, city = row["name"], row["city"]
        if name.startswith(city) or city not in names or name not in geo or city not in geo:
            continue
        km = great_circle_km(geo[name], geo[city])
        if km <= RADIUS_KM:
            found.append((name, city, km))
    return sorted(found, key=lambda item: (item[1], item[2], item[0]))


def render(found: list[tuple[str, str, float]]) -> str:
    """The CSV the rule engine reads: a header, then one station per line, sorted by city."""
    lines = [",".join(COLUMNS)]
    lines += [f"{name},{city},{km:.1f}" for name, city, km in found]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args(argv)
    geo, rows = reference_positions(args.shared)
    found = inside(rows, geo)
    OUTPUT.write_text(render(found), encoding="utf-8")
    print(f"{len(found)} stations within {RADIUS_KM:g} km -> {OUTPUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
