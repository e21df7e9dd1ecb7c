"""How fast the command line answers: `tickets`, `stops`, `plan` (and `stations`) on the
embedded default, each against the import baseline `python -c "import fastapi, httpx,
pydantic"` measured side by side.

Each round runs the baseline and every command once, in rotating order, as fresh processes
(wall time from spawn to exit, output discarded; each must exit 0). The figure is the ratio
of medians command / baseline over the rounds; targets (issue 27): tickets and stops ≤ 2×,
plan ≤ 3×. Each line also gives the command's CPU time (user + system, median) and its
ratio to the baseline's: on a busy machine wall time follows CPU time, on a quiet one the
sources' pacing (fixed waits the baseline does not have) shows as wall time beyond it.

Bytecode: the baseline's packages come compiled (pip writes their .pyc at install, as it
does railtrip's own when it is installed); a checkout's modules are compiled on first run
and kept in `__pycache__`, unless the environment says `PYTHONDONTWRITEBYTECODE` (this
machine's does), in which case every run compiled every module changed since the last
write. So the bench compiles app/, sources/ and rules/ first (`compileall`, which writes
them whatever the environment says) and every process starts from .pyc, as a user's would;
`--no-compile` measures without that step.

`--versus DIR` runs the same commands from another checkout (say an export of an older
commit: `git archive <commit> | tar -x -C DIR`) in the same rounds, so the two are compared
side by side under the same load.

Run from the repository root: `.venv/bin/python bench/cli_start.py [--rounds 7] [--versus DIR]`.
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import os
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


def run(argv: list[str], cwd: Path = ROOT) -> tuple[float, int, float]:
    """Wall seconds, peak RSS (KiB) and CPU seconds (user + system) of one fresh process
    (its own, from wait4's rusage)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")}
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, *argv],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    if child.returncode != 0:
        raise SystemExit(f"{argv} exited {child.returncode}:\n{errors.decode()[-2000:]}")
    return took, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-compile", action="store_true", help="keep __pycache__ as it is")
    parser.add_argument("--versus", type=Path, help="another checkout, measured alongside")
    args = parser.parse_args()
    trees = {"": ROOT} if args.versus is None else {"": ROOT, " (versus)": args.versus.resolve()}
    if not args.no_compile:
        for tree in trees.values():
            for package in ("app", "sources", "rules"):
                compileall.compile_dir(tree / package, quiet=1)
    day = (dt.datetime.now(ZoneInfo("Asia/Shanghai")).date() + dt.timedelta(days=3)).isoformat()
    cmds = commands(day)
    runs = {"baseline": (cmds["baseline"], ROOT)}
    for name, argv in list(cmds.items())[1:]:
        for suffix, tree in trees.items():
            runs[name + suffix] = (argv, tree)
    names = list(runs)
    times: dict[str, list[float]] = {name: [] for name in names}
    peaks: dict[str, list[int]] = {name: [] for name in names}
    cpus: dict[str, list[float]] = {name: [] for name in names}
    for name in names:  # one warm-up each: the page cache
        run(*runs[name])
    for index in range(args.rounds):
        order = names[index % len(names) :] + names[: index % len(names)]
        for name in order:
            took, peak, cpu = run(*runs[name])
            times[name].append(took)
            peaks[name].append(peak)
            cpus[name].append(cpu)
    base = statistics.median(times["baseline"])
    base_cpu = statistics.median(cpus["baseline"])
    print(
        f"baseline (import fastapi, httpx, pydantic): median {base * 1000:.0f} ms "
        f"(range {min(times['baseline']) * 1000:.0f}-{max(times['baseline']) * 1000:.0f}), "
        f"CPU {base_cpu * 1000:.0f} ms, "
        f"peak RSS {statistics.median(peaks['baseline']) / 1024:.0f} MiB"
    )
    for name in names[1:]:
        median = statistics.median(times[name])
        ratio = median / base
        target = TARGETS[name.split()[0]]
        verdict = (
            ""
            if target is None
            else f"  target ≤ {target:g}×: " + ("met" if ratio <= target else "NOT met")
        )
        peak = statistics.median(peaks[name]) / 1024
        cpu = statistics.median(cpus[name])
        print(
            f"{name:18} median {median * 1000:6.0f} ms "
            f"({min(times[name]) * 1000:.0f}-{max(times[name]) * 1000:.0f})  "
            f"peak RSS {peak:4.0f} MiB  "
            f"CPU {cpu * 1000:5.0f} ms ({cpu / base_cpu:.2f}×)  ratio {ratio:.2f}×{verdict}"
        )


if __name__ == "__main__":
    main()
