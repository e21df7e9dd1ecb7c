"""Optimality: how close `/v1/plan`'s itineraries come to the best plan the timetable allows.

Each request of `bench/optimality_cases.jsonl` (a structured intent, so the parser is not what
is measured) is planned once, cold, by the real app in-process (a fresh app per request, its
clock at the case's `today` 00:00 Shanghai, generous per-source limits so the limiter is not
what is measured). The same request goes to an independent optimum search over the same
network (`bench/optimum.py`, which reads no planner code) at the same clock time; every leg of
the optimum, and every leg of the plan, is then looked up on the running app's
`/v1/tickets` (exact stations, that date): the train at those times, the class on sale, the
price.

Figures per kind of request, plan against optimum:

- fastest: minutes door to door (first departure to last arrival), ratio plan / optimum;
- cheapest: total price of one adult, ratio plan / optimum;
- deadline: order latest, minutes of departure lost (optimum minus plan); order
  earliest_arrival (最早到), minutes of arrival lost (plan minus optimum); "within 5%" is a
  loss of at most 5% of the optimum's door-to-door minutes;
- transfer (no order stated): minutes door to door, ratio; the price ratio against the
  cheapest journey is printed beside it.

"Within 5%" counts only plans that meet the request's stated constraints and break no rule;
median and p90 are over every plan. Rule breaks: an outlying station boarded or alighted at
while the city proper had a journey; a hub stop (a change longer than `MAX_CONNECTION`) while
a journey with regular changes existed, or any change over `HUB_STOP_MAX_WAIT`; a change
shorter than the minimum or across stations not in one city proper; a journey with changes
longer than `MAX_DETOUR` times the quickest direct ride of the day; a leg not on
`/v1/tickets` as planned (train number, stations, times, class on sale, price). Beside them:
plans that miss a stated constraint (another day, a window, a type, a class, a named
station), replies that relax one (`relaxed`), and plans that beat the optimum (each must be
explained by a rule break, or it is a bug of this bench).

The search reads seats with `sources/sandbox/inventory.py` at the app's clock (what the 12306
sandbox, the first source, shows); the optimum's legs are then confirmed on `/v1/tickets`.
Upstream requests per plan come from the sandbox vendors' own counters (every path but the
station list); latency is the cold plan's wall time.

Run from the repository root: `.venv/bin/python bench/optimality.py [--verbose] [--json FILE]
[--kinds fastest,cheapest,deadline,transfer] [--limit N] [--self-check-only]
[--optimum-only]` (the last: every request's optimum, no planner, for writing cases).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
from harness import GENEROUS, median, percentile
from optimum import DAY, HORIZON, Ask, Join, Journey, Rails, Search, exhaustive

from app.evaluation.harness import StillClock
from app.main import create_app
from app.runtime import Runtime
from app.settings import Settings
from rules.config import (
    HUB_STOP_MAX_WAIT,
    MAX_CONNECTION,
    MAX_DETOUR,
    MIN_CONNECTION_CROSS_STATION,
    MIN_CONNECTION_SAME_STATION,
    can_change,
)
from sources.models import SeatClass, Station
from sources.stations import default_directory

CASES = Path(__file__).with_name("optimality_cases.jsonl")
KINDS = ("fastest", "cheapest", "deadline", "transfer")
SOURCES = ("sandbox-12306", "sandbox-juhe")
NOT_DATA = ("/otn/resources/js/framework/station_name.js",)
WITHIN = 0.05
TIME_FORMAT = "%m-%d %H:%M"


def bench_settings() -> Settings:
    """The embedded default with generous per-source limits (the limiter is not measured)."""
    return Settings(
        _env_file=None,
        log_level="WARNING",
        source_overrides={name: dict(GENEROUS) for name in SOURCES},
    )


# -- requests ------------------------------------------------------------------------------


def load_cases(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")[:2]
    return int(hours) * 60 + int(minutes)


def night_rule(intent: dict[str, Any]) -> bool:
    """Whether the planner's night rule holds for this request, as the product states it: a
    stated time window, a berth or class category, 卧铺, or an order for the first or last
    train or for price is the traveller's own choice of the night hours."""
    windows = ("depart_window", "arrive_window", "return_window", "return_arrive_window")
    return not (
        any(intent.get(w) for w in windows)
        or intent.get("seat_classes")
        or "卧铺" in intent.get("preferences", [])
        or intent.get("order") in ("earliest", "latest", "cheapest")
    )


