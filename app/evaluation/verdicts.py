"""The travellers suite's verdict on one reply (BRIEF.md "How the checker judges").

A reply is right when its outcome is one the case accepts and every stated expectation holds
in the itinerary, or, for one that does not, a `relaxed` entry names it and the live offers for
the traveller's own stations and dates show that no direct train could have met it (else it is
a false relaxation). Generic promises are checked on every reply: no invented train, no 往返
without a return journey, per-passenger-type fares and a readback of children and students.

Pure: `needed_queries` says which `/v1/tickets` answers the verdict needs, the caller fetches
them into a `Book`, and `judge` decides from the reply, the case's `expect` and that book.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from app.evaluation.expectations import (
    JourneySpec,
    Miss,
    Offer,
    journey_dates,
    meeting,
    names_match,
    order_miss,
    overnight_bounds,
    plan_misses,
)
from app.evaluation.journeys import Journey, Leg, Trip, read_trip

OUTCOMES = ("plan", "clarify", "decline", "no_plan")
CHILD_WORDS = ("儿童", "孩子", "小孩", "婴儿", "幼儿", "宝宝", "小朋友", "童", "儿子", "女儿", "娃")
STUDENT_WORDS = ("学生",)
BERTH_NOT_GUARANTEED = (
    "不保证",
    "无法保证",
    "不能保证",
    "不一定",
    "无法指定",
    "不能指定",
    "无法选择",
    "不能选",
    "无法确保",
    "不能确保",
    "以实际出票为准",
    "随机",
)
# A refusal says what the service is for; the chat reply keeps the trip's intent (and so no
# out-of-scope marker), so its words are the only sign there.
SCOPE_WORDS = (
    "只能帮",
    "只能为",
    "只能查询",
    "只能提供",
    "只负责",
    "暂不支持",
    "不支持",
    "不在服务范围",
    "超出服务范围",
    "超出了服务范围",
    "超出我的服务范围",
)
FARE_TYPES = frozenset({"adult", "child", "student", "child_free"})
MONEY_TOLERANCE = 0.5  # yuan, for sums of fares and budgets
CHILD_FARE_TOLERANCE = 1.0  # yuan: "about half the adult unit price"
RETURN_NAMES = frozenset({"return", "return_trip", "date_end", "return_date", "return_window"})
EXPECT_FIELDS = frozenset(
    {
        "outcome",
        "says_any",
        "outbound",
        "return",
        "via",
        "nights_at_destination",
        "min_hours_at_destination",
        "party",
        "passengers",
        "budget_total",
        "berth_note",
        "keeps_from_previous",
    }
)


@dataclass(frozen=True)
class Query:
    """One `/v1/tickets` question: places (station names or telecodes) and a date."""

    origin: str
    destination: str
    date: dt.date


@dataclass(frozen=True)
class Answer:
    offers: tuple[Offer, ...] = ()
    error: str | None = None  # the refusal, when the query was not answered


Book = dict[Query, Answer]


@dataclass
class Verdict:
    outcome: str
    failures: list[str] = field(default_factory=list)
    false_relaxations: list[str] = field(default_factory=list)
    honest_relaxations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def right(self) -> bool:
        return not self.failures and not self.false_relaxations


# -- the reply -------------------------------------------------------------------------------


def reply_text(reply: dict[str, Any]) -> str:
    """Everything the traveller reads: summary, understood, warnings, question, relaxations."""
    parts = [reply.get("summary"), reply.get("understood"), reply.get("clarify_question")]
    for warning in reply.get("warnings") or []:
        said = warning if isinstance(warning, str) else json.dumps(warning, ensure_ascii=False)
        parts.append(said)
    for entry in reply.get("relaxed") or []:
        parts += [str(entry.get(key) or "") for key in ("reason", "requested", "offered")]
    return "\n".join(str(part) for part in parts if part)


def says_berth_not_guaranteed(text: str) -> bool:
    """Some sentence speaks of a berth (铺) and says it cannot be promised."""
    sentences = re.split(r"[。！？；!?;\n]", text)
    return any(
        "铺" in sentence and any(word in sentence for word in BERTH_NOT_GUARANTEED)
        for sentence in sentences
    )


def observed_outcome(reply: dict[str, Any]) -> str:
    """plan | clarify | decline | no_plan, or "silent" (no itinerary and nothing said)."""
    if reply.get("itinerary"):
        return "plan"
    if reply.get("clarify_question"):
        return "clarify"
    intent = reply.get("intent") or {}
    summary = str(reply.get("summary") or "")
    if (
        intent.get("kind") == "out_of_scope"
        or intent.get("out_of_scope_topics")
        or any(word in summary for word in SCOPE_WORDS)
    ):
        return "decline"
    if summary.strip() or reply.get("warnings"):
        return "no_plan"
    return "silent"


def accepted_outcomes(expect: dict[str, Any]) -> tuple[str, ...]:
    wanted = expect.get("outcome", "plan")
    return (wanted,) if isinstance(wanted, str) else tuple(wanted)


# -- the party -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Party:
    adults: int
    children: tuple[int | None, ...] = ()
    students: int = 0

    @property
    def size(self) -> int:
        return self.adults + len(self.children) + self.students

    @property
    def seats(self) -> int:
        """Seats to buy: a child under 6 rides free without one."""
        return self.size - sum(1 for age in self.children if age is not None and age < 6)

    @property
    def fare_units(self) -> float:
        """Adult fares the party pays at most (students and children of unknown age in full)."""
        units = float(self.adults + self.students)
        for age in self.children:
            units += 1.0 if age is None or age >= 14 else 0.5 if age >= 6 else 0.0
        return units

    @property
    def typed(self) -> bool:
        """The party needs fares per passenger type (children or students)."""
        return bool(self.children) or self.students > 0


def party_of(expect: dict[str, Any]) -> Party | None:
    raw = expect.get("party")
    if isinstance(raw, dict):
        return Party(
            int(raw.get("adults") or 0),
            tuple(raw.get("children") or ()),
            int(raw.get("students") or 0),
        )
    if expect.get("passengers"):
        return Party(int(expect["passengers"]))
    return None


def fare_problems(leg: Leg, party: Party) -> list[str]:
    """What is wrong with a leg's per-passenger-type `fares` for this party."""
    where = f"{leg.train_number} fares"
    if not leg.fares:
        return [f"{where}: missing (the leg has no per-passenger-type fares)"]
    counts: Counter[str] = Counter()
    units: dict[str, list[float]] = {}
    total = 0.0
    problems = []
    for entry in leg.fares:
        kind, count = entry.get("type"), int(entry.get("count") or 0)
        if kind not in FARE_TYPES:
            problems.append(f"{where}: unknown type {kind!r}")
            continue
        counts[kind] += count
        price, unit = entry.get("price"), entry.get("unit_price")
        if price is None:
            problems.append(f"{where}: {kind} has no price")
        else:
            total += float(price)
        if unit is None and price is not None and count:
            unit = float(price) / count
        if unit is not None:
            units.setdefault(kind, []).append(float(unit))
        if kind == "child_free" and price not in (None, 0, 0.0):
            problems.append(f"{where}: child_free priced {price}")
    ages = party.children
    adults = party.adults + sum(1 for a in ages if a is not None and a >= 14)
    halves = sum(1 for a in ages if a is not None and 6 <= a < 14)
    free = sum(1 for a in ages if a is not None and a < 6)
    unknown = sum(1 for a in ages if a is None)
    if counts["adult"] != adults or counts["student"] != party.students:
        problems.append(
            f"{where}: counts {dict(counts)} for {adults} adult(s), {party.students} student(s)"
        )
    if not (
        counts["child"] >= halves
        and counts["child_free"] >= free
        and counts["child"] + counts["child_free"] == halves + free + unknown
    ):
        problems.append(f"{where}: counts {dict(counts)} for children aged {list(ages)}")
    if leg.price is not None and abs(total - float(leg.price)) > MONEY_TOLERANCE:
        problems.append(f"{where}: sum {total:g} ≠ leg price {leg.price:g}")
    adult_unit = units["adult"][0] if units.get("adult") else leg.unit_price
    if adult_unit is not None:
        for unit in units.get("child", []):
            if abs(unit - adult_unit / 2) > CHILD_FARE_TOLERANCE:
                problems.append(f"{where}: child unit {unit:g} is not half of {adult_unit:g}")
        for unit in units.get("student", []):
            if unit > adult_unit + 0.01:
                problems.append(f"{where}: student unit {unit:g} above adult {adult_unit:g}")
    for kind in ("child", "student"):
        if counts[kind] and kind not in units:
            problems.append(f"{where}: {kind} fare not said")
    return problems


