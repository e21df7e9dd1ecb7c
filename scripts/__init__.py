"""Generators of railtrip's committed data (run from the repository root; not shipped).

    python -m scripts.build_stations [station_name.js]  sources/data/official_stations.csv,
                                                        sources/data/stations.csv
    python -m scripts.build_network [--shared DIR]      sources/data/network.json.gz, STATIONS.md
    python -m scripts.build_city_proper [--shared DIR]  rules/data/city_proper.csv
    python -m scripts.build_city_geo [--shared DIR]     app/intent/data/city_geo.csv
    python -m scripts.build_readings                    sources/data/readings.json.gz

Their inputs are the reference data beside the checkout (`../shared/data/`, not shipped), or for
the readings the pinned pypinyin (requirements-dev.txt); each build is deterministic (same
inputs, same bytes), and a test checks that what is committed is what the generator writes
(tests/scripts/).
"""

import csv
import json
from pathlib import Path

from sources.stations import OFFICIAL_CSV

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
"""The reference data the generators read (read-only, beside the checkout)."""
SOURCES_DATA = REPO / "sources" / "data"
RULES_DATA = REPO / "rules" / "data"


def reference_positions(shared: Path) -> tuple[dict[str, list[float]], list[dict[str, str]]]:
    """The TrainVis coordinates by station name (`timetable/station-geo.json` under `shared`)
    and the official station rows (`name`, `city`, …), as the geographic generators read them."""
    geo = json.loads((shared / "timetable" / "station-geo.json").read_text("utf-8"))
    rows = list(csv.DictReader(OFFICIAL_CSV.read_text("utf-8").splitlines()))
    return geo, rows
