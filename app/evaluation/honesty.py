"""The constraint-honesty suite: is every plan what was asked, or openly relaxed with cause?

For each case the reply of `POST /v1/plan` is checked by code that knows only the case's
`constraints` (intent field names) and the live offers of `GET /v1/tickets` for the legs'
stations and dates; it never reads the planner's own reasoning. Outcomes:

- met: every constraint holds in the itinerary;
- relaxed: each unmet constraint is named in `relaxed`, and the offers show it could not be
  met (no offer on that leg satisfies it together with the leg's other constraints);
- silent: a constraint is unmet and not named, or named while an offer could have met it;
- no plan: no itinerary, with the reply's reason.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

import httpx

from app.evaluation.harness import PLANS_DIR, PlanCase, app_on, load_plan_cases
from app.settings import Settings

DEFAULT_SUITE = PLANS_DIR / "honesty.jsonl"
SLEEPERS = {"premium_sleeper", "soft_sleeper", "emu_sleeper", "hard_sleeper"}

Leg = dict[str, Any]
Offer = dict[str, Any]


@dataclass
class Verdict:
    """What the checker decided about one case."""

    case: str
    outcome: str  # met | relaxed | silent | no_plan
    detail: str = ""


@dataclass
class HonestyReport:
    verdicts: list[Verdict] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        return Counter(v.outcome for v in self.verdicts)


def _time(text: str) -> dt.time:
    return dt.time.fromisoformat(text)


def _within(moment: str, span: str) -> bool:
    start, end = (_time(part) for part in span.split("-"))
    clock = dt.datetime.fromisoformat(moment).time().replace(second=0, tzinfo=None)
    return start <= clock <= end


def _segments(itinerary: dict[str, Any]) -> list[list[Leg]]:
    by_index: dict[int, list[Leg]] = {}
    for leg in itinerary["legs"]:
        by_index.setdefault(leg.get("segment", 0), []).append(leg)
    return [by_index[i] for i in sorted(by_index)]


def _at(station: dict[str, Any], want: str) -> bool:
    """A leg's station is the place asked for: the very station, or any station of a city."""
    return station["name"] == want or station["city"] == want


def _leading_stay(c: dict[str, Any]) -> int:
    """Nights spent in the origin city before the first ride ("先在北京玩一天")."""
    nights = 0
    for stop in c.get("via", []):
        if stop["city"] != c.get("origin"):
            break
        nights += stop.get("nights") or 0
    return nights


def check_leg_constraints(c: dict[str, Any], itinerary: dict[str, Any]) -> dict[str, bool]:
    """Each constraint → whether the itinerary meets it."""
    segments = _segments(itinerary)
    out = segments[0]
    home = out[0]["origin_station"]["city"]
    returns = len(segments) > 1 and segments[-1][-1]["destination_station"]["city"] == home
    back = segments[-1] if returns else []
    onward = segments[:-1] if returns else segments
    legs = itinerary["legs"]
    first_day = None
    if "date_start" in c:
        start = dt.date.fromisoformat(c["date_start"]) + dt.timedelta(days=_leading_stay(c))
        first_day = start.isoformat()
    ok: dict[str, bool] = {}
    for name, want in c.items():
        if name == "origin":
            ok[name] = _at(out[0]["origin_station"], want) and (
                not back or _at(back[-1]["destination_station"], want)
            )
        elif name == "destination":
            ok[name] = _at(onward[-1][-1]["destination_station"], want) and (
                not back or _at(back[0]["origin_station"], want)
            )
        elif name == "date_start":
            ok[name] = out[0]["depart_at"][:10] == first_day
        elif name == "date_end":
            ok[name] = bool(back) and back[0]["depart_at"][:10] == want
        elif name == "passengers":
            ok[name] = all(leg["passengers"] == want for leg in legs)
        elif name == "depart_window":
            ok[name] = _within(out[0]["depart_at"], want)
        elif name == "arrive_window":
            ok[name] = _within(out[-1]["arrive_at"], want)
        elif name == "return_window":
            ok[name] = bool(back) and _within(back[0]["depart_at"], want)
        elif name == "arrive_date":
            ok[name] = out[-1]["arrive_at"][:10] == want
        elif name == "budget":
            ok[name] = itinerary["total_price"] <= want + 1e-6
        elif name == "budget_per_person":
            party = max(1, legs[0]["passengers"])
            ok[name] = itinerary["total_price"] / party <= want + 1e-6
        elif name == "exclude_seat_classes":
            ok[name] = all(leg["seat_class"] not in want for leg in legs)
        elif name == "exclude_train_types":
            ok[name] = all(leg["train_number"][0] not in want for leg in legs)
        elif name == "seat_classes":
            ok[name] = all(leg["seat_class"] in want for leg in legs)
        elif name == "seat_class":
            ok[name] = all(leg["seat_class"] == want for leg in legs)
        elif name == "train_types":
            ok[name] = all(leg["train_number"][0] in want for leg in legs)
        elif name == "train_numbers":
            ok[name] = all(n in {leg["train_number"] for leg in legs} for n in want)
        elif name == "via":
            visited = {leg["destination_station"]["city"] for leg in legs}
            visited |= {leg["origin_station"]["city"] for leg in legs}
            ok[name] = all(v["city"] in visited for v in want)
    return ok