# -- where to look for trains -----------------------------------------------------------------


def journey_specs(expect: dict[str, Any], trip: Trip) -> tuple[JourneySpec, JourneySpec | None]:
    """The outbound's and the return's expectations with the traveller's stations and dates
    (stated, else taken from the plan); no return spec when the case asks none."""
    party = party_of(expect)
    seats = party.seats if party else 1
    out_fields = overnight_bounds(dict(expect.get("outbound") or {}))
    out_dates = journey_dates(out_fields)
    out_days = out_dates or (trip.outbound.first.depart.date(),)
    outbound = JourneySpec(
        "outbound",
        out_fields,
        tuple(out_fields.get("from") or (trip.outbound.first.origin,)),
        tuple(out_fields.get("to") or (trip.outbound.last.destination,)),
        out_dates,
        out_days,
        seats,
    )
    raw_return = expect.get("return")
    stay = expect.get("nights_at_destination"), expect.get("min_hours_at_destination")
    if raw_return is False or (not isinstance(raw_return, dict) and stay == (None, None)):
        return outbound, None
    fields = overnight_bounds(dict(raw_return) if isinstance(raw_return, dict) else {})
    dates = journey_dates(fields)
    days = set(dates or ())
    if not dates:
        if trip.back is not None:
            days.add(trip.back.first.depart.date())
        nights = stay[0] if stay[0] is not None else (0 if stay[1] is not None else None)
        if nights is not None:
            for day in out_days:
                days |= {day + dt.timedelta(days=int(nights)), day + dt.timedelta(days=nights + 1)}
    back_from = trip.back.first.origin if trip.back else trip.forward.last.destination
    back_to = trip.back.last.destination if trip.back else trip.outbound.first.origin
    back = JourneySpec(
        "return",
        fields,
        tuple(fields.get("from") or out_fields.get("to") or (back_from,)),
        tuple(fields.get("to") or out_fields.get("from") or (back_to,)),
        dates,
        tuple(sorted(days)),
        seats,
    )
    return outbound, back