def ask_for(rails: Rails, intent: dict[str, Any], objective: str) -> Ask:
    """The search's reading of a structured intent: the travel day, both places, windows,
    types, the allowed classes (standing only when named) and the night rule."""
    day = dt.date.fromisoformat(intent["date_start"])
    depart = (0, DAY - 1)
    if intent.get("depart_window"):
        window = intent["depart_window"]
        depart = (_minutes(window["start"]), _minutes(window["end"]))
    arrive = (0, HORIZON)
    arrive_day = intent.get("arrive_date")
    offset = (dt.date.fromisoformat(arrive_day) - day).days * DAY if arrive_day else 0
    if intent.get("arrive_window"):
        window = intent["arrive_window"]
        arrive = (offset + _minutes(window["start"]), offset + _minutes(window["end"]))
    elif arrive_day:
        arrive = (offset, offset + DAY - 1)
    if intent.get("seat_class"):
        classes = {SeatClass(intent["seat_class"])}
    elif intent.get("seat_classes"):
        classes = {SeatClass(c) for c in intent["seat_classes"]}
    else:
        classes = {c for c in SeatClass if c is not SeatClass.NO_SEAT}
    classes -= {SeatClass(c) for c in intent.get("exclude_seat_classes", [])}
    return Ask(
        day=day,
        origin=rails.place(intent["origin"]),
        destination=rails.place(intent["destination"]),
        objective=objective,
        depart=depart,
        arrive=arrive,
        train_types=frozenset(intent.get("train_types", [])),
        exclude_train_types=frozenset(intent.get("exclude_train_types", [])),
        classes=frozenset(classes),
        night_rule=night_rule(intent),
    )


def objectives(case: dict[str, Any]) -> tuple[str, ...]:
    """What a case is measured on: its order, or (no order) speed first and price beside."""
    order = case["intent"].get("order")
    if order == "earliest":
        raise ValueError(f"{case['id']}: order earliest (最早一班, the first train): not measured")
    return (order,) if order else ("fastest", "cheapest")


# -- legs, as the plan and the optimum give them -------------------------------------------


@dataclass(frozen=True)
class Leg:
    train: str
    board: Station
    alight: Station
    dep: dt.datetime
    arr: dt.datetime
    seat: str
    price: float

    def line(self) -> str:
        return (
            f"{self.train} {self.board.name}{self.dep:%H:%M}→{self.alight.name}"
            f"{self.arr:%H:%M} {SeatClass(self.seat).label}{self.price:g}"
        )


def plan_legs(itinerary: dict[str, Any]) -> list[Leg]:
    return [
        Leg(
            leg["train_number"],
            Station.model_validate(leg["origin_station"]),
            Station.model_validate(leg["destination_station"]),
            dt.datetime.fromisoformat(leg["depart_at"]),
            dt.datetime.fromisoformat(leg["arrive_at"]),
            leg["seat_class"],
            leg["unit_price"],
        )
        for leg in itinerary["legs"]
    ]


def optimum_legs(rails: Rails, search: Search, journey: Journey) -> list[Leg]:
    at = search.midnight
    return [
        Leg(
            rails.train_number(r),
            rails.board_station(r),
            rails.alight_station(r),
            at + dt.timedelta(minutes=r.dep),
            at + dt.timedelta(minutes=r.arr),
            r.seat.value,
            r.price,
        )
        for r in journey.rides
    ]


