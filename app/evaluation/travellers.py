"""The travellers suite: sentences and 4-turn dialogues written by travellers (BRIEF.md in
the case writers' folder), run through the real app in-process, judged by `verdicts.judge`.

A sentence case is one `POST /v1/plan {text, today}`; a dialogue is four `POST /v1/chat` turns
on one session. After each reply the live offers the verdict needs (`verdicts.needed_queries`)
are read from `GET /v1/tickets` of the same app at the same instant, so a relaxation is
checked against what the product itself could have sold. Only IO and the report live here.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx

from app.evaluation.expectations import Offer
from app.evaluation.harness import app_on
from app.evaluation.journeys import Leg
from app.evaluation.verdicts import Answer, Book, Query, Verdict, judge, needed_queries
from app.settings import SANDBOX_BASE_URLS, Settings

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "travellers"
DEFAULT_FILES = (FIXTURES / "sentences.jsonl", FIXTURES / "dialogues.jsonl")
SPLITS = ("dev", "heldout")
# The sandbox vendors are in-process: a polite 5 requests/s would only make the fake clock
# sleep (and age the cache) between the thousands of queries a run makes.
GENEROUS = {"rate_per_s": 1000.0, "concurrency": 100}
PROGRESS_EVERY = 25  # cases between progress lines on stderr (a full run takes minutes)
# Wall-clock seconds one case may take. Judging an order over a big city's every station on
# every day of a fortnight asks /v1/tickets for each station pair and day (36 x 19 x 14 for
# 成都→重庆 "这两周哪天都行"), which took over ten minutes; such a case is reported unjudged
# (and counted wrong) rather than holding the whole run.
CASE_LIMIT_S = 300.0
SLOW_CASE_S = 30.0  # a case slower than this is named on stderr


@dataclass(frozen=True)
class Case:
    id: str
    today: dt.date
    classes: tuple[str, ...]
    split: str | None
    turns: tuple[tuple[str, dict[str, Any]], ...]  # (text, expect); one for a sentence
    dialogue: bool


@dataclass
class Turn:
    text: str
    verdict: Verdict
    reply: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        itinerary = self.reply.get("itinerary") or {}
        return {
            "text": self.text,
            "outcome": self.verdict.outcome,
            "right": self.verdict.right,
            "failures": self.verdict.failures,
            "false_relaxations": self.verdict.false_relaxations,
            "honest_relaxations": self.verdict.honest_relaxations,
            "notes": self.verdict.notes,
            "relaxed": self.reply.get("relaxed") or [],
            "understood": self.reply.get("understood"),
            "summary": self.reply.get("summary"),
            "plan": plan_line(itinerary),
        }


@dataclass
class Result:
    case: Case
    turns: list[Turn]

    @property
    def right(self) -> bool:
        return all(turn.verdict.right for turn in self.turns)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "kind": "dialogue" if self.case.dialogue else "sentence",
            "classes": list(self.case.classes),
            "split": self.case.split,
            "today": self.case.today.isoformat(),
            "right": self.right,
            "false_relaxation": any(t.verdict.false_relaxations for t in self.turns),
            "turns": [turn.as_json() for turn in self.turns],
        }


def load_cases(paths: Iterable[Path], split: str | None = None) -> list[Case]:
    """Sentence and dialogue cases of JSONL files (one object a line), of one split or all."""
    cases = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            raw = json.loads(line)
            if split is not None and raw.get("split") != split:
                continue
            dialogue = "turns" in raw
            turns = (
                tuple((t["text"], t.get("expect") or {}) for t in raw["turns"])
                if dialogue
                else ((raw["text"], raw.get("expect") or {}),)
            )
            cases.append(
                Case(
                    id=raw["id"],
                    today=dt.date.fromisoformat(raw["today"]),
                    classes=tuple(raw.get("classes") or ("other",)),
                    split=raw.get("split"),
                    turns=turns,
                    dialogue=dialogue,
                )
            )
    return cases


def eval_settings() -> Settings:
    """The environment's settings with generous limits on the in-process sandbox sources
    (a real site keeps its politeness); the app logs only warnings unless the environment asks,
    so the tables are not buried under request lines."""
    base = Settings(_env_file=None)
    overrides = dict(base.source_overrides)
    for name in base.sources:
        if name in SANDBOX_BASE_URLS:
            overrides[name] = {**overrides.get(name, {}), **GENEROUS}
    return Settings(_env_file=None, source_overrides=overrides).with_defaults(log_level="WARNING")


async def fetch_book(client: httpx.AsyncClient, queries: Iterable[Query]) -> Book:
    """The `/v1/tickets` answer to each query (a refusal kept as its message)."""
    book: Book = {}
    for query in queries:
        params = {
            "origin": query.origin,
            "destination": query.destination,
            "date": query.date.isoformat(),
        }
        response = await client.get("/v1/tickets", params=params)
        body = response.json()
        if response.status_code == 200:
            offers = tuple(Offer.from_api(raw) for raw in body.get("offers") or [])
            book[query] = Answer(offers)
        else:
            book[query] = Answer(error=f"{response.status_code} {body.get('message', '')}")
    return book


async def run_case(case: Case, settings: Settings) -> Result:
    """One case through a fresh app whose clock reads the case's `today`."""
    turns: list[Turn] = []
    async with app_on(case.today, settings) as client:
        session: str | None = None
        for text, expect in case.turns:
            if case.dialogue:
                body: dict[str, Any] = {"text": text}
                if session:
                    body["session_id"] = session
                response = await client.post("/v1/chat", json=body)
            else:
                response = await client.post(
                    "/v1/plan", json={"text": text, "today": case.today.isoformat()}
                )
            if response.status_code != 200:
                failure = f"HTTP {response.status_code}: {response.text[:200]}"
                turns.append(Turn(text, Verdict("error", failures=[failure])))
                continue
            reply = response.json()
            session = session or reply.get("session_id")
            book = await fetch_book(client, needed_queries(expect, reply))
            verdict = judge(expect, reply, book)
            verdict.notes += [
                f"tickets {q.origin}→{q.destination} {q.date}: {a.error}"
                for q, a in book.items()
                if a.error and "unknown" in a.error
            ]
            turns.append(Turn(text, verdict, reply))
    return Result(case, turns)