def spec_queries(spec: JourneySpec) -> list[Query]:
    return [
        Query(origin, destination, day)
        for origin in spec.origins
        for destination in spec.destinations
        for day in spec.query_dates
    ]


def needed_queries(expect: dict[str, Any], reply: dict[str, Any]) -> list[Query]:
    """The `/v1/tickets` answers `judge` needs for this reply, each asked once: every leg's
    own ride, and the traveller's stations and dates of a journey whose offers decide
    something (an `order`, or a miss the reply claims to have relaxed; a miss it does not
    name is wrong whatever the offers say)."""
    itinerary = reply.get("itinerary")
    if not itinerary:
        return []
    trip = _trip(expect, itinerary)
    if trip is None:
        return []
    queries = [_leg_query(leg) for leg in _legs(trip)]
    outbound, back = journey_specs(expect, trip)
    relaxed = reply.get("relaxed") or []
    claimed = {
        role
        for check in _checks(expect, trip, outbound, back, {})
        if check.miss.relaxable and _entry_for(check.miss, relaxed) is not None
        for role in check.needs
    }
    for spec in (outbound, back):
        if spec is not None and ("order" in spec.fields or spec.role in claimed):
            queries += spec_queries(spec)
    return list(dict.fromkeys(queries))


def offers_for(spec: JourneySpec, book: Book) -> list[Offer]:
    seen: dict[tuple[str, str, str, dt.datetime], Offer] = {}
    for query in spec_queries(spec):
        for offer in book.get(query, Answer()).offers:
            seen.setdefault(
                (offer.train_number, offer.origin_code, offer.destination_code, offer.depart), offer
            )
    return list(seen.values())