def _seat_ok(offer: Offer, c: dict[str, Any], party: int) -> list[dict[str, Any]]:
    usable = []
    for seat in offer["seats"]:
        if seat["status"] != "available" or seat["price"] is None:
            continue
        if seat["available"] is not None and seat["available"] < party:
            continue
        if seat["seat_class"] in c.get("exclude_seat_classes", []):
            continue
        if c.get("seat_classes") and seat["seat_class"] not in c["seat_classes"]:
            continue
        if c.get("seat_class") and seat["seat_class"] != c["seat_class"]:
            continue
        usable.append(seat)
    return usable


def feasible_offers(c: dict[str, Any], offers: list[Offer], *, drop: str | None) -> list[Offer]:
    """Offers of the outbound leg meeting every leg-level constraint except `drop`."""
    cc = {k: v for k, v in c.items() if k != drop}
    party = cc.get("passengers", 1)
    found = []
    for offer in offers:
        if offer["depart_at"][:10] != c["date_start"]:
            continue
        if "origin" in cc and not (
            offer["origin_station"]["name"] == cc["origin"]
            or offer["origin_station"]["city"] == cc["origin"]
        ):
            continue
        if "destination" in cc and not (
            offer["destination_station"]["name"] == cc["destination"]
            or offer["destination_station"]["city"] == cc["destination"]
        ):
            continue
        kind = offer["train_number"][0]
        if kind in cc.get("exclude_train_types", []):
            continue
        if cc.get("train_types") and kind not in cc["train_types"]:
            continue
        if "depart_window" in cc and not _within(offer["depart_at"], cc["depart_window"]):
            continue
        if "arrive_window" in cc and not _within(offer["arrive_at"], cc["arrive_window"]):
            continue
        if "arrive_date" in cc and offer["arrive_at"][:10] != cc["arrive_date"]:
            continue
        seats = _seat_ok(offer, cc, party)
        if not seats:
            continue
        if "budget_per_person" in cc and min(s["price"] for s in seats) > cc["budget_per_person"]:
            continue
        if "budget" in cc and min(s["price"] for s in seats) * party > cc["budget"]:
            continue
        found.append(offer)
    return found


OUTBOUND_ONLY = {
    "exclude_seat_classes",
    "exclude_train_types",
    "seat_classes",
    "seat_class",
    "train_types",
    "depart_window",
    "arrive_window",
    "arrive_date",
    "origin",
    "destination",
    "budget_per_person",
    "budget",
    "passengers",
}


def _first_ride(c: dict[str, Any]) -> dict[str, Any]:
    """The constraints of the first ride: its day is after any stay in the origin city."""
    if "date_start" not in c:
        return c
    day = dt.date.fromisoformat(c["date_start"]) + dt.timedelta(days=_leading_stay(c))
    return c | {"date_start": day.isoformat()}


def _return_ride(c: dict[str, Any]) -> dict[str, Any]:
    """The constraints of the ride home: reversed ends, its own window as the departure."""
    ride = {
        k: v for k, v in c.items() if k not in ("depart_window", "arrive_window", "arrive_date")
    }
    ride.update(origin=c["destination"], destination=c["origin"], date_start=c["date_end"])
    if "return_window" in c:
        ride["depart_window"] = c["return_window"]
    return ride


