"""One journey's stated expectations, judged on the plan and on the live offers.

Every field of a case's `outbound` / `return` has a check on the planned journey (None when
it holds, else what the plan had) and a test on a direct offer (does this train meet it?).
An offer "meets the journey" when it passes every stated field and has a seat on sale for the
whole party in an allowed class; those offers decide whether a relaxation was honest and what
the best choice for an `order` was. Pure functions over parsed replies and offers; no IO.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.evaluation.journeys import Journey, parse_time, train_type
from sources.models import SEAT_BY_LABEL, SeatClass

SEAT_NAMES = frozenset(seat.value for seat in SeatClass)
ORDERS = ("cheapest", "earliest_depart", "latest_depart", "fastest", "earliest_arrival")
# Objectives about the clock are chosen within the day the traveller rides; price and speed
# are compared over every date the traveller accepted (only the plan's day when none is said).
CLOCK_ORDERS = frozenset({"earliest_depart", "latest_depart", "earliest_arrival"})
PRICE_TOLERANCE = 0.01  # "cheapest" within 1%


@dataclass(frozen=True)
class SeatOffer:
    seat_class: str
    status: str
    available: int | None
    price: float | None


@dataclass(frozen=True)
class Offer:
    """One direct train of `/v1/tickets`, as the checker needs it."""

    train_number: str
    origin: str
    origin_code: str
    destination: str
    destination_code: str
    depart: dt.datetime
    arrive: dt.datetime
    minutes: int
    seats: tuple[SeatOffer, ...]

    @classmethod
    def from_api(cls, raw: dict[str, Any]) -> Offer:
        depart, arrive = parse_time(raw["depart_at"]), parse_time(raw["arrive_at"])
        minutes = raw.get("duration_min")
        return cls(
            train_number=str(raw["train_number"]).upper(),
            origin=raw["origin_station"]["name"],
            origin_code=raw["origin_station"].get("telecode", ""),
            destination=raw["destination_station"]["name"],
            destination_code=raw["destination_station"].get("telecode", ""),
            depart=depart,
            arrive=arrive,
            minutes=int(minutes)
            if minutes is not None
            else int((arrive - depart).total_seconds() // 60),
            seats=tuple(
                SeatOffer(s["seat_class"], s["status"], s.get("available"), s.get("price"))
                for s in raw.get("seats") or []
            ),
        )

    def describe(self) -> str:
        return (
            f"{self.train_number} {self.origin}→{self.destination} "
            f"{self.depart:%m-%d %H:%M}→{self.arrive:%m-%d %H:%M}"
        )


def seat_name(value: str) -> str:
    """An API seat class name from the name or its Chinese label (二等座 → second)."""
    if value in SEAT_NAMES:
        return value
    label = SEAT_BY_LABEL.get(value)
    return label.value if label is not None else value


@dataclass(frozen=True)
class JourneySpec:
    """What the traveller stated about one journey, and where and when to look for trains."""

    role: str  # "outbound" | "return"
    fields: dict[str, Any]
    origins: tuple[str, ...]  # the traveller's boarding stations (stated, else the plan's)
    destinations: tuple[str, ...]
    dates: tuple[dt.date, ...] | None  # the dates the traveller accepts; None = not stated
    query_dates: tuple[dt.date, ...]  # the dates whose offers are looked at
    seats_needed: int = 1
    unchecked: list[str] = field(default_factory=list)

    def allows_seat(self, seat_class: str) -> bool:
        allowed = [seat_name(s) for s in self.fields.get("seat_classes") or []]
        excluded = [seat_name(s) for s in self.fields.get("exclude_seat_classes") or []]
        return (not allowed or seat_class in allowed) and seat_class not in excluded

    def lowest_fare(self, offer: Offer) -> float | None:
        """The cheapest class of `offer` the traveller allows that seats the whole party."""
        prices = [
            seat.price
            for seat in offer.seats
            if seat.status == "available"
            and (seat.available is None or seat.available >= self.seats_needed)
            and seat.price is not None
            and self.allows_seat(seat.seat_class)
        ]
        return min(prices) if prices else None

    def has_seat(self, offer: Offer) -> bool:
        return any(
            seat.status == "available"
            and (seat.available is None or seat.available >= self.seats_needed)
            and self.allows_seat(seat.seat_class)
            for seat in offer.seats
        )


def journey_dates(fields: dict[str, Any]) -> tuple[dt.date, ...] | None:
    """The accepted boarding dates of a journey expectation (`date` or `dates`), if stated."""
    if fields.get("date"):
        return (dt.date.fromisoformat(fields["date"]),)
    if fields.get("dates"):
        return tuple(dt.date.fromisoformat(day) for day in fields["dates"])
    return None


def _clock(value: str) -> dt.time:
    return dt.time.fromisoformat(value)


def _types(value: Any) -> set[str]:
    return {str(t).upper() for t in value}


# field -> (check on the planned journey: None when met, else what the plan had;
#           test on one direct offer)
PlanCheck = Callable[[Any, Journey], str | None]
OfferTest = Callable[[Any, Offer], bool]


def _boards(value: Any, j: Journey) -> str | None:
    return None if j.first.origin in value else f"boards at {j.first.origin}"


def _alights(value: Any, j: Journey) -> str | None:
    return None if j.last.destination in value else f"arrives at {j.last.destination}"


def _on_date(value: Any, j: Journey) -> str | None:
    day = j.first.depart.date()
    days = [value] if isinstance(value, str) else list(value)
    return None if day.isoformat() in days else f"leaves on {day}"


def _departs(after: bool) -> PlanCheck:
    def check(value: Any, j: Journey) -> str | None:
        at, bound = j.first.depart.time(), _clock(value)
        ok = at >= bound if after else at <= bound
        return None if ok else f"departs {j.first.depart:%H:%M} ({j.first.train_number})"

    return check


NEXT_DAY = "+"
"""Marks an arrival bound on the morning after the day of travel (`overnight_bounds`)."""


def overnight_bounds(fields: dict[str, Any]) -> dict[str, Any]:
    """`fields` with an arrival bound the traveller's own departure bound puts on the next day
    marked so: 晚上走早上到 (depart_after 18:00, arrive_before 10:00) is 10:00 the morning
    after, where 中午之前到 alone is noon on the day of travel."""
    leave, reach = fields.get("depart_after"), fields.get("arrive_before")
    if isinstance(leave, str) and isinstance(reach, str) and not reach.startswith(NEXT_DAY):
        if _clock(leave) > _clock(reach):
            return {**fields, "arrive_before": NEXT_DAY + reach}
    return fields


def _arrives_on_clock(depart: dt.datetime, arrive: dt.datetime, bound: str, after: bool) -> bool:
    """An arrival bound is a clock on the day of travel (arriving a day later is after it),
    or on the next morning when marked so (`overnight_bounds`)."""
    days = (arrive.date() - depart.date()).days
    if bound.startswith(NEXT_DAY):
        return days == 0 or (days == 1 and arrive.time() <= _clock(bound[1:]))
    if after:
        return days > 0 or arrive.time() >= _clock(bound)
    return days == 0 and arrive.time() <= _clock(bound)


def _arrives(after: bool) -> PlanCheck:
    def check(value: Any, j: Journey) -> str | None:
        ok = _arrives_on_clock(j.first.depart, j.last.arrive, value, after)
        return None if ok else f"arrives {j.last.arrive:%m-%d %H:%M} ({j.last.train_number})"

    return check


def _arrive_by(value: Any, j: Journey) -> str | None:
    deadline = parse_time(value)
    return None if j.last.arrive <= deadline else f"arrives {j.last.arrive:%m-%d %H:%M}"


def _only_types(value: Any, j: Journey) -> str | None:
    allowed = _types(value)
    wrong = [leg.train_number for leg in j.legs if train_type(leg.train_number) not in allowed]
    return f"rides {', '.join(wrong)}" if wrong else None


def _no_types(value: Any, j: Journey) -> str | None:
    wrong = [leg.train_number for leg in j.legs if train_type(leg.train_number) in _types(value)]
    return f"rides {', '.join(wrong)}" if wrong else None


def _only_seats(value: Any, j: Journey) -> str | None:
    allowed = {seat_name(s) for s in value}
    wrong = [
        f"{leg.train_number} {leg.seat_class}" for leg in j.legs if leg.seat_class not in allowed
    ]
    return f"books {', '.join(wrong)}" if wrong else None


def _no_seats(value: Any, j: Journey) -> str | None:
    excluded = {seat_name(s) for s in value}
    wrong = [f"{leg.train_number} {leg.seat_class}" for leg in j.legs if leg.seat_class in excluded]
    return f"books {', '.join(wrong)}" if wrong else None


def _the_train(value: Any, j: Journey) -> str | None:
    numbers = [leg.train_number for leg in j.legs]
    return None if numbers == [str(value).upper()] else f"rides {' + '.join(numbers)}"


def _changes(value: Any, j: Journey) -> str | None:
    return None if j.changes <= int(value) else f"{j.changes} changes"


def _no_overnight(value: Any, j: Journey) -> str | None:
    if not value:
        return None
    rides = [leg.train_number for leg in j.legs if leg.overnight]
    nights = [p.station for p in j.change_points() if not p.planned and p.nights > 0]
    if rides or nights:
        said = [f"overnight on {', '.join(rides)}"] if rides else []
        said += [f"a night changing at {', '.join(nights)}"] if nights else []
        return "; ".join(said)
    return None


def _offer_clock(attr: str, after: bool) -> OfferTest:
    def test(value: Any, offer: Offer) -> bool:
        at = getattr(offer, attr).time()
        return at >= _clock(value) if after else at <= _clock(value)

    return test


def _always(value: Any, offer: Offer) -> bool:
    return True


FIELDS: dict[str, tuple[PlanCheck, OfferTest]] = {
    "from": (_boards, lambda v, o: o.origin in v),
    "to": (_alights, lambda v, o: o.destination in v),
    "date": (_on_date, lambda v, o: o.depart.date().isoformat() == v),
    "dates": (_on_date, lambda v, o: o.depart.date().isoformat() in v),
    "depart_after": (_departs(after=True), _offer_clock("depart", after=True)),
    "depart_before": (_departs(after=False), _offer_clock("depart", after=False)),
    "arrive_after": (
        _arrives(after=True),
        lambda v, o: _arrives_on_clock(o.depart, o.arrive, v, after=True),
    ),
    "arrive_before": (
        _arrives(after=False),
        lambda v, o: _arrives_on_clock(o.depart, o.arrive, v, after=False),
    ),
    "arrive_by": (_arrive_by, lambda v, o: o.arrive <= parse_time(v)),
    "train_types": (_only_types, lambda v, o: train_type(o.train_number) in _types(v)),
    "exclude_train_types": (_no_types, lambda v, o: train_type(o.train_number) not in _types(v)),
    # Seat wishes are tested on every offer through `JourneySpec.has_seat`.
    "seat_classes": (_only_seats, _always),
    "exclude_seat_classes": (_no_seats, _always),
    "train_number": (_the_train, lambda v, o: o.train_number == str(v).upper()),
    "max_changes": (_changes, _always),  # a direct train has no change
    "no_overnight": (_no_overnight, lambda v, o: not v or o.arrive.date() == o.depart.date()),
}
NOT_CHECKED_HERE = frozenset({"order", "keeps_from_previous"})

# The `relaxed[].constraint` names that may stand for each field (the product's intent
# names first). A return journey also accepts "return" and any name with a `return_` prefix.
RELAX_NAMES: dict[str, frozenset[str]] = {
    "from": frozenset({"origin", "from", "origin_station", "station", "stations"}),
    "to": frozenset({"destination", "to", "destination_station", "station", "stations"}),
    "date": frozenset({"date_start", "date", "dates", "depart_date", "travel_date"}),
    "depart": frozenset(
        {"depart_window", "depart_after", "depart_before", "departure", "time", "time_window"}
    ),
    "arrive": frozenset(
        {"arrive_window", "arrive_date", "arrive_by", "arrive_before", "arrive_after", "arrival"}
    ),
    "train_types": frozenset({"train_types", "exclude_train_types", "train_type"}),
    "seat_classes": frozenset({"seat_classes", "seat_class", "exclude_seat_classes", "seat"}),
    "train_number": frozenset({"train_numbers", "train_number", "train"}),
    "max_changes": frozenset({"max_changes", "changes", "transfers", "transfer", "direct"}),
    "no_overnight": frozenset({"no_overnight", "overnight", "night_train", "preferences"}),
    "order": frozenset({"order", "preferences", "sort", "ranking"}),
}
# Names of the outbound alone (the intent's start date and departure window): they do not
# excuse the way back, whose own are date_end and return_window.
OUTBOUND_ONLY = frozenset({"date_start", "depart_window"})
RETURN_EXTRA: dict[str, frozenset[str]] = {
    # The way back starts where the outbound ended and ends where it began.
    "from": frozenset({"destination"}),
    "to": frozenset({"origin"}),
    "date": frozenset({"date_end", "return_date"}),
    "depart": frozenset({"return_window"}),
    "arrive": frozenset({"return_window"}),
}
_FIELD_GROUP = {
    "dates": "date",
    "depart_after": "depart",
    "depart_before": "depart",
    "arrive_after": "arrive",
    "arrive_before": "arrive",
    "arrive_by": "arrive",
    "exclude_train_types": "train_types",
    "exclude_seat_classes": "seat_classes",
}


def relax_names(role: str, name: str) -> frozenset[str]:
    """The constraint names a `relaxed` entry may use for field `name` of journey `role`."""
    group = _FIELD_GROUP.get(name, name)
    names = RELAX_NAMES.get(group, frozenset({name}))
    if role == "return":
        extra = RETURN_EXTRA.get(group, frozenset()) | {"return", "return_trip"}
        names = (names - OUTBOUND_ONLY) | extra
    return names


def normal_name(constraint: str) -> str:
    """`relaxed[].constraint` as compared: lower case, its head before any `.` or `[`."""
    name = constraint.strip().lower().replace("-", "_").replace(" ", "_")
    for mark in (".", "["):
        name = name.split(mark, 1)[0]
    return name


def names_match(constraint: str, role: str, names: frozenset[str]) -> bool:
    """True when a `relaxed` entry's name stands for one of `names` (a return journey's
    field also under a `return_` prefix)."""
    name = normal_name(constraint)
    if name in names:
        return True
    return role == "return" and name.startswith("return_") and name[len("return_") :] in names


@dataclass(frozen=True)
class Miss:
    """A stated expectation the plan does not meet."""

    field: str  # e.g. "outbound.depart_after"
    had: str  # what the plan has instead
    names: frozenset[str]  # the relaxation names that stand for it
    role: str = "trip"
    relaxable: bool = True


def plan_misses(spec: JourneySpec, journey: Journey) -> list[Miss]:
    """Every stated field of `spec` the planned `journey` does not meet."""
    misses = []
    for name, value in spec.fields.items():
        if name in NOT_CHECKED_HERE:
            continue
        handlers = FIELDS.get(name)
        if handlers is None:
            spec.unchecked.append(f"{spec.role}.{name}")
            continue
        had = handlers[0](value, journey)
        if had is not None:
            misses.append(Miss(f"{spec.role}.{name}", had, relax_names(spec.role, name), spec.role))
    return misses


def meets(spec: JourneySpec, offer: Offer) -> bool:
    """True when a direct offer meets every stated field and seats the party."""
    for name, value in spec.fields.items():
        handlers = FIELDS.get(name)
        if handlers is not None and not handlers[1](value, offer):
            return False
    return (
        offer.origin in spec.origins and offer.destination in spec.destinations
    ) and spec.has_seat(offer)


def meeting(spec: JourneySpec, offers: Iterable[Offer]) -> list[Offer]:
    return [offer for offer in offers if meets(spec, offer)]


def order_miss(spec: JourneySpec, journey: Journey, offers: Sequence[Offer]) -> Miss | None:
    """The plan's choice against the best direct offer meeting everything else, or None
    when nothing beats it (a journey with changes is only asked that no direct train beats
    it, which is the same question)."""
    objective = spec.fields.get("order")
    if objective is None:
        return None
    if objective not in ORDERS:
        spec.unchecked.append(f"{spec.role}.order={objective}")
        return None
    candidates = meeting(spec, offers)
    plan_day = journey.first.depart.date()
    if spec.dates is None or (objective in CLOCK_ORDERS and plan_day in spec.dates):
        candidates = [offer for offer in candidates if offer.depart.date() == plan_day]
    if len(journey.legs) == 1 and objective != "cheapest":
        # The order picks a train (最晚一班): the plan's own train boarded at another station
        # of the city is not a better choice of train. Its other classes still are, for price.
        candidates = [o for o in candidates if o.train_number != journey.first.train_number]
    better = _better(objective, spec, journey, candidates)
    if better is None:
        return None
    offer, said = better
    return Miss(
        f"{spec.role}.order",
        f"{objective}: plan {said}, but {offer.describe()} is better",
        relax_names(spec.role, "order"),
        spec.role,
    )


def _better(
    objective: str, spec: JourneySpec, journey: Journey, candidates: Sequence[Offer]
) -> tuple[Offer, str] | None:
    if objective == "cheapest":
        mine = journey.unit_price
        priced = [(fare, o) for o in candidates if (fare := spec.lowest_fare(o)) is not None]
        if mine is None or not priced:
            return None
        fare, offer = min(priced, key=lambda pair: pair[0])
        if mine > fare * (1 + PRICE_TOLERANCE) + 0.01:
            return offer, f"{mine:g} yuan vs {fare:g}"
        return None
    if not candidates:
        return None
    if objective == "earliest_depart":
        offer = min(candidates, key=lambda o: o.depart)
        won = offer.depart < journey.first.depart
        said = f"departs {journey.first.depart:%m-%d %H:%M}"
    elif objective == "latest_depart":
        offer = max(candidates, key=lambda o: o.depart)
        won = offer.depart > journey.first.depart
        said = f"departs {journey.first.depart:%m-%d %H:%M}"
    elif objective == "fastest":
        offer = min(candidates, key=lambda o: o.minutes)
        won = offer.minutes < journey.minutes
        said = f"takes {journey.minutes} min vs {offer.minutes}"
    else:  # earliest_arrival
        offer = min(candidates, key=lambda o: o.arrive)
        won = offer.arrive < journey.last.arrive
        said = f"arrives {journey.last.arrive:%m-%d %H:%M}"
    return (offer, said) if won else None
