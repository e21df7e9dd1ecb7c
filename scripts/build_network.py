"""Build the sandbox network (`network.json.gz`) from real stop patterns and timetables.

Run from the repository root:
`python -m scripts.build_network [--shared ../shared/data]`.
Inputs (read-only, not shipped; see `../shared/data/timetable/README.md`): the TrainVis stop
patterns `trainvis-routes.json` (2019), the RailwayVIS clock times `railwayvis-schedules.json`
(about 2021) and 12306's official `station_name.js` (2026). Output: `sources/data/network.json.gz`
and `sources/data/STATIONS.md` (every renamed and dropped station). Every choice, in order:

1. **Trains.** Each number of a pattern's `forward` list runs the pattern's stations in order,
   each of `backward` runs them reversed (distances and running minutes per hop reversed with
   them). Numbers that are not passenger train numbers (`sources.models.TRAIN_NUMBER`; a `P`
   prefix) are dropped; so is a train left with fewer than two known stations.
2. **Stations.** A pattern's station name is looked up in the official list by name. A name
   absent there is mapped through `RENAMED` (stations renamed since 2019, each checked against
   the stops around it), else dropped; a dropped stop leaves the train, and the hops on
   either side merge (cumulative km and minutes are kept, so later stops do not move).
   `STATIONS.md` lists both. A station's city is the official list's city field.
3. **Clock times.** `time` is minutes from the previous stop's arrival (the first stop's
   departure) to this stop's arrival: on trains with both files it sums to the timetabled run
   (median ratio 1.00). A train found in the schedules file (by its number, or one half of a
   number that changes en route) whose first station is the pattern's first station takes
   that departure clock time (`real`); the others get a synthetic one, drawn from a stable
   hash of the number inside a window: overnight trains (conventional, running 8 h or more)
   17:00–23:30, others 06:00 to 23:00 less their running time (at least a 30-minute window).
4. **Dwell.** The hop minutes include the stop before: at each intermediate stop the train
   stands 2 min (EMU), 3 min (普快/普客) or 6 min (特快/快速), at most a third of the next hop,
   taken out of that hop, so the arrival times stay the data's.
5. **Day offsets** follow from the clock: a stop's datetime is its train's start date plus
   the minutes since midnight of the departure; the runtime index keeps each stop's offset.
6. **Numbers that change en route** (`K1075_K1078`): the first number applies from the
   origin, the second from the first stop at or past half the run's distance (12306 changes
   the parity where the line's direction changes; the data does not say where, so the
   midpoint is railtrip's rule).
7. **Fare tier** (see `sources/sandbox/fares.py` for the rates), from the number's letter,
   which 12306 assigns by service (the pattern's `type` disagrees on a few, e.g. T109 typed
   as an EMU): G `emu350`; C `emu350` when its average speed over the run is at least
   180 km/h (京津, 沪宁), else `emu250`; D `emu250`; Z/T/K `tk`; numbers below 6001 (普快) `pk`;
   numbers from 6001 (普客) and S/Y/L `pt`, or `emu250` when the pattern is an EMU type.
8. **Seat classes from the type**: G 商务/一等/二等/无座; other EMUs 一等/二等/无座, except an
   overnight EMU (leaving 18:00 or later, running 7 h or more), which sells 一等卧 (soft
   sleeper), 二等卧 (动卧), 二等座 and 无座; 直达特快/特快/快速 软卧/硬卧/硬座/无座; 普快 that run
   6 h or more 硬卧/硬座/无座, shorter ones and 普客 硬座/无座.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scripts import SHARED_DATA, SOURCES_DATA
from sources.models import SeatClass, is_train_number
from sources.sandbox.network import FORMAT, encode_column
from sources.sandbox.seeding import stable_unit
from sources.stations import OfficialRecord, parse_official_records

NETWORK_FILE = SOURCES_DATA / "network.json.gz"
STATIONS_REPORT = SOURCES_DATA / "STATIONS.md"
DEFAULT_SHARED = SHARED_DATA

# Renamed since the data was collected; each checked against the stops on either side.
RENAMED: dict[str, str] = {
    "松江南": "上海松江",  # 沪昆高铁, renamed 2024
    "永嘉": "温州北",  # 甬台温, between 雁荡山 and 温州南
    "红安西": "红安",  # 合武, between 麻城北 and 汉口; the county's only station now
    "抚顺北": "抚顺",  # 沈吉, between 沈阳 and 南杂木; the city's only station now
    "朝阳": "辽宁朝阳",  # 京沈/锦承, between 牛河梁 and 阜新 (not 北京朝阳)
    "通州": "北京通州",  # after 北京西 on the 京哈 approach
    "沙湾县": "沙湾市",  # the county became a city in 2021
    "蓬莱市": "蓬莱",
}

EMU_TYPES = frozenset({"高速动车组", "普通动车组", "城际动车组"})
EXPRESS_TYPES = frozenset({"直达特快", "特快", "快速"})
HIGH_SPEED_KMH = 180
OVERNIGHT_RUN_MIN = 8 * 60
EMU_SLEEPER_RUN_MIN = 7 * 60
SOFT_SLEEPER = SeatClass.SOFT_SLEEPER


@dataclass(frozen=True)
class BuiltTrain:
    codes: tuple[str, ...]
    change_at: int
    tier: str
    seats: tuple[SeatClass, ...]
    depart_min: int
    real_time: bool
    stations: tuple[int, ...]
    km: tuple[int, ...]
    arrive: tuple[int, ...]
    depart: tuple[int, ...]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args(argv)
    routes = json.loads((args.shared / "timetable" / "trainvis-routes.json").read_text("utf-8"))
    schedules = json.loads(
        (args.shared / "timetable" / "railwayvis-schedules.json").read_text("utf-8")
    )
    records = parse_official_records((args.shared / "station_name.js").read_text("utf-8-sig"))
    network, report = build(routes, schedules, records)
    NETWORK_FILE.write_bytes(
        gzip.compress(
            json.dumps(network, ensure_ascii=False, separators=(",", ":")).encode(), mtime=0
        )
    )
    STATIONS_REPORT.write_text(report, encoding="utf-8")
    print(
        f"{len(network['trains'])} trains over {len(network['stations'])} stations, "
        f"{NETWORK_FILE.stat().st_size / 1024:.0f} KiB -> {NETWORK_FILE}",
        file=sys.stderr,
    )


def build(
    routes: list[dict], schedules: dict[str, dict], records: list[OfficialRecord]
) -> tuple[dict, str]:
    """The network document and the stations report, from the parsed inputs."""
    official: dict[str, OfficialRecord] = {}
    for record in records:
        official.setdefault(record.station.name, record)
    used: dict[str, int] = {}
    dropped: dict[str, int] = {}
    renamed: dict[str, int] = {}
    trains: list[BuiltTrain] = []
    skipped: list[str] = []
    for pattern in routes:
        for direction, numbers in (
            ("forward", pattern["forward"]),
            ("backward", pattern["backward"]),
        ):
            names, km, minutes = _run(pattern, reverse=direction == "backward")
            for number in numbers:
                codes = tuple(number.split("_"))
                if not all(is_train_number(code) for code in codes):
                    skipped.append(number)
                    continue
                kept: list[tuple[str, int, int]] = []
                for name, at_km, at_min in zip(names, km, minutes, strict=True):
                    target = name if name in official else RENAMED.get(name)
                    if target is None or target not in official:
                        dropped[name] = dropped.get(name, 0) + 1
                        continue
                    if target != name:
                        renamed[name] = renamed.get(name, 0) + 1
                    if kept and kept[-1][0] == target:
                        continue
                    kept.append((target, at_km, at_min))
                if len(kept) < 2:
                    skipped.append(number)
                    continue
                schedule = _schedule(codes, schedules)
                real = schedule is not None and schedule["start"] == names[0]
                trains.append(
                    _train(codes, pattern["type"], kept, schedule if real else None, used)
                )
    stations = sorted(used, key=used.__getitem__)
    ordered = sorted(trains, key=lambda t: t.codes)
    document = {
        "format": FORMAT,
        "about": (
            "railtrip sandbox network: TrainVis stop patterns (2019) with RailwayVIS clock "
            "times (2021) on 12306's 2026 station list; a picture of the real network, "
            "not today's timetable. Built by scripts/build_network.py."
        ),
        "stations": [
            [
                official[name].station.telecode,
                name,
                official[name].station.city,
                official[name].station.pinyin,
                official[name].station.initials,
            ]
            for name in stations
        ],
        "trains": [
            [
                "_".join(t.codes),
                t.change_at,
                t.tier,
                ",".join(cls.value for cls in t.seats),
                int(t.real_time),
                len(t.stations),
            ]
            for t in ordered
        ],
        # The stops of every train in the order above, one column per field (network.py).
        "stops": {
            "stations": encode_column([i for t in ordered for i in t.stations]),
            "km": encode_column([km for t in ordered for km in t.km]),
            "arrive": encode_column([t.depart_min + m for t in ordered for m in t.arrive]),
            "depart": encode_column([t.depart_min + m for t in ordered for m in t.depart]),
        },
    }
    return document, _report(renamed, dropped, skipped, len(trains))


def _run(pattern: dict, *, reverse: bool) -> tuple[list[str], list[int], list[int]]:
    """Station names with cumulative km and arrival minutes, in running order."""
    names = list(pattern["stations"])
    hops_km = list(pattern["distance"][1:])
    hops_min = list(pattern["time"][1:])
    if reverse:
        names.reverse()
        hops_km.reverse()
        hops_min.reverse()
    km, minutes = [0], [0]
    for hop_km, hop_min in zip(hops_km, hops_min, strict=True):
        km.append(km[-1] + int(hop_km))
        minutes.append(minutes[-1] + max(1, int(hop_min)))
    return names, km, minutes


def _schedule(codes: tuple[str, ...], schedules: dict[str, dict]) -> dict | None:
    for key in ("_".join(codes), *codes):
        if key in schedules:
            return schedules[key]
    return None


def _train(
    codes: tuple[str, ...],
    kind: str,
    kept: list[tuple[str, int, int]],
    schedule: dict | None,
    used: dict[str, int],
) -> BuiltTrain:
    zero_km, zero_min = kept[0][1], kept[0][2]
    km = [at_km - zero_km for _, at_km, _ in kept]
    arrive = [at_min - zero_min for _, _, at_min in kept]
    run_min = arrive[-1]
    tier = _tier(codes[0], kind, km[-1], run_min)
    if schedule is not None:
        hours, mins = schedule["route"][0]["departure"].split(":")
        depart_min = (int(hours) * 60 + int(mins)) % (24 * 60)
    else:
        depart_min = _synthetic_departure(codes[0], tier, run_min)
    stand = 2 if tier.startswith("emu") else (6 if tier == "tk" else 3)
    depart = list(arrive)
    for i in range(1, len(arrive) - 1):
        depart[i] = arrive[i] + min(stand, (arrive[i + 1] - arrive[i]) // 3)
    change_at = 0
    if len(codes) > 1:
        change_at = next(i for i, at in enumerate(km) if at * 2 >= km[-1])
        change_at = max(1, change_at)
    stations = tuple(used.setdefault(name, len(used)) for name, _, _ in kept)
    return BuiltTrain(
        codes=codes,
        change_at=change_at,
        tier=tier,
        seats=_seats(codes[0], kind, tier, depart_min, run_min),
        depart_min=depart_min,
        real_time=schedule is not None,
        stations=stations,
        km=tuple(km),
        arrive=tuple(arrive),
        depart=tuple(depart),
    )


def _tier(code: str, kind: str, km: int, run_min: int) -> str:
    """The fare tier: the number's letter first, the pattern's type where the letter is silent."""
    fast = km * 60 >= HIGH_SPEED_KMH * max(run_min, 1)
    letter = code[0]
    if letter == "G" or (letter == "C" and fast):
        return "emu350"
    if letter in "DC" or (letter in "SYL" and kind in EMU_TYPES):
        return "emu250"
    if letter in "ZTK" or (kind in EXPRESS_TYPES and not letter.isdigit()):
        return "tk"
    if letter.isdigit() and int(code) < 6001:
        return "pk"
    return "pt"


def _synthetic_departure(code: str, tier: str, run_min: int) -> int:
    """Minutes after midnight, from a stable hash of the number inside the kind's window."""
    if not tier.startswith("emu") and run_min >= OVERNIGHT_RUN_MIN:
        start, end = 17 * 60, 23 * 60 + 30
    else:
        start = 6 * 60
        end = max(start + 30, 23 * 60 - run_min)
    return start + int(stable_unit(code, "departure") * (end - start))


