"""The delivery suite: does a plan come back for requests the real network serves, and is it true?

Each case of `tests/fixtures/plans/delivery.jsonl` (`{id, kind, today, text, feasible, why}`)
goes through `POST /v1/plan` on the real app, on a clock set to 08:00 of the case's `today`.
A plan with an itinerary is *delivered*; a delivered plan is *verified* when an independent
leg-by-leg check against live offers (`GET /v1/tickets?refresh=true` for each leg, nothing
from the planner's internals) finds no problem:

- each leg is a live offer: the train number, boarding and alighting stations, departure and
  arrival times are those of an offer, the leg's class is offered and available for the
  party, its unit price is the offer's, and the leg price is unit price × passengers;
- within a segment each change is feasible: the next train leaves from the city the last one
  reached, after the minimum connection (same station or across the city) and within the
  maximum wait, as `rules.config.RuleConfig` defines them; the `transfers` block states those
  changes and their minutes; segments follow each other in time;
- the totals are true: `total_price` is the sum of the legs, and `within_budget` says what
  the budget and the total say.

The sandbox sources run with generous limits here (the suite measures what is delivered, not
how fast: `bench/planning.py` does that), so 121 cases take about a minute. Run:
`python -m app eval-plans [--suite delivery] [--file PATH] [--verbose]`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sys
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import httpx

from rules.config import RuleConfig
from sources.models import SHANGHAI

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests" / "fixtures" / "plans" / "delivery.jsonl"
OFFICIAL_LIST = ROOT.parent / "shared" / "data" / "station_name.js"
GENEROUS = {"concurrency": 50, "rate_per_s": 1000.0, "timeout_s": 30.0, "retries": 0}
SANDBOX_SOURCES = ("sandbox-12306", "sandbox-juhe")
PRICE_TOLERANCE = 0.01

Json = dict[str, Any]
FetchOffers = Callable[[str, str, str], Awaitable[list[Json]]]


@dataclass(frozen=True)
class Case:
    """One request of the suite, with the author's judgement of the real network."""

    id: str
    kind: str
    today: dt.date
    text: str
    feasible: bool
    why: str = ""


@dataclass
class Outcome:
    """What the app answered to a case, and what the verifier found wrong with it."""

    case: Case
    delivered: bool
    problems: list[str] = field(default_factory=list)
    summary: str = ""

    @property
    def verified(self) -> bool:
        return self.delivered and not self.problems


