"""Table tests of `rules.plan`: each test is one traveller situation and what the engine does."""

from __future__ import annotations

import datetime as dt
import random

from rules import LegKey, TripRequest, ViaStop, plan, required_legs
from rules.model import (
    FILTERED_OUT,
    NO_CONNECTION,
    NO_OFFERS,
    OVER_BUDGET,
    PAST_DEPARTURE,
    SOLD_OUT,
    UNKNOWN_TRAIN,
)
from rules.validate import validate
from sources.models import SeatClass, SeatStatus
from tests.rules.factory import (
    BEIJING,
    BEIJING_SOUTH,
    BEIJING_WEST,
    CHENGDU_EAST,
    DAY,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    SHANGHAI_STATION,
    XIAN_NORTH,
    at,
    book,
    empty,
    high_speed_seats,
    offer,
    seat,
)

DAY2 = DAY + dt.timedelta(days=2)


def round_trip(**changes: object) -> TripRequest:
    fields: dict[str, object] = {
        "origin": "北京",
        "destination": "上海",
        "depart_date": DAY,
        "nights": 2,
    }
    fields.update(changes)
    return TripRequest.model_validate(fields)


def beijing_shanghai_book() -> dict:
    return book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"),
        offer("G3", BEIJING_SOUTH, HONGQIAO, "14:00", "18:28", seats=high_speed_seats(600)),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "17:00", "21:28", day=DAY2),
        offer("G4", HONGQIAO, BEIJING_SOUTH, "12:00", "16:28", day=DAY2),
    )


def all_offers(entries: dict) -> list:
    return [o for entry in entries.values() for o in entry.offers]


def test_direct_round_trip_uses_offered_trains_prices_party_and_fits_budget():
    entries = beijing_shanghai_book()
    result = plan(round_trip(passengers=2, budget=3000), entries, now=NOW)
    best = result.best
    assert best is not None
    assert best.train_numbers == ("G1", "G4")
    assert [leg.segment for leg in best.legs] == [0, 1]
    assert [leg.price for leg in best.legs] == [1106.0, 1106.0]
    assert best.total_price == 2212.0
    assert best.within_budget is True
    assert best.remaining_per_day == round((3000 - 2212) / 3, 2)
    assert best.transfers == ()
    assert [(s.city, s.arrive_at, s.leave_at) for s in best.stays] == [
        ("上海", at(DAY, "13:28"), at(DAY2, "12:00"))
    ]
    assert [day.items for day in best.days] == [
        ("09:00 北京南 乘 G1 出发，13:28 抵达上海虹桥", "下午起在上海自由活动"),
        ("全天在上海自由活动",),
        ("上午在上海自由活动", "12:00 上海虹桥 乘 G4 返回北京，16:28 抵达北京南"),
    ]
    assert best.legs[0].reason.endswith("且在预算内")
    assert best.score.total > 0
    assert result.failures == ()
    assert validate(best, all_offers(entries)) == []


def test_alternatives_differ_by_at_least_one_train_an_hour_apart():
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"),
        offer("G5", BEIJING_SOUTH, HONGQIAO, "09:05", "13:33"),
        offer("G7", BEIJING_SOUTH, HONGQIAO, "15:00", "19:28"),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "12:00", "16:28", day=DAY2),
        offer("G6", HONGQIAO, BEIJING_SOUTH, "12:05", "16:33", day=DAY2),
    )
    result = plan(round_trip(), entries, now=NOW, limit=5)
    trains = [it.train_numbers for it in result.itineraries]
    assert trains[0] == ("G1", "G2")
    assert ("G5", "G2") not in trains and ("G1", "G6") not in trains
    assert ("G7", "G2") in trains
    assert len(set(trains)) == len(trains)


