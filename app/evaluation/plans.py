"""`python -m app eval-plans [--suite honesty] [--file F] [--verbose]`: run the plan suites.

Each suite is a module with `main(path, out, verbose)`; a second suite (delivery) sits beside
the honesty one and is added to `SUITES`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.evaluation import honesty

SUITES: dict[str, Callable[..., Any]] = {"honesty": honesty.main}


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