@dataclass(frozen=True)
class Figures:
    """A journey's figures relative to the travel day's midnight."""

    dep: float
    arr: float
    price: float

    @property
    def minutes(self) -> float:
        return self.arr - self.dep

    def value(self, objective: str) -> float:
        return {
            "fastest": self.minutes,
            "cheapest": self.price,
            "latest": self.dep,
            "earliest_arrival": self.arr,
        }[objective]


def figures(legs: list[Leg], midnight: dt.datetime) -> Figures:
    return Figures(
        (legs[0].dep - midnight).total_seconds() / 60,
        (legs[-1].arr - midnight).total_seconds() / 60,
        round(sum(leg.price for leg in legs), 1),
    )


def score(objective: str, plan: Figures, best: Figures) -> tuple[float, bool]:
    """The comparison figure (a ratio, or minutes lost) and whether it is within 5%."""
    if objective in ("fastest", "cheapest"):
        ratio = plan.value(objective) / best.value(objective)
        return ratio, ratio <= 1 + WITHIN
    lost = best.dep - plan.dep if objective == "latest" else plan.arr - best.arr
    return lost, lost <= WITHIN * best.minutes


# -- /v1/tickets ---------------------------------------------------------------------------


class Tickets:
    """`/v1/tickets` of one running app, one query per (from, to, date)."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self._answers: dict[tuple[str, str, dt.date], list[dict]] = {}

    async def offers(self, board: str, alight: str, day: dt.date) -> list[dict]:
        key = (board, alight, day)
        if key not in self._answers:
            params = {"origin": board, "destination": alight, "date": day.isoformat()}
            response = await self.client.get("/v1/tickets", params=params)
            self._answers[key] = response.json().get("offers", []) if response.is_success else []
        return self._answers[key]

    async def confirm(self, leg: Leg) -> str | None:
        """None when `leg` is on sale as stated, else what is wrong."""
        offers = await self.offers(leg.board.telecode, leg.alight.telecode, leg.dep.date())
        offer = next(
            (
                o
                for o in offers
                if o["train_number"] == leg.train
                and o["origin_station"]["telecode"] == leg.board.telecode
                and o["destination_station"]["telecode"] == leg.alight.telecode
            ),
            None,
        )
        if offer is None:
            return f"{leg.train} {leg.board.name}→{leg.alight.name} not on /v1/tickets"
        if (
            dt.datetime.fromisoformat(offer["depart_at"]) != leg.dep
            or dt.datetime.fromisoformat(offer["arrive_at"]) != leg.arr
        ):
            return f"{leg.train} times differ from /v1/tickets"
        seat = next((s for s in offer["seats"] if s["seat_class"] == leg.seat), None)
        if seat is None or seat["status"] != "available" or seat["available"] == 0:
            return f"{leg.train} {leg.seat} not on sale"
        if seat["price"] is not None and abs(seat["price"] - leg.price) > 0.01:
            return f"{leg.train} {leg.seat} costs {seat['price']}, not {leg.price}"
        return None


# -- one request ---------------------------------------------------------------------------


@dataclass
class Outcome:
    """One request: the plan, the optimum, their figures and what the plan broke."""

    case: dict[str, Any]
    objective: str
    latency_ms: float = 0.0
    upstream: dict[str, int] = field(default_factory=dict)
    plan: list[Leg] = field(default_factory=list)
    best: list[Leg] = field(default_factory=list)
    figure: float | None = None
    within: bool = False
    second: tuple[str, float] | None = None  # transfer: the price ratio beside speed
    breaks: list[str] = field(default_factory=list)  # rule breaks: "kind: detail"
    unmet: list[str] = field(default_factory=list)  # stated constraints the plan misses
    relaxed: list[str] = field(default_factory=list)
    beats: bool = False
    optimum_unconfirmed: list[str] = field(default_factory=list)
    optimum_tier: str = ""
    search_s: float = 0.0
    summary: str = ""

    @property
    def kind(self) -> str:
        return self.case["kind"]

    @property
    def row(self) -> str:
        """The table row a request counts in (deadline splits by order)."""
        if self.kind == "deadline":
            return f"deadline/{self.objective}"
        return self.kind


def upstream_counts(state: Any) -> dict[str, Counter[str]]:
    """Data requests each sandbox vendor has received so far, by path."""
    counts: dict[str, Counter[str]] = {}
    for vendor, faults in state.sandbox_faults.items():
        by_path = faults.counters()["requests_by_path"]
        counts[vendor] = Counter({p: n for p, n in by_path.items() if p not in NOT_DATA})
    return counts


async def run_case(case: dict[str, Any], rails: Rails, settings: Settings) -> Outcome:
    today = dt.date.fromisoformat(case["today"])
    wanted = objectives(case)
    outcome = Outcome(case, wanted[0])
    clock = StillClock(today)
    now = clock.now()
    app = create_app(
        settings, Runtime(clock=clock.now, monotonic=clock.monotonic, sleep=clock.sleep)
    )
    async with app.router.lifespan_context(app):
        state = app.state.services
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            before = upstream_counts(state)
            started = time.perf_counter()
            response = await client.post(
                "/v1/plan", json={"intent": case["intent"], "today": case["today"]}, timeout=300
            )
            outcome.latency_ms = (time.perf_counter() - started) * 1000
            after = upstream_counts(state)
            outcome.upstream = {
                v: sum((after[v] - before.get(v, Counter())).values()) for v in after
            }
            body = response.json()
            if response.status_code != 200:
                outcome.summary = f"HTTP {response.status_code}: {str(body)[:200]}"
                return outcome
            outcome.summary = body.get("summary", "")
            outcome.relaxed = [r.get("constraint", "?") for r in body.get("relaxed") or []]
            tickets = Tickets(client)
            started = time.perf_counter()
            optima = {}
            for objective in wanted:
                search = Search(rails, ask_for(rails, case["intent"], objective), now)
                optima[objective] = (search, search.optimum())
            outcome.search_s = time.perf_counter() - started
            search, optimum = optima[outcome.objective]
            if optimum.journey is not None:
                outcome.best = optimum_legs(rails, search, optimum.journey)
                outcome.optimum_tier = (
                    f"{'city proper' if optimum.proper else 'outlying'}, "
                    f"{'regular' if optimum.regular else 'hub stop'}"
                )
                for leg in outcome.best:
                    wrong = await tickets.confirm(leg)
                    if wrong:
                        outcome.optimum_unconfirmed.append(wrong)
            if body.get("itinerary"):
                outcome.plan = plan_legs(body["itinerary"])
                await judge(outcome, search, optimum, tickets)
                if len(wanted) > 1 and optima[wanted[1]][1].journey is not None:
                    other, other_optimum = optima[wanted[1]]
                    best = figures(
                        optimum_legs(rails, other, other_optimum.journey), other.midnight
                    )
                    plan = figures(outcome.plan, other.midnight)
                    outcome.second = (wanted[1], score(wanted[1], plan, best)[0])
    return outcome


async def judge(outcome: Outcome, search: Search, optimum: Any, tickets: Tickets) -> None:
    """Figures of the plan against the optimum, the rules it breaks, the constraints it misses."""
    ask, legs = search.ask, outcome.plan
    for leg in legs:
        wrong = await tickets.confirm(leg)
        if wrong:
            outcome.breaks.append(f"not on tickets: {wrong}")
    for a, b in zip(legs, legs[1:], strict=False):
        wait = (b.dep - a.arr).total_seconds() / 60
        same = a.alight.telecode == b.board.telecode
        least = MIN_CONNECTION_SAME_STATION if same else MIN_CONNECTION_CROSS_STATION
        if not can_change(a.alight, b.board):
            outcome.breaks.append(f"change across cities: {a.alight.name}→{b.board.name}")
        elif wait < least:
            outcome.breaks.append(f"short change: {wait:.0f} min at {a.alight.name}")
        elif wait > HUB_STOP_MAX_WAIT:
            outcome.breaks.append(f"hub stop: {wait:.0f} min at {a.alight.name}, over a day")
        elif wait > MAX_CONNECTION and optimum.regular:
            outcome.breaks.append(f"hub stop: {wait:.0f} min at {a.alight.name}")
    for place, station, end in (
        (ask.origin, legs[0].board, "boards"),
        (ask.destination, legs[-1].alight, "alights"),
    ):
        if station.telecode in place.proper:
            continue
        if station.telecode in place.outlying:
            if optimum.proper:
                outcome.breaks.append(f"outlying: {end} at {station.name}")
        else:
            outcome.unmet.append(f"{end} at {station.name}, not {place.name}")
    plan = figures(legs, search.midnight)
    if len(legs) > 1 and optimum.cap is not None and plan.minutes > optimum.cap:
        outcome.breaks.append(
            f"detour: {plan.minutes:.0f} min with changes, over {MAX_DETOUR:g} x the quickest "
            f"direct ride ({optimum.cap} min)"
        )
    if not ask.depart[0] <= plan.dep <= ask.depart[1]:
        outcome.unmet.append(f"departs {legs[0].dep:{TIME_FORMAT}}")
    if not ask.arrive[0] <= plan.arr <= ask.arrive[1]:
        outcome.unmet.append(f"arrives {legs[-1].arr:{TIME_FORMAT}}")
    for leg in legs:
        kind = leg.train[0] if leg.train[0].isalpha() else ""
        if (ask.train_types and kind not in ask.train_types) or kind in ask.exclude_train_types:
            outcome.unmet.append(f"train type of {leg.train}")
        intent = outcome.case["intent"]
        named = intent.get("seat_class")
        category = intent.get("seat_classes") or []
        if (
            (named and leg.seat != named)
            or (category and leg.seat not in category)
            or leg.seat in intent.get("exclude_seat_classes", [])
        ):
            outcome.unmet.append(f"class {leg.seat} on {leg.train}")
    if not outcome.best:
        return
    best = figures(outcome.best, search.midnight)
    outcome.figure, close = score(outcome.objective, plan, best)
    outcome.within = close and not outcome.breaks and not outcome.unmet
    better = plan.value(outcome.objective) < best.value(outcome.objective) - 0.01
    if outcome.objective == "latest":
        better = plan.dep > best.dep
    outcome.beats = better


# -- the self-check ------------------------------------------------------------------------

SELF_CHECK_DIRECT = (("北京", "上海"), ("广州", "长沙"), ("成都", "重庆"), ("杭州东", "南京南"))
SELF_CHECK_EXHAUSTIVE = (("汕头", "承德", 2), ("黄山", "张家界", 1))
"""Small places (the brute force builds every middle ride) and the changes searched there."""


async def self_check(rails: Rails, settings: Settings, today: dt.date) -> list[str]:
    """The search against what can be checked without it: on pairs with direct trains, the
    direct-only optimum equals the best offer `/v1/tickets` shows over every pair of the two
    places' stations; on small places, the labelled joins equal the brute force."""
    problems: list[str] = []
    clock = StillClock(today)
    now = clock.now()
    day = today + dt.timedelta(days=3)
    app = create_app(
        settings, Runtime(clock=clock.now, monotonic=clock.monotonic, sleep=clock.sleep)
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            tickets = Tickets(client)
            for origin, destination in SELF_CHECK_DIRECT:
                intent = {"origin": origin, "destination": destination, "date_start": str(day)}
                # /v1/tickets shows night seats too: the rule is checked by the brute force.
                ask = replace(ask_for(rails, intent, "fastest"), night_rule=False)
                shown: list[tuple[int, float]] = []
                for board in ask.origin.proper:
                    for alight in ask.destination.proper:
                        for offer in await tickets.offers(board, alight, day):
                            prices = [
                                s["price"]
                                for s in offer["seats"]
                                if s["status"] == "available"
                                and s["available"] != 0
                                and SeatClass(s["seat_class"]) in ask.classes
                            ]
                            if prices and offer["depart_at"].startswith(str(day)):
                                shown.append((offer["duration_min"], min(prices)))
                for objective, best_shown in (
                    ("fastest", min(m for m, _ in shown)),
                    ("cheapest", min(p for _, p in shown)),
                ):
                    direct = replace(ask, objective=objective, max_changes=0)
                    journey = Search(rails, direct, now).optimum().journey
                    found = journey.value(objective) if journey else None
                    line = f"{origin}→{destination} {objective} direct: search {found}, "
                    line += f"/v1/tickets {best_shown}"
                    print(f"  {'ok ' if found == best_shown else 'BAD'} {line}")
                    if found != best_shown:
                        problems.append(line)
    for origin, destination, changes in SELF_CHECK_EXHAUSTIVE:
        for objective in ("fastest", "cheapest", "latest", "earliest_arrival"):
            intent = {"origin": origin, "destination": destination, "date_start": str(day)}
            ask = replace(ask_for(rails, intent, objective), max_changes=changes)
            if objective == "latest":  # a deadline, or the latest departure is trivial
                ask = replace(ask, arrive=(DAY, 2 * DAY - 1))
            search = Search(rails, ask, now)
            quickest = search.quickest_direct(ask.origin.proper, ask.destination.proper)
            cap = int(MAX_DETOUR * quickest) if quickest is not None else None
            directs, arrivals = search.firsts(ask.origin.proper, ask.destination.proper)
            departures = search.lasts(ask.destination.proper)
            for wait in (MAX_CONNECTION, HUB_STOP_MAX_WAIT):
                joined = Join(search, directs, arrivals, departures, wait, cap).best()
                brute = exhaustive(search, wait, cap)
                a = joined.value(objective) if joined else None
                b = brute.value(objective) if brute else None
                line = (
                    f"{origin}→{destination} {objective}, ≤{changes} changes, wait ≤{wait}: "
                    f"joins {a}, brute force {b}"
                )
                print(f"  {'ok ' if a == b else 'BAD'} {line}")
                if a != b:
                    problems.append(line)
    return problems


# -- the report ----------------------------------------------------------------------------

BREAK_KINDS = {
    "outlying": "outlying",
    "hub stop": "hub stop",
    "short change": "short chg",
    "change across cities": "cross-city",
    "detour": "detour",
    "not on tickets": "not on tix",
}
"""Rule breaks by the prefix of their text, and the column each is counted in."""


def report(outcomes: list[Outcome]) -> None:
    rows: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        rows[outcome.row].append(outcome)
    order = ["fastest", "cheapest", "deadline/latest", "deadline/earliest_arrival"]
    order += ["transfer"] + sorted(set(rows) - {*order, "transfer"})
    print()
    print("== plans against the optimum ==")
    print(
        f"{'kind':<26} {'requests':>8} {'plans':>5} {'within 5%':>9} {'median':>8} "
        f"{'p90':>8}  figure"
    )
    for name in order:
        group = rows.get(name)
        if not group:
            continue
        plans = [o for o in group if o.plan]
        scored = [o.figure for o in plans if o.figure is not None]
        within = sum(o.within for o in plans)
        lost = name.startswith("deadline")
        unit = "min lost" if lost else "plan/optimum"
        if name == "fastest" or name == "transfer":
            unit += " (minutes door to door)"
        elif name == "cheapest":
            unit += " (price)"
        shape = "{:.0f}" if lost else "{:.3f}"
        mid = shape.format(median(scored)) if scored else "-"
        p90 = shape.format(percentile(scored, 0.9)) if scored else "-"
        print(
            f"{name:<26} {len(group):>8} {len(plans):>5} {within:>4}/{len(plans):<4} "
            f"{mid:>8} {p90:>8}  {unit}"
        )
        seconds = [o.second[1] for o in plans if o.second]
        if seconds:
            print(
                f"{'  price beside':<26} {'':>8} {'':>5} {'':>9} {median(seconds):>8.3f} "
                f"{percentile(seconds, 0.9):>8.3f}  plan/cheapest (price)"
            )
    print()
    print("== rule breaks and other findings (plans with each) ==")
    header = " ".join(f"{label:>10}" for label in BREAK_KINDS.values())
    print(f"{'kind':<26} {header} {'unmet':>6} {'relaxed':>7} {'beats opt':>9}")
    for name in order:
        group = rows.get(name)
        if not group:
            continue
        cells = " ".join(
            f"{sum(any(b.startswith(k) for b in o.breaks) for o in group):>10}" for k in BREAK_KINDS
        )
        unmet = sum(bool(o.unmet) for o in group)
        relaxed = sum(bool(o.relaxed) for o in group)
        beats = sum(o.beats for o in group)
        print(f"{name:<26} {cells} {unmet:>6} {relaxed:>7} {beats:>9}")
    print()
    print("== cost of a cold plan ==")
    vendors = sorted({v for o in outcomes for v in o.upstream})
    heads = " ".join(f"{v + ' med/max':>22}" for v in vendors)
    print(f"{'kind':<26} {'latency med':>11} {'max':>8} {heads}")
    for name in order:
        group = rows.get(name)
        if not group:
            continue
        ms = [o.latency_ms for o in group]
        cells = " ".join(
            f"{median([o.upstream.get(v, 0) for o in group]):>15g} / "
            f"{max(o.upstream.get(v, 0) for o in group):<4}"
            for v in vendors
        )
        print(f"{name:<26} {median(ms):>9.0f}ms {max(ms):>6.0f}ms {cells}")
    # The cost a plan may take follows what it needs: one change within 4 requests at 12306
    # and 1 at juhe (the official transfer search), two changes within 8 per source.
    by_changes: dict[int, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        if outcome.plan:
            by_changes[len(outcome.plan) - 1].append(outcome)
    print()
    print(f"{'plans with':<26} {'plans':>5} {'latency med':>11} {'max':>8} {heads}")
    for changes in sorted(by_changes):
        group = by_changes[changes]
        ms = [o.latency_ms for o in group]
        cells = " ".join(
            f"{median([o.upstream.get(v, 0) for o in group]):>15g} / "
            f"{max(o.upstream.get(v, 0) for o in group):<4}"
            for v in vendors
        )
        label = f"{changes} change{'s' if changes != 1 else ''}"
        print(f"{label:<26} {len(group):>5} {median(ms):>9.0f}ms {max(ms):>6.0f}ms {cells}")


def verbose_line(outcome: Outcome) -> str:
    def legs(items: list[Leg]) -> str:
        return " + ".join(leg.line() for leg in items) or "-"

    figure = "-" if outcome.figure is None else f"{outcome.figure:.3f}"
    if outcome.figure is not None and outcome.kind == "deadline":
        figure = f"{outcome.figure:.0f}m"
    flags = "; ".join(outcome.breaks + [f"unmet: {u}" for u in outcome.unmet])
    if outcome.relaxed:
        flags += f"; relaxed {','.join(outcome.relaxed)}"
    if outcome.optimum_unconfirmed:
        flags += f"; OPTIMUM UNCONFIRMED {outcome.optimum_unconfirmed}"
    return (
        f"{outcome.case['id']:<14} {outcome.objective:<8} {figure:>6} "
        f"{'ok' if outcome.within else '--'}  plan {legs(outcome.plan)}  |  optimum "
        f"{legs(outcome.best)} [{outcome.optimum_tier}]  {outcome.latency_ms:.0f}ms "
        f"{sum(outcome.upstream.values())}req{'  ' + flags if flags else ''}"
    )


def as_json(outcome: Outcome) -> dict[str, Any]:
    def legs(items: list[Leg]) -> list[dict[str, Any]]:
        return [
            {
                "train_number": leg.train,
                "origin_station": leg.board.name,
                "destination_station": leg.alight.name,
                "depart_at": leg.dep.isoformat(),
                "arrive_at": leg.arr.isoformat(),
                "seat_class": leg.seat,
                "price": leg.price,
            }
            for leg in items
        ]

    return {
        "id": outcome.case["id"],
        "kind": outcome.kind,
        "objective": outcome.objective,
        "figure": outcome.figure,
        "within_5pct": outcome.within,
        "second": outcome.second,
        "plan": legs(outcome.plan),
        "optimum": legs(outcome.best),
        "optimum_tier": outcome.optimum_tier,
        "optimum_unconfirmed": outcome.optimum_unconfirmed,
        "breaks": outcome.breaks,
        "unmet": outcome.unmet,
        "relaxed": outcome.relaxed,
        "beats_optimum": outcome.beats,
        "latency_ms": round(outcome.latency_ms, 1),
        "upstream": outcome.upstream,
        "search_s": round(outcome.search_s, 2),
        "summary": outcome.summary,
    }


def optimum_only(rails: Rails, cases: list[dict[str, Any]]) -> None:
    """Every request's optimum at its `today` 00:00, without the app (for writing cases)."""
    for case in cases:
        now = StillClock(dt.date.fromisoformat(case["today"])).now()
        for objective in objectives(case):
            started = time.perf_counter()
            search = Search(rails, ask_for(rails, case["intent"], objective), now)
            optimum = search.optimum()
            took = time.perf_counter() - started
            if optimum.journey is None:
                print(f"{case['id']:<9} {objective:<8} NO OPTIMUM ({took:.1f} s)")
                continue
            legs = " + ".join(leg.line() for leg in optimum_legs(rails, search, optimum.journey))
            tier = f"{'' if optimum.proper else 'outlying '}{'' if optimum.regular else 'hub '}"
            print(
                f"{case['id']:<9} {objective:<8} {optimum.journey.value(objective):>7g} "
                f"{tier}{legs} ({took:.1f} s)",
                flush=True,
            )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--limit", type=int, default=0, help="first N requests of each kind")
    parser.add_argument("--verbose", action="store_true", help="one line per request")
    parser.add_argument("--json", type=Path, help="write per-request results here")
    parser.add_argument("--self-check-only", action="store_true")
    parser.add_argument(
        "--optimum-only", action="store_true", help="the optimum of every request, no planner"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    rails = Rails(default_directory())
    settings = bench_settings()
    cases = [c for c in load_cases(args.cases) if c["kind"] in args.kinds.split(",")]
    if args.limit:
        by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for case in cases:
            by_kind[case["kind"]].append(case)
        cases = [c for c in cases if by_kind[c["kind"]].index(c) < args.limit]
    if args.optimum_only:
        optimum_only(rails, cases)
        return
    print("== self-check of the optimum search ==")
    problems = await self_check(rails, settings, dt.date.fromisoformat(cases[0]["today"]))
    print(f"self-check: {'ok' if not problems else f'{len(problems)} FAILED'}")
    if args.self_check_only:
        return
    outcomes: list[Outcome] = []
    for case in cases:
        outcome = await run_case(case, rails, settings)
        outcomes.append(outcome)
        if args.verbose:
            print(verbose_line(outcome), flush=True)
    if args.json:
        args.json.write_text(
            json.dumps([as_json(o) for o in outcomes], ensure_ascii=False, indent=1), "utf-8"
        )
    unconfirmed = sum(len(o.optimum_unconfirmed) for o in outcomes)
    legs = sum(len(o.best) for o in outcomes)
    missing = [o.case["id"] for o in outcomes if not o.best]
    report(outcomes)
    print()
    print(
        f"optimum legs confirmed on /v1/tickets: {legs - unconfirmed}/{legs}; requests with no "
        f"optimum: {len(missing)} {missing if missing else ''}"
    )
    search_s = sum(o.search_s for o in outcomes)
    plan_s = sum(o.latency_ms for o in outcomes) / 1000
    wall = time.perf_counter() - started
    print(
        f"{len(outcomes)} requests in {wall:.0f} s wall: plans {plan_s:.0f} s, optimum search "
        f"{search_s:.0f} s (ratio search/plans {search_s / plan_s if plan_s else 0:.2f})"
    )


if __name__ == "__main__":
    asyncio.run(main())
