#!/usr/bin/env bash
# Every benchmark, one after another (they are timed: do not run them in parallel).
# Run from anywhere: `bench/run_all.sh`; each prints its ratios last.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
for bench in single_flight fanout_latency cache_hit planning memory rules_scaling block_probe streams; do
    echo "######## bench/${bench}.py"
    "$PY" "bench/${bench}.py"
    echo
done