def _seats(code: str, kind: str, tier: str, depart_min: int, run_min: int) -> tuple[SeatClass, ...]:
    if tier.startswith("emu"):
        if code.startswith("G"):
            return (SeatClass.BUSINESS, SeatClass.FIRST, SeatClass.SECOND, SeatClass.NO_SEAT)
        if depart_min >= 18 * 60 and run_min >= EMU_SLEEPER_RUN_MIN:
            return (
                SeatClass.SOFT_SLEEPER,
                SeatClass.EMU_SLEEPER,
                SeatClass.SECOND,
                SeatClass.NO_SEAT,
            )
        return (SeatClass.FIRST, SeatClass.SECOND, SeatClass.NO_SEAT)
    if tier == "tk":
        return (
            SeatClass.SOFT_SLEEPER,
            SeatClass.HARD_SLEEPER,
            SeatClass.HARD_SEAT,
            SeatClass.NO_SEAT,
        )
    if tier == "pk" and run_min >= 6 * 60:
        return (SeatClass.HARD_SLEEPER, SeatClass.HARD_SEAT, SeatClass.NO_SEAT)
    return (SeatClass.HARD_SEAT, SeatClass.NO_SEAT)


def _report(renamed: dict[str, int], dropped: dict[str, int], skipped: list[str], kept: int) -> str:
    lines = [
        "# Stations renamed and dropped by the network build",
        "",
        f"Generated by `build_network.py`; {kept} trains kept.",
        "",
        "## Renamed (name in the 2019 data → name in the 2026 official list; trains calling)",
        "",
    ]
    lines += [f"- {old} → {RENAMED[old]} ({n})" for old, n in sorted(renamed.items())]
    lines += [
        "",
        "## Dropped (not in the 2026 official list; trains that called there)",
        "",
        "The stop leaves those trains; the rest of each run is unchanged.",
        "",
        "、".join(
            f"{name} ({n})" for name, n in sorted(dropped.items(), key=lambda kv: (-kv[1], kv[0]))
        ),
        "",
        "## Trains dropped",
        "",
        ", ".join(sorted(skipped)) or "none",
        "",
    ]
    return "\n".join(lines)


def _most_first(item: tuple[str, int]) -> tuple[int, str]:
    return (-item[1], item[0])


if __name__ == "__main__":
    main()
