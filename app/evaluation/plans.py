"""`python -m app eval-plans [--suite honesty|delivery|all] [--file F] [--verbose]`.

Each suite is a module with `main(path, out, verbose)`: `honesty` checks that every stated
constraint is met or openly relaxed; `delivery` that feasible requests get a plan whose every
leg matches a live offer.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.evaluation import delivery, honesty

SUITES: dict[str, Callable[..., Any]] = {"honesty": honesty.main, "delivery": delivery.main}


def main(argv: list[str]) -> int:
    """Run the chosen suites; 0 when they ran."""
    parser = argparse.ArgumentParser(prog="python -m app eval-plans", description=__doc__)
    parser.add_argument("--suite", choices=(*SUITES, "all"), default="all")
    parser.add_argument("--file", type=Path, default=None, help="JSONL cases (one suite)")
    parser.add_argument("--verbose", action="store_true", help="list every case not met")
    args = parser.parse_args(argv)
    names = list(SUITES) if args.suite == "all" else [args.suite]
    for name in names:
        SUITES[name](args.file, sys.stdout, args.verbose)
    return 0