def test_trip_possible_only_with_one_transfer_changes_at_the_hub():
    entries = book(
        offer("G101", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:30"),
        offer("G7001", NANJING_SOUTH, HONGQIAO, "11:40", "12:50"),  # 10 min: too short
        offer("G7003", NANJING_SOUTH, HONGQIAO, "12:10", "13:20"),
        offer("G7005", NANJING_SOUTH, HONGQIAO, "16:00", "17:10"),  # 270 min: too long
    )
    result = plan(round_trip(return_trip=False), entries, now=NOW)
    best = result.best
    assert best is not None
    assert best.train_numbers == ("G101", "G7003")
    (change,) = best.transfers
    assert change.station == NANJING_SOUTH and change.to_station == NANJING_SOUTH
    assert change.same_station is True and change.minutes == 40
    assert best.legs[0].reason.startswith("经南京南换乘")
    assert "在南京南换乘，停留40分钟" in best.days[0].items
    assert [it.train_numbers for it in result.itineraries] == [("G101", "G7003")]


def test_an_overnight_first_ride_connects_to_a_train_the_next_morning():
    next_day = DAY + dt.timedelta(days=1)
    sleepers = (seat(SeatClass.SOFT_SLEEPER, 700.0), seat(SeatClass.HARD_SLEEPER, 450.0))
    entries = book(
        offer("Z61", BEIJING_WEST, XIAN_NORTH, "21:00", "07:10", seats=sleepers),
        offer("D1901", XIAN_NORTH, CHENGDU_EAST, "08:30", "12:40", day=next_day),
    )
    entries |= empty(LegKey("北京", "成都", DAY), LegKey("西安", "成都", DAY))
    request = TripRequest(origin="北京", destination="成都", depart_date=DAY, return_trip=False)
    result = plan(request, entries, now=NOW)
    best = result.best
    assert best is not None, result.failures
    assert best.train_numbers == ("Z61", "D1901")
    (change,) = best.transfers
    assert change.minutes == 80 and change.same_station is True
    assert validate(best, all_offers(entries)) == []


def test_transfers_are_not_planned_when_the_request_forbids_them():
    entries = book(
        offer("G101", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:30"),
        offer("G7003", NANJING_SOUTH, HONGQIAO, "12:10", "13:20"),
    )
    result = plan(round_trip(return_trip=False, max_transfers=0), entries, now=NOW)
    assert result.itineraries == ()
    assert [f.code for f in result.failures] == [NO_OFFERS]


def test_cross_station_transfer_in_one_city_needs_ninety_minutes():
    entries = book(
        offer("G652", XIAN_NORTH, BEIJING_WEST, "05:30", "10:00", seats=high_speed_seats(515)),
        offer("G11", BEIJING_SOUTH, HONGQIAO, "11:00", "15:28"),  # 60 min across town
        offer("G13", BEIJING_SOUTH, HONGQIAO, "11:45", "16:13"),
    )
    request = TripRequest(
        origin="西安", destination="上海", depart_date=DAY, return_trip=False, allow_night=True
    )
    best = plan(request, entries, now=NOW).best
    assert best is not None
    assert best.train_numbers == ("G652", "G13")
    (change,) = best.transfers
    assert (change.station, change.to_station) == (BEIJING_WEST, BEIJING_SOUTH)
    assert change.same_station is False and change.minutes == 105
    assert "从北京西前往北京南换乘（跨站），预留105分钟" in best.days[0].items


def test_transfer_with_no_catchable_partner_reports_no_connection():
    entries = book(
        offer("G101", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:30"),
        offer("G7001", NANJING_SOUTH, HONGQIAO, "11:40", "12:50"),
    )
    result = plan(round_trip(return_trip=False), entries, now=NOW)
    assert [(f.code, f.segment) for f in result.failures] == [(NO_CONNECTION, 0)]


def test_all_seats_sold_out_on_the_date_fails_with_sold_out():
    gone = (
        seat(SeatClass.FIRST, 933.0, 0, SeatStatus.SOLD_OUT),
        seat(SeatClass.SECOND, 553.0, 0, SeatStatus.SOLD_OUT),
        seat(SeatClass.BUSINESS, 1748.0, 0, SeatStatus.WAITLIST),
    )
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", seats=gone),
        offer("G3", BEIJING_SOUTH, HONGQIAO, "14:00", "18:28", seats=gone),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "17:00", "21:28", day=DAY2),
    )
    result = plan(round_trip(), entries, now=NOW)
    assert result.itineraries == ()
    (failure,) = result.failures
    assert failure.code == SOLD_OUT and failure.segment == 0
    assert "北京→上海" in failure.message


def test_waitlist_is_used_only_when_the_request_allows_it():
    waitlist = (seat(SeatClass.SECOND, 553.0, 0, SeatStatus.WAITLIST),)
    entries = book(offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", seats=waitlist))
    assert plan(round_trip(return_trip=False), entries, now=NOW).best is None
    best = plan(round_trip(return_trip=False, allow_waitlist=True), entries, now=NOW).best
    assert best is not None and best.train_numbers == ("G1",)


def test_party_needs_seats_for_everyone_in_one_class():
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", seats=high_speed_seats(553, 2)),
        offer("G3", BEIJING_SOUTH, HONGQIAO, "14:00", "18:28", seats=high_speed_seats(553, 9)),
    )
    best = plan(round_trip(return_trip=False, passengers=3), entries, now=NOW).best
    assert best is not None and best.train_numbers == ("G3",)


def test_budget_too_small_for_any_class_fails_with_over_budget_and_the_cheapest_price():
    result = plan(round_trip(budget=800), beijing_shanghai_book(), now=NOW)
    assert result.itineraries == ()
    (failure,) = result.failures
    assert failure.code == OVER_BUDGET and failure.segment is None
    assert "800" in failure.message and "1106" in failure.message


def test_budget_picks_the_combination_that_fits():
    entries = book(
        offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", seats=high_speed_seats(700)),
        offer("G3", BEIJING_SOUTH, HONGQIAO, "14:00", "18:28", seats=high_speed_seats(500)),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "12:00", "16:28", day=DAY2),
    )
    best = plan(round_trip(budget=1060), entries, now=NOW).best
    assert best is not None
    assert best.train_numbers == ("G3", "G2")
    assert best.total_price == 1053.0 and best.within_budget is True