def _trip(expect: dict[str, Any], itinerary: dict[str, Any]) -> Trip | None:
    outbound = expect.get("outbound") or {}
    return read_trip(itinerary, outbound.get("from") or (), outbound.get("to") or ())


def _leg_query(leg: Leg) -> Query:
    """Where a leg must be on sale: its own stations (telecodes) on its boarding date."""
    return Query(leg.origin_code, leg.destination_code, leg.depart.date())


def _legs(trip: Trip) -> tuple[Leg, ...]:
    return trip.forward.legs + (trip.back.legs if trip.back else ())


# -- the verdict ------------------------------------------------------------------------------


def judge(expect: dict[str, Any], reply: dict[str, Any], book: Book) -> Verdict:
    """The verdict on one reply to one case (or dialogue turn)."""
    outcome = observed_outcome(reply)
    verdict = Verdict(outcome)
    verdict.notes += [f"unchecked field {name}" for name in sorted(set(expect) - EXPECT_FIELDS)]
    accepted = accepted_outcomes(expect)
    if outcome not in accepted:
        verdict.failures.append(
            f"outcome: expected {'|'.join(accepted)}, got {outcome} "
            f"({_excerpt(reply.get('clarify_question') or reply.get('summary'))})"
        )
    text = reply_text(reply)
    says = expect.get("says_any")
    if says and not any(phrase in text for phrase in says):
        verdict.failures.append(f"says_any: none of {says} in the reply")
    party = party_of(expect)
    if party is not None and party.typed and outcome != "decline":
        understood = str(reply.get("understood") or "")
        if party.children and not any(word in understood for word in CHILD_WORDS):
            verdict.failures.append(f"understood: no mention of the children ({understood!r})")
        if party.students and not any(word in understood for word in STUDENT_WORDS):
            verdict.failures.append(f"understood: no mention of the students ({understood!r})")
    itinerary = reply.get("itinerary")
    trip = _trip(expect, itinerary) if itinerary else None
    if trip is not None:
        _judge_trip(expect, reply, trip, book, verdict, text)
    return verdict


def _judge_trip(
    expect: dict[str, Any],
    reply: dict[str, Any],
    trip: Trip,
    book: Book,
    verdict: Verdict,
    text: str,
) -> None:
    fail = verdict.failures.append
    understood = str(reply.get("understood") or "")
    if "往返" in understood and trip.back is None:
        fail(f"understood says 往返 but the plan has no return journey ({understood!r})")
    for leg in _legs(trip):
        answer = book.get(_leg_query(leg), Answer())
        if not any(
            offer.train_number == leg.train_number
            and offer.origin_code == leg.origin_code
            and offer.destination_code == leg.destination_code
            for offer in answer.offers
        ):
            why = f" (tickets: {answer.error})" if answer.error else ""
            fail(f"invented train: {leg.describe()} is not on sale{why}")
    if expect.get("return") is False and trip.back is not None:
        fail(f"return: false, but the plan returns ({trip.back.describe()})")
    outbound, back = journey_specs(expect, trip)
    checks = _checks(expect, trip, outbound, back, book)
    for spec in (outbound, back):
        if spec is not None:
            verdict.notes += [f"unchecked field {name}" for name in spec.unchecked]
    party = party_of(expect)
    if party is not None and party.typed:
        for leg in _legs(trip):
            verdict.failures += fare_problems(leg, party)
    if expect.get("berth_note") and not says_berth_not_guaranteed(text):
        fail("berth_note: the reply does not say the berth is not guaranteed")
    _resolve(checks, reply.get("relaxed") or [], verdict)


Finder = Callable[[], str | None]


