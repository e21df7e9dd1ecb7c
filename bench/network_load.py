"""Start-up and memory of the embedded default: what loading the sandbox network costs.

Each measurement runs in a fresh interpreter (`python -c`, cwd = the tree measured) that
imports the app, runs its lifespan on the embedded default (that builds the timetable shared
by both sandbox vendors) and answers one `GET /v1/tickets` through httpx's ASGI transport
(the first query is when a lazily built timetable does its work). It prints three wall-clock
figures (import, lifespan start, first ticket answer) and the peak resident set (ru_maxrss),
median of `--runs` processes. With `--baseline DIR` (an export of another commit, e.g.
`git archive main | tar -x -C /tmp/base`) the same probe runs there too and both are printed
side by side with their ratio.

Run from the repository root: `.venv/bin/python bench/network_load.py [--runs 5]
[--baseline /tmp/base]`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import asyncio, datetime as dt, json, resource, time
t0 = time.perf_counter()
import httpx
from app.main import create_app
from app.settings import Settings
t1 = time.perf_counter()

async def main():
    app = create_app(Settings(log_level="WARNING"))
    async with app.router.lifespan_context(app):
        t2 = time.perf_counter()
        day = (dt.date.today() + dt.timedelta(days=3)).isoformat()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://probe") as client:
            r = await client.get("/v1/tickets", params={
                "origin": "北京", "destination": "上海", "date": day})
            assert r.status_code == 200, r.text[:300]
            offers = len(r.json()["offers"])
        t3 = time.perf_counter()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"import_ms": (t1 - t0) * 1000, "lifespan_ms": (t2 - t1) * 1000,
                      "first_query_ms": (t3 - t2) * 1000, "rss_mib": rss / 1024,
                      "offers": offers}))

asyncio.run(main())
"""

FIELDS = (
    ("import_ms", "import app (ms)"),
    ("lifespan_ms", "lifespan start (ms)"),
    ("first_query_ms", "first /v1/tickets (ms)"),
    ("rss_mib", "peak RSS (MiB)"),
    ("offers", "offers 北京→上海"),
)


def measure(tree: Path, runs: int) -> dict[str, float]:
    """Median of each figure over `runs` fresh processes started in `tree`."""
    samples: list[dict[str, float]] = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", PROBE],
            cwd=tree,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        samples.append(json.loads(out.strip().splitlines()[-1]))
    return {key: statistics.median(s[key] for s in samples) for key, _ in FIELDS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=None)
    args = parser.parse_args()
    current = measure(ROOT, args.runs)
    if args.baseline is None:
        for key, label in FIELDS:
            print(f"{label:<24} {current[key]:10.1f}")
        return
    before = measure(args.baseline, args.runs)
    print(f"median of {args.runs} processes each   {'before':>10} {'after':>10} {'ratio':>7}")
    for key, label in FIELDS:
        ratio = current[key] / before[key] if before[key] else float("nan")
        print(f"{label:<36} {before[key]:10.1f} {current[key]:10.1f} {ratio:7.2f}")


if __name__ == "__main__":
    main()
