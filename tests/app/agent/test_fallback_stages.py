"""FALLBACK follows what failed: each failure code calls for the stages that can cure it."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from app.agent.fallback import Relaxation, next_relaxation, night_lifted, stage_order
from rules import Failure, LegKey, LegOffers, TripRequest, plan
from rules.model import (
    FILTERED_OUT,
    NO_OFFERS,
    OVER_BUDGET,
    PAST_DEPARTURE,
    SOLD_OUT,
)
from rules.relax import relaxed_between
from sources.models import SHANGHAI, SeatClass, Station
from tests.rules.factory import DAY as OFFERS_DAY
from tests.rules.factory import book, offer, seat

TODAY = dt.date(2026, 12, 1)
DAY = dt.date(2026, 12, 5)
ONE_WAY = TripRequest(origin="南京", destination="张家界", depart_date=DAY, return_trip=False)
NANJING = Station(telecode="NJH", name="南京", city="南京")
ZHANGJIAJIE = Station(telecode="DIQ", name="张家界", city="张家界")


class _Lines:
    """A topology from direct pairs `{(a, b): (km, trains)}`."""

    def __init__(self, links: dict[tuple[str, str], tuple[int, int]]) -> None:
        self.links = links

    def reach(self, city: str) -> dict[str, tuple[int, int]]:
        return {b: v for (a, b), v in self.links.items() if a == city}

    def reached_from(self, city: str) -> dict[str, tuple[int, int]]:
        return {a: v for (a, b), v in self.links.items() if b == city}


TOPOLOGY = _Lines({("南京", "长沙"): (900, 40), ("长沙", "张家界"): (330, 10)})


def failed(code: str, segment: int | None = 0) -> tuple[Failure, ...]:
    return (Failure(code, "no", segment=segment),)


def relaxation_after(
    failures: tuple[Failure, ...],
    tried: list[str] | None = None,
    *,
    request: TripRequest = ONE_WAY,
    official: bool = True,
    hubs_tried: tuple[str, ...] = (),
) -> Relaxation | None:
    """What the agent tries next after `failures`, with `tried` stages behind it."""
    return next_relaxation(
        original=request,
        failures=failures,
        tried=tried or [],
        today=TODAY,
        last_sale_day=TODAY + dt.timedelta(days=14),
        hub_offers={},
        topology=TOPOLOGY,
        hubs_tried=hubs_tried,
        official_search=official,
    )


def relaxation_on_offers(
    request: TripRequest, entries: dict[LegKey, LegOffers], tried: list[str], now: dt.datetime
) -> Relaxation | None:
    """What the agent tries next after everything was filtered out, `tried` stages behind it,
    with the offers in hand (stages that plan on them: night hours, relaxing, the day before)."""
    return next_relaxation(
        original=request,
        failures=failed(FILTERED_OUT),
        tried=tried,
        today=TODAY,
        last_sale_day=TODAY + dt.timedelta(days=14),
        hub_offers={},
        book=entries,
        now=now,
    )


def stage_after(
    failures: tuple[Failure, ...],
    tried: list[str] | None = None,
    *,
    request: TripRequest = ONE_WAY,
    official: bool = True,
    hubs_tried: tuple[str, ...] = (),
) -> str | None:
    found = relaxation_after(
        failures, tried, request=request, official=official, hubs_tried=hubs_tried
    )
    return None if found is None else found.stage


def test_no_offers_asks_the_official_transfer_search_first_with_no_leg_query() -> None:
    found = relaxation_after(failed(NO_OFFERS))
    assert found is not None and found.stage == "transfer" and found.official
    assert found.legs == () and found.hub_segments == (0,) and found.hubs == ()


def test_the_own_hub_search_runs_only_after_the_official_search_found_nothing() -> None:
    found = relaxation_after(failed(NO_OFFERS), ["transfer"])
    assert found is not None and found.stage == "hubs" and not found.official
    assert found.hubs == ("长沙",)
    assert set(found.legs) == {LegKey("南京", "长沙", DAY), LegKey("长沙", "张家界", DAY)}


def test_without_the_capability_the_transfer_stage_is_the_own_hub_search() -> None:
    found = relaxation_after(failed(NO_OFFERS), official=False)
    assert found is not None and found.stage == "transfer" and not found.official
    assert found.hubs == ("长沙",) and LegKey("长沙", "张家界", DAY) in found.legs
    # 长沙 was the only hub: no "hubs" stage (that follows the official search), other days.
    after = stage_after(failed(NO_OFFERS), ["transfer"], official=False, hubs_tried=("长沙",))
    assert after == "days"


def test_no_offers_then_other_days_once_every_hub_stage_is_spent() -> None:
    spent = ["transfer", "hubs", "more_hubs"]
    assert stage_after(failed(NO_OFFERS), spent) == "days"


def test_a_constraint_that_filtered_everything_out_gives_way_only_after_transfers() -> None:
    typed = ONE_WAY.model_copy(update={"train_types": ("G",)})
    # A route that honours the constraint beats one that drops it; other days come last.
    assert stage_order(failed(FILTERED_OUT)) == (
        "station",  # only for a station of the outskirts named (none here: skipped)
        "transfer",
        "hubs",
        "more_hubs",
        "night",  # only with a book the night hours can plan (none here: skipped)
        "day_before",  # only for an arrival deadline (none here: the stage is skipped)
        "relax",
        "days",
        "days_relax",
    )
    spent = ["transfer", "hubs", "more_hubs"]
    assert stage_after(failed(FILTERED_OUT), spent, request=typed) == "relax"
    assert stage_after(failed(FILTERED_OUT), [*spent, "relax"], request=typed) == "days"


def test_over_budget_relaxes_then_moves_the_day_and_never_asks_for_a_transfer() -> None:
    budget = ONE_WAY.model_copy(update={"budget": 50})
    failures = failed(OVER_BUDGET, segment=None) + failed(OVER_BUDGET)
    assert stage_order(failures) == ("night", "relax", "days", "days_relax")
    assert stage_after(failures, request=budget) == "relax"
    assert stage_after(failures, ["relax"], request=budget) == "days"


def test_a_sold_out_day_tries_other_days_before_a_transfer() -> None:
    assert stage_after(failed(SOLD_OUT)) == "days"
    assert stage_after(failed(SOLD_OUT), ["days"]) == "transfer"


def test_trains_all_gone_call_for_another_day_only() -> None:
    assert stage_after(failed(PAST_DEPARTURE)) == "days"
    assert stage_after(failed(PAST_DEPARTURE), ["days"]) is None


def test_the_first_failure_leads_and_each_stage_runs_at_most_once() -> None:
    mixed = failed(SOLD_OUT, 0) + failed(NO_OFFERS, 1)
    order = stage_order(mixed)
    # A sold-out day takes the night hours nobody refused, then gives way on a stated wish
    # (relax), then moves the trip a day.
    assert order[:4] == ("night", "day_before", "relax", "days")
    assert len(order) == len(set(order))
    assert "transfer" in order, "the second segment's failure still calls for a transfer"
    assert stage_after(failed(NO_OFFERS), list(order)) is None


def test_no_transfer_is_asked_when_the_traveller_wants_direct_trains_only() -> None:
    direct_only = ONE_WAY.model_copy(update={"max_transfers": 0})
    assert stage_after(failed(NO_OFFERS), request=direct_only) == "days"


def test_where_no_single_change_joins_the_ends_the_official_search_is_not_asked() -> None:
    far = TripRequest(origin="南京", destination="三亚", depart_date=DAY, return_trip=False)
    # No city joins 南京 and 三亚 with one change in the topology.
    found = relaxation_after(failed(NO_OFFERS), request=far)
    assert found is not None and found.stage == "transfer" and not found.official


def _small_hours_only() -> tuple[TripRequest, dict[LegKey, LegOffers]]:
    """南京→张家界 by nine, where every seat that arrives in time leaves in the small hours."""
    arrive_by = ONE_WAY.model_copy(
        update={"arrive_window": (dt.time(0, 0), dt.time(9, 0)), "arrive_date": DAY}
    )
    seats = (seat(SeatClass.HARD_SEAT, 80.0),)
    entries = book(
        offer("K1", NANJING, ZHANGJIAJIE, "01:10", "03:20", day=DAY, seats=seats),
        offer("K3", NANJING, ZHANGJIAJIE, "05:20", "08:10", day=DAY, seats=seats),
        offer("K5", NANJING, ZHANGJIAJIE, "09:00", "11:30", day=DAY, seats=seats),
    )
    return arrive_by, entries


def test_the_night_default_gives_way_before_the_day_or_the_deadline_said() -> None:
    request, entries = _small_hours_only()
    now = dt.datetime.combine(TODAY, dt.time(9), tzinfo=SHANGHAI)
    assert not plan(request, entries, now=now).itineraries
    spent = ["transfer", "hubs", "more_hubs"]
    found = relaxation_on_offers(request, entries, spent, now)
    assert found is not None and found.stage == "night" and not found.needs_query
    (lifted,) = found.candidates
    # Nothing the traveller said is given up: the day and the deadline stay.
    assert relaxed_between(request, lifted) == []
    # The ride nearest the day's hours: 05:20 (40 minutes before six awake), not 01:10.
    trains = plan(lifted, entries, now=now).itineraries[0].train_numbers
    assert trains == ("K3",)


def test_only_the_ride_that_failed_has_its_night_hours_lifted() -> None:
    home = DAY + dt.timedelta(days=2)
    trip = ONE_WAY.model_copy(update={"return_trip": True, "return_date": home})
    lifted = night_lifted(trip, failed(FILTERED_OUT, segment=1))
    assert lifted is not None
    assert (lifted.allow_night, lifted.return_allow_night) == (False, True)
    assert lifted.return_night_lifted and not lifted.night_lifted
    out = night_lifted(trip, failed(FILTERED_OUT, segment=0))
    assert out is not None and out.night_lifted and out.return_allow_night is False
    chosen = trip.model_copy(update={"allow_night": True})
    assert night_lifted(chosen, failed(FILTERED_OUT, segment=0)) is None


def test_a_deadline_met_the_day_before_gives_way_on_a_ride_home_that_fails_too() -> None:
    # 周五早上九点前到, 周日下午四点后回, and neither holds on its own day: leaving on the
    # Thursday needs the ride home's hour to give way as well, tried after the trip whole.
    home = DAY + dt.timedelta(days=2)
    trip = ONE_WAY.model_copy(
        update={
            "return_trip": True,
            "return_date": home,
            "arrive_date": DAY,
            "arrive_window": (dt.time(0, 0), dt.time(9, 0)),
            "return_window": (dt.time(16, 0), dt.time(23, 59)),
        }
    )
    both = (Failure(FILTERED_OUT, "no", segment=0), Failure(FILTERED_OUT, "no", segment=1))
    found = relaxation_after(both, ["transfer", "hubs", "more_hubs", "night"], request=trip)
    assert found is not None and found.stage == "day_before"
    before = DAY - dt.timedelta(days=1)
    assert all(c.depart_date == before and c.return_date == home for c in found.candidates)
    kept = [c.return_window for c in found.candidates]
    assert kept[:2] == [trip.return_window] * 2, "the trip whole first"
    assert kept[2:] == [None, None]
    # The ride out alone failing: the ride home keeps its hour.
    alone = relaxation_after(
        failed(FILTERED_OUT), ["transfer", "hubs", "more_hubs", "night"], request=trip
    )
    assert alone is not None and alone.stage == "day_before"
    assert [c.return_window for c in alone.candidates] == [trip.return_window] * 2


def test_the_relax_stage_keeps_an_hour_said_at_an_outlying_station_of_the_place() -> None:
    # 晚上七点以后走 to 南京: the city proper's last train is at two, 南京's outlying 溧水
    # has one at eight; the hour stays and the station is said.
    lishui = Station(telecode="LSH", name="溧水", city="南京")
    shanghai = Station(telecode="AOH", name="上海虹桥", city="上海")
    entries = book(
        offer(
            "G1", shanghai, Station(telecode="NKH", name="南京南", city="南京"), "14:00", "15:10"
        ),
        offer("G9", shanghai, lishui, "20:00", "21:30"),
    )
    request = TripRequest(
        origin="上海",
        destination="南京",
        depart_date=OFFERS_DAY,
        return_trip=False,
        depart_window=(dt.time(19, 0), dt.time(23, 59)),
    )
    now = dt.datetime.combine(TODAY, dt.time(9), tzinfo=SHANGHAI)
    found = relaxation_on_offers(
        request, entries, ["transfer", "hubs", "more_hubs", "night", "day_before"], now
    )
    assert found is not None and found.stage == "relax"
    (kept,) = found.candidates
    assert kept.depart_window == request.depart_window and "南京" in kept.outlying_cities
    assert plan(kept, entries, now=now).itineraries[0].train_numbers == ("G9",)


def test_hours_said_for_leaving_give_way_before_the_day_when_a_train_meets_the_deadline() -> None:
    # 当天早上走, 九点前到: no train leaves in the morning and arrives by nine, but one at
    # 05:20 does; the day the traveller fixed stays, the morning gives way (`relax`).
    request, entries = _small_hours_only()
    morning = request.model_copy(
        update={
            "depart_window": (dt.time(6, 0), dt.time(9, 0)),
            "depart_part_of_day": True,
            "allow_night": True,
        }
    )
    now = dt.datetime.combine(TODAY, dt.time(9), tzinfo=SHANGHAI)
    assert not plan(morning, entries, now=now).itineraries
    found = relaxation_on_offers(morning, entries, ["transfer", "hubs", "more_hubs", "night"], now)
    assert found is not None and found.stage == "relax"
    (kept,) = found.candidates
    assert kept.depart_date == DAY
    assert relaxed_between(morning, kept) == ["depart_window"]
    assert plan(kept, entries, now=now).itineraries[0].train_numbers == ("K3",)
    # An hour said for leaving (六点以后的车) is no loose word: the day before is tried.
    hour = morning.model_copy(update={"depart_part_of_day": False})
    moved = relaxation_on_offers(hour, entries, ["transfer", "hubs", "more_hubs", "night"], now)
    assert moved is not None and moved.stage == "day_before"


def test_the_morning_of_the_day_said_keeps_its_day_when_no_train_meets_the_deadline() -> None:
    # 当天早上走，九点前到 where the first train arrives at 11:30: the day the traveller fixed
    # stays and the deadline gives way, openly; the day before would rule out what was said.
    request, entries = _small_hours_only()
    late = {
        key: replace(leg, offers=tuple(o for o in leg.offers if o.train_number == "K5"))
        for key, leg in entries.items()
    }
    morning = request.model_copy(
        update={"depart_window": (dt.time(6, 0), dt.time(12, 0)), "depart_part_of_day": True}
    )
    now = dt.datetime.combine(TODAY, dt.time(9), tzinfo=SHANGHAI)
    stages = ["transfer", "hubs", "more_hubs", "night"]
    found = relaxation_on_offers(morning, late, stages, now)
    assert found is not None and found.stage != "day_before"
    (kept,) = found.candidates
    assert kept.depart_date == DAY and "arrive_window" in relaxed_between(morning, kept)


def test_a_station_of_the_outskirts_with_nothing_as_asked_gives_way_to_its_city_first() -> None:
    outskirts = ONE_WAY.model_copy(update={"origin_station": "六合"})  # 南京 is a rail hub
    for code in (NO_OFFERS, FILTERED_OUT):
        found = relaxation_after(failed(code), request=outskirts)
        assert found is not None and found.stage == "station" and found.needs_query
        assert [c.origin_station for c in found.candidates] == [None]
        assert relaxed_between(outskirts, found.candidates[0]) == ["origin"]


def test_a_station_of_the_city_proper_keeps_the_transfer_search_first() -> None:
    proper = ONE_WAY.model_copy(update={"origin_station": "江宁"})  # within 20 km
    found = relaxation_after(failed(NO_OFFERS), request=proper)
    assert found is not None and found.stage == "transfer"


def test_a_station_gone_to_or_of_a_smaller_city_keeps_the_transfer_search_first() -> None:
    gone_to = ONE_WAY.model_copy(
        update={"origin": "张家界", "destination": "南京", "destination_station": "六合"}
    )
    small = ONE_WAY.model_copy(update={"origin": "乐山", "origin_station": "峨眉山"})
    for request in (gone_to, small):
        found = relaxation_after(failed(NO_OFFERS), request=request)
        assert found is not None and found.stage == "transfer"
