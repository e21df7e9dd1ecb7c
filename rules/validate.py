"""Validation: is a proposed itinerary (from the engine, a traveller or an LLM) built only from
the fetched offers, priced and timed as they say, with feasible connections and honest totals?
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.config import DEFAULT_RULES, RuleConfig, can_change
from rules.model import (
    CONNECTION_TOO_LONG,
    CONNECTION_TOO_SHORT,
    NO_SEATS,
    NOT_CHRONOLOGICAL,
    OVER_BUDGET,
    PRICE_MISMATCH,
    STATION_MISMATCH,
    TIME_MISMATCH,
    UNKNOWN_TRAIN,
    Itinerary,
    Leg,
    Violation,
)
from sources.models import SHANGHAI, SeatStatus, TrainOffer, normalise_train_number

PRICE_TOLERANCE = 0.005
"""Yuan: prices are compared after rounding to fen."""


def check_train_numbers(numbers: Iterable[str], offers: Iterable[TrainOffer]) -> list[Violation]:
    """An `UNKNOWN_TRAIN` violation for each number absent from `offers` (e.g. "G99999")."""
    known = {offer.train_number for offer in offers}
    violations = []
    for raw in numbers:
        number = normalise_train_number(raw)
        if number not in known:
            violations.append(
                Violation(UNKNOWN_TRAIN, f"车次{number}不在本次查询结果中", train_number=number)
            )
    return violations


class OfferIndex:
    """Offers indexed by ride and by (train number, date): build once, validate many."""

    def __init__(self, offers: Iterable[TrainOffer]) -> None:
        self.by_ride: dict[tuple[object, ...], list[TrainOffer]] = {}
        self.by_day: dict[tuple[object, ...], list[TrainOffer]] = {}
        for offer in offers:
            self.by_ride.setdefault(offer.ride_key, []).append(offer)
            self.by_day.setdefault((offer.train_number, offer.date), []).append(offer)


def validate(
    itinerary: Itinerary,
    offers: Iterable[TrainOffer] | OfferIndex,
    *,
    config: RuleConfig = DEFAULT_RULES,
    allow_waitlist: bool = False,
) -> list[Violation]:
    """Every reason `itinerary` disagrees with `offers` or the scheduling rules (empty: valid)."""
    index = offers if isinstance(offers, OfferIndex) else OfferIndex(offers)
    violations: list[Violation] = []
    for leg in itinerary.legs:
        violations.extend(_check_leg(leg, index.by_ride, index.by_day, allow_waitlist))
    violations.extend(_check_sequence(itinerary.legs, config))
    violations.extend(_check_totals(itinerary))
    return violations


def _check_leg(
    leg: Leg,
    by_ride: dict[tuple[object, ...], list[TrainOffer]],
    by_day: dict[tuple[object, ...], list[TrainOffer]],
    allow_waitlist: bool,
) -> list[Violation]:
    number = leg.train_number
    day = leg.depart_at.astimezone(SHANGHAI).date()
    key = (
        number,
        day,
        leg.origin_station.telecode,
        leg.destination_station.telecode,
    )
    matches = by_ride.get(key)
    if not matches:
        if by_day.get((number, day)):
            return [Violation(STATION_MISMATCH, f"{number} 不经停所列车站", number)]
        return [Violation(UNKNOWN_TRAIN, f"车次{number}在该日期和车站间不存在", number)]
    found: list[Violation] = []
    timed = [o for o in matches if o.depart_at == leg.depart_at and o.arrive_at == leg.arrive_at]
    if not timed:
        return [Violation(TIME_MISMATCH, f"{number} 的发车或到达时间与时刻表不符", number)]
    seats = [s for o in timed if (s := o.seat(leg.seat_class)) is not None]
    if not any(
        seat.can_seat(seats_of(leg)) or (allow_waitlist and seat.status is SeatStatus.WAITLIST)
        for seat in seats
    ):
        found.append(Violation(NO_SEATS, f"{number} {leg.seat_class.label}没有足够余票", number))
    if (
        not any(
            seat.price is not None and abs(seat.price - leg.unit_price) <= PRICE_TOLERANCE
            for seat in seats
        )
        or abs(party_total(leg) - leg.price) > PRICE_TOLERANCE
    ):
        found.append(Violation(PRICE_MISMATCH, f"{number} 的票价与查询结果不符", number))
    return found


def _check_sequence(legs: Sequence[Leg], config: RuleConfig) -> list[Violation]:
    found: list[Violation] = []
    for leg in legs:
        if leg.arrive_at <= leg.depart_at:
            found.append(Violation(NOT_CHRONOLOGICAL, f"{leg.train_number} 到达早于出发"))
    for before, after in zip(legs, legs[1:], strict=False):
        number = after.train_number
        if before.destination_station.city != after.origin_station.city:
            found.append(
                Violation(
                    STATION_MISMATCH,
                    f"{before.train_number} 到达{before.destination_station.name}，"
                    f"{number} 却从{after.origin_station.name}出发",
                    number,
                )
            )
        minutes = int((after.depart_at - before.arrive_at).total_seconds() // 60)
        if minutes < 0:
            found.append(Violation(NOT_CHRONOLOGICAL, f"{number} 在上一程到达前出发", number))
            continue
        same = before.destination_station.telecode == after.origin_station.telecode
        if before.segment == after.segment:
            if not can_change(before.destination_station, after.origin_station):
                found.append(
                    Violation(
                        STATION_MISMATCH,
                        f"{before.destination_station.name}与{after.origin_station.name}"
                        f"不在同一城区，无法换乘{number}",
                        number,
                    )
                )
            elif minutes < config.min_connection(same):
                found.append(
                    Violation(CONNECTION_TOO_SHORT, f"换乘{number}只有{minutes}分钟", number)
                )
            elif not config.connects(before.arrive_at, after.depart_at, same):
                found.append(
                    Violation(CONNECTION_TOO_LONG, f"换乘{number}需等待{minutes}分钟", number)
                )
        elif minutes < config.shortest_visit(same):
            found.append(
                Violation(CONNECTION_TOO_SHORT, f"{number} 距上一程到达只有{minutes}分钟", number)
            )
    return found


def _check_totals(itinerary: Itinerary) -> list[Violation]:
    found: list[Violation] = []
    total = round(sum(leg.price for leg in itinerary.legs), 2)
    if abs(total - itinerary.total_price) > PRICE_TOLERANCE:
        found.append(Violation(PRICE_MISMATCH, f"总价{itinerary.total_price}与各程票价之和不符"))
    if itinerary.within_budget:
        if itinerary.budget is None or max(total, itinerary.total_price) > itinerary.budget:
            found.append(Violation(OVER_BUDGET, "行程声称在预算内，实际超出预算"))
    return found


def seats_of(leg: Leg) -> int:
    """Seats a leg's party buys: a child under 6 (child_free) rides without one."""
    free = sum(f.count for f in leg.fares if f.type == "child_free")
    return max(1, leg.passengers - free)


def party_total(leg: Leg) -> float:
    """What a leg's party should pay: its fares' sum, else the adult fare for everyone."""
    if leg.fares:
        return sum(f.price for f in leg.fares)
    return leg.unit_price * leg.passengers
