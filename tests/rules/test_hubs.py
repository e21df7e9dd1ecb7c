"""Hubs from the network's topology: the shortest well-served joins, a bounded detour, diversity."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from rules.hubs import one_change_hubs, route_cost, two_change_hubs
from rules.legs import TWO_CHANGE_DAYS, two_change_legs, two_change_query_legs
from rules.model import LegKey
from sources.sandbox.network import default_network

DAY = dt.date(2026, 12, 4)


class Lines:
    """A topology from a few lines: `{(a, b): (km, trains)}` for each direct pair a→b."""

    def __init__(self, links: Mapping[tuple[str, str], tuple[int, int]]) -> None:
        self.links = links

    def reach(self, city: str) -> Mapping[str, tuple[int, int]]:
        return {b: v for (a, b), v in self.links.items() if a == city}

    def reached_from(self, city: str) -> Mapping[str, tuple[int, int]]:
        return {a: v for (a, b), v in self.links.items() if b == city}


def test_the_shortest_well_served_hub_comes_first_and_long_detours_are_not_tried():
    topology = Lines(
        {
            ("南京", "徐州"): (330, 40),
            ("徐州", "西安"): (850, 30),
            ("南京", "成都"): (1700, 10),
            ("成都", "西安"): (700, 30),
        }
    )
    assert one_change_hubs(topology, "南京", "西安") == ["徐州"]


def test_a_half_run_by_few_trains_costs_more_than_its_km():
    assert route_cost((500, 1), (500, 1)) > route_cost((600, 20), (600, 20))
    topology = Lines(
        {
            ("A", "thin"): (400, 1),
            ("thin", "B"): (400, 1),
            ("A", "busy"): (500, 30),
            ("busy", "B"): (500, 30),
        }
    )
    assert one_change_hubs(topology, "A", "B")[0] == "busy"


def test_a_hub_next_to_a_chosen_one_is_skipped_for_a_different_one():
    topology = Lines(
        {
            ("哈尔滨", "徐州"): (1800, 8),
            ("徐州", "厦门"): (1360, 8),
            ("哈尔滨", "蚌埠"): (1960, 8),
            ("蚌埠", "厦门"): (1220, 8),
            ("徐州", "蚌埠"): (160, 40),
            ("哈尔滨", "北京"): (1240, 18),
            ("北京", "厦门"): (2050, 8),
        }
    )
    assert one_change_hubs(topology, "哈尔滨", "厦门") == ["徐州", "北京"]


def test_two_changes_join_ends_no_single_hub_joins():
    topology = Lines({("喀什", "吐鲁番"): (1500, 9), ("吐鲁番", "广州"): (4000, 2)})
    topology.links = {**topology.links, ("广州", "三亚"): (700, 10)}
    assert one_change_hubs(topology, "喀什", "三亚") == []
    assert two_change_hubs(topology, "喀什", "三亚") == [("吐鲁番", "广州")]


def test_on_the_real_network_kunming_is_the_hub_for_dali_and_lijiang():
    network = default_network()
    assert one_change_hubs(network, "大理", "上海")[0] == "昆明"
    assert one_change_hubs(network, "丽江", "杭州") == ["昆明"]
    assert "成都" not in one_change_hubs(network, "南京", "西安")


def test_two_change_legs_ask_the_later_halves_on_later_days_and_are_found_in_the_book():
    leg = LegKey("喀什", "三亚", DAY)
    asked = two_change_query_legs(leg, [("吐鲁番", "广州")])
    assert LegKey("喀什", "吐鲁番", DAY) in asked
    assert LegKey("广州", "三亚", DAY + dt.timedelta(days=2)) in asked
    # One first half, then both later halves on each of TWO_CHANGE_DAYS days.
    assert len(asked) == len(set(asked)) == 1 + 2 * TWO_CHANGE_DAYS
    found = two_change_legs(leg, asked)
    assert [(a, b) for a, b, _ in found] == [("吐鲁番", "广州")]
    middle, last = found[0][2]
    assert len(middle) == len(last) == TWO_CHANGE_DAYS