def judge(
    case: PlanCase, reply: dict[str, Any], offers: list[Offer], back: list[Offer] | None = None
) -> Verdict:
    """The verdict on one reply, from the constraints and the live offers only."""
    c = case.data["constraints"]
    itinerary = reply.get("itinerary")
    if "invalid_train_numbers" in c:
        said = " ".join(reply.get("warnings", [])) + reply.get("summary", "")
        if not all(n in said for n in c["invalid_train_numbers"]):
            return Verdict(case.id, "silent", "invalid train number not reported")
    if itinerary is None:
        return Verdict(case.id, "no_plan", reply.get("summary", "")[:80])
    checks = check_leg_constraints(
        {k: v for k, v in c.items() if k != "invalid_train_numbers"}, itinerary
    )
    relaxed = {r["constraint"] for r in reply.get("relaxed", [])}
    if "budget" in relaxed:
        relaxed.add("budget_per_person")  # one budget, stated per person
    if "date_start" in relaxed:
        relaxed.add("date_end")  # the whole trip moved
    unmet = [name for name, good in checks.items() if not good]
    if "order" in c:
        unmet += _order_unmet(_first_ride(c), itinerary, offers)
    if not unmet:
        return Verdict(case.id, "met")
    single_ride = "via" not in c
    for name in unmet:
        if name not in relaxed:
            return Verdict(case.id, "silent", f"{name} unmet, not in relaxed")
        if not single_ride:
            continue
        if name == "return_window" and back is not None and "date_end" in c:
            if feasible_offers(_return_ride(c), back, drop=None):
                return Verdict(case.id, "silent", f"{name} relaxed though an offer met it")
        elif name in OUTBOUND_ONLY and not (name.startswith("budget") and "date_end" in c):
            if feasible_offers(_first_ride(c), offers, drop=None):
                return Verdict(case.id, "silent", f"{name} relaxed though an offer met it")
    return Verdict(case.id, "relaxed", ",".join(unmet))


def _order_unmet(c: dict[str, Any], itinerary: dict[str, Any], offers: list[Offer]) -> list[str]:
    pool = feasible_offers(c, offers, drop="order")
    out = _segments(itinerary)[0]
    first = out[0]
    if not pool or len(out) > 1:
        return []
    metric: Callable[[Offer], Any]
    order = c["order"]
    if order == "earliest":
        best = min(o["depart_at"] for o in pool)
        return [] if first["depart_at"] <= best else ["order"]
    if order == "latest":
        best = max(o["depart_at"] for o in pool)
        return [] if first["depart_at"] >= best else ["order"]
    if order == "fastest":
        metric = lambda o: o["duration_min"]  # noqa: E731
        chosen = next((o for o in pool if o["train_number"] == first["train_number"]), None)
        best = min(metric(o) for o in pool)
        return [] if chosen is not None and metric(chosen) <= best else ["order"]
    cheapest = min(min(s["price"] for s in _seat_ok(o, c, c.get("passengers", 1))) for o in pool)
    return [] if first["unit_price"] <= cheapest + 1e-6 else ["order"]


async def _offers(client: httpx.AsyncClient, c: dict[str, Any]) -> list[Offer]:
    """The live offers of one ride (`origin` → `destination` on `date_start`)."""
    params = {"origin": c["origin"], "destination": c["destination"], "date": c["date_start"]}
    response = await client.get("/v1/tickets", params=params)
    if response.status_code != 200:
        return []
    offers: list[Offer] = response.json().get("offers", [])
    return offers


async def run_honesty(cases: list[PlanCase], settings: Settings | None = None) -> HonestyReport:
    """Every case through `/v1/plan` on an app whose clock reads the case's day."""
    report = HonestyReport()
    by_day: dict[dt.date, list[PlanCase]] = {}
    for case in cases:
        by_day.setdefault(case.today, []).append(case)
    for day, group in sorted(by_day.items()):
        async with app_on(day, settings) as client:
            for case in group:
                response = await client.post(
                    "/v1/plan", json={"text": case.text, "today": case.today.isoformat()}
                )
                if response.status_code != 200:
                    report.verdicts.append(
                        Verdict(case.id, "no_plan", f"HTTP {response.status_code}")
                    )
                    continue
                c = case.data["constraints"]
                offers = await _offers(client, _first_ride(c))
                back = await _offers(client, _return_ride(c)) if "date_end" in c else None
                report.verdicts.append(judge(case, response.json(), offers, back))
    return report


def print_honesty(report: HonestyReport, out: TextIO, verbose: bool = False) -> None:
    """The four counts, then (verbose) every case that was not simply met."""
    counts = report.counts()
    out.write(f"\nconstraint honesty: {len(report.verdicts)} cases\n")
    for label, key in (
        ("met", "met"),
        ("openly relaxed", "relaxed"),
        ("silent violations", "silent"),
        ("no plan (with reason)", "no_plan"),
    ):
        out.write(f"{label:<24}{counts.get(key, 0):>6}\n")
    if verbose:
        for v in report.verdicts:
            if v.outcome != "met":
                out.write(f"  {v.case} {v.outcome}: {v.detail}\n")


def main(path: Any = None, out: TextIO | None = None, verbose: bool = False) -> HonestyReport:
    """Run the suite at `path` (default: the honesty suite) and print its counts."""
    import asyncio

    cases = load_plan_cases(path or DEFAULT_SUITE)
    report = asyncio.run(run_honesty(cases))
    print_honesty(report, out or sys.stdout, verbose)
    return report
