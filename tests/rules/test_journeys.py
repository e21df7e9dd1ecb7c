"""The timetable's bound: the best journey of up to three rides for each objective, the live
answers that tighten it, and the transfer search's first page as the timetable predicts it."""

from __future__ import annotations

import datetime as dt
import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import LegKey, TripRequest
from rules.config import DEFAULT_RULES, can_change
from rules.journeys import (
    Hop,
    Journey,
    allowed,
    best_journey,
    first_page,
    missing_asks,
    timetable_bound,
)
from rules.schedule import DAY, PENDING, Ask, LiveLeg, Place, ScheduleIndex, ask_for
from sources.models import SHANGHAI, SeatClass, Station
from tests.rules.factory import (
    BEIJING_SOUTH,
    BEIJING_WEST,
    HONGQIAO,
    NANJING_SOUTH,
    NOW,
    WUHAN,
    book,
    offer,
    seat,
)
from tests.rules.factory import (
    DAY as TRAVEL_DAY,
)
from tests.rules.timetables import Run, Timetable, timetable_of

SLOW = offer("D7", BEIJING_SOUTH, HONGQIAO, "08:00", "22:00")
VIA_NANJING = (
    offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "11:00"),
    offer("G2", NANJING_SOUTH, HONGQIAO, "11:30", "13:00"),
)
VIA_WUHAN = (
    offer("G3", BEIJING_WEST, WUHAN, "07:00", "09:00"),
    offer("G4", WUHAN, NANJING_SOUTH, "09:30", "10:30"),
    offer("G5", NANJING_SOUTH, HONGQIAO, "11:00", "11:40"),
)


def _request(**fields: object) -> TripRequest:
    return TripRequest(
        origin="北京", destination="上海", depart_date=TRAVEL_DAY, return_trip=False, **fields
    )


def _bound(timetable: Timetable, objective: str, **fields: object) -> Journey | None:
    index = ScheduleIndex(timetable)
    return best_journey(index, ask_for(_request(**fields), index, NOW, objective=objective))


def _trains(timetable: Timetable, journey: Journey | None) -> tuple[str, ...]:
    assert journey is not None
    return journey.trains(ScheduleIndex(timetable))


def test_the_bound_takes_the_quickest_journey_with_up_to_two_changes():
    timetable = timetable_of(SLOW, *VIA_NANJING, *VIA_WUHAN)
    # 北京西 07:00 → 上海虹桥 11:40 with two changes beats one change (5 h) and D7 (14 h).
    assert _trains(timetable, _bound(timetable, "fastest")) == ("G3", "G4", "G5")
    assert _trains(timetable, _bound(timetable, "fastest", max_transfers=1)) == ("G1", "G2")
    assert _trains(timetable, _bound(timetable, "fastest", max_transfers=0)) == ("D7",)
    # The first departure is the one train leaving at 07:00; the latest one leaves at 08:00.
    assert _trains(timetable, _bound(timetable, "earliest_arrival")) == ("G3", "G4", "G5")


def test_the_cheapest_bound_counts_every_ride_and_the_detour_cap_holds():
    dear = (seat(SeatClass.SECOND, 600.0),)
    cheap = (seat(SeatClass.SECOND, 100.0),)
    cheapest = (seat(SeatClass.SECOND, 50.0),)
    timetable = timetable_of(
        offer("G9", BEIJING_SOUTH, HONGQIAO, "08:00", "12:00", seats=dear),
        offer("K1", BEIJING_SOUTH, NANJING_SOUTH, "08:00", "15:00", seats=cheap),
        offer("K2", NANJING_SOUTH, HONGQIAO, "15:30", "16:00", seats=cheap),
        # Cheaper still, but 12 h 30 with a change where the direct train takes 4: over the
        # cap of twice the quickest direct ride.
        offer("K3", BEIJING_SOUTH, NANJING_SOUTH, "06:00", "17:00", seats=cheapest),
        offer("K4", NANJING_SOUTH, HONGQIAO, "17:30", "18:30", seats=cheapest),
    )
    found = _bound(timetable, "cheapest")
    assert _trains(timetable, found) == ("K1", "K2")
    assert found is not None and found.price == 200.0