async def run_all(
    cases: list[Case],
    settings: Settings,
    progress: IO[str] | None = None,
    case_limit: float = CASE_LIMIT_S,
) -> list[Result]:
    loop = asyncio.get_running_loop()
    results = []
    for number, case in enumerate(cases, 1):
        if progress is not None and number % PROGRESS_EVERY == 0:
            print(f"travellers: case {number}/{len(cases)}", file=progress, flush=True)
        started = loop.time()
        try:
            async with asyncio.timeout(case_limit):
                results.append(await run_case(case, settings))
        except TimeoutError:
            unjudged = Verdict("error", failures=[f"unjudged: ran past {case_limit:g} s"])
            results.append(Result(case, [Turn(text, unjudged) for text, _ in case.turns]))
        except Exception as exc:  # one broken case must not hide the others' figures
            crash = Verdict("error", failures=[f"crashed: {type(exc).__name__}: {exc}"])
            results.append(Result(case, [Turn(text, crash) for text, _ in case.turns]))
        took = loop.time() - started
        if progress is not None and took > SLOW_CASE_S:
            print(f"travellers: {case.id} took {took:.0f} s", file=progress, flush=True)
    return results


# -- the report -------------------------------------------------------------------------------


def plan_line(itinerary: dict[str, Any]) -> str:
    legs = [Leg.from_reply(raw) for raw in itinerary.get("legs") or []]
    return "; ".join(f"[{leg.segment}] {leg.describe()}" for leg in legs) or "no itinerary"


def _by_class(results: list[Result]) -> dict[str, list[Result]]:
    table: dict[str, list[Result]] = {}
    for result in results:
        for name in result.case.classes:
            table.setdefault(name, []).append(result)
    return dict(sorted(table.items()))


