"""12306's passenger fare rules: who rides on which ticket, and what it costs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sources.fare_rules import (
    TicketKind,
    fare,
    party_tickets,
    round_fare,
    student_discounted,
    ticket_kind,
)
from sources.models import SeatClass

A, S, C, F = TicketKind.ADULT, TicketKind.STUDENT, TicketKind.CHILD, TicketKind.FREE_CHILD


@pytest.mark.parametrize(
    ("age", "student", "kind"),
    [
        (None, False, A),
        (None, True, S),
        (0, False, F),
        (5, False, F),  # 未满6周岁
        (6, False, C),  # 年满6周岁
        (13, False, C),
        (14, False, A),  # 年满14周岁: the adult fare
        (14, True, S),
        (40, False, A),
    ],
)
def test_the_ticket_a_traveller_needs_follows_their_age(age, student, kind):
    assert ticket_kind(age, student=student) is kind


def test_each_ticketed_grown_up_takes_one_child_under_six_free():
    assert party_tickets(1, child_ages=[3]) == (A, F)
    assert party_tickets(1, child_ages=[3, 4]) == (A, F, C), "the second buys a child ticket"
    assert party_tickets(2, child_ages=[2, 8, 4]) == (A, A, F, C, F)
    assert party_tickets(0, 1, child_ages=[5]) == (S, F), "a student is a ticketed grown-up"
    assert party_tickets(0, child_ages=[5]) == (C,), "no grown-up ticket to ride on"


def test_a_party_refuses_what_is_not_a_party():
    with pytest.raises(ValueError):
        party_tickets(-1)
    with pytest.raises(ValueError, match="under 14"):
        party_tickets(1, child_ages=[15])
    with pytest.raises(ValueError):
        ticket_kind(-2)


@pytest.mark.parametrize(
    ("seat_class", "adult", "child"),
    [
        (SeatClass.SECOND, 553.0, 276.5),  # G1 北京南→上海虹桥, 2019 published
        (SeatClass.BUSINESS, 1748.0, 874.0),
        (SeatClass.HARD_SEAT, 177.5, 89.0),  # 88.75, to the half yuan
        (SeatClass.HARD_SLEEPER, 304.5, 152.5),  # berths are halved too (2023 客规)
        (SeatClass.SOFT_SLEEPER, 476.0, 238.0),
    ],
)
def test_a_child_ticket_is_half_the_fare_on_seats_and_berths(seat_class, adult, child):
    assert fare(C, seat_class, adult, train_type="G") == child
    assert fare(C, seat_class, adult, train_type="T") == child


def test_a_child_under_six_rides_free_and_an_adult_pays_the_fare():
    assert fare(F, SeatClass.SECOND, 553.0, train_type="G") == 0.0
    assert fare(F, SeatClass.SECOND, None, train_type="G") == 0.0
    assert fare(A, SeatClass.SECOND, 553.0, train_type="G") == 553.0


def test_a_student_on_an_emu_pays_75_percent_in_second_first_and_sleeper_classes():
    assert fare(S, SeatClass.SECOND, 553.0, train_type="G") == 415.0  # 414.75
    assert fare(S, SeatClass.FIRST, 933.0, train_type="D") == 700.0  # 699.75
    assert fare(S, SeatClass.EMU_SLEEPER, 713.0, train_type="D") == 535.0
    assert fare(S, SeatClass.BUSINESS, 1748.0, train_type="G") == 1748.0, "no discount"
    assert fare(S, SeatClass.NO_SEAT, 553.0, train_type="G") == 553.0, "unsure: none claimed"


def test_a_student_emu_fare_never_falls_below_40_percent_of_the_published_one():
    # An adult second-class fare already at 5折 of a published 600: 75% of 300 is 225, but
    # the floor is 40% of 600 = 240.
    assert fare(S, SeatClass.SECOND, 300.0, train_type="G", discount=0.5) == 240.0
    assert fare(S, SeatClass.SECOND, 528.0, train_type="G", discount=0.88) == 396.0


def test_a_student_on_a_conventional_train_pays_half_a_seat_and_a_berth_less_half_a_seat():
    assert fare(S, SeatClass.HARD_SEAT, 177.5, train_type="T") == 89.0
    assert fare(S, SeatClass.HARD_SLEEPER, 304.5, train_type="T", hard_seat_fare=177.5) == 216.0
    assert fare(S, SeatClass.HARD_SLEEPER, 304.5, train_type="K") is None, "seat part unknown"
    assert fare(S, SeatClass.SOFT_SLEEPER, 476.0, train_type="Z") == 476.0, "no discount"
    assert fare(S, SeatClass.HARD_SEAT, 21.5, train_type="") == 11.0  # an all-digit train


def test_unknown_fares_stay_unknown():
    for kind in (A, S, C):
        assert fare(kind, SeatClass.SECOND, None, train_type="G") is None


def test_which_classes_a_student_ticket_discounts():
    assert student_discounted(SeatClass.SECOND, "G") and student_discounted(SeatClass.FIRST, "C")
    assert not student_discounted(SeatClass.PREMIUM_FIRST, "G")
    assert student_discounted(SeatClass.HARD_SLEEPER, "K")
    assert not student_discounted(SeatClass.SECOND, "K") and not student_discounted(
        SeatClass.SOFT_SEAT, "K"
    )


@given(st.floats(min_value=0, max_value=5000, allow_nan=False), st.sampled_from(list(SeatClass)))
def test_no_ticket_costs_more_than_the_adult_fare_or_less_than_nothing(adult, seat_class):
    adult = round_fare(adult)
    for kind in (S, C):
        for train_type in ("G", "K"):
            price = fare(kind, seat_class, adult, train_type=train_type, hard_seat_fare=adult)
            assert price is None or 0 <= price <= adult + 0.5


def test_fares_round_to_the_half_yuan_halves_up():
    assert [round_fare(x) for x in (88.75, 88.74, 276.5, 0.2, 414.75)] == [
        89.0,
        88.5,
        276.5,
        0.0,
        415.0,
    ]