def test_the_night_rule_keeps_seats_off_night_rides_but_not_berths():
    seats = (seat(SeatClass.HARD_SEAT, 100.0),)
    berths = (seat(SeatClass.HARD_SLEEPER, 200.0), *seats)
    timetable = timetable_of(
        offer("K1", BEIJING_SOUTH, HONGQIAO, "03:00", "09:00", seats=seats),
        offer("Z2", BEIJING_SOUTH, HONGQIAO, "22:00", "07:00", seats=berths),
        offer("G1", BEIJING_SOUTH, HONGQIAO, "08:00", "18:00"),
    )
    # K1 is quickest, but leaves at 03:00 with seats only; Z2's berth is the night's lodging.
    assert _trains(timetable, _bound(timetable, "fastest")) == ("Z2",)
    assert _trains(timetable, _bound(timetable, "fastest", allow_night=True)) == ("K1",)
    # 最便宜 is the traveller's own choice of price over sleep: the night seat is fine.
    assert _trains(timetable, _bound(timetable, "cheapest", order="cheapest")) == ("K1",)


def test_a_berth_setting_the_traveller_down_before_night_rest_ends_is_no_lodging():
    berths = (seat(SeatClass.HARD_SLEEPER, 200.0),)
    timetable = timetable_of(
        # 22:51 → 01:21 next day (重庆→武隆 K838): the engine plans no berth that sets the
        # traveller down before rules.config.NIGHT_REST_UNTIL, so neither does the bound.
        offer("K838", BEIJING_SOUTH, HONGQIAO, "22:51", "01:21", seats=berths),
        offer("Z2", BEIJING_SOUTH, HONGQIAO, "22:00", "07:00", seats=berths),
    )
    assert _trains(timetable, _bound(timetable, "fastest")) == ("Z2",)
    assert _trains(timetable, _bound(timetable, "fastest", allow_night=True)) == ("K838",)


def test_a_train_an_answer_shows_full_is_out_of_the_bound_from_every_station():
    full = (seat(SeatClass.SECOND, 553.0, 0),)
    sold = (offer("G3", BEIJING_WEST, WUHAN, "07:00", "09:00", seats=full),)
    timetable = timetable_of(*VIA_NANJING, *VIA_WUHAN)
    bound = timetable_bound(_request(), timetable, NOW, "fastest", {}, seen=book(*sold))
    assert _trains(timetable, bound.journey) == ("G1", "G2")


def test_a_leg_asked_sells_what_it_answered_and_a_train_named_elsewhere_waits_for_its_stations():
    asked = LiveLeg(
        pairs=frozenset({("VNP", "NKH")}),
        rides={("G1", "VNP", "NKH"): 500.0},
        trains=frozenset({"G1"}),
    )
    assert asked.fare("G1", "VNP", "NKH") == 500.0
    assert asked.fare("G8", "VNP", "NKH") is None  # asked there, not sold
    assert asked.fare("G1", "BXP", "NKH") == PENDING  # sold, but named at 北京南
    assert asked.fare("G9", "BXP", "NKH") is None  # not sold on the leg at all
    # The bound's rides are asked by their own stations, unless an answer already names them.
    timetable = timetable_of(*VIA_WUHAN)
    index = ScheduleIndex(timetable)
    journey = best_journey(index, ask_for(_request(), index, NOW, objective="fastest"))
    assert journey is not None
    leg = LegKey("北京", "武汉", TRAVEL_DAY)
    wanted = missing_asks(journey, index, TRAVEL_DAY, book(VIA_WUHAN[0]), {leg: {("BJP", "WHN")}})
    assert (leg, "BXP", "WHN") not in wanted
    assert (LegKey("武汉", "南京", TRAVEL_DAY), "WHN", "NKH") in wanted


def test_the_first_page_lists_one_plan_per_first_ride_by_arrival():
    timetable = timetable_of(
        offer("G1", BEIJING_SOUTH, NANJING_SOUTH, "06:00", "10:00"),
        offer("G2", BEIJING_SOUTH, NANJING_SOUTH, "09:00", "12:00"),
        offer("G5", NANJING_SOUTH, HONGQIAO, "12:30", "14:00"),
        offer("G6", NANJING_SOUTH, HONGQIAO, "13:00", "15:00"),
    )
    index = ScheduleIndex(timetable)
    ask = ask_for(_request(), index, NOW, objective="fastest")
    best = best_journey(index, ask)
    assert best is not None and best.trains(index) == ("G2", "G5")
    page = first_page(index, ask, best, 10)
    assert [j.trains(index) for j in page] == [("G1", "G5"), ("G2", "G5")]
    assert [j.trains(index) for j in first_page(index, ask, best, 1)] == [("G1", "G5")]
    # The search lists plans whatever the traveller's wishes; ours are kept by `allowed`.
    late = ask_for(
        _request(depart_window=(dt.time(8, 30), dt.time(23, 59))), index, NOW, objective="fastest"
    )
    assert [j.trains(index) for j in first_page(index, late, best, 10)] == [
        ("G1", "G5"),
        ("G2", "G5"),
    ]
    assert [allowed(index, late, j) for j in first_page(index, late, best, 10)] == [False, True]


