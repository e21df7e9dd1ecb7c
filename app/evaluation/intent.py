"""`python -m app eval-intent [--parser rules|llm]`: per-field accuracy on the labelled set.

Each line of the set is `{"id", "split", "today", "text", "expected": {field: value}}`; only
labelled fields are scored. Per-field accuracy is right/labelled over all items; exact match
is the share of items whose labelled fields are all right. The `heldout` split was written
with the rest and never used to tune the rules: its figure is the honest one.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from app.intent.model import TravelIntent
from app.intent.parser import IntentParser
from app.observability.metrics import Metrics
from app.settings import Settings
from sources.stations import StationDirectory, curated_directory

DEFAULT_SET = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "intent" / "eval.jsonl"

ParseFn = Callable[[str, dt.date], Awaitable[TravelIntent]]


@dataclass(frozen=True)
class EvalCase:
    id: str
    split: str
    today: dt.date
    text: str
    expected: dict[str, Any]


@dataclass
class Report:
    """Counts per field and per item for one run."""

    right: dict[str, int] = field(default_factory=dict)
    total: dict[str, int] = field(default_factory=dict)
    items: int = 0
    exact: int = 0
    failures: list[tuple[str, str, str, Any, Any]] = field(default_factory=list)

    @property
    def field_accuracy(self) -> float:
        """Right labelled fields over all labelled fields."""
        total = sum(self.total.values())
        return sum(self.right.values()) / total if total else 1.0

    @property
    def exact_rate(self) -> float:
        return self.exact / self.items if self.items else 1.0


def load_cases(
    path: Path = DEFAULT_SET, splits: Sequence[str] = ("dev", "heldout")
) -> list[EvalCase]:
    """The labelled cases of the given splits."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        if raw["split"] in splits:
            cases.append(
                EvalCase(
                    id=raw["id"],
                    split=raw["split"],
                    today=dt.date.fromisoformat(raw["today"]),
                    text=raw["text"],
                    expected=raw["expected"],
                )
            )
    return cases


def observed(intent: TravelIntent, name: str) -> Any:
    """A field of `intent` in the plain form the set labels it with (None for a field the
    model does not have: a label the parser cannot fill is scored wrong, not a crash)."""
    value: Any = getattr(intent, name, None)
    if name in ("depart_window", "arrive_window", "return_window", "return_arrive_window"):
        return value.span() if value is not None else None
    if name == "via":
        return [{"city": v.city, "nights": v.nights} for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    if name in ("preferences", "train_types", "missing"):
        return sorted(value)
    if hasattr(value, "value"):
        return value.value
    if isinstance(value, list):
        return [v.value if hasattr(v, "value") else v for v in value]
    return value


def _same(name: str, expected: Any, got: Any) -> bool:
    if name in ("preferences", "train_types", "missing"):
        return sorted(expected or []) == got
    if isinstance(expected, int | float) and isinstance(got, int | float):
        return abs(float(expected) - float(got)) < 1e-6
    return bool(expected == got)


def score(cases: Sequence[EvalCase], intents: Sequence[TravelIntent]) -> Report:
    """Compare parsed intents with the labels."""
    report = Report()
    for case, intent in zip(cases, intents, strict=True):
        report.items += 1
        all_right = True
        for name, expected in case.expected.items():
            got = observed(intent, name)
            ok = _same(name, expected, got)
            report.total[name] = report.total.get(name, 0) + 1
            report.right[name] = report.right.get(name, 0) + int(ok)
            if not ok:
                all_right = False
                report.failures.append((case.id, case.text, name, expected, got))
        report.exact += int(all_right)
    return report


async def run(cases: Sequence[EvalCase], parse: ParseFn) -> Report:
    """Parse every case (sequentially: an LLM endpoint is not to be flooded) and score."""
    intents = [await parse(case.text, case.today) for case in cases]
    return score(cases, intents)


def print_report(title: str, report: Report, out: TextIO, show_failures: bool = False) -> None:
    """A per-field table, then overall accuracy and exact-match rate."""
    out.write(f"\n{title}: {report.items} requests\n")
    out.write(f"{'field':<20}{'right':>7}{'labelled':>10}{'accuracy':>10}\n")
    for name in sorted(report.total, key=lambda n: (-report.total[n], n)):
        right, total = report.right[name], report.total[name]
        out.write(f"{name:<20}{right:>7}{total:>10}{right / total:>10.1%}\n")
    out.write(f"{'per-field accuracy':<20}{report.field_accuracy:>27.1%}\n")
    out.write(f"{'exact match':<20}{report.exact_rate:>27.1%}\n")
    if show_failures:
        for case_id, text, name, expected, got in report.failures:
            out.write(f"  {case_id} {name}: expected {expected!r}, got {got!r}  | {text}\n")


def _llm_parser(
    settings: Settings, directory: StationDirectory, metrics: Metrics
) -> IntentParser | None:
    """The service's LLM parser on the configured model (`RAILTRIP_LLM_*`), or None."""
    import httpx

    from app.wiring import llm

    client = llm.openai_client(settings, httpx.AsyncClient())
    parser = llm.llm_parser(settings, client, metrics, directory)
    return IntentParser(directory=directory, metrics=metrics, llm=parser) if parser else None


def main(argv: list[str], out: TextIO | None = None) -> int:
    """Run the evaluation; 0 on success, 2 when `--parser llm` has no key configured."""
    out = out or sys.stdout
    args = _arguments().parse_args(argv)
    directory = StationDirectory.from_csv(args.stations) if args.stations else curated_directory()
    metrics = Metrics()
    if args.parser == "llm":
        parser = _llm_parser(Settings(), directory, metrics)
        if parser is None:
            out.write(
                "eval-intent --parser llm needs RAILTRIP_LLM_API_KEY (and usually "
                "RAILTRIP_LLM_BASE_URL, RAILTRIP_LLM_MODEL); none is set.\n"
            )
            return 2
    else:
        parser = IntentParser(directory=directory, metrics=metrics, llm=None)

    async def parse(text: str, today: dt.date) -> TravelIntent:
        return (await parser.parse(text, today)).intent

    async def evaluate_splits() -> list[tuple[str, Report]]:
        # One event loop for every split: the LLM client's connections belong to it.
        splits = ("dev", "heldout") if args.split == "all" else (args.split,)
        return [(s, await run(load_cases(args.file, (s,)), parse)) for s in splits]

    for split, report in asyncio.run(evaluate_splits()):
        print_report(f"{args.parser} parser, {split} split", report, out, args.failures)
    return 0


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app eval-intent", description=__doc__)
    parser.add_argument("--parser", choices=("rules", "llm"), default="rules")
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    parser.add_argument("--file", type=Path, default=DEFAULT_SET, help="labelled JSONL set")
    parser.add_argument("--stations", type=Path, help="station CSV (default: curated)")
    parser.add_argument("--failures", action="store_true", help="list every wrong field")
    return parser


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
