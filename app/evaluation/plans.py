"""`python -m app eval-plans [--suite honesty|delivery|travellers|all] [--file F] [--verbose]
[--split dev|heldout] [--json FILE]`.

Each suite is a module with `main(path, out, verbose)`: `honesty` checks that every stated
constraint is met or openly relaxed; `delivery` that feasible requests get a plan whose every
leg matches a live offer; `travellers` judges sentences and dialogues written by travellers
(it also takes `split`, the cases' `"split"`, and `json_path`, per-case results).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.evaluation import delivery, honesty, travellers

SUITES: dict[str, Callable[..., Any]] = {
    "honesty": honesty.main,
    "delivery": delivery.main,
    "travellers": travellers.main,
}
# Suites whose cases carry a split and whose results can be written as JSON.
WITH_SPLITS = frozenset({"travellers"})


def main(argv: list[str]) -> int:
    """Run the chosen suites; 0 when they ran."""
    parser = argparse.ArgumentParser(prog="python -m app eval-plans", description=__doc__)
    parser.add_argument("--suite", choices=(*SUITES, "all"), default="all")
    parser.add_argument("--file", type=Path, default=None, help="JSONL cases (one suite)")
    parser.add_argument("--verbose", action="store_true", help="list every case not met")
    parser.add_argument(
        "--split", choices=travellers.SPLITS, default=None, help="only the cases of one split"
    )
    parser.add_argument("--json", type=Path, default=None, help="write per-case results here")
    args = parser.parse_args(argv)
    names = list(SUITES) if args.suite == "all" else [args.suite]
    options = {
        key: value
        for key, value in (("split", args.split), ("json_path", args.json))
        if value is not None
    }
    if options and not set(names) <= WITH_SPLITS:
        parser.error(f"--split and --json apply to --suite {'|'.join(sorted(WITH_SPLITS))}")
    for name in names:
        SUITES[name](args.file, sys.stdout, args.verbose, **options)
    return 0