@dataclass(frozen=True)
class Check:
    """An unmet expectation, how to look for a direct offer that meets it, and whose offers
    (the outbound's, the return's) that look reads."""

    miss: Miss
    finder: Finder | None  # None: direct offers cannot show it (taken on trust when named)
    needs: tuple[str, ...] = ()


def _checks(
    expect: dict[str, Any],
    trip: Trip,
    outbound: JourneySpec,
    back: JourneySpec | None,
    book: Book,
) -> list[Check]:
    """Every unmet expectation that a relaxation could answer, with its finder over `book`."""
    out_offers = offers_for(outbound, book)
    back_offers = offers_for(back, book) if back else []

    def finder(spec: JourneySpec, offers: list[Offer]) -> Finder:
        return lambda: next((o.describe() for o in meeting(spec, offers)), None)

    checks: list[Check] = []
    journeys = ((outbound, trip.outbound, out_offers), (back, trip.back, back_offers))
    for spec, journey, offers in journeys:
        if spec is None:
            continue
        if journey is None:
            if isinstance(expect.get("return"), dict):
                miss = Miss("return", "no return journey", RETURN_NAMES, "return")
                checks.append(Check(miss, finder(spec, offers), ("return",)))
            continue
        ordered = order_miss(spec, journey, _within_budget(expect, spec, back, offers))
        for miss in [*plan_misses(spec, journey), *([ordered] if ordered else [])]:
            checks.append(Check(miss, finder(spec, offers), (spec.role,)))
    party = party_of(expect)
    if party is not None and not party.typed:
        wrong = [leg for leg in _legs(trip) if leg.passengers != party.size]
        if wrong:
            miss = Miss(
                "passengers",
                f"{wrong[0].train_number} for {wrong[0].passengers} of {party.size}",
                frozenset({"passengers", "party", "seats"}),
            )
            checks.append(Check(miss, finder(outbound, out_offers), ("outbound",)))
    return checks + _trip_checks(expect, trip, outbound, back, out_offers, back_offers)


def _within_budget(
    expect: dict[str, Any], spec: JourneySpec, back: JourneySpec | None, offers: list[Offer]
) -> list[Offer]:
    """The offers an `order` is compared with: on a one-way trip with a budget said (300以内
    要最快的), only those whose fare for the whole party keeps within it (the adult fare for
    everyone, never less than the party pays), so no train over the budget is "better"."""
    budget = expect.get("budget_total")
    if budget is None or back is not None:
        return offers
    kept = []
    for offer in offers:
        fare = spec.lowest_fare(offer)
        if fare is not None and fare * spec.seats_needed <= float(budget) + 0.01:
            kept.append(offer)
    return kept


def _trip_checks(
    expect: dict[str, Any],
    trip: Trip,
    outbound: JourneySpec,
    back: JourneySpec | None,
    out_offers: list[Offer],
    back_offers: list[Offer],
) -> list[Check]:
    both = ("outbound", "return")
    checks: list[Check] = []
    outs = meeting(outbound, out_offers)
    backs = meeting(back, back_offers) if back else []

    def pair(fits: Callable[[Offer, Offer], bool]) -> Callable[[], str | None]:
        def find() -> str | None:
            for there in outs:
                for home in backs:
                    if fits(there, home):
                        return f"{there.describe()} + {home.describe()}"
            return None

        return find

    nights = expect.get("nights_at_destination")
    if nights is not None and trip.stay_nights != nights:
        miss = Miss(
            "nights_at_destination",
            f"{trip.stay_nights} nights" if trip.back else "no return journey",
            # The nights are the return's date; its time window does not change them.
            frozenset({"nights", "nights_at_destination", "days", "date_end", "stay"})
            | (RETURN_NAMES - {"return_window"}),
        )
        nights_pair = pair(lambda o, r: (r.depart.date() - o.arrive.date()).days == nights)
        checks.append(Check(miss, nights_pair, both))
    hours = expect.get("min_hours_at_destination")
    stay = trip.stay_hours
    if hours is not None and (stay is None or stay < hours):
        miss = Miss(
            "min_hours_at_destination",
            f"{stay:.1f} hours" if stay is not None else "no return journey",
            frozenset({"min_hours_at_destination", "stay", "days", "nights", "date_end"})
            | RETURN_NAMES,
        )
        hours_pair = pair(lambda o, r: (r.depart - o.arrive).total_seconds() >= hours * 3600)
        checks.append(Check(miss, hours_pair, both))
    budget = expect.get("budget_total")
    total = _total(trip)
    if budget is not None and (total is None or total > budget + MONEY_TOLERANCE):
        miss = Miss(
            "budget_total",
            f"total {total:g} yuan" if total is not None else "no total price",
            frozenset({"budget", "budget_total", "budget_per_person", "price"}),
        )
        within = _cheapest_within(expect, outbound, outs, back, backs, budget)
        checks.append(Check(miss, within, both))
    via = expect.get("via") or []
    if via:
        had = _via_miss(via, trip.forward)
        if had is not None:
            checks.append(Check(Miss("via", had, frozenset({"via", "stops", "via_nights"})), None))
    return checks