# -- against a brute force over small timetables ---------------------------------------------

CITIES = ("甲", "乙", "丙", "丁", "戊")
STATIONS = (
    Station(telecode="AAA", name="甲", city="甲"),
    Station(telecode="AAB", name="甲东", city="甲"),
    Station(telecode="BBB", name="乙", city="乙"),
    Station(telecode="CCC", name="丙", city="丙"),
    Station(telecode="DDD", name="丁", city="丁"),
    Station(telecode="EEE", name="戊", city="戊"),
    Station(telecode="EEF", name="戊西", city="戊"),
)


@st.composite
def timetables(draw: st.DrawFn) -> Timetable:
    runs = []
    for number in range(draw(st.integers(3, 9))):
        stops = draw(st.lists(st.sampled_from(STATIONS), min_size=2, max_size=4, unique=True))
        clock = draw(st.integers(0, 2 * DAY))
        times = []
        for _ in stops:
            times.append(clock)
            clock += draw(st.integers(20, 400))
        classes = draw(
            st.sampled_from([(SeatClass.SECOND,), (SeatClass.HARD_SEAT, SeatClass.HARD_SLEEPER)])
        )
        runs.append(
            Run(
                codes=(f"{'G' if classes[0] is SeatClass.SECOND else 'K'}{number + 1}",),
                tier="emu350",
                seat_classes=classes,
                stations=tuple(s.telecode for s in stops),
                km=tuple(range(0, 100 * len(stops), 100)),
                arrive=tuple(times),
                depart=tuple(times),
                fares=dict.fromkeys(classes, 10.0 * (number % 4 + 1)),
            )
        )
    return Timetable(runs, STATIONS)


def _brute_force(index: ScheduleIndex, ask: Ask) -> Journey | None:
    """Every sequence of up to three rides under the stated rules, the best one kept."""
    city = index.city
    o_city, d_city = ask.origin.city, ask.destination.city

    def admissible(run: int, start: int, board: int, alight: int) -> Hop | None:
        pattern = index.runs[run]
        dep = start * DAY + pattern.depart[board]
        arr = start * DAY + pattern.arrive[alight]
        if dep <= ask.now:
            return None
        classes = [c for c in pattern.seat_classes if c in ask.classes]
        night = any(
            (m % DAY) < ask.earliest_departure or (m % DAY) > ask.latest_arrival for m in (dep, arr)
        )
        if ask.night_rule and night:
            lodged = arr // DAY > dep // DAY and arr % DAY >= 4 * 60  # slept until 04:00
            classes = [c for c in classes if lodged and c is SeatClass.HARD_SLEEPER]
        if not classes:
            return None
        price = min(index.fare(run, board, alight, c) for c in classes)
        return Hop(run, start, board, alight, dep, arr, price)

    hops = []
    for run, pattern in enumerate(index.runs):
        for start in range(-3, 6):
            for board, alight in itertools.combinations(range(len(pattern.stations)), 2):
                hop = admissible(run, start, board, alight)
                if hop is not None and 0 <= hop.dep and hop.arr <= 6 * DAY:
                    hops.append(hop)

    def station(hop: Hop, end: int) -> str:
        return index.runs[hop.run].stations[end]

    def fits(rides: tuple[Hop, ...], wait: int) -> bool:
        first, last = rides[0], rides[-1]
        if station(first, first.board) not in ask.origin.stations or first.dep >= DAY:
            return False
        if station(last, last.alight) not in ask.destination.stations:
            return False
        if not ask.arrive[0] <= last.arr <= ask.arrive[1]:
            return False
        for ride in rides[:-1]:
            if city[station(ride, ride.alight)] in (o_city, d_city):
                return False
        for ride in rides[1:]:
            if city[station(ride, ride.board)] in (o_city, d_city):
                return False
            if city[station(ride, ride.board)] == city[station(ride, ride.alight)]:
                return False
        for a, b in itertools.pairwise(rides):
            here, there = index.station[station(a, a.alight)], index.station[station(b, b.board)]
            least = DEFAULT_RULES.min_connection(here.telecode == there.telecode)
            if not can_change(here, there) or a.train_day == b.train_day:
                return False
            if not least <= b.dep - a.arr <= wait:
                return False
        return True

    directs = [
        h.arr - h.dep
        for run, pattern in enumerate(index.runs)
        for board, alight in itertools.combinations(range(len(pattern.stations)), 2)
        if city[pattern.stations[board]] == o_city and city[pattern.stations[alight]] == d_city
        for h in [Hop(run, 0, board, alight, pattern.depart[board], pattern.arrive[alight], 0)]
    ]
    cap = int(DEFAULT_RULES.max_detour * min(directs)) if directs else None
    for wait in (DEFAULT_RULES.max_connection, DEFAULT_RULES.hub_stop_max_wait):
        found = [
            Journey(rides)
            for count in range(1, ask.max_changes + 2)
            for rides in itertools.permutations(hops, count)
            if fits(rides, wait)
            and (count == 1 or cap is None or rides[-1].arr - rides[0].dep <= cap)
        ]
        if found:
            return min(found, key=lambda j: j.key(ask.objective))
    return None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    timetable=timetables(),
    objective=st.sampled_from(["fastest", "cheapest", "latest", "earliest_arrival"]),
    night_rule=st.booleans(),
    changes=st.integers(0, 2),
)
def test_the_bound_equals_a_brute_force_over_small_timetables(
    timetable, objective, night_rule, changes
):
    index = ScheduleIndex(timetable)
    ask = Ask(
        day=TRAVEL_DAY,
        origin=Place("甲", ("AAA", "AAB")),
        destination=Place("戊", ("EEE", "EEF")),
        objective=objective,
        now=-DAY,
        night_rule=night_rule,
        max_changes=changes,
    )
    if objective == "latest":
        ask = Ask(**{**ask.__dict__, "arrive": (0, 2 * DAY)})
    found = best_journey(index, ask)
    expected = _brute_force(index, ask)
    assert (found is None) == (expected is None)
    if found is not None and expected is not None:
        assert found.value(objective) == expected.value(objective)