def load_suite(path: Path = SUITE) -> list[Case]:
    """The cases of a JSON-lines suite file."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        cases.append(
            Case(
                id=row["id"],
                kind=row["kind"],
                today=dt.date.fromisoformat(row["today"]),
                text=row["text"],
                feasible=bool(row["feasible"]),
                why=row.get("why", ""),
            )
        )
    return cases


# -- the verifier (pure over the plan and the live offers) ---------------------------------


def check_itinerary(
    itinerary: Json, live: Sequence[Sequence[Json]], config: RuleConfig | None = None
) -> list[str]:
    """Problems with `itinerary`, given the live offers found for each of its legs (in order)."""
    config = config or RuleConfig()
    legs = itinerary["legs"]
    problems: list[str] = []
    for index, (leg, offers) in enumerate(zip(legs, live, strict=True)):
        problems += [f"leg {index + 1} {leg['train_number']}: {p}" for p in _check_leg(leg, offers)]
    problems += _check_connections(legs, itinerary.get("transfers", []), config)
    total = sum(leg["price"] for leg in legs)
    if abs(total - itinerary["total_price"]) > PRICE_TOLERANCE:
        problems.append(f"total_price {itinerary['total_price']} but the legs sum to {total}")
    budget = itinerary.get("budget")
    if budget is not None:
        fits = itinerary["total_price"] <= budget + PRICE_TOLERANCE
        if bool(itinerary.get("within_budget")) != fits:
            problems.append(
                f"within_budget={itinerary.get('within_budget')} for "
                f"{itinerary['total_price']} against a budget of {budget}"
            )
    return problems


def _check_leg(leg: Json, offers: Sequence[Json]) -> list[str]:
    same_train = [o for o in offers if o["train_number"] == leg["train_number"]]
    if not same_train:
        return ["no live offer of this train between these stations on this date"]
    match = next(
        (
            o
            for o in same_train
            if o["origin_station"]["telecode"] == leg["origin_station"]["telecode"]
            and o["destination_station"]["telecode"] == leg["destination_station"]["telecode"]
        ),
        None,
    )
    if match is None:
        return ["the live offer boards or alights at other stations"]
    problems = []
    for key in ("depart_at", "arrive_at"):
        if _instant(match[key]) != _instant(leg[key]):
            problems.append(f"{key} {leg[key]} but the live offer says {match[key]}")
    seat = next((s for s in match["seats"] if s["seat_class"] == leg["seat_class"]), None)
    passengers = leg.get("passengers", 1)
    if seat is None:
        problems.append(f"{leg['seat_class']} is not offered")
        return problems
    if seat["status"] != "available" or (
        seat["available"] is not None and seat["available"] < passengers
    ):
        problems.append(
            f"{leg['seat_class']} is {seat['status']} ({seat['available']}) for {passengers}"
        )
    if seat["price"] is None or abs(seat["price"] - leg["unit_price"]) > PRICE_TOLERANCE:
        problems.append(f"unit price {leg['unit_price']} but the live fare is {seat['price']}")
    if abs(leg["unit_price"] * passengers - leg["price"]) > PRICE_TOLERANCE:
        problems.append(f"price {leg['price']} is not {leg['unit_price']} x {passengers}")
    return problems


def _check_connections(
    legs: Sequence[Json], transfers: Sequence[Json], config: RuleConfig
) -> list[str]:
    problems = []
    changes = []
    for before, after in zip(legs, legs[1:], strict=False):
        gap = (_instant(after["depart_at"]) - _instant(before["arrive_at"])) / dt.timedelta(
            minutes=1
        )
        if before.get("segment", 0) != after.get("segment", 0):
            if gap < 0:
                problems.append(
                    f"{after['train_number']} leaves before {before['train_number']} arrives"
                )
            continue
        arrived, leaving = before["destination_station"], after["origin_station"]
        same = arrived["telecode"] == leaving["telecode"]
        changes.append((arrived, leaving, gap, same))
        where = f"change {before['train_number']}→{after['train_number']} at {arrived['name']}"
        if arrived["city"] != leaving["city"]:
            problems.append(f"{where}: the next train leaves from {leaving['name']}, another city")
        elif not config.connects(_instant(before["arrive_at"]), _instant(after["depart_at"]), same):
            problems.append(
                f"{where}: {gap:.0f} min, allowed {config.min_connection(same)}"
                f"–{config.max_connection}, or a night at the hub"
            )
    if len(transfers) != len(changes):
        problems.append(f"{len(transfers)} transfers stated, {len(changes)} changes made")
    for stated, (arrived, _, gap, same) in zip(transfers, changes, strict=False):
        if stated["station"]["telecode"] != arrived["telecode"] or stated["minutes"] != round(gap):
            problems.append(
                f"transfer at {stated['station']['name']} {stated['minutes']} min stated, "
                f"{arrived['name']} {gap:.0f} min made"
            )
        if bool(stated.get("same_station")) != same:
            problems.append(f"transfer at {arrived['name']}: same_station is wrong")
    return problems


def _instant(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


# -- running the suite -------------------------------------------------------------------


async def verify(itinerary: Json, fetch: FetchOffers) -> list[str]:
    """Fetch the live offers for each leg, then check the itinerary against them."""
    live = [
        await fetch(
            leg["origin_station"]["telecode"],
            leg["destination_station"]["telecode"],
            leg["depart_at"][:10],
        )
        for leg in itinerary["legs"]
    ]
    return check_itinerary(itinerary, live)


def live_offers(client: httpx.AsyncClient) -> FetchOffers:
    """A fetch through the app's own `GET /v1/tickets`, forced live (`refresh=true`)."""

    async def fetch(origin: str, destination: str, date: str) -> list[Json]:
        params = {"origin": origin, "destination": destination, "date": date, "refresh": "true"}
        response = await client.get("/v1/tickets", params=params)
        if response.status_code != 200:
            return []
        return list(response.json()["offers"])

    return fetch