def _cheapest_within(
    expect: dict[str, Any],
    outbound: JourneySpec,
    outs: list[Offer],
    back: JourneySpec | None,
    backs: list[Offer],
    budget: float,
) -> Callable[[], str | None]:
    party = party_of(expect) or Party(1)

    def cheapest(spec: JourneySpec, offers: list[Offer]) -> tuple[float, Offer] | None:
        priced = [(fare, o) for o in offers if (fare := spec.lowest_fare(o)) is not None]
        return min(priced, key=lambda pair: pair[0]) if priced else None

    def find() -> str | None:
        there = cheapest(outbound, outs)
        home = cheapest(back, backs) if back is not None else None
        if there is None or (back is not None and home is None):
            return None
        cost = (there[0] + (home[0] if home else 0.0)) * party.fare_units
        if cost > budget + MONEY_TOLERANCE:
            return None
        rides = there[1].describe() + (f" + {home[1].describe()}" if home else "")
        return f"{rides} for {cost:g} yuan"

    return find


def _total(trip: Trip) -> float | None:
    prices = [leg.price for leg in _legs(trip)]
    return None if any(p is None for p in prices) else sum(float(p or 0) for p in prices)


def _via_miss(via: Iterable[dict[str, Any]], forward: Journey) -> str | None:
    points = forward.change_points()
    start = 0
    for stop in via:
        at, nights = stop.get("at") or [], stop.get("nights")
        found = next(
            (
                i
                for i in range(start, len(points))
                if points[i].station in at or points[i].next_station in at
            ),
            None,
        )
        stops = [f"{p.station}({p.nights}晚)" for p in points] or ["no stop"]
        if found is None:
            return f"does not stop at {'/'.join(at)}: plan stops at {', '.join(stops)}"
        if nights is not None and points[found].nights != nights:
            return f"{points[found].station} for {points[found].nights} nights, not {nights}"
        start = found + 1
    return None


def _entry_for(miss: Miss, relaxed: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The `relaxed` entry that names this miss, if any."""
    return next(
        (e for e in relaxed if names_match(str(e.get("constraint") or ""), miss.role, miss.names)),
        None,
    )


def _resolve(checks: list[Check], relaxed: list[dict[str, Any]], verdict: Verdict) -> None:
    """Each unmet expectation: silent (wrong), honestly relaxed, or falsely relaxed."""
    for check in checks:
        miss = check.miss
        entry = _entry_for(miss, relaxed)
        if entry is None or not miss.relaxable:
            verdict.failures.append(f"{miss.field}: {miss.had}")
            continue
        named = f"{miss.field} relaxed as {entry.get('constraint')!r}"
        if check.finder is None:
            verdict.honest_relaxations.append(named)
            verdict.notes.append(f"{named}: taken on trust (direct offers cannot show it)")
            continue
        offer = check.finder()
        if offer is not None:
            verdict.false_relaxations.append(f"{named} ({miss.had}), but {offer} meets it")
        else:
            verdict.honest_relaxations.append(named)


def _excerpt(value: Any, limit: int = 60) -> str:
    text = str(value or "").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"
