"""12306's passenger fare rules, as pure functions: which ticket each traveller needs, and what
it costs in one seat class on one ride, given that class's adult fare.

Where the rules come from (public announcements; the figures are the railway's, the rounding
is ours, see `round_fare`):

- Children, 《铁路旅客运输规程》 in force since 2023-01-01, and China Railway's 2025 revision of
  the child and disabled-soldier discounts: a child under 6 (未满6周岁) travels free without a
  seat of its own, one for each ticketed grown-up; a second one, or one who is to have a seat,
  buys a child ticket. A child of 6 to 13 (年满6周岁且未满14周岁) buys a child ticket (儿童优惠票)
  in the same class as the grown-up: half the fare on seats and berths alike (conventional
  trains: half the published fare of ticket and supplements; EMUs: half the fare charged,
  执行票价). From 14 the adult fare.
- Students (学生优惠票), China Railway from 2025-08 (People's Daily, 2025-08-27): on EMUs (G, D,
  C) 二等座, 一等座 and every EMU sleeper class at 75% of the fare charged, never below 40% of
  the published fare; on conventional trains 硬座 at half, and 硬卧 at the full berth fare less
  half the 硬座 fare (the seat part halved, the berth part not). Other classes carry no student
  discount. 12306 itself prices a student query (`purpose_codes=0X00`; `0X` in the transfer
  search), so these rules price students only where a source answered adult fares.

Unsure, and priced conservatively (no discount claimed): 无座 under a student ticket; the exact
rounding 12306 applies to a discounted EMU fare.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum

from sources.models import SLEEPER_CLASSES, SeatClass

FREE_CHILD_BELOW = 6  # 未满6周岁: free, without a seat of its own
ADULT_FROM = 14  # 年满14周岁: the adult fare
CHILD_SHARE = 0.5
STUDENT_EMU_SHARE = 0.75
STUDENT_EMU_FLOOR = 0.4  # of the published fare
STUDENT_CONVENTIONAL_SEAT_SHARE = 0.5
EMU_TYPES = frozenset({"G", "D", "C"})
STUDENT_EMU_CLASSES = frozenset({SeatClass.SECOND, SeatClass.FIRST, *SLEEPER_CLASSES})


class TicketKind(StrEnum):
    """The ticket one traveller rides on."""

    ADULT = "adult"
    STUDENT = "student"
    CHILD = "child"
    FREE_CHILD = "free_child"  # under 6, no seat of its own, on a grown-up's ticket

    @property
    def label(self) -> str:
        return TICKET_LABELS[self]


TICKET_LABELS: dict[TicketKind, str] = {
    TicketKind.ADULT: "成人票",
    TicketKind.STUDENT: "学生票",
    TicketKind.CHILD: "儿童票",
    TicketKind.FREE_CHILD: "免费儿童（不占座）",
}


def ticket_kind(age: int | None, *, student: bool = False) -> TicketKind:
    """The ticket of a traveller of `age` (None: a grown-up) on their own."""
    if age is not None and age < 0:
        raise ValueError(f"an age is not negative, got {age}")
    if age is not None and age < ADULT_FROM:
        return TicketKind.FREE_CHILD if age < FREE_CHILD_BELOW else TicketKind.CHILD
    return TicketKind.STUDENT if student else TicketKind.ADULT


def party_tickets(
    adults: int, students: int = 0, child_ages: Sequence[int] = ()
) -> tuple[TicketKind, ...]:
    """One ticket kind per traveller: grown-ups first, then children by the order given.

    Each ticketed grown-up (adult or student) takes one child under 6 free; any further child
    under 6 buys a child ticket, as does every child of 6 to 13.
    """
    if adults < 0 or students < 0:
        raise ValueError("traveller counts are not negative")
    kinds = [TicketKind.ADULT] * adults + [TicketKind.STUDENT] * students
    free_places = adults + students
    for age in child_ages:
        kind = ticket_kind(age)
        if kind is TicketKind.FREE_CHILD:
            if free_places == 0:
                kind = TicketKind.CHILD
            else:
                free_places -= 1
        elif kind is not TicketKind.CHILD:
            raise ValueError(f"a child is under {ADULT_FROM}, got {age}")
        kinds.append(kind)
    return tuple(kinds)


def student_discounted(seat_class: SeatClass, train_type: str) -> bool:
    """Whether a student ticket is cheaper than the adult one in this class on this train."""
    if train_type in EMU_TYPES:
        return seat_class in STUDENT_EMU_CLASSES
    return seat_class in (SeatClass.HARD_SEAT, SeatClass.HARD_SLEEPER)


def fare(
    kind: TicketKind,
    seat_class: SeatClass,
    adult_fare: float | None,
    *,
    train_type: str,
    hard_seat_fare: float | None = None,
    discount: float | None = None,
) -> float | None:
    """Yuan for a `kind` ticket in `seat_class`, from that class's adult fare (None: unknown).

    `train_type` is the offer's (G, D, K …; "" for an all-digit train). `hard_seat_fare` is the
    same ride's 硬座 adult fare (a student 硬卧 needs it); `discount` the adult fare's share of
    the published one (0.88 for 8.8折), which bounds a student's EMU fare from below.
    """
    if kind is TicketKind.FREE_CHILD:
        return 0.0
    if adult_fare is None:
        return None
    if kind is TicketKind.ADULT:
        return adult_fare
    if kind is TicketKind.CHILD:
        return round_fare(adult_fare * CHILD_SHARE)
    if not student_discounted(seat_class, train_type):
        return adult_fare
    if train_type in EMU_TYPES:
        published = adult_fare / discount if discount else adult_fare
        return round_fare(max(adult_fare * STUDENT_EMU_SHARE, published * STUDENT_EMU_FLOOR))
    if seat_class is SeatClass.HARD_SEAT:
        return round_fare(adult_fare * STUDENT_CONVENTIONAL_SEAT_SHARE)
    if hard_seat_fare is None:
        return None  # the berth's seat part is unknown: say so rather than guess
    return round_fare(adult_fare - hard_seat_fare * STUDENT_CONVENTIONAL_SEAT_SHARE)


def round_fare(yuan: float) -> float:
    """To the half yuan, halves up, as 12306 prints fares (88.75 → 89.0, 276.5 stays)."""
    halves = (Decimal(str(yuan)) * 2).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return float(halves / 2)
