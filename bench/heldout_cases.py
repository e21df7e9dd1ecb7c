"""Writes `bench/optimality_heldout.jsonl`: optimality requests kept aside, scored once.

Random pairs (seeded) among the cities the directory resolves with at least 8 trains, per
kind: fastest and cheapest (half of them between cities with a direct train), latest before
a random arrival hour (a third the next day), earliest arrival after a random departure
hour, and pairs with no direct train and no order. A request is kept only where the
independent optimum (`bench/optimum.py`) has a journey; the planner is never run here.

Run from the repository root: `.venv/bin/python bench/heldout_cases.py` (deterministic).
A later round draws a new set with its own seed, size and file, e.g.
`bench/heldout_cases.py --seed 20261207 --scale 1.6 --prefix held2 --out
bench/optimality_heldout2.jsonl`: the pairs differ, the kinds keep their proportions.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

from optimality import ask_for, objectives
from optimum import Rails, Search

from app.evaluation.harness import StillClock
from sources.sandbox.network import default_network
from sources.stations import UnknownStationError, default_directory

OUT = Path(__file__).with_name("optimality_heldout.jsonl")
SEED = 20261206
TODAYS = ("2026-12-01", "2026-12-04", "2026-12-08")
COUNTS = {"fastest": 15, "cheapest": 15, "latest": 12, "earliest_arrival": 6, "transfer": 15}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every kind's count")
    parser.add_argument("--prefix", default="held", help="the ids' prefix")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    counts = {kind: round(n * args.scale) for kind, n in COUNTS.items()}
    rng = random.Random(args.seed)
    directory = default_directory()
    network = default_network()
    rails = Rails(directory)

    def resolvable(city: str) -> bool:
        try:
            return directory.resolve(city).city == city
        except UnknownStationError:
            return False

    cities = sorted(c for c, runs in network.official_by_city.items() if len(runs) >= 8)
    cities = [c for c in cities if resolvable(c)]
    cases: list[dict[str, Any]] = []

    def pair(direct: bool | None) -> tuple[str, str]:
        while True:
            a, b = rng.sample(cities, 2)
            link = network.reach(a).get(b)
            if direct is not None and (link is not None) != direct:
                continue
            if direct is False:
                return a, b
            if link is None or not 150 <= link[0] <= 2500:
                continue
            return a, b

    def intent(a: str, b: str, today: str) -> dict[str, Any]:
        day = dt.date.fromisoformat(today) + dt.timedelta(days=rng.randint(2, 12))
        return {
            "origin": a,
            "destination": b,
            "date_start": str(day),
            "return_trip": False,
            "passengers": 1,
        }

    def keep(kind: str, fields: dict[str, Any], today: str, note: str) -> bool:
        case = {"id": "", "kind": kind, "today": today, "intent": fields, "note": note}
        now = StillClock(dt.date.fromisoformat(today)).now()
        for objective in objectives(case):
            if Search(rails, ask_for(rails, fields, objective), now).optimum().journey is None:
                return False
        cases.append(case)
        return True

    for kind, wanted in counts.items():
        kept = 0
        while kept < wanted:
            today = rng.choice(TODAYS)
            if kind == "transfer":
                fields = intent(*pair(False), today)
                kept += keep(kind, fields, today, "random pair without a direct train, no order")
            elif kind in ("fastest", "cheapest"):
                fields = intent(*pair(None if rng.random() < 0.5 else True), today)
                fields["order"] = kind
                kept += keep(kind, fields, today, f"random pair, {kind}")
            elif kind == "latest":
                fields = intent(*pair(None), today)
                fields["order"] = "latest"
                hour = rng.randint(9, 22)
                fields["arrive_window"] = {"start": "00:00", "end": f"{hour:02d}:00"}
                if rng.random() < 0.3:
                    day = dt.date.fromisoformat(fields["date_start"]) + dt.timedelta(days=1)
                    fields["arrive_date"] = str(day)
                note = f"random pair, latest departure arriving by {hour}:00"
                kept += keep("deadline", fields, today, note)
            else:
                fields = intent(*pair(None), today)
                fields["order"] = "earliest_arrival"
                hour = rng.randint(6, 16)
                fields["depart_window"] = {"start": f"{hour:02d}:00", "end": "23:59"}
                note = f"random pair, leave after {hour}:00, arrive earliest"
                kept += keep("deadline", fields, today, note)
    numbers: dict[str, int] = {}
    for case in cases:
        numbers[case["kind"]] = numbers.get(case["kind"], 0) + 1
        case["id"] = f"{args.prefix}-{case['kind'][:5]}-{numbers[case['kind']]:02d}"
    lines = [json.dumps(case, ensure_ascii=False) for case in cases]
    args.out.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"{len(cases)} requests -> {args.out}")


if __name__ == "__main__":
    main()
