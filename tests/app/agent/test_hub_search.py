"""The transfer fallback asks few queries: probe the far end first, then only useful hubs."""

from __future__ import annotations

import datetime as dt

from app.agent.fallback import (
    chain_follow_legs,
    hub_follow_legs,
    hub_probe_legs,
    overnight_follow_legs,
    topology_transfer_legs,
)
from rules import MAJOR_HUBS, LegKey, TripRequest
from sources.models import Station, TrainOffer
from tests.rules.factory import BEIJING_SOUTH, NANJING_SOUTH, WUHAN, book, offer

DAY = dt.date(2026, 12, 5)
ROUND_TRIP = TripRequest(origin="北京", destination="昆明", depart_date=DAY, nights=2)


def test_the_probe_asks_each_hub_about_the_far_end_only() -> None:
    probe = hub_probe_legs(ROUND_TRIP, [0, 1])
    assert {k.destination for k in probe} == {"昆明"}
    assert {k.origin for k in probe} == set(MAJOR_HUBS) - {"北京"}
    assert all(k.date == DAY for k in probe)


def test_the_probe_starts_from_the_origin_when_only_the_destination_is_a_hub() -> None:
    request = TripRequest(origin="昆明", destination="北京", depart_date=DAY, return_trip=False)
    probe = hub_probe_legs(request, [0])
    assert {k.origin for k in probe} == {"昆明"}


def test_phase_two_covers_every_failing_segment_via_the_responsive_hubs_only() -> None:
    found = {LegKey("长沙", "昆明", DAY): 4, LegKey("上海", "昆明", DAY): 2}
    found |= {LegKey(h, "昆明", DAY): 0 for h in MAJOR_HUBS if h not in ("长沙", "上海", "北京")}
    back = DAY + dt.timedelta(days=2)
    follow = set(hub_follow_legs(ROUND_TRIP, [0, 1], found))
    assert follow == {
        LegKey("北京", "长沙", DAY),
        LegKey("北京", "上海", DAY),
        LegKey("昆明", "长沙", back),
        LegKey("长沙", "北京", back),
        LegKey("昆明", "上海", back),
        LegKey("上海", "北京", back),
    }
    probe_plus_follow = len(hub_probe_legs(ROUND_TRIP, [0, 1])) + len(follow)
    every_hub_both_halves = 2 * 2 * (len(MAJOR_HUBS) - 1)
    assert probe_plus_follow < every_hub_both_halves / 2


TELECODES = {
    "北京": "BJP",
    "兰州": "LZJ",
    "西安": "XAY",
    "西宁": "XNO",
    "银川": "YIJ",
    "乌鲁木齐": "WAR",
}


def _city(name: str) -> Station:
    return Station(telecode=TELECODES[name], name=name, city=name)


def _rides(origin: str, destination: str, *times: tuple[str, str]) -> tuple[TrainOffer, ...]:
    """Offers on DAY; an arrival clock before the departure is the next day."""
    return tuple(
        offer(f"K{i}", _city(origin), _city(destination), depart, arrive, day=DAY)
        for i, (depart, arrive) in enumerate(times, start=1)
    )


def test_next_day_second_halves_are_asked_only_where_no_same_day_connection_is_likely() -> None:
    request = TripRequest(origin="北京", destination="乌鲁木齐", depart_date=DAY, return_trip=False)
    next_day = DAY + dt.timedelta(days=1)
    offers = {
        # only sleepers, arriving the next day: ask the next day's second half
        LegKey("北京", "兰州", DAY): _rides("北京", "兰州", ("20:00", "09:00")),
        LegKey("兰州", "乌鲁木齐", DAY): _rides("兰州", "乌鲁木齐", ("10:00", "20:00")),
        # the hub serves no train on: nothing to ask
        LegKey("北京", "西安", DAY): _rides("北京", "西安", ("08:00", "12:30")),
        # a train on within a connection of an arrival: a same-day connection, no query
        LegKey("北京", "西宁", DAY): _rides("北京", "西宁", ("07:00", "15:00"), ("21:00", "10:00")),
        LegKey("西宁", "乌鲁木齐", DAY): _rides("西宁", "乌鲁木齐", ("16:00", "23:00")),
        # arriving after the last train on: a night at the hub, so ask the next day
        LegKey("北京", "银川", DAY): _rides("北京", "银川", ("08:00", "19:00")),
        LegKey("银川", "乌鲁木齐", DAY): _rides("银川", "乌鲁木齐", ("09:00", "21:00")),
    }
    assert overnight_follow_legs(request, [0], offers) == [
        LegKey("兰州", "乌鲁木齐", next_day),
        LegKey("银川", "乌鲁木齐", next_day),
    ]


class _Lines:
    """A topology from direct pairs `{(a, b): (km, trains)}`."""

    def __init__(self, links: dict[tuple[str, str], tuple[int, int]]) -> None:
        self.links = links

    def reach(self, city: str) -> dict[str, tuple[int, int]]:
        return {b: v for (a, b), v in self.links.items() if a == city}

    def reached_from(self, city: str) -> dict[str, tuple[int, int]]:
        return {a: v for (a, b), v in self.links.items() if b == city}


def test_topology_hubs_are_asked_one_at_a_time_then_two_changes_with_the_second_stage():
    topology = _Lines(
        {
            ("北京", "长沙"): (1600, 30),
            ("长沙", "昆明"): (1200, 20),
            ("北京", "怀化"): (1900, 10),
            ("怀化", "昆明"): (1000, 10),
            ("北京", "郑州"): (700, 50),
            ("郑州", "贵阳"): (1500, 10),
            ("贵阳", "昆明"): (500, 30),
        }
    )
    one_way = TripRequest(origin="北京", destination="昆明", depart_date=DAY, return_trip=False)
    legs, hubs = topology_transfer_legs(one_way, [0], topology)
    assert hubs == ["长沙"]
    assert legs == [LegKey("北京", "长沙", DAY), LegKey("长沙", "昆明", DAY)]
    legs, hubs = topology_transfer_legs(one_way, [0], topology, tried=("长沙",))
    assert hubs[0] == "怀化" and {"郑州", "贵阳"} <= set(hubs)
    # Two changes are asked on the day; a later day only where a ride reaches the hub then.
    assert LegKey("郑州", "贵阳", DAY) in legs and LegKey("贵阳", "昆明", DAY) in legs
    assert LegKey("郑州", "贵阳", DAY + dt.timedelta(days=1)) not in legs


def test_later_hops_of_a_chain_follow_the_days_its_rides_reach_them():
    request = TripRequest(origin="北京", destination="上海", depart_date=DAY, return_trip=False)
    next_day = DAY + dt.timedelta(days=1)
    offers = {
        # An overnight first ride reaches 南京 the next morning.
        LegKey("北京", "南京", DAY): book(
            offer("Z1", BEIJING_SOUTH, NANJING_SOUTH, "21:00", "06:00", day=DAY)
        )[LegKey("北京", "南京", DAY)].offers,
        LegKey("南京", "武汉", DAY): (),
        LegKey("武汉", "上海", DAY): (),
    }
    assert chain_follow_legs(request, [0], offers) == [LegKey("南京", "武汉", next_day)]
    offers[LegKey("南京", "武汉", next_day)] = book(
        offer("D2", NANJING_SOUTH, WUHAN, "08:00", "12:00", day=next_day)
    )[LegKey("南京", "武汉", next_day)].offers
    assert chain_follow_legs(request, [0], offers) == [LegKey("武汉", "上海", next_day)]