def sentence_table(results: list[Result]) -> list[str]:
    lines = [f"{'class':<14}{'cases':>7}{'right':>7}{'wrong':>7}{'false relax':>13}"]
    rows = [*_by_class(results).items(), ("overall", results)]
    for name, group in rows:
        right = sum(r.right for r in group)
        false = sum(any(t.verdict.false_relaxations for t in r.turns) for r in group)
        lines.append(f"{name:<14}{len(group):>7}{right:>7}{len(group) - right:>7}{false:>13}")
    return lines


def dialogue_table(results: list[Result]) -> list[str]:
    head = f"{'class':<14}{'dialogues':>10}{'turns':>7}{'turns right':>13}"
    lines = [head + f"{'dialogues right':>17}{'false relax (turns)':>21}"]
    rows = [*_by_class(results).items(), ("overall", results)]
    for name, group in rows:
        turns = [t for r in group for t in r.turns]
        right = sum(t.verdict.right for t in turns)
        false = sum(bool(t.verdict.false_relaxations) for t in turns)
        whole = sum(r.right for r in group)
        lines.append(f"{name:<14}{len(group):>10}{len(turns):>7}{right:>13}{whole:>17}{false:>21}")
    return lines


def wrong_lines(results: list[Result]) -> list[str]:
    lines = []
    for result in results:
        for index, turn in enumerate(result.turns, 1):
            if turn.verdict.right:
                continue
            where = f"{result.case.id} turn {index}" if result.case.dialogue else result.case.id
            said = turn.verdict.failures + [f"FALSE {f}" for f in turn.verdict.false_relaxations]
            plan = plan_line(turn.reply.get("itinerary") or {})
            lines.append(f"{where} «{turn.text}»: {' | '.join(said)} — plan: {plan}")
    return lines


def report(results: list[Result], out: IO[str], verbose: bool, split: str | None) -> None:
    scope = f", split {split}" if split else ""
    sentences = [r for r in results if not r.case.dialogue]
    dialogues = [r for r in results if r.case.dialogue]
    if sentences:
        print(f"travellers suite — sentences ({len(sentences)} cases{scope})", file=out)
        print("\n".join(sentence_table(sentences)), file=out)
    if dialogues:
        print(f"\ntravellers suite — dialogues ({len(dialogues)} dialogues{scope})", file=out)
        print("\n".join(dialogue_table(dialogues)), file=out)
    turns = [t for r in results for t in r.turns]
    names = Counter(
        str(entry.get("constraint")) for t in turns for entry in t.reply.get("relaxed") or []
    )
    seen = ", ".join(f"{name} ×{count}" for name, count in names.most_common()) or "none"
    print(f"\nrelaxed[].constraint names seen: {seen}", file=out)
    notes = Counter(note for t in turns for note in t.verdict.notes if "unchecked" in note)
    if notes:
        said = ", ".join(f"{note} ×{count}" for note, count in notes.items())
        print(f"unchecked expectation fields: {said}", file=out)
    unknown = sorted({n for t in turns for n in t.verdict.notes if n.startswith("tickets ")})
    if unknown:
        print("ticket queries refused (station names of the cases?):", file=out)
        print("\n".join(f"  {line}" for line in unknown), file=out)
    if verbose:
        print("\nwrong:", file=out)
        print("\n".join(wrong_lines(results)) or "  none", file=out)


def main(
    path: Path | None,
    out: IO[str],
    verbose: bool,
    split: str | None = None,
    json_path: Path | None = None,
) -> list[Result]:
    """Run the suite (both default files unless `path`) and print its tables."""
    paths = [path] if path is not None else [p for p in DEFAULT_FILES if p.exists()]
    if not paths:
        print(f"travellers suite: no cases in {FIXTURES}", file=out)
        return []
    cases = load_cases(paths, split)
    if not cases:
        scope = f" of split {split}" if split else ""
        print(f"travellers suite: no cases{scope} in {', '.join(map(str, paths))}", file=out)
        return []
    results = asyncio.run(run_all(cases, eval_settings(), progress=sys.stderr))
    report(results, out, verbose, split)
    if json_path is not None:
        json_path.write_text(
            json.dumps([r.as_json() for r in results], ensure_ascii=False, indent=1),
            encoding="utf-8",
        )
    return results
