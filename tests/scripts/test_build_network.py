"""The network build on small inputs in the real file formats, and the committed network is
what the build makes of the reference data."""

from __future__ import annotations

import gzip
import json

import pytest

from scripts.build_network import DEFAULT_SHARED, NETWORK_FILE, STATIONS_REPORT, build
from sources.models import SeatClass, Station
from sources.sandbox.network import Network, decode_column, default_network, encode_column
from sources.stations import OfficialRecord, parse_official_records


def record(telecode: str, name: str, city: str) -> OfficialRecord:
    return OfficialRecord(Station(telecode=telecode, name=name, city=city, pinyin="", initials=""))


OFFICIAL = [
    record("AAA", "甲", "甲"),
    record("IMH", "上海松江", "上海"),
    record("CCC", "丙", "丙"),
    record("DDD", "丁", "丁"),
]
ROUTES = [
    {
        "start_s": "甲",
        "end_s": "丁",
        "type": "快速",
        "distance": [0, 250, 50, 100],
        "time": [0, 120, 60, 400],
        "stations": ["甲", "松江南", "已关站", "丁"],
        "forward": ["K11_K14"],
        "backward": ["K12"],
    },
    {
        "start_s": "甲",
        "end_s": "丙",
        "type": "高速动车组",
        "distance": [0, 300],
        "time": [0, 60],
        "stations": ["甲", "丙"],
        "forward": ["G7", "P1"],
        "backward": [],
    },
]
SCHEDULES = {
    "K11": {"start": "甲", "end": "丁", "route": [{"arrival": "-", "departure": "21:30"}]},
    "K12": {"start": "乙", "end": "甲", "route": [{"arrival": "-", "departure": "08:00"}]},
}


@pytest.fixture(scope="module")
def built():
    document, report = build(ROUTES, SCHEDULES, OFFICIAL)
    return Network.from_document(document), report


def run(network: Network, code: str):
    return next(r for r in network.runs if code in r.codes)


def test_renamed_stations_are_mapped_and_closed_ones_dropped_without_moving_later_stops(built):
    network, report = built
    k11 = run(network, "K11")
    assert list(k11.stations) == ["AAA", "IMH", "DDD"]
    assert list(k11.km) == [0, 250, 400]
    assert k11.arrive[-1] - k11.depart[0] == 580  # the data's arrival minutes are kept
    assert "松江南 → 上海松江" in report and "已关站 (2)" in report


def test_a_real_departure_is_used_only_when_the_schedule_starts_where_the_pattern_does(built):
    network, _ = built
    assert run(network, "K11").depart[0] == 21 * 60 + 30 and run(network, "K11").real_time
    k12 = run(network, "K12")
    assert not k12.real_time
    # overnight conventional trains get a synthetic evening departure, stable by number
    again, _ = build(ROUTES, SCHEDULES, OFFICIAL)
    assert 17 * 60 <= k12.depart[0] <= 23 * 60 + 30
    assert run(Network.from_document(again), "K12").depart == k12.depart


def test_dwell_comes_out_of_the_next_hop(built):
    network, _ = built
    k11 = run(network, "K11")
    assert k11.depart[1] - k11.arrive[1] == 6  # 快速 stands 6 minutes
    assert k11.arrive[1] - k11.depart[0] == 120


def test_a_renumbered_train_takes_its_second_number_from_the_midpoint(built):
    network, _ = built
    k11 = run(network, "K11")
    assert k11.codes == ("K11", "K14")
    assert [k11.code_at(i) for i in range(3)] == ["K11", "K14", "K14"]


def test_numbers_the_ticket_model_refuses_are_dropped_and_types_set_fares_and_classes(built):
    network, report = built
    assert all("P1" not in r.codes for r in network.runs)
    assert "P1" in report
    g7 = run(network, "G7")
    assert g7.tier == "emu350"
    assert SeatClass.BUSINESS in g7.seat_classes
    assert run(network, "K11").tier == "tk"
    assert SeatClass.HARD_SLEEPER in run(network, "K11").seat_classes


def test_the_network_indexes_each_station_by_the_runs_calling_there(built):
    network, _ = built
    k12 = network.runs.index(run(network, "K12"))
    assert network.calls["DDD"][k12] == 0 and network.calls["AAA"][k12] == 2
    assert set(network.by_city["上海"]) == {
        network.runs.index(run(network, "K11")),
        k12,
    }


def test_a_stop_column_is_one_character_per_number_and_reads_back_as_16_bit_numbers():
    numbers = [0, 9, 34, 92, 1440, 5207, 0xD7FF]  # '"' and '\\' among them: JSON escapes them
    text = encode_column(numbers)
    assert len(text) == len(numbers)
    assert list(decode_column(json.loads(json.dumps(text, ensure_ascii=False)))) == numbers
    with pytest.raises(ValueError, match="0 to"):
        encode_column([0xD800])  # a surrogate: not one UTF-16 unit, not encodable in UTF-8
    with pytest.raises(ValueError, match="0 to"):
        encode_column([-1])


def test_a_city_is_indexed_when_first_asked_for(built):
    network, _ = built
    assert network.by_city.get("不存在") is None
    assert "上海" in set(network.by_city) and len(network.by_city) == len(
        {s.city for s in network.stations.values()}
    )


@pytest.mark.skipif(
    not (DEFAULT_SHARED / "timetable" / "trainvis-routes.json").exists(),
    reason="the reference timetables live beside the checkout, not in it",
)
def test_the_committed_network_is_what_the_build_makes_of_the_reference_data():
    timetable = DEFAULT_SHARED / "timetable"
    document, report = build(
        json.loads((timetable / "trainvis-routes.json").read_text("utf-8")),
        json.loads((timetable / "railwayvis-schedules.json").read_text("utf-8")),
        parse_official_records((DEFAULT_SHARED / "station_name.js").read_text("utf-8-sig")),
    )
    assert json.loads(gzip.decompress(NETWORK_FILE.read_bytes())) == document
    assert STATIONS_REPORT.read_text("utf-8") == report
    assert len(default_network().runs) == len(document["trains"])