def test_a_clock_reading_of_the_request_windows_and_places():
    index = ScheduleIndex(timetable_of(SLOW, *VIA_NANJING))
    request = _request(
        origin_station="北京南",
        depart_window=(dt.time(7, 0), dt.time(9, 0)),
        arrive_window=(dt.time(0, 0), dt.time(18, 0)),
        allow_night=True,
    )
    ask = ask_for(
        request, index, dt.datetime(2026, 12, 4, 7, 30, tzinfo=SHANGHAI), objective="latest"
    )
    assert ask.origin.stations == ("VNP",)
    assert ask.destination.stations == ("AOH",)
    assert ask.depart == (420, 540) and ask.arrive == (0, 1080)
    assert ask.now == 450 and not ask.night_rule
    assert SeatClass.NO_SEAT not in ask.classes and SeatClass.SECOND in ask.classes


def test_an_end_under_another_name_serves_only_trains_calling_at_no_station_named_for_the_city():
    nanning = Station(telecode="NFZ", name="南宁东", city="南宁")
    beihai = Station(telecode="BHZ", name="北海", city="北海")
    hepu = Station(telecode="HVZ", name="合浦", city="北海")  # in the city proper, 20 km out

    def run(code: str, stops: tuple[Station, ...], times: tuple[int, ...]) -> Run:
        return Run(
            codes=(code,),
            tier="emu250",
            seat_classes=(SeatClass.SECOND,),
            stations=tuple(s.telecode for s in stops),
            km=tuple(range(0, 100 * len(stops), 100)),
            arrive=times,
            depart=times,
            fares={SeatClass.SECOND: 50.0},
        )

    through = run("D8309", (nanning, hepu, beihai), (540, 610, 630))
    hepu_only = run("D3938", (nanning, hepu), (1180, 1300))
    request = TripRequest(
        origin="南宁", destination="北海", depart_date=TRAVEL_DAY, return_trip=False
    )
    for runs, alight in (
        ((through,), "北海"),
        ((through, hepu_only), "北海"),
        ((hepu_only,), "合浦"),
    ):
        index = ScheduleIndex(Timetable(runs, (nanning, beihai, hepu)))
        # Leaving D8309 at 合浦 is 20 minutes "quicker", and not what 去北海 means.
        found = best_journey(index, ask_for(request, index, NOW, objective="fastest"))
        assert found is not None
        hop = found.hops[-1]
        assert index.station[index.runs[hop.run].stations[hop.alight]].name == alight


def test_no_overnight_keeps_a_journey_of_changes_within_the_day():
    late = (
        offer("G11", BEIJING_SOUTH, NANJING_SOUTH, "20:00", "23:20"),
        offer("G12", NANJING_SOUTH, HONGQIAO, "00:05", "00:50"),
    )
    timetable = timetable_of(*late, *VIA_NANJING)
    # The quickest (4 h 50) waits past midnight at 南京南; 不要过夜 takes the day route.
    assert _trains(timetable, _bound(timetable, "fastest", allow_night=True)) == ("G11", "G12")
    found = _bound(timetable, "fastest", allow_night=True, no_overnight=True)
    assert _trains(timetable, found) == ("G1", "G2")