def test_sold_out_preferred_class_falls_back_to_first_with_a_note():
    seats = (
        seat(SeatClass.SECOND, 553.0, 0, SeatStatus.SOLD_OUT),
        seat(SeatClass.FIRST, 933.0, 5),
    )
    entries = book(offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28", seats=seats))
    result = plan(
        round_trip(return_trip=False, seat_class=SeatClass.SECOND, strict_seat=False),
        entries,
        now=NOW,
    )
    best = result.best
    assert best is not None and best.legs[0].seat_class is SeatClass.FIRST
    assert "G1 二等座已售罄，已改为一等座" in result.notes
    assert best.score.seat_fallback > 0


def test_preferred_class_over_budget_falls_back_to_the_next_class_with_a_note():
    entries = book(offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"))
    request = round_trip(
        return_trip=False, seat_class=SeatClass.FIRST, budget=600, strict_seat=False
    )
    result = plan(request, entries, now=NOW)
    best = result.best
    assert best is not None and best.legs[0].seat_class is SeatClass.SECOND
    assert "G1 一等座超出预算，已改为二等座" in result.notes


def test_preferred_class_is_kept_when_it_fits():
    entries = book(offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"))
    request = round_trip(
        return_trip=False, seat_class=SeatClass.FIRST, budget=1000, strict_seat=False
    )
    result = plan(request, entries, now=NOW)
    assert result.best is not None and result.best.legs[0].seat_class is SeatClass.FIRST
    assert result.notes == ()


def test_overnight_sleeper_counts_as_the_nights_lodging():
    berths = (
        seat(SeatClass.HARD_SLEEPER, 304.5, 10),
        seat(SeatClass.SOFT_SLEEPER, 476.5, 4),
        seat(SeatClass.HARD_SEAT, 156.5),
    )
    entries = book(
        offer("Z281", BEIJING, SHANGHAI_STATION, "21:00", "07:30", seats=berths),
        offer("G2", HONGQIAO, BEIJING_SOUTH, "17:00", "21:28", day=DAY2),
    )
    result = plan(round_trip(budget=2000), entries, now=NOW)
    best = result.best
    assert best is not None
    sleeper = best.legs[0]
    assert sleeper.train_number == "Z281" and sleeper.seat_class is SeatClass.HARD_SLEEPER
    assert best.sleeper_nights == 1 and best.hotel_nights == 1
    assert [day.items for day in best.days] == [
        ("21:00 北京 乘 Z281 出发，卧铺过夜（无需住宿）",),
        ("07:30 乘 Z281 抵达上海", "上午起在上海自由活动"),
        ("白天在上海自由活动", "17:00 上海虹桥 乘 G2 返回北京，21:28 抵达北京南"),
    ]
    # Three calendar days, but the sleeper's evening is no day to pay lodging and food for.
    assert best.remaining_per_day == round((2000 - 304.5 - 553) / 2, 2)
    assert "卧铺过夜省一晚住宿" in sleeper.reason


def test_night_rides_are_avoided_unless_allowed():
    entries = book(
        offer("G9", BEIJING_SOUTH, HONGQIAO, "05:20", "09:50"),
        offer("G19", BEIJING_SOUTH, HONGQIAO, "19:00", "23:30"),
        offer(
            "K101",
            BEIJING,
            SHANGHAI_STATION,
            "22:00",
            "04:00",
            seats=[seat(SeatClass.HARD_SEAT, 150)],
        ),
    )
    request = round_trip(return_trip=False)
    result = plan(request, entries, now=NOW)
    assert result.itineraries == ()
    assert [f.code for f in result.failures] == [FILTERED_OUT]
    allowed = plan(round_trip(return_trip=False, allow_night=True), entries, now=NOW, limit=5)
    assert {it.train_numbers for it in allowed.itineraries} == {("G9",), ("G19",), ("K101",)}


def test_multi_city_chains_legs_in_order_with_the_requested_nights():
    day3, day5 = DAY + dt.timedelta(days=2), DAY + dt.timedelta(days=4)
    entries = book(
        offer("G87", BEIJING_WEST, XIAN_NORTH, "08:00", "12:30", seats=high_speed_seats(515)),
        offer(
            "D1919",
            XIAN_NORTH,
            CHENGDU_EAST,
            "09:00",
            "13:20",
            day=day3,
            seats=high_speed_seats(263),
        ),
        offer(
            "G90",
            CHENGDU_EAST,
            BEIJING_WEST,
            "10:00",
            "17:40",
            day=day5,
            seats=high_speed_seats(778),
        ),
    )
    request = TripRequest(
        origin="北京",
        destination="成都",
        depart_date=DAY,
        via=(ViaStop("西安", 2),),
        nights=2,
        budget=3000,
    )
    assert required_legs(request) == [
        LegKey("北京", "西安", DAY),
        LegKey("西安", "成都", day3),
        LegKey("成都", "北京", day5),
    ]
    best = plan(request, entries, now=NOW).best
    assert best is not None
    assert best.train_numbers == ("G87", "D1919", "G90")
    assert [leg.segment for leg in best.legs] == [0, 1, 2]
    assert [(s.city, s.arrive_at.date(), s.leave_at and s.leave_at.date()) for s in best.stays] == [
        ("西安", DAY, day3),
        ("成都", day3, day5),
    ]
    assert best.hotel_nights == 4 and len(best.days) == 5
    assert best.days[1].items == ("全天在西安自由活动",)
    assert best.days[3].items == ("全天在成都自由活动",)
    assert best.days[4].items[-1] == "10:00 成都东 乘 G90 返回北京，17:40 抵达北京西"
    assert best.total_price == 515 + 263 + 778
    assert best.remaining_per_day == round((3000 - 1556) / 5, 2)


def test_trains_that_already_left_are_excluded():
    entries = beijing_shanghai_book()
    result = plan(round_trip(), entries, now=at(DAY, "10:00"))
    assert result.best is not None and result.best.train_numbers[0] == "G3"
    late = plan(round_trip(), entries, now=at(DAY, "15:00"))
    assert [(f.code, f.segment) for f in late.failures] == [(PAST_DEPARTURE, 0)]


def test_a_leg_with_no_offers_fails_with_no_offers_for_that_segment():
    entries = beijing_shanghai_book()
    del entries[LegKey("上海", "北京", DAY2)]
    entries.update(empty(LegKey("上海", "北京", DAY2)))
    result = plan(round_trip(), entries, now=NOW)
    assert result.itineraries == ()
    assert [(f.code, f.segment) for f in result.failures] == [(NO_OFFERS, 1)]


def test_train_type_filter_that_excludes_everything_is_filtered_out():
    result = plan(round_trip(train_types=frozenset({"D"})), beijing_shanghai_book(), now=NOW)
    assert [(f.code, f.segment) for f in result.failures] == [(FILTERED_OUT, 0), (FILTERED_OUT, 1)]


def test_depart_window_prefers_trains_inside_it():
    request = round_trip(depart_window=(dt.time(13, 0), dt.time(15, 0)))
    best = plan(request, beijing_shanghai_book(), now=NOW).best
    assert best is not None and best.train_numbers[0] == "G3"
    assert best.score.window_fit == 0


def test_required_train_is_taken_even_if_not_best():
    best = plan(round_trip(required_trains=("g3",)), beijing_shanghai_book(), now=NOW).best
    assert best is not None and best.train_numbers[0] == "G3"
    assert best.legs[0].reason.startswith("按您指定的车次")


def test_invented_required_train_is_reported_unknown():
    result = plan(round_trip(required_trains=("G99999",)), beijing_shanghai_book(), now=NOW)
    assert UNKNOWN_TRAIN in [f.code for f in result.failures]
    assert result.best is not None and "G99999" not in result.best.train_numbers


def test_one_way_when_no_return_date_is_given_says_so():
    request = TripRequest(origin="北京", destination="上海", depart_date=DAY)
    result = plan(request, beijing_shanghai_book(), now=NOW)
    assert result.best is not None and len(result.best.legs) == 1
    assert result.best.stays[0].leave_at is None
    assert "未指定返程日期或天数，仅规划单程" in result.notes


def test_cached_offers_are_tagged_and_noted():
    entries = book(offer("G1", BEIJING_SOUTH, HONGQIAO, "09:00", "13:28"), freshness="cached")
    result = plan(round_trip(return_trip=False), entries, now=NOW)
    assert result.best is not None and result.best.legs[0].freshness == "cached"
    assert any("缓存" in note for note in result.notes)


def test_ranking_does_not_depend_on_offer_order():
    offers = [o for entry in beijing_shanghai_book().values() for o in entry.offers]
    expected = plan(round_trip(), book(*offers), now=NOW, limit=4)
    for seed in range(5):
        shuffled = offers[:]
        random.Random(seed).shuffle(shuffled)
        again = plan(round_trip(), book(*shuffled), now=NOW, limit=4)
        assert again.itineraries == expected.itineraries


def test_the_score_shown_is_the_one_the_alternatives_were_ranked_by():
    # One night in 上海: a cheap train arriving at 02:41 spends that night on board, so the
    # stay's own aim (`rules.objective.apply_same_day`) ranks it last, below a dearer one.
    # Its balanced parts alone would put it second; `objective` shows what moved it.
    # (A seat through the night is allowed here, as after 夜里的车也行.)
    day1 = DAY + dt.timedelta(days=1)
    entries = book(
        offer("G3", BEIJING_SOUTH, HONGQIAO, "10:00", "13:00"),
        offer("G5", BEIJING_SOUTH, HONGQIAO, "12:45", "16:09", seats=high_speed_seats(900)),
        offer(
            "K7", BEIJING_SOUTH, HONGQIAO, "14:45", "02:41", seats=[seat(SeatClass.HARD_SEAT, 60)]
        ),
        offer("G302", HONGQIAO, BEIJING_SOUTH, "15:00", "17:00", day=day1),
    )
    result = plan(round_trip(nights=1, allow_night=True), entries, now=NOW)
    totals = [it.score.total for it in result.itineraries]
    assert [it.train_numbers[0] for it in result.itineraries] == ["G3", "G5", "K7"]
    assert totals == sorted(totals)
    night = result.itineraries[-1].score
    assert night.objective > 0
    parts = (night.price, night.travel_time, night.window_fit, night.transfers)
    rest = (night.seat_margin, night.seat_fallback, night.station_fit, night.objective)
    assert night.total == round(sum(parts) + sum(rest), 3)
    assert result.itineraries[0].score.objective == 0
