"""How fast the command line answers: `tickets`, `stops`, `plan` (and `stations`) on the
embedded default, each against the import baseline `python -c "import fastapi, httpx,
pydantic"` measured side by side.

Each round runs the baseline and every command once, in rotating order, as fresh processes
(wall time from spawn to exit, output discarded; each must exit 0). The figure is the ratio
of medians command / baseline over the rounds; targets (issue 27): tickets and stops ≤ 2×,
plan ≤ 3×. Resident peak (ru_maxrss) of each is printed too.

Run from the repository root: `.venv/bin/python bench/cli_start.py [--rounds 7]`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"tickets": 2.0, "stops": 2.0, "plan": 3.0, "stations": None}


def commands(day: str) -> dict[str, list[str]]:
    return {
        "baseline": ["-c", "import fastapi, httpx, pydantic"],
        "tickets": ["-m", "app", "tickets", "北京", "上海", day],
        "stops": ["-m", "app", "stops", "G1", day],
        "plan": ["-m", "app", "plan", "下周五从北京去上海玩三天，预算两千左右"],
        "stations": ["-m", "app", "stations", "北京"],
    }


def run(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one fresh process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, check=False
    )
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}:\n{done.stderr.decode()[-2000:]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return took, max(peak, before)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    day = (dt.datetime.now(ZoneInfo("Asia/Shanghai")).date() + dt.timedelta(days=3)).isoformat()
    cmds = commands(day)
    names = list(cmds)
    times: dict[str, list[float]] = {name: [] for name in names}
    for name in names:  # one warm-up each: the page cache, .pyc files
        run(cmds[name])
    for index in range(args.rounds):
        order = names[index % len(names) :] + names[: index % len(names)]
        for name in order:
            times[name].append(run(cmds[name])[0])
    base = statistics.median(times["baseline"])
    print(f"baseline (import fastapi, httpx, pydantic): median {base * 1000:.0f} ms")
    for name in names[1:]:
        median = statistics.median(times[name])
        ratio = median / base
        target = TARGETS[name]
        verdict = (
            ""
            if target is None
            else f"  target ≤ {target:g}×: " + ("met" if ratio <= target else "NOT met")
        )
        print(f"{name:9} median {median * 1000:6.0f} ms  ratio {ratio:.2f}×{verdict}")


if __name__ == "__main__":
    main()