async def run_case(client: httpx.AsyncClient, case: Case) -> Outcome:
    """Plan one case and verify what came back."""
    response = await client.post(
        "/v1/plan", json={"text": case.text, "today": case.today.isoformat()}
    )
    if response.status_code != 200:
        return Outcome(case, delivered=False, summary=f"HTTP {response.status_code}")
    body = response.json()
    itinerary = body.get("itinerary")
    if itinerary is None:
        return Outcome(case, delivered=False, summary=body.get("summary") or "")
    problems = await verify(itinerary, live_offers(client))
    return Outcome(case, delivered=True, problems=problems, summary=body.get("summary") or "")


async def run_suite(cases: Iterable[Case]) -> list[Outcome]:
    """Every case, one app per `today` (its clock at 08:00 that day)."""
    from app.main import create_app
    from app.runtime import Runtime
    from app.settings import Settings

    by_day: dict[dt.date, list[Case]] = defaultdict(list)
    for case in cases:
        by_day[case.today].append(case)
    stations = str(OFFICIAL_LIST) if OFFICIAL_LIST.exists() else None
    outcomes: list[Outcome] = []
    for today, day_cases in sorted(by_day.items()):
        morning = dt.datetime.combine(today, dt.time(8), SHANGHAI)
        settings = Settings(
            log_level="WARNING",
            stations_url=stations,
            source_overrides=dict.fromkeys(SANDBOX_SOURCES, GENEROUS),
        )
        app = create_app(settings, Runtime(clock=_fixed(morning)))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://eval") as client:
                for case in day_cases:
                    outcomes.append(await run_case(client, case))
    order = {case.id: i for i, case in enumerate(c for cs in by_day.values() for c in cs)}
    outcomes.sort(key=lambda o: order[o.case.id])
    return outcomes


def _fixed(moment: dt.datetime) -> Callable[[], dt.datetime]:
    return lambda: moment


def report(outcomes: Sequence[Outcome]) -> str:
    """Delivered and verified rates per kind, feasible requests only, then the infeasible."""
    kinds: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        kinds[outcome.case.kind].append(outcome)
    rows: list[tuple[str, ...]] = [
        ("kind", "cases", "feasible", "delivered", "rate", "verified", "rate", "infeasible→plan")
    ]
    totals = [0, 0, 0, 0, 0]
    for kind, group in sorted(kinds.items()):
        feasible = [o for o in group if o.case.feasible]
        delivered = [o for o in feasible if o.delivered]
        verified = [o for o in delivered if o.verified]
        infeasible_planned = [o for o in group if not o.case.feasible and o.delivered]
        counts = [len(group), len(feasible), len(delivered), len(verified), len(infeasible_planned)]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        rows.append(_row(kind, counts))
    rows.append(_row("all", totals))
    width = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(str(c).rjust(w) for c, w in zip(r, width, strict=True)) for r in rows]
    return "\n".join(lines)


def _row(kind: str, counts: list[int]) -> tuple[str, ...]:
    cases, feasible, delivered, verified, infeasible_planned = counts
    return (
        kind,
        str(cases),
        str(feasible),
        str(delivered),
        _pct(delivered, feasible),
        str(verified),
        _pct(verified, delivered),
        str(infeasible_planned),
    )


def _pct(part: int, whole: int) -> str:
    return f"{part / whole * 100:.0f}%" if whole else "—"


def details(outcomes: Sequence[Outcome]) -> Iterable[str]:
    """One line per feasible case not delivered and per delivered plan that failed checks."""
    for o in outcomes:
        if o.case.feasible and not o.delivered:
            yield f"{o.case.id} [{o.case.kind}] not delivered: {o.case.text} — {o.summary[:80]}"
        for problem in o.problems:
            yield f"{o.case.id} [{o.case.kind}] {problem}"


def main(path: Path | None = None, out: TextIO | None = None, verbose: bool = False) -> None:
    """Run the delivery suite at `path` (default: the bundled one) and print its table."""
    out = out or sys.stdout
    path = path or SUITE
    outcomes = asyncio.run(run_suite(load_suite(path)))
    print(f"delivery suite: {path.name}, {len(outcomes)} cases", file=out)
    print(report(outcomes), file=out)
    if verbose:
        for line in details(outcomes):
            print(line, file=out)


def summary_counts(outcomes: Sequence[Outcome]) -> Mapping[str, int]:
    """Totals over the suite (for tests and gates)."""
    feasible = [o for o in outcomes if o.case.feasible]
    delivered = [o for o in feasible if o.delivered]
    return {
        "feasible": len(feasible),
        "delivered": len(delivered),
        "verified": sum(o.verified for o in delivered),
    }
